package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The check of a statement through an automatically updatable view keeps
// no state: as PostgreSQL 15 checks it, the session's role needs the
// statement's privileges on the view, holding them on the view's columns
// it uses sufficing (column_check.go), and the view's owner, or for a
// view WITH (security_invoker) the session's role, on the table under
// it: on the table's columns the view's columns assigned and inserted
// show, and, when the statement reads the view, SELECT on every column
// the view's query reads (PostgreSQL reads the view as its query then).
// ON CONFLICT reads the view's columns its arbiter names and those its
// DO UPDATE reads (of the existing row and EXCLUDED alike), and updates
// those its SET list assigns.

// authorizeAuto checks b, an INSERT, UPDATE or DELETE through an
// automatically updatable view, that needs priv.
func (s *Session) authorizeAuto(b sql.Bound, rec *recorder, priv sql.Privilege, readAll func(string) error) error {
	av := autoOfAny(b)
	viewNeed := rec.columnsRead(av.View)
	switch b := b.(type) {
	case *sql.Insert:
		viewNeed.ins = b.Targets
		if oc := b.OnConflict; oc != nil {
			viewNeed.sel = addCols(viewNeed.sel, onView(av, oc.Arbiter))
			if !oc.DoNothing {
				viewNeed.upd = onView(av, oc.SetCols)
			}
			if viewNeed.reads() {
				priv |= sql.PrivSelect // the arbiter reads the view
			}
		}
	case *sql.Update:
		viewNeed.upd = b.SetCols
		if viewNeed.reads() {
			priv |= sql.PrivSelect // SET b = b + 1 reads b
		}
	}
	if err := s.allowedCols(rec, av.View, priv, viewNeed); err != nil {
		return err
	}
	// The table's columns the view's columns show.
	onTable := func(cols []int) []int {
		var out []int
		for _, i := range cols {
			if i < len(av.Cols) && av.Cols[i] >= 0 && !slices.Contains(out, av.Cols[i]) {
				out = append(out, av.Cols[i])
			}
		}
		return out
	}
	tableNeed := colNeeds{ins: onTable(viewNeed.ins), upd: onTable(viewNeed.upd)}
	if viewNeed.reads() {
		// Read, the view is its query: every column it reads.
		for _, x := range append([]expr.Expr{av.Where}, av.Exprs...) {
			for _, c := range expr.Columns(x) {
				if !slices.Contains(tableNeed.sel, c) {
					tableNeed.sel = append(tableNeed.sel, c)
				}
			}
		}
	}
	check := func() error { return s.allowedCols(rec, av.Table, priv, tableNeed) }
	if v := s.e.named[av.View]; v == nil || !v.invoker {
		if err := s.asRole(s.e.relOwner(av.View), check); err != nil {
			return err
		}
	} else if err := check(); err != nil {
		return err
	}
	return readAll(av.View)
}

// onView are the view's columns that show the table's columns cols, as
// ON CONFLICT's arbiter and SET list name them (conflict_acl.go).
func onView(av *sql.AutoView, cols []int) []int {
	var out []int
	for i, j := range av.Cols {
		if j >= 0 && slices.Contains(cols, j) {
			out = append(out, i)
		}
	}
	return out
}

// addCols is to with the columns of cols it lacks.
func addCols(to, cols []int) []int {
	for _, c := range cols {
		if !slices.Contains(to, c) {
			to = append(to, c)
		}
	}
	return to
}

// asRole runs fn with the session acting as role, as a view's owner.
func (s *Session) asRole(role string, fn func() error) error {
	saved := s.role
	s.role = s.roleID(role)
	defer func() { s.role = saved }()
	return fn()
}

// autoOfAny is the automatically updatable view of b.
func autoOfAny(b sql.Bound) *sql.AutoView {
	if ins, ok := b.(*sql.Insert); ok {
		return ins.Auto
	}
	return autoOf(b)
}
