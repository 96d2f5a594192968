package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER INDEX i RENAME TO j gives the index a new name in place: its
// entries and the plans that read it do not change; the statement the
// store keeps for it is written again with the new name. The index of a
// PRIMARY KEY, UNIQUE or EXCLUDE constraint is renamed with its
// constraint, as PostgreSQL renames both (ALTER TABLE … RENAME
// CONSTRAINT). The image a transaction block takes keeps each index's
// name (indexNames), so that ROLLBACK gives it back.

// renameIndex runs ALTER INDEX … RENAME TO.
func (s *Session) renameIndex(r *sql.RenameIndex) (Result, error) {
	e := s.e
	res := Result{Tag: r.Tag}
	t, ix := e.tableIndex(r.Key)
	mix := e.matIndexes[r.Key]
	con := ""
	if ix == nil && mix == nil {
		t, con = e.constraintIndex(r.Key)
	}
	switch {
	case ix == nil && mix == nil && t == nil && r.NotFound != nil:
		return Result{}, r.NotFound
	case ix == nil && mix == nil && t == nil && r.MissingOk:
		res.Notices = []string{fmt.Sprintf("relation %q does not exist, skipping", r.Key)}
		return res, nil
	case ix == nil && mix == nil && t == nil:
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", r.Key)
	case r.NotKind != "":
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not %s", bareIndex(r.Key), r.NotKind)
	case r.Key == r.NewKey:
		if e.relationExists(r.NewKey) || e.isIndex(r.NewKey) {
			return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", bareIndex(r.NewKey))
		}
	case e.relationExists(r.NewKey) || e.isIndex(r.NewKey):
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", bareIndex(r.NewKey))
	}
	if t != nil && (t.isReplicaIndex(r.Key) || t.isReplicaIndex(bareIndex(r.Key))) {
		// The table's definition names its replica identity's index.
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER INDEX … RENAME TO of index %q, the replica identity of table %q, is not supported", bareIndex(r.Key), e.bareName(t.name)).
			WithHint("set REPLICA IDENTITY DEFAULT, rename the index, then set it again")
	}
	var err error
	switch {
	case con != "":
		return s.renameConstraintIndex(r, t, con)
	case mix != nil:
		err = e.renameViewIndex(mix, r.NewKey)
	default:
		err = e.renameTableIndex(t, ix, r.NewKey)
	}
	if err != nil {
		return Result{}, err
	}
	e.catalogGen++
	return res, nil
}

// tableIndex is the table and the index CREATE INDEX made of key, nil
// when there is none.
func (e *Engine) tableIndex(key string) (*table, *namedIndex) {
	t := e.indexes[key]
	if t == nil {
		return nil, nil
	}
	for _, ix := range append(t.indexes[:len(t.indexes):len(t.indexes)], t.xindexes...) {
		if ix.name == key {
			return t, ix
		}
	}
	return nil, nil
}

// constraintIndex is the table whose PRIMARY KEY, UNIQUE or EXCLUDE
// constraint has the index of key, and the constraint's name; nil when
// none has.
func (e *Engine) constraintIndex(key string) (*table, string) {
	for _, t := range e.tables {
		for _, u := range t.uniques {
			if u.name == key {
				return t, bareIndex(key)
			}
		}
		schema, _ := e.splitKey(t.name)
		for _, x := range t.excl {
			if n := bareIndex(x.x.Name); schemaKey(schema, n) == key {
				return t, n
			}
		}
	}
	return nil, ""
}

// renameConstraintIndex renames the constraint con of t, whose index r
// renames, as ALTER TABLE … RENAME CONSTRAINT does.
func (s *Session) renameConstraintIndex(r *sql.RenameIndex, t *table, con string) (Result, error) {
	e := s.e
	schema, name := e.splitKey(t.name)
	text := fmt.Sprintf("ALTER TABLE %s.%s RENAME CONSTRAINT %s TO %s", expr.QuoteIdent(schema), expr.QuoteIdent(name),
		expr.QuoteIdent(con), expr.QuoteIdent(bareIndex(r.NewKey)))
	st, err := sql.Parse(text)
	if err != nil {
		return Result{}, err
	}
	b, err := sql.Bind(e, st)
	if err != nil {
		return Result{}, err
	}
	a, ok := b.(*sql.AlterTable)
	if !ok {
		return Result{}, pgerr.New(pgerr.Internal, "%s binds to %T", text, b)
	}
	a.Tag = r.Tag
	return e.alterTable(a)
}

// renameTableIndex gives ix, an index of t, the key to.
func (e *Engine) renameTableIndex(t *table, ix *namedIndex, to string) error {
	schema, table := e.splitKey(t.name)
	text, err := movedIndexText(ix.text, schema, table, bareIndex(to))
	if err != nil {
		return err
	}
	if e.store != nil && !t.temp {
		if err := e.store.Drop([]string{ix.name}); err != nil {
			return err
		}
		if err := e.store.Create(&StoredRelation{Name: to, Kind: KindIndex, SQL: text}); err != nil {
			return err
		}
	}
	if err := e.moveComments(ix.name, to); err != nil {
		return err
	}
	if t.clustered == ix.name {
		t.clustered = to
	}
	delete(e.indexes, ix.name)
	e.indexes[to] = t
	def := *ix.def
	def.Name = to
	ix.name, ix.text, ix.def = to, text, &def
	if ix.unique != nil {
		ix.unique.name = to
	}
	return nil
}

// renameViewIndex gives ix, an index of a materialized view, the key to.
func (e *Engine) renameViewIndex(ix *matIndex, to string) error {
	schema, view := e.splitKey(ix.view)
	text, err := movedIndexText(ix.text, schema, view, bareIndex(to))
	if err != nil {
		return err
	}
	if err := e.moveComments(ix.name, to); err != nil {
		return err
	}
	return e.applyIndexMoves([]indexMove{{ix: ix, from: ix.name, to: to, text: text, old: ix.text}}, ix.view)
}

// indexName is what ALTER INDEX … RENAME TO edits in place in an index of
// a table: the image of a transaction block keeps it (txddl_objects.go).
type indexName struct {
	name, text string
	def        *sql.CreateIndex
	unique     string // its unique index's name, for a UNIQUE one
	// x holds the texts of its expressions and predicate (a type's
	// rename writes them again, index_type_rename.go).
	x keyExtTexts
}

// takeIndexNames copies the names of the tables' indexes.
func (e *Engine) takeIndexNames() map[*namedIndex]indexName {
	out := map[*namedIndex]indexName{}
	for _, t := range e.tables {
		for _, ix := range append(t.indexes[:len(t.indexes):len(t.indexes)], t.xindexes...) {
			n := indexName{name: ix.name, text: ix.text, def: ix.def, x: ix.x.texts()}
			if ix.unique != nil {
				n.unique = ix.unique.name
			}
			out[ix] = n
		}
	}
	return out
}

// restoreIndexNames writes the names takeIndexNames copied back.
func restoreIndexNames(m map[*namedIndex]indexName) {
	for ix, n := range m {
		ix.name, ix.text, ix.def = n.name, n.text, n.def
		ix.x.setTexts(n.x)
		if ix.unique != nil {
			ix.unique.name = n.unique
		}
	}
}
