package engine

import (
	"slices"
	"strconv"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// MERGE INTO a table with inheritance children, without ONLY: the source
// is joined with the rows of the table and of every descendant, each
// descendant's projected onto the table's columns, as PostgreSQL 15
// does; a matched row is updated or deleted in the table that holds it,
// and INSERT writes the table named.

// mergeRef is the row of a hierarchy's table that a row of MERGE's join
// read: its table, its row id there, and the descendant's column of each
// column of the table named (nil for the table itself).
type mergeRef struct {
	t   *table
	id  uint64
	col []int
}

// hierarchyRows supplies the rows of t and of each descendant in
// members, projected onto t's columns, each followed by a number that
// refs records the row under.
func (e *Engine) hierarchyRows(t *table, members []sql.InheritMember, refs *[]mergeRef) (exec.Targets, error) {
	type source struct {
		t   *table
		col []int
	}
	srcs := []source{{t: t}}
	for _, m := range members {
		mt, err := e.writable(m.Rel.Name, "merge into")
		if err != nil {
			return exec.Targets{}, err
		}
		srcs = append(srcs, source{t: mt, col: m.Map})
	}
	return exec.Targets{Rows: func(pred expr.Expr, fn func(value.Row) error) error {
		for _, s := range srcs {
			changed := e.changed(s.t)
			var err error
			s.t.scan(func(id uint64, row value.Row) bool {
				if changed[id] {
					return true
				}
				r := make(value.Row, len(t.cols)+1)
				for i := range t.cols {
					if s.col == nil {
						r[i] = row[i]
					} else {
						r[i] = row[s.col[i]]
					}
				}
				r[len(t.cols)] = value.NewInt(value.Int8, int64(len(*refs)))
				*refs = append(*refs, mergeRef{t: s.t, id: id, col: s.col})
				var ok bool
				if ok, err = accepts(pred, r); err == nil && ok {
					err = fn(r)
				}
				return err == nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// execMergeInherited is execMerge over t and its descendants (m.Inherit).
func (e *Engine) execMergeInherited(t *table, m *sql.Merge) (Result, error) {
	for _, mt := range append([]string{t.name}, memberNames(m.Inherit)...) {
		if tt := e.tables[mt]; tt != nil && tt.trig != nil {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "MERGE into table %q, which has inheritance children, is not supported while table %q has triggers", m.Table, mt).
				WithHint("MERGE INTO ONLY %s changes its own rows; MERGE into each child for theirs", m.Table)
		}
	}
	var refs []mergeRef
	src, err := e.hierarchyRows(t, m.Inherit, &refs)
	if err != nil {
		return Result{}, err
	}
	mark := len(e.tx.log)
	rows, err := e.runTargets(m.Join, mark, src)
	if err != nil {
		return Result{}, err
	}
	type key struct {
		t  *table
		id uint64
	}
	acted := map[key]bool{}
	n := 0
	for _, r := range rows {
		if err := e.interruptPoint(); err != nil {
			return Result{}, err
		}
		matched := !r[0].IsNull()
		c, row, err := e.mergeClause(t, m, matched, r[1:], mark)
		if err != nil {
			return Result{}, err
		}
		if c == nil || c.Action == sql.MergeNothing {
			continue
		}
		if !matched {
			if _, err := e.insertRow(t, row); err != nil {
				return Result{}, err
			}
			n++
			continue
		}
		ref := refs[r[0].Int()]
		if acted[key{ref.t, ref.id}] {
			return Result{}, pgerr.New(pgerr.CardinalityViolation, "MERGE command cannot affect row a second time").
				WithHint("Ensure that not more than one source row matches any one target row.")
		}
		acted[key{ref.t, ref.id}] = true
		old, ok := ref.t.rows.Get(ref.id)
		if !ok {
			continue
		}
		if c.Action == sql.MergeDelete {
			e.deleteRow(ref.t, ref.id)
			n++
			continue
		}
		if ref.col != nil {
			// The descendant's row with the table's columns assigned.
			full := slices.Clone(old)
			for i, j := range ref.col {
				full[j] = row[i]
			}
			row = full
		}
		if _, err := e.updateRow(ref.t, ref.id, old, row); err != nil {
			return Result{}, err
		}
		n++
	}
	return Result{Tag: "MERGE " + strconv.Itoa(n)}, nil
}

// memberNames are the names of the descendants in ms.
func memberNames(ms []sql.InheritMember) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Rel.Name
	}
	return out
}
