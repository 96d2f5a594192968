package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// The check of a statement through an automatically updatable view keeps
// no state: as PostgreSQL 15 checks it, the session's role needs the
// statement's privileges on the view, holding them on the view's columns
// it uses sufficing (column_check.go), and at each level down to the
// table (a view over a view over a table has two), the level's view's
// owner, or for a view WITH (security_invoker) the session's role, needs
// them on the relation under that view: on its columns the view's
// columns assigned and inserted show, and, when the statement reads the
// view, SELECT on every column the view's query reads (PostgreSQL reads
// the view as its query then). The levels are checked whoever runs the
// statement, a superuser too, as PostgreSQL checks them as the views'
// owners. ON CONFLICT reads the view's columns its arbiter names and
// those its DO UPDATE reads (of the existing row and EXCLUDED alike), and
// updates those its SET list assigns.

// authorizeAuto checks b, an INSERT, UPDATE or DELETE through an
// automatically updatable view, that needs priv.
func (s *Session) authorizeAuto(b sql.Bound, rec *recorder, priv sql.Privilege, readAll func(string) error) error {
	av := autoOfAny(b)
	viewNeed, priv := autoViewNeeds(b, rec, priv)
	if err := s.allowedCols(rec, av.View, priv, viewNeed); err != nil {
		return err
	}
	if err := s.authorizeAutoLevels(b, priv, viewNeed); err != nil {
		return err
	}
	return readAll(av.View)
}

// autoReadPriv is priv, with SELECT when the statement reads av's rows.
func autoReadPriv(av *sql.AutoView, priv sql.Privilege) sql.Privilege {
	if av.Read {
		priv |= sql.PrivSelect
	}
	return priv
}

// autoViewNeeds are the columns of its view b uses, and the privileges
// it needs there: priv, with SELECT when it reads a column.
func autoViewNeeds(b sql.Bound, rec *recorder, priv sql.Privilege) (colNeeds, sql.Privilege) {
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
	return viewNeed, priv
}

// authorizeAutoLevels checks each level of b's view, as its view's owner
// (or the session's role, security_invoker): priv on the relation under
// the view, on the columns that viewNeed, the columns of the statement's
// view, come to there, and SELECT on the relations a subquery in the
// view's WHERE names wherever b applies that WHERE.
func (s *Session) authorizeAutoLevels(b sql.Bound, priv sql.Privilege, viewNeed colNeeds) error {
	av := autoOfAny(b)
	// SELECT at the levels when the statement reads the view's columns
	// (not for the view's own WHERE, which the statement's priv counts).
	read := av.Read || viewNeed.reads()
	priv &^= sql.PrivSelect
	if read {
		priv |= sql.PrivSelect
	}
	// The columns come from the statement's bound form, not its log:
	// an owner's column privileges let it through whoever runs it.
	cols := &recorder{refs: &sql.RefLog{}}
	ins, upd := viewNeed.ins, viewNeed.upd
	invoker := s.role
	for _, l := range av.Levels {
		ins, upd = l.OnBase(ins), l.OnBase(upd)
		need := colNeeds{ins: ins, upd: upd}
		if read {
			need.sel = l.Reads
		}
		role := invoker
		if !l.Invoker {
			role = s.e.relOwner(l.View)
		}
		if err := s.asRole(role, func() error {
			if err := s.allowedCols(cols, l.Base, priv, need); err != nil {
				return err
			}
			return s.authorizeLevelWhere(b, av, l)
		}); err != nil {
			if !l.Invoker {
				return withoutHint(err) // as PostgreSQL's, checked as the owner
			}
			return err
		}
	}
	return nil
}

// authorizeAutoOwners checks the levels of the automatically updatable
// view b changes, if any, for a session's role that passes every check
// of its own (a superuser): the views' owners are checked all the same.
func (s *Session) authorizeAutoOwners(b sql.Bound, rec *recorder) error {
	var priv sql.Privilege
	switch b := b.(type) {
	case *sql.Insert:
		if b.Auto == nil {
			return nil
		}
		priv = sql.PrivInsert
		if len(b.Returning) > 0 {
			priv |= sql.PrivSelect
		}
		if b.OnConflict != nil && !b.OnConflict.DoNothing {
			priv |= sql.PrivSelect | sql.PrivUpdate
		}
	case *sql.Update:
		if b.Auto == nil {
			return nil
		}
		priv = sql.PrivUpdate
	case *sql.Delete:
		if b.Auto == nil {
			return nil
		}
		priv = sql.PrivDelete
	case *sql.ExplainAnalyze:
		if b.DML != nil {
			return s.authorizeAutoOwners(b.DML, rec)
		}
		return nil
	case *sql.RuleThrough:
		return s.authorizeAutoOwners(b.DML, rec)
	default:
		return nil
	}
	viewNeed, priv := autoViewNeeds(b, rec, priv)
	return s.authorizeAutoLevels(b, priv, viewNeed)
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

// authorizeLevelWhere checks SELECT on the relations a subquery in level
// l's WHERE names, on the columns it reads of them, when b applies that
// WHERE: an UPDATE or DELETE always, as PostgreSQL adds the view's
// conditions to its query, an INSERT where a check option checks the
// level's view.
func (s *Session) authorizeLevelWhere(b sql.Bound, av *sql.AutoView, l sql.AutoLevel) error {
	if l.Where == nil || len(l.Where.Rels) == 0 {
		return nil
	}
	if _, ins := b.(*sql.Insert); ins && !slices.ContainsFunc(av.Checks, func(c sql.ViewCheck) bool { return c.View == l.View }) {
		return nil
	}
	rec := &recorder{refs: l.Where}
	for _, name := range l.Where.Rels {
		need := rec.columnsRead(name)
		need.anyRead = true
		if err := s.allowedCols(rec, name, sql.PrivSelect, need); err != nil {
			return err
		}
	}
	return nil
}
