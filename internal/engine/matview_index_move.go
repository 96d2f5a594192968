package engine

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// indexMove is an index of a materialized view that ALTER MATERIALIZED
// VIEW … SET SCHEMA moves with it, as PostgreSQL moves a relation's
// indexes: its name is kept, in the view's new schema, and the statement
// the store keeps for it names the view there.
type indexMove struct {
	ix        *matIndex
	from, to  string // the index's keys
	text, old string // its statement then, and before
}

// viewIndexMoves returns the moves of the indexes of view old when it
// becomes new: 42P07 when the new schema has a relation of an index's
// name, as in PostgreSQL. Nothing changes yet.
func (e *Engine) viewIndexMoves(old, new string) ([]indexMove, error) {
	schema, view := e.splitKey(new)
	var out []indexMove
	for _, name := range e.viewIndexesOf(map[string]bool{old: true}) {
		ix := e.matIndexes[name]
		bare := bareIndex(name)
		to := schemaKey(schema, bare)
		if e.relationExists(to) {
			return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists in schema %q", bare, schema)
		}
		text, err := movedIndexText(ix.text, schema, view, bare)
		if err != nil {
			return nil, err
		}
		out = append(out, indexMove{ix: ix, from: name, to: to, text: text, old: ix.text})
	}
	return out, nil
}

// movedIndexText is the CREATE INDEX statement text (after the search
// path it was made under, if the store keeps one) with the index named
// bare on schema.view.
func movedIndexText(text, schema, view, bare string) (string, error) {
	prefix := ""
	if strings.HasPrefix(text, "SET search_path = ") {
		if i := strings.Index(text, ";\n"); i >= 0 {
			prefix, text = text[:i+2], text[i+2:]
		}
	}
	tree, err := pg_query.Parse(text)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetIndexStmt() == nil {
		return "", pgerr.New(pgerr.Internal, "cannot read the statement kept for index %q", bare)
	}
	is := tree.Stmts[0].Stmt.GetIndexStmt()
	is.Idxname = bare
	is.Relation.Schemaname, is.Relation.Relname = schema, view
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return "", pgerr.New(pgerr.Internal, "cannot write the statement of index %q again: %v", bare, err)
	}
	return prefix + out, nil
}

// applyIndexMoves re-keys the moved indexes to the view new, in memory
// and in the store.
func (e *Engine) applyIndexMoves(moves []indexMove, new string) error {
	for _, m := range moves {
		if e.store != nil {
			if err := e.store.Drop([]string{m.from}); err != nil {
				return err
			}
			if err := e.store.Create(&StoredRelation{Name: m.to, Kind: KindIndex, SQL: m.text}); err != nil {
				return err
			}
		}
		delete(e.matIndexes, m.from)
		m.ix.name, m.ix.view, m.ix.text = m.to, new, m.text
		e.matIndexes[m.to] = m.ix
	}
	return nil
}
