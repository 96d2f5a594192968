package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// namedIndex is an index CREATE INDEX made on a table's columns: an
// ordered index of the table's rows by those columns (ordindex.go), built
// when the index is created and kept up to date with the table.
type namedIndex struct {
	name string
	text string // the statement that made it
	def  *sql.CreateIndex
	cols []int
	ord  *orderedIndex // nil for an index on expressions or partial (x)
	x    *keyExt       // expressions, predicate, INCLUDE, NULLS NOT DISTINCT: nil for none
	// unique is the hash index of a UNIQUE index, among the table's
	// uniques: it enforces the index and serves equalities on all its
	// columns, as a UNIQUE constraint's does.
	unique *uniqueIndex
	// xord orders the rows of an index on expressions or partial by its
	// computed key (exprpath.go), nil for the others.
	xord *exprOrder
	// seq orders a table's indexes as they were made (like.go).
	seq uint64
}

// indexSeq numbers the indexes made, in order.
var indexSeq atomic.Uint64

// createIndex makes the index ci names, building it now.
func (e *Engine) createIndex(ci *sql.CreateIndex, text string) (Result, error) {
	if e.views[ci.Table] != nil || e.unpopulated[ci.Table] != nil {
		return e.createViewIndex(ci, text)
	}
	t, ok := e.tables[ci.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", ci.Table)
	}
	name := ci.Name
	taken := func(n string) bool { return e.relationExists(n) }
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
	if _, err := t.makeIndex(ci, name, text); err != nil {
		return Result{}, err
	}
	e.indexes[name] = t
	if e.store != nil && !t.temp { // a temporary table's is the session's (temp_index.go)
		if err := e.store.Create(&StoredRelation{Name: name, Kind: KindIndex, SQL: text}); err != nil {
			e.forgetIndex(t, name)
			return Result{}, err
		}
	}
	return Result{Tag: "CREATE INDEX"}, nil
}

// makeIndex builds the index ci describes on t, named name and made by
// the statement text, and adds it to t's indexes.
func (t *table) makeIndex(ci *sql.CreateIndex, name, text string) (*namedIndex, error) {
	x := newKeyExt(ci)
	ix := &namedIndex{name: name, text: text, cols: ci.Cols, x: x, def: ci, seq: indexSeq.Add(1)}
	if x.ordered() {
		ix.ord = newOrderedIndex(ci.Cols)
	} else if !t.keepsRows() {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "an index on expressions or a partial index on change-stream table %q is not supported", t.name)
	} else if err := t.checkIndexed(x, ci.Cols); err != nil {
		return nil, err
	}
	if ci.Unique {
		if !t.keepsRows() {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "a unique index on change-stream table %q is not supported", t.name)
		}
		u, err := t.buildUnique(name, ci.Cols, x, ci.ElemColls)
		if err != nil {
			return nil, err
		}
		ix.unique = u
		if x.ordered() {
			t.uniques = append(t.uniques, u)
		} else {
			t.xuniques = append(t.xuniques, u)
		}
	}
	if !x.ordered() {
		ix.xord = newExprOrder(t, ix)
		t.xindexes = append(t.xindexes, ix)
	} else {
		if t.keepsRows() {
			ix.ord.build(t)
		}
		t.indexes = append(t.indexes, ix)
	}
	return ix, nil
}

// dropIndexes is DROP INDEX.
func (e *Engine) dropIndexes(d *sql.Drop) (Result, error) {
	var notices, names []string
	for _, name := range d.Names {
		if e.indexes[name] != nil || e.matIndexes[name] != nil {
			names = append(names, name)
			continue
		}
		if err := e.dropWrongKind(name, "an index"); err != nil {
			return Result{}, err
		}
		if _, rel := e.Relation(name); rel {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not an index", e.bareName(name))
		}
		if d.IfExists {
			notices = append(notices, fmt.Sprintf("index %q does not exist, skipping", e.bareName(name)))
			continue
		}
		return Result{}, pgerr.New(pgerr.UndefinedObject, "index %q does not exist", e.bareName(name))
	}
	stored := slices.DeleteFunc(slices.Clone(names), isTemp)
	if e.store != nil && len(stored) > 0 {
		if err := e.store.Drop(stored); err != nil {
			return Result{}, err
		}
	}
	for _, name := range names {
		if e.matIndexes[name] != nil {
			e.forgetViewIndex(name)
			continue
		}
		e.forgetIndex(e.indexes[name], name)
	}
	return Result{Tag: "DROP INDEX", Notices: notices}, nil
}

// buildUnique indexes t's rows by cols in a hash index, failing with
// 23505 on two rows of one key (rows with a NULL in the key never
// conflict); elemColls are its elements' own collations
// (sql.CreateIndex.ElemColls).
func (t *table) buildUnique(name string, cols []int, x *keyExt, elemColls []int16) (*uniqueIndex, error) {
	var u *uniqueIndex
	if x != nil && (x.nulls || !x.ordered()) {
		u = &uniqueIndex{name: name, cols: cols, colls: uniqueColls(cols, t.def, elemColls)}
		u.extend(x)
	} else {
		u = newUniqueIndexColl(name, cols, false, t.def, elemColls)
	}
	var err error
	var arr [64]byte
	t.scan(func(id uint64, row value.Row) bool {
		k, ok := u.key(row, arr[:0])
		if !ok {
			return true
		}
		if _, dup := u.get(k); dup {
			v := uniqueViolation(u, t, row).(*pgerr.Error)
			if u.x != nil { // PostgreSQL names the index in the message only
				name = u.name
			}
			err = &pgerr.Error{Code: pgerr.UniqueViolation,
				Message: fmt.Sprintf("could not create unique index %q", t.bare(name)),
				Detail:  strings.Replace(v.Detail, "already exists", "is duplicated", 1)}
			return false
		}
		u.set(k, id, row)
		return true
	})
	return u, err
}

// forgetIndex removes the index name of t.
func (e *Engine) forgetIndex(t *table, name string) {
	delete(e.indexes, name)
	drop := func(ix *namedIndex) bool {
		if ix.name != name {
			return false
		}
		if ix.unique != nil {
			t.uniques = slices.DeleteFunc(t.uniques, func(u *uniqueIndex) bool { return u == ix.unique })
			t.xuniques = slices.DeleteFunc(t.xuniques, func(u *uniqueIndex) bool { return u == ix.unique })
		}
		return true
	}
	t.indexes = slices.DeleteFunc(t.indexes, drop)
	t.xindexes = slices.DeleteFunc(t.xindexes, drop)
	if len(t.xindexes) == 0 {
		t.xindexes, t.xuniques = nil, nil // checkRow tests for nil
	}
}

// checkIndexed evaluates a new index's expressions and predicate over
// t's rows, failing as PostgreSQL's build of the index would.
func (t *table) checkIndexed(x *keyExt, cols []int) error {
	var err error
	t.scan(func(_ uint64, row value.Row) bool {
		err = x.check(cols, row)
		return err == nil
	})
	return err
}
