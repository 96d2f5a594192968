package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER SCHEMA s RENAME TO u of a schema that holds relations moves each
// of them to u, as ALTER … SET SCHEMA u would, into a schema u made with
// s's owner and privileges; then s, empty, goes. The engine keys a
// relation by its schema's name, and the statements kept for it and for
// the views over it name the schema: each move rewrites them, so views
// of other schemas follow (move_relation.go, alter_move.go). Views and
// materialized views move first (the statements of the views that read
// them are written again; no plan changes), then tables (with the
// sequences they own; the materialized views over a table are built
// again, a cold start said by a NOTICE, as for ALTER TABLE … SET SCHEMA),
// then the other sequences (the defaults that call them follow).
//
// What a move refuses, the rename refuses (0A000) before anything
// changes where it can tell, and otherwise by moving back what moved:
// a schema holding types, domains or routines (their statements name the
// schema where the database file replays them), an index made by CREATE
// INDEX, a table with row security, a materialized view that another
// materialized view reads.

// renameSchemaObjects renames the schema sc, which holds relations, to
// name.
func (s *Session) renameSchemaObjects(sc *schema, name string) (Result, error) {
	e := s.e
	old := sc.name
	var others []string // its routines', then its types' ALTER … SET SCHEMA, but for the schema
	for _, r := range e.schemaRoutines(old) {
		sig, what := "", "FUNCTION"
		if r.agg != nil {
			sig, what = r.agg.Signature(), "AGGREGATE"
		} else {
			sig = r.fn.Signature()
			if r.fn.Procedure {
				what = "PROCEDURE"
			}
		}
		name, args, _ := strings.Cut(sig, "(")
		if strings.Contains(args, old+".") {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER SCHEMA %s RENAME TO of a schema that holds %s, which takes a type of the schema, is not supported", old, r.describe()).
				WithHint("drop the routine, rename the schema, then create it again")
		}
		_, n := e.splitKey(name)
		others = append(others, "ALTER "+what+" "+sql.QuoteIdent(old)+"."+sql.QuoteIdent(n)+"("+args+" SET SCHEMA ")
	}
	domains, types := e.schemaTypes(old)
	for _, d := range domains {
		others = append(others, "ALTER DOMAIN "+sql.QuoteIdent(old)+"."+sql.QuoteIdent(e.bareName(d))+" SET SCHEMA ")
	}
	for _, t := range types {
		if strings.HasSuffix(t, "multirange") && slices.Contains(types, strings.TrimSuffix(t, "multirange")+"range") {
			continue // it goes with its range
		}
		others = append(others, "ALTER TYPE "+sql.QuoteIdent(old)+"."+sql.QuoteIdent(e.bareName(t))+" SET SCHEMA ")
	}
	for _, k := range sortedKeys(e.indexes) {
		if sch, _ := e.splitKey(k); sch == old || e.tableSchema(e.indexes[k]) == old {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER SCHEMA %s RENAME TO of a schema that holds index %s is not supported", old, k).
				WithHint("DROP INDEX, rename the schema, then create the index again")
		}
	}
	for _, k := range sortedKeys(e.seqs) {
		if sch, _ := e.splitKey(k); sch == old && e.seqs[k].owner[0] != "" {
			if tsch, _ := e.splitKey(e.seqs[k].owner[0]); tsch != old {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER SCHEMA %s RENAME TO of a schema that holds sequence %s, owned by table %s of another schema, is not supported", old, k, e.seqs[k].owner[0]).
					WithHint("ALTER SEQUENCE … OWNED BY NONE first")
			}
		}
	}
	var views, tables, seqs []string
	for _, o := range e.schemaObjects(old) {
		switch o.what {
		case "table":
			if e.hasRowSecurity(o.key) {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER SCHEMA %s RENAME TO of a schema that holds table %s with row-level security is not supported", old, o.key).
					WithHint("DROP POLICY and DISABLE ROW LEVEL SECURITY, rename the schema, then set them again")
			}
			tables = append(tables, o.key)
		case "view", "materialized view":
			if e.named[o.key] == nil {
				for _, r := range e.dependentsIndex()[o.key] {
					if e.named[r] == nil {
						return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER SCHEMA %s RENAME TO is not supported: materialized view %s reads materialized view %s", old, r, o.key).
							WithHint("drop the reader, rename the schema, then create the reader again")
					}
				}
			}
			views = append(views, o.key)
		case "sequence":
			seqs = append(seqs, o.key)
		}
	}
	nsc := &schema{name: name, owner: sc.owner, grants: maps.Clone(sc.grants), order: sc.order}
	if err := e.saveSchema(nsc); err != nil {
		return Result{}, err
	}
	e.schemas[name] = nsc
	res := Result{Tag: "ALTER SCHEMA"}
	type move struct{ kind, from, to string }
	var done []move
	back := func(err error) (Result, error) {
		// Each move is undone as it was made, in reverse order.
		for i := len(done) - 1; i >= 0; i-- {
			m := done[i]
			s.moveOne(m.kind, m.to, m.from, old) //nolint:errcheck // the first error is the one to report
		}
		if ss, ok := e.store.(SchemaStore); ok && e.store != nil {
			ss.DropSchema(name) //nolint:errcheck // the first error is the one to report
		}
		delete(e.schemas, name)
		return Result{}, err
	}
	for _, g := range []struct {
		kind string
		keys []string
	}{{"view", views}, {"table", tables}, {"sequence", seqs}} {
		for _, k := range g.keys {
			nk := schemaKey(name, e.bareName(k))
			notices, err := s.moveOne(g.kind, k, nk, name)
			res.Notices = append(res.Notices, notices...)
			if err != nil {
				return back(err)
			}
			done = append(done, move{g.kind, k, nk})
		}
	}
	for _, st := range others {
		notices, err := s.execMove(st + sql.QuoteIdent(name))
		res.Notices = append(res.Notices, notices...)
		if err != nil {
			return back(err)
		}
		done = append(done, move{"stmt", st + sql.QuoteIdent(name), movedBack(st, old, name)})
	}
	if len(e.schemaObjects(old)) > 0 || e.schemaHoldsAny(old) {
		return back(pgerr.New(pgerr.Internal, "schema %q still holds relations after they moved", old))
	}
	if ss, ok := e.store.(SchemaStore); ok && e.store != nil {
		if err := ss.DropSchema(old); err != nil {
			return Result{}, err
		}
	}
	if err := e.moveSchemaDefaultACLs(old, name); err != nil {
		return Result{}, err
	}
	delete(e.schemas, old)
	return res, nil
}

// moveOne moves the relation from, of kind "view", "table" or
// "sequence", to the key to in schema schema.
func (s *Session) moveOne(kind, from, to, schema string) ([]string, error) {
	e := s.e
	switch kind {
	case "view":
		return nil, e.moveView(from, to)
	case "sequence":
		return nil, s.moveSequence(from, to)
	case "stmt":
		return s.execMove(from) // the statement that moves it (back, for back)
	}
	sch, n := e.splitKey(from)
	return s.execMove("ALTER TABLE " + sql.QuoteIdent(sch) + "." + sql.QuoteIdent(n) + " SET SCHEMA " + sql.QuoteIdent(schema))
}

// execMove runs an ALTER … SET SCHEMA statement of the rename, under the
// lock the rename holds, as the session would run it; the statement is
// what a database file records for a routine.
func (s *Session) execMove(text string) ([]string, error) {
	st, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	rec := &recorder{cat: s.e, seen: map[string]bool{}, text: st.SQL}
	b, err := s.bindStmt(rec, st)
	if err != nil {
		return nil, err
	}
	r, err := s.execBound(b, rec)
	return r.Notices, err
}

// movedBack is the statement that moves back what st, an ALTER … SET
// SCHEMA missing its schema, moved from schema old to schema name.
func movedBack(st, old, name string) string {
	q := sql.QuoteIdent(old) + "."
	i := strings.Index(st, q)
	return st[:i] + sql.QuoteIdent(name) + "." + st[i+len(q):] + sql.QuoteIdent(old)
}

// tableSchema is the schema of the table t.
func (e *Engine) tableSchema(t *table) string {
	if t == nil {
		return ""
	}
	sch, _ := e.splitKey(t.name)
	return sch
}
