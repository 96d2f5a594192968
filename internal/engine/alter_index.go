package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TABLE … ADD, DROP, RENAME or ALTER TYPE of columns, and RENAME or
// SET SCHEMA of a table, keep the indexes CREATE INDEX made on it, as
// PostgreSQL does: each is made again over the table as the ALTER leaves
// it, from its statement with the table's new name and the columns' new
// names, bound over the altered table and built over its new rows before
// anything changes (a unique index whose values now collide fails with
// 23505, an expression that no longer applies to a column's new type
// with its error, as PostgreSQL's rebuild fails). An index that reads a
// dropped column is dropped with it.

// indexRebuild is what an ALTER does to a table's indexes.
type indexRebuild struct {
	old  []string      // every index of the table, forgotten before it is replaced
	made []*namedIndex // the indexes kept, built over the new table
}

// alteredIndexes builds t's indexes over next, the table as a leaves it;
// nil when t has none.
func (e *Engine) alteredIndexes(t, next *table, a *sql.AlterTable) (*indexRebuild, error) {
	all := append(slices.Clip(t.indexes), t.xindexes...)
	if len(all) == 0 {
		return nil, nil
	}
	at := make([]int, len(t.cols)) // each old column's new position, -1 when dropped
	for i := range at {
		at[i] = -1
	}
	renamed := map[string]string{}
	for i, o := range a.Map {
		if o < 0 {
			continue
		}
		at[o] = i
		if n := a.New.Cols[i].Name; n != t.cols[o].Name {
			renamed[t.cols[o].Name] = n
		}
	}
	rel, _ := tableRelation(a.New.Name, next)
	cat := alterOverlay{Engine: e, old: a.Table, rel: rel}
	schema, name := e.splitKey(a.New.Name)
	rb := &indexRebuild{}
	for _, ix := range all {
		rb.old = append(rb.old, ix.name)
		if slices.ContainsFunc(ix.reads(), func(c int) bool { return at[c] < 0 }) {
			continue // PostgreSQL drops it with the column
		}
		text, err := sql.IndexForAlteredTable(ix.text, e.bareName(a.Table), schema, name, renamed)
		if err != nil {
			return nil, err
		}
		st, ok := e.reparse(text)
		if !ok {
			return nil, pgerr.New(pgerr.Internal, "cannot read the statement of index %q again", ix.name)
		}
		b, err := sql.Bind(cat, st)
		if err != nil {
			return nil, err
		}
		ci, ok := b.(*sql.CreateIndex)
		if !ok {
			return nil, pgerr.New(pgerr.Internal, "the statement of index %q is not CREATE INDEX", ix.name)
		}
		made, err := next.makeIndex(ci, ci.Name, text)
		if err != nil {
			return nil, err
		}
		rb.made = append(rb.made, made)
	}
	return rb, nil
}

// reads are the columns an index keys, includes, or reads in its
// expressions and predicate.
func (ix *namedIndex) reads() []int {
	var cols []int
	for _, c := range ix.cols {
		if c >= 0 {
			cols = append(cols, c)
		}
	}
	if x := ix.x; x != nil {
		cols = append(cols, x.include...)
		for _, ex := range append(slices.Clip(x.exprs), x.where) {
			if ex != nil {
				cols = append(cols, expr.Columns(ex)...)
			}
		}
	}
	return cols
}

// forget removes the table's old indexes from the catalog and the store,
// before the table is replaced.
func (rb *indexRebuild) forget(e *Engine) error {
	if rb == nil {
		return nil
	}
	for _, n := range rb.old {
		delete(e.indexes, n)
	}
	if e.store != nil && !slices.ContainsFunc(rb.old, isTemp) { // a temporary table's are the session's
		return e.store.Drop(rb.old)
	}
	return nil
}

// register records the kept indexes of t, the table that replaced
// theirs, in the catalog and the store.
func (rb *indexRebuild) register(e *Engine, t *table) error {
	if rb == nil {
		return nil
	}
	for _, ix := range rb.made {
		e.indexes[ix.name] = t
		if e.store != nil && !t.temp {
			if err := e.store.Create(&StoredRelation{Name: ix.name, Kind: KindIndex, SQL: ix.text}); err != nil {
				return err
			}
		}
	}
	return nil
}
