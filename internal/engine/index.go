package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// namedIndex is an index CREATE INDEX made on a table's columns: an
// ordered index of the table's rows by those columns (ordindex.go), built
// when the index is created and kept up to date with the table.
type namedIndex struct {
	name string
	cols []int
	ord  *orderedIndex
}

// createIndex makes the index ci names, building it now.
func (e *Engine) createIndex(ci *sql.CreateIndex, text string) (Result, error) {
	t, ok := e.tables[ci.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", ci.Table)
	}
	name := ci.Name
	taken := func(n string) bool { _, rel := e.Relation(n); return rel || e.indexes[n] != nil }
	if ci.DefaultName {
		for i := 1; taken(name); i++ {
			name = fmt.Sprintf("%s%d", ci.Name, i)
		}
	} else if taken(name) {
		if ci.IfNotExists {
			return Result{Tag: "CREATE INDEX", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
	}
	ix := &namedIndex{name: name, cols: ci.Cols, ord: newOrderedIndex(ci.Cols)}
	if t.keepsRows() {
		ix.ord.build(t)
	}
	t.indexes = append(t.indexes, ix)
	e.indexes[name] = t
	if e.store != nil {
		if err := e.store.Create(&StoredRelation{Name: name, Kind: KindIndex, SQL: text}); err != nil {
			e.forgetIndex(t, name)
			return Result{}, err
		}
	}
	return Result{Tag: "CREATE INDEX"}, nil
}

// dropIndexes is DROP INDEX.
func (e *Engine) dropIndexes(d *sql.Drop) (Result, error) {
	var notices, names []string
	for _, name := range d.Names {
		if e.indexes[name] != nil {
			names = append(names, name)
			continue
		}
		if _, ok := e.Relation(name); ok {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not an index", name)
		}
		if d.IfExists {
			notices = append(notices, fmt.Sprintf("index %q does not exist, skipping", name))
			continue
		}
		return Result{}, pgerr.New(pgerr.UndefinedObject, "index %q does not exist", name)
	}
	if e.store != nil && len(names) > 0 {
		if err := e.store.Drop(names); err != nil {
			return Result{}, err
		}
	}
	for _, name := range names {
		e.forgetIndex(e.indexes[name], name)
	}
	return Result{Tag: "DROP INDEX", Notices: notices}, nil
}

// forgetIndex removes the index name of t.
func (e *Engine) forgetIndex(t *table, name string) {
	delete(e.indexes, name)
	t.indexes = slices.DeleteFunc(t.indexes, func(ix *namedIndex) bool { return ix.name == name })
}
