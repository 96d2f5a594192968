package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A plain view reads its relations with its owner's privileges, as
// PostgreSQL 15's executor checks them (whoever reads it, a superuser
// too): the statement keeps a frame per plain view it reads whose owner
// is no superuser, naming the relations the view's query names and,
// while a column privilege is granted, the columns it reads of them; the
// owner needs SELECT on each, its columns sufficing as for a statement,
// each nested view's owner on what its own query reads. The owner's
// row-level security applies to the tables under the view (none for a
// superuser, a BYPASSRLS role or the table's owner unless FORCE). A
// security_invoker view reads as the statement's role, even under a plain
// view, as PostgreSQL's does. A view owned by a superuser takes no frame,
// and a statement that reads none no work.

// viewFrame is one plain view a statement reads, checked as its owner.
type viewFrame struct {
	view, owner string
	direct      []string      // the relations its query names
	refs        []*sql.RefLog // the columns it reads; nil without column privileges
	rowSec      *rowSecurityCtx
}

// read records that the view's query named rel; f may be nil (a view
// whose owner is a superuser).
func (f *viewFrame) read(r *recorder, name string, rel *sql.Relation) {
	if f == nil {
		return
	}
	if !slices.Contains(f.direct, name) {
		f.direct = append(f.direct, name)
	}
	if f.rowSec != nil && rel.Kind == sql.KindTable {
		if e, ok := r.cat.(*Engine); ok {
			rel.Security = e.securityOf(f.rowSec, name)
		}
	}
}

var (
	_ sql.ViewBinder = (*recorder)(nil)
	_ sql.ViewBinder = viewRecorder{}
)

// BindsView implements sql.ViewBinder for the views the statement names.
func (r *recorder) BindsView(v *sql.Relation) (sql.Catalog, *sql.RefLog) {
	if v.SecurityInvoker && r.bindsTarget {
		// Under the view a statement changes: its levels are checked by
		// authorizeAuto; the statement's row security applies.
		return viewRecorder{r: r, f: &viewFrame{view: v.Name, rowSec: r.rowSec}}, nil
	}
	if v.SecurityInvoker {
		if r.refs == nil {
			return r, nil
		}
		l := &sql.RefLog{}
		r.invRefs = append(r.invRefs, l)
		return r, l
	}
	return r.frameFor(v)
}

// BindsView implements sql.ViewBinder for the views a view reads: a
// security_invoker view reads as the statement's role wherever it is, as
// PostgreSQL's does.
func (v viewRecorder) BindsView(rel *sql.Relation) (sql.Catalog, *sql.RefLog) {
	return v.r.BindsView(rel)
}

var _ sql.TargetBinder = (*recorder)(nil)

// BindsTarget implements sql.TargetBinder: the view an INSERT, UPDATE or
// DELETE changes is checked by authorizeAuto, as the statement's target.
func (r *recorder) BindsTarget(on bool) { r.bindsTarget = on }

// frameFor is the catalog to bind plain view v's query against: with a
// frame of its own when its owner is no superuser.
func (r *recorder) frameFor(v *sql.Relation) (sql.Catalog, *sql.RefLog) {
	e, ok := r.cat.(*Engine)
	if !ok || r.bindsTarget {
		return viewRecorder{r: r}, nil
	}
	owner := e.relOwner(v.Name)
	if ro := e.roles[owner]; owner == SuperuserName || ro == nil || ro.superuser {
		return viewRecorder{r: r}, nil
	}
	f := &viewFrame{view: v.Name, owner: owner, rowSec: e.ownerRowSecurity(owner, r.rowSecurityOff())}
	r.views = append(r.views, f)
	if len(e.colGrants) == 0 {
		return viewRecorder{r: r, f: f}, nil
	}
	f.refs = []*sql.RefLog{{}}
	return viewRecorder{r: r, f: f}, f.refs[0]
}

// rowSecurityOff reports whether the statement's session set
// row_security to off.
func (r *recorder) rowSecurityOff() bool {
	if r.rowSecOff {
		return true
	}
	s := r.session
	if s == nil {
		s = r.temps
	}
	if s == nil {
		return false
	}
	v, _ := s.setting("row_security")
	return v == "off"
}

// ownerRowSecurity is the row security a view owned by role meets; nil
// when role bypasses it.
func (e *Engine) ownerRowSecurity(role string, off bool) *rowSecurityCtx {
	if len(e.rls) == 0 {
		return nil
	}
	if r := e.roles[role]; r == nil || r.superuser || r.bypassRLS {
		return nil
	}
	return &rowSecurityCtx{role: role, held: e.heldRoles(role), off: off}
}

// authorizeViews checks each plain view the statement rec bound reads,
// as its owner: SELECT on what its query reads; the caller holds the
// engine's lock.
func (s *Session) authorizeViews(rec *recorder) error {
	if rec == nil || len(rec.views) == 0 {
		return nil
	}
	saved, savedOwner := s.role, s.asViewOwner
	defer func() { s.role, s.asViewOwner = saved, savedOwner }()
	s.asViewOwner = true // the view's names were resolved when it was made
	for _, f := range rec.views {
		s.role = s.roleID(f.owner)
		check := &recorder{}
		if f.refs != nil {
			check.refs, check.invRefs = f.refs[0], f.refs[1:]
		}
		for _, name := range f.direct {
			need := check.columnsRead(name)
			need.anyRead = true
			if err := s.allowedCols(check, name, sql.PrivSelect, need); err != nil {
				return withoutHint(err)
			}
		}
	}
	return nil
}

// withoutHint is err without its HINT, as PostgreSQL's error on a view's
// relation has none.
func withoutHint(err error) error {
	pe, ok := err.(*pgerr.Error)
	if !ok || pe.Hint == "" {
		return err
	}
	c := *pe
	c.Hint = ""
	return &c
}

var _ sql.InvokerCataloger = viewRecorder{}

// InvokerCatalog implements sql.InvokerCataloger: the body of a SQL
// function a view calls reads as the statement's role, the columns it
// reads checked as the statement's (not the view's owner's).
func (v viewRecorder) InvokerCatalog() (sql.Catalog, *sql.RefLog) {
	l := &sql.RefLog{} // kept out of the view owner's log in any case
	if v.r.refs != nil {
		v.r.invRefs = append(v.r.invRefs, l)
	}
	return v.r, l
}

var (
	_ sql.TargetViewReader = (*recorder)(nil)
	_ sql.TargetViewReader = viewRecorder{}
)

// InTargetView implements sql.TargetViewReader: the table a statement
// changes through view meets the row-level security of the view's owner
// (of the statement's role for a security_invoker view); its privileges
// are authorizeAuto's to check.
func (r *recorder) InTargetView(v *sql.Relation) sql.Catalog {
	e, ok := r.cat.(*Engine)
	if !ok {
		return viewRecorder{r: r}
	}
	owner := e.relOwner(v.Name)
	rs := r.rowSec
	if !v.SecurityInvoker {
		rs = e.ownerRowSecurity(owner, r.rowSecurityOff())
	}
	if rs == nil {
		return viewRecorder{r: r}
	}
	return viewRecorder{r: r, f: &viewFrame{view: v.Name, owner: owner, rowSec: rs}}
}

// InTargetView implements sql.TargetViewReader.
func (v viewRecorder) InTargetView(rel *sql.Relation) sql.Catalog { return v.r.InTargetView(rel) }
