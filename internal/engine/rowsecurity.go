package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Row-level security keeps, per table, whether it is enabled and forced
// and the table's policies in name order (e.rls). A statement's catalog
// (recorder) hangs the policies that apply to the session's role on a
// table that has row security enabled, unless the role bypasses it: a
// superuser does, a BYPASSRLS role, and a table's owner (and its
// members) unless FORCE; a plain view's query meets those of the view's
// owner (view_owner_acl.go). The binder then filters reads and checks writes
// (sql/rowsecurity.go). Materialized views are created by superusers, who
// bypass row security, and so hold every row, as PostgreSQL's REFRESH
// run by their owner would: a policy created, altered or dropped later
// changes no view. The store keeps each policy as its CREATE POLICY
// statement, a table's flags as ALTER TABLE statements and a role's
// BYPASSRLS as ALTER ROLE, recreated after the tables and roles at open.
// The catalogs are rowsecurity_catalog.go's.

// KindPolicy is the kind of a stored policy; KindRowSecurity that of a
// table's row security flags.
const (
	KindPolicy      RelKind = "policy"
	KindRowSecurity RelKind = "row security"
)

// policy is one policy of a table.
type policy struct {
	sql.Policy
	table string
	roles []string // "" for PUBLIC
}

// tableRLS is a table's row-level security.
type tableRLS struct {
	enabled, forced bool
	policies        []*policy // in name order
}

func (p *policy) storeName() string { return "policy " + p.Name + " on " + p.table }

func (p *policy) text() string {
	return sql.PolicySQL(p.Name, p.table, p.Permissive, p.Cmd, p.roles, p.Using, p.Check)
}

func rowSecurityStoreName(table string) string { return "row security on " + table }

// appliesTo reports whether the policy applies to a role holding the
// privileges of the roles held: it names PUBLIC or one of them, as
// PostgreSQL's check_role_for_policy.
func (p *policy) appliesTo(held []string) bool {
	for _, r := range p.roles {
		if r == "" || slices.Contains(held, r) {
			return true
		}
	}
	return false
}

// rlsFor is the table's row security, made on first use.
func (e *Engine) rlsFor(table string) *tableRLS {
	if e.rls == nil {
		e.rls = map[string]*tableRLS{}
	}
	r := e.rls[table]
	if r == nil {
		r = &tableRLS{}
		e.rls[table] = r
	}
	return r
}

// rowSecurityCtx is what a statement's catalog needs to apply row
// security: the role it acts as, when that role does not bypass it.
type rowSecurityCtx struct {
	role string
	held []string // the roles whose privileges role holds (heldRoles)
	off  bool     // row_security = off
}

// rowSecurity returns the session's row security context; nil when its
// role bypasses row security. The caller holds the engine's lock.
func (s *Session) rowSecurity() *rowSecurityCtx {
	if s.role == "" || len(s.e.rls) == 0 {
		return nil
	}
	if r := s.e.roles[s.role]; r != nil && (r.superuser || r.bypassRLS) {
		return nil
	}
	v, _ := s.setting("row_security")
	return &rowSecurityCtx{role: s.role, held: s.e.heldRoles(s.role), off: v == "off"}
}

// securityOf is the row security a statement acting as ctx meets on the
// table named name; nil when none applies.
func (e *Engine) securityOf(ctx *rowSecurityCtx, name string) *sql.RowSecurity {
	if ctx == nil {
		return nil
	}
	r := e.rls[name]
	if r == nil || !r.enabled {
		return nil
	}
	if !r.forced && slices.Contains(ctx.held, e.relOwner(name)) {
		return nil // its owner bypasses it, as a member of the owner
	}
	if ctx.off {
		return &sql.RowSecurity{Err: pgerr.New(pgerr.InsufficientPrivilege, "query would be affected by row-level security policy for table %q", name)}
	}
	sec := &sql.RowSecurity{}
	for _, p := range r.policies {
		if p.appliesTo(ctx.held) {
			pp := p.Policy
			sec.Policies = append(sec.Policies, &pp)
		}
	}
	return sec
}

// policyRoles resolves a policy's roles: every named one must exist.
func (s *Session) policyRoles(rs []sql.PolicyRole) ([]string, error) {
	var out []string
	for _, r := range rs {
		name := r.Name
		switch {
		case r.Public:
			name = ""
		case r.Current:
			name = s.userName()
		case r.Session:
			name = s.sessionUserName()
		default:
			if _, ok := s.e.roles[name]; !ok && name != SuperuserName {
				return nil, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", name)
			}
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	if slices.Contains(out, "") {
		// PUBLIC covers every role, as PostgreSQL keeps it.
		out = []string{""}
	}
	return out, nil
}

// storePolicy records p in the store, replacing what it held under old.
func (e *Engine) storePolicy(p *policy, old string) error {
	if e.store == nil || isTemp(p.table) { // a temporary table's is the session's
		return nil
	}
	if old != "" {
		if err := e.store.Drop([]string{old}); err != nil {
			return err
		}
	}
	return e.store.Create(&StoredRelation{Name: p.storeName(), Kind: KindPolicy, SQL: p.text()})
}

func (s *Session) createPolicy(c *sql.CreatePolicy) (Result, error) {
	e := s.e
	r := e.rlsFor(c.Table)
	for _, p := range r.policies {
		if p.Name == c.Name {
			return Result{}, pgerr.New(pgerr.DuplicateObject, "policy %q for table %q already exists", c.Name, e.bareName(c.Table))
		}
	}
	roles, err := s.policyRoles(c.Roles)
	if err != nil {
		return Result{}, err
	}
	p := &policy{Policy: sql.Policy{Name: c.Name, Cmd: c.Cmd, Permissive: c.Permissive, Using: c.Using, Check: c.Check},
		table: c.Table, roles: roles}
	if err := e.storePolicy(p, ""); err != nil {
		return Result{}, err
	}
	r.policies = append(r.policies, p)
	sort.Slice(r.policies, func(i, j int) bool { return r.policies[i].Name < r.policies[j].Name })
	return Result{Tag: "CREATE POLICY"}, nil
}

// findPolicy returns the table's policy named name (42704 when none).
func (e *Engine) findPolicy(name, table string) (*tableRLS, int, error) {
	if r := e.rls[table]; r != nil {
		for i, p := range r.policies {
			if p.Name == name {
				return r, i, nil
			}
		}
	}
	return nil, -1, pgerr.New(pgerr.UndefinedObject, "policy %q for table %q does not exist", name, e.bareName(table))
}

func (s *Session) alterPolicy(a *sql.AlterPolicy) (Result, error) {
	e := s.e
	r, i, err := e.findPolicy(a.Name, a.Table)
	if err != nil {
		return Result{}, err
	}
	old := r.policies[i]
	p := *old
	if a.NewName != "" {
		for _, q := range r.policies {
			if q.Name == a.NewName {
				return Result{}, pgerr.New(pgerr.DuplicateObject, "policy %q for table %q already exists", a.NewName, e.bareName(a.Table))
			}
		}
		p.Name = a.NewName
	}
	if len(a.Roles) > 0 {
		if p.roles, err = s.policyRoles(a.Roles); err != nil {
			return Result{}, err
		}
	}
	if a.Using != nil {
		if p.Cmd == sql.PolicyInsert {
			return Result{}, pgerr.New(pgerr.SyntaxError, "only WITH CHECK expression allowed for INSERT")
		}
		p.Using = *a.Using
	}
	if a.Check != nil {
		if p.Cmd == sql.PolicySelect || p.Cmd == sql.PolicyDelete {
			return Result{}, pgerr.New(pgerr.SyntaxError, "only USING expression allowed for SELECT, DELETE")
		}
		p.Check = *a.Check
	}
	if err := e.storePolicy(&p, old.storeName()); err != nil {
		return Result{}, err
	}
	if err := e.renameMemberComment("policy", a.Table, old.Name, p.Name); err != nil {
		return Result{}, err
	}
	*old = p
	sort.Slice(r.policies, func(i, j int) bool { return r.policies[i].Name < r.policies[j].Name })
	return Result{Tag: "ALTER POLICY"}, nil
}

func (e *Engine) dropPolicy(d *sql.DropPolicy) (Result, error) {
	if _, ok := e.tables[d.Table]; !ok && d.IfExists {
		return Result{Tag: "DROP POLICY", Notices: []string{e.missingTableSkip(d.Table)}}, nil
	}
	r, i, err := e.findPolicy(d.Name, d.Table)
	if err != nil {
		if d.IfExists {
			return Result{Tag: "DROP POLICY", Notices: []string{fmt.Sprintf("policy %q for relation %q does not exist, skipping", d.Name, d.Written)}}, nil
		}
		return Result{}, err
	}
	if e.store != nil && !isTemp(d.Table) {
		if err := e.store.Drop([]string{r.policies[i].storeName()}); err != nil {
			return Result{}, err
		}
	}
	r.policies = slices.Delete(r.policies, i, i+1)
	return Result{Tag: "DROP POLICY"}, nil
}

func (e *Engine) alterRowSecurity(a *sql.AlterRowSecurity) (Result, error) {
	if a.IfExistsMissed {
		return Result{Tag: "ALTER TABLE", Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", a.Table)}}, nil
	}
	r := e.rlsFor(a.Table)
	next := *r
	if a.Enable != nil {
		next.enabled = *a.Enable
	}
	if a.Force != nil {
		next.forced = *a.Force
	}
	if e.store != nil && !isTemp(a.Table) {
		name := rowSecurityStoreName(a.Table)
		if err := e.store.Drop([]string{name}); err != nil {
			return Result{}, err
		}
		var stmts []string
		if next.enabled {
			stmts = append(stmts, "ALTER TABLE "+sql.QuoteIdent(a.Table)+" ENABLE ROW LEVEL SECURITY")
		}
		if next.forced {
			stmts = append(stmts, "ALTER TABLE "+sql.QuoteIdent(a.Table)+" FORCE ROW LEVEL SECURITY")
		}
		if len(stmts) > 0 {
			if err := e.store.Create(&StoredRelation{Name: name, Kind: KindRowSecurity, SQL: strings.Join(stmts, ";\n")}); err != nil {
				return Result{}, err
			}
		}
	}
	r.enabled, r.forced = next.enabled, next.forced
	return Result{Tag: "ALTER TABLE"}, nil
}

// tableRLSNames are the store's names of the policies and flags of the
// tables in gone, which go with them.
func (e *Engine) tableRLSNames(gone map[string]bool) []string {
	var out []string
	for name, r := range e.rls {
		if gone[name] && !isTemp(name) {
			out = append(out, rowSecurityStoreName(name))
			for _, p := range r.policies {
				out = append(out, p.storeName())
			}
		}
	}
	return out
}

// hasRowSecurity reports whether the table has row security enabled or
// policies: its name and columns cannot change (a policy's text names
// them).
func (e *Engine) hasRowSecurity(table string) bool {
	r := e.rls[table]
	return r != nil && (r.enabled || r.forced || len(r.policies) > 0)
}

// policyOfRole lists the policies that name role, for DROP ROLE; "" for
// none.
func (e *Engine) policyOfRole(role string) string {
	var lines []string
	for _, r := range e.rls {
		for _, p := range r.policies {
			if slices.Contains(p.roles, role) {
				lines = append(lines, fmt.Sprintf("target of policy %s on table %s", p.Name, p.table))
			}
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// sameRowSecurity reports whether a statement bound under a meets the
// same row-level security under b: a binding is kept only then.
// rowSecOff reports whether the session's row_security is off, while
// some table has row security (false otherwise: nothing depends on it).
func (s *Session) rowSecOff() bool {
	if len(s.e.rls) == 0 {
		return false
	}
	v, _ := s.setting("row_security")
	return v == "off"
}

// sameBindSecurity reports whether a statement bound with rec may run
// again in the session as it was bound: the same role's row security and
// the same row_security, which the row security of the views' owners
// follows whoever the role is (PostgreSQL plans again when it changes).
func (s *Session) sameBindSecurity(rec *recorder) bool {
	return sameRowSecurity(rec.rowSec, s.rowSecurity()) && rec.rowSecOff == s.rowSecOff()
}

func sameRowSecurity(a, b *rowSecurityCtx) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.role == b.role && a.off == b.off && slices.Equal(a.held, b.held)
}

// mustOwnPolicyTable returns an error (42501) unless the session's role
// owns the table a statement of row-level security changes, itself or
// as a member of its owner (has_privs_of_role), or is a superuser.
func (s *Session) mustOwnPolicyTable(b sql.Bound) error {
	var table string
	switch b := b.(type) {
	case *sql.CreatePolicy:
		table = b.Table
	case *sql.AlterPolicy:
		table = b.Table
	case *sql.DropPolicy:
		table = b.Table
	case *sql.AlterRowSecurity:
		table = b.Table
	}
	if owner := s.e.relOwner(table); owner != SuperuserName && s.e.hasPrivsOf(s.role, owner) {
		return nil
	}
	if err := s.mustBeSuperuser("change row-level security"); err != nil {
		what := "table"
		if _, drop := b.(*sql.DropPolicy); drop {
			what = "relation" // as PostgreSQL words it
		}
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", what, s.e.bareName(table))
	}
	return nil
}

// rowChecker applies a statement's row-level security checks to the
// rows it writes: at once when they are expressions, else (a policy
// with a subquery) to all of them once they are known.
type rowChecker struct {
	c    *sql.RowChecks
	rows []value.Row
}

func (rc *rowChecker) row(r value.Row) error {
	if rc.c.Empty() {
		return nil
	}
	if rc.c.Plan == nil {
		return sql.CheckRow(rc.c.Exprs, r)
	}
	rc.rows = append(rc.rows, slices.Clone(r))
	return nil
}

// finish checks the rows kept, over the snapshot of the statement that
// started when the log was mark long.
func (rc *rowChecker) finish(e *Engine, mark int) error {
	if rc.c.Empty() || rc.c.Plan == nil || len(rc.rows) == 0 {
		return nil
	}
	rows, err := e.runTargets(rc.c.Plan, mark, given(rc.rows))
	if err != nil {
		return err
	}
	return rc.c.CheckPlanRows(rows)
}

// allowedTyped is allowed for a typed change (the Go API's Insert,
// Update, Delete…): a change that row-level security would check is
// refused for a role that does not bypass it, since a typed change has no
// statement to bind the policies into.
func (s *Session) allowedTyped(table string, priv sql.Privilege) error {
	if err := s.allowed(table, priv); err != nil {
		return err
	}
	if sec := s.e.securityOf(s.rowSecurity(), table); sec != nil {
		if sec.Err != nil {
			return sec.Err
		}
		return pgerr.New(pgerr.FeatureNotSupported, "typed changes to table %q under row-level security are not supported for a role that does not bypass it", table).
			WithHint("write the change as INSERT, UPDATE or DELETE, whose rows the table's policies check")
	}
	return nil
}

// KindRoleBypassRLS is the kind of a role's BYPASSRLS in the store, kept
// as an ALTER ROLE statement run after the roles are loaded.
const KindRoleBypassRLS RelKind = "role bypassrls"

func bypassRLSStoreName(role string) string { return "bypassrls of " + role }

// storeBypassRLS records r's BYPASSRLS, new or changed, in the store.
func (e *Engine) storeBypassRLS(r *role) error {
	if e.store == nil {
		return nil
	}
	name := bypassRLSStoreName(r.name)
	if err := e.store.Drop([]string{name}); err != nil {
		return err
	}
	if !r.bypassRLS {
		return nil
	}
	return e.store.Create(&StoredRelation{Name: name, Kind: KindRoleBypassRLS, SQL: "ALTER ROLE " + sql.QuoteIdent(r.name) + " BYPASSRLS"})
}

// dropBypassRLS forgets the BYPASSRLS of dropped roles in the store.
func (e *Engine) dropBypassRLS(roles []string) error {
	names := make([]string, len(roles))
	for i, r := range roles {
		names[i] = bypassRLSStoreName(r)
	}
	return e.store.Drop(names)
}
