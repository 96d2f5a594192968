package engine

import (
	"fmt"
	"sync"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// A join's index of a table that the join adopts (sharedIndexes.adopt)
// keeps the ids of the table's rows by the join key, and reads the rows
// from the table (dataflow.Arrangement.ReadThrough), when the table's
// primary key is its first column, one integer: a row replaced with its
// join key kept (the usual change of a fact table joined to a dimension
// by a foreign key) then costs the index nothing, and the index holds no
// copy of a row the table replaced. ALTER TABLE cannot drop the key while
// a view reads the table, and a change of its columns builds the views,
// and so this index, again.

// readThroughOff turns the ids off: every index keeps its rows (tests
// compare the two).
var readThroughOff bool

// readThrough makes si, a new index of a table not yet loaded, read its
// rows through the table when the table allows it.
func (e *Engine) readThrough(si *sharedIndex) {
	t, ok := e.tables[si.rel]
	if readThroughOff || !ok || !throughKey(t) {
		return
	}
	si.through = si.a.ReadThrough(func(id int64) value.Row { return e.throughRow(si, id) })
}

// throughKey reports whether t's rows are found by their first column, an
// integer primary key, and the table holds its rows alone.
func throughKey(t *table) bool {
	if len(t.kids) > 0 || t.def.ChangeStream || len(t.uniques) == 0 {
		return false
	}
	u := t.uniques[0]
	return u.primary && u.ints != nil && !u.pair && len(u.cols) == 1 && u.cols[0] == 0
}

// throughRow returns the row of id as the index has it: the table's,
// with the change of the commit in progress (ahead) taken back. An id
// the index holds has its row there: a missing one is an internal fault.
func (e *Engine) throughRow(si *sharedIndex, id int64) value.Row {
	if len(si.ahead) > 0 {
		if row, ok := si.old.get(si.ahead, id); ok {
			return row
		}
	}
	if t, ok := e.tables[si.rel]; ok && len(t.uniques) > 0 {
		u := t.uniques[0]
		if r, ok := u.ints.Get(id); ok {
			return t.rows.rows[r.id]
		}
	}
	panic(fmt.Sprintf("engine: the index of %s holds id %d, which the table does not", si.rel, id))
}

// oldRows finds the rows that the change of a commit in progress retracts
// by id: those are the rows of its ids as of the commit before. A small
// change is searched in place; a big one is put in a map at the first
// search of the commit (a step that reads the index while its table
// changes: the other side of a join changed too), under a lock, as the
// views of a commit prepare on several goroutines.
type oldRows struct {
	mu    sync.Mutex
	built bool // m holds the current change's retractions; reset by setAhead
	m     map[int64]value.Row
}

// oldRowsScan is the size of a change searched in place.
const oldRowsScan = 32

// get returns the row of id that d retracts.
func (o *oldRows) get(d zset.ZSet, id int64) (value.Row, bool) {
	if len(d) <= oldRowsScan {
		for _, x := range d {
			if x.W < 0 && len(x.Row) > 0 && x.Row[0].Int() == id && !x.Row[0].IsNull() {
				return x.Row, true
			}
		}
		return nil, false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.built {
		if o.m == nil {
			o.m = make(map[int64]value.Row, len(d))
		}
		clear(o.m)
		for _, x := range d {
			if x.W < 0 && len(x.Row) > 0 && !x.Row[0].IsNull() {
				o.m[x.Row[0].Int()] = x.Row
			}
		}
		o.built = true
	}
	row, ok := o.m[id]
	return row, ok
}
