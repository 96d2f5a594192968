package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/scram"
	"github.com/deltaview/deltaview/internal/sql"
)

// role is a role of the catalog. Its password is kept only as a
// SCRAM-SHA-256 verifier, from which it cannot be recovered.
type role struct {
	name      string
	login     bool
	superuser bool
	verifier  string // empty for none: the role cannot log in with a password
	// bypassRLS is BYPASSRLS: row-level security does not apply to the
	// role (rowsecurity.go keeps it in the store).
	bypassRLS bool
	// memberOf are the roles it is a member of (role_members.go).
	memberOf []roleGrant
	// noInherit is NOINHERIT: the role holds the privileges of the roles
	// it is a member of only after SET ROLE to them (role_inherit.go).
	noInherit bool
}

// RoleInfo is what a server needs of a role to let it in.
type RoleInfo struct {
	Name      string
	Login     bool
	Superuser bool
	// Verifier is the role's SCRAM-SHA-256 verifier when HasPassword.
	Verifier    scram.Verifier
	HasPassword bool
	// Connect is set when the role may connect to the database: a
	// superuser, or a role holding CONNECT on it (database_acl.go).
	Connect bool
}

// HasRoles reports whether any role exists: until one does, a server lets
// in its built-in superuser without a password.
func (e *Engine) HasRoles() bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	roles, _ := e.committedRoles()
	return len(roles) > 0
}

// committedRoles are the roles as committed: while a transaction block
// that changed the catalog is open, those of the image taken before its
// first change (txddl_image.go), with what they were then (roleCats). A
// login reads them: as in PostgreSQL, a new connection does not see a role
// that an open transaction created, altered or dropped.
func (e *Engine) committedRoles() (map[string]*role, map[*role]role) {
	if d := e.txd; d != nil && len(d.undo) > 0 {
		im := d.undo[0].im
		return im.roles, im.roleCats
	}
	return e.roles, nil
}

// Role returns the role named name.
func (e *Engine) Role(name string) (RoleInfo, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	roles, then := e.committedRoles()
	p, ok := roles[name]
	if !ok {
		return RoleInfo{}, false
	}
	r := *p
	if then != nil {
		r = then[p]
	}
	acl := e.dbACL
	if d := e.txd; d != nil && len(d.undo) > 0 {
		acl = d.undo[0].im.dbACL // as committed, as the roles
	}
	info := RoleInfo{Name: r.name, Login: r.login, Superuser: r.superuser, Connect: e.mayConnect(r.name, r.superuser, acl)}
	info.Verifier, info.HasPassword = scram.Parse(r.verifier)
	return info, true
}

// SetRole makes the session log in as the role named name: its statements
// are checked against the role's privileges. A session without a role
// (the default) may do anything, as a superuser.
func (s *Session) SetRole(name string) error {
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	if _, ok := s.e.roles[name]; !ok {
		return pgerr.New(pgerr.UndefinedObject, "role %q does not exist", name)
	}
	s.login, s.superuserIsRole = name, name == SuperuserName
	s.applyRole()
	return nil
}

// RoleName returns the session's role; empty when it has none.
func (s *Session) RoleName() string { return s.role }

// Superuser reports whether the session may do anything: it has no role,
// or a superuser one.
func (s *Session) Superuser() bool {
	if s.role == "" {
		return true
	}
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	r := s.e.roles[s.role]
	return r != nil && r.superuser
}

// CheckSelect returns an error (42501) unless the session may read the
// relation named name: for a caller that reads a view outside a statement
// (a subscription).
func (s *Session) CheckSelect(name string) error {
	if s.role == "" {
		return nil
	}
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	return s.allowed(name, sql.PrivSelect)
}

// allowed returns an error (42501) unless the session's role holds priv
// on the relation named name; the caller holds the engine's lock. A name
// that is no relation is let through, for the statement to report.
func (s *Session) allowed(name string, priv sql.Privilege) error {
	if s.role == "" {
		return nil
	}
	e := s.e
	r := e.roles[s.role]
	if r == nil {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied: role %q was dropped", s.role)
	}
	if r.superuser {
		return nil
	}
	kind, ok := e.kindOf(name)
	if !ok {
		// A system view, readable by every role but those kept from
		// PUBLIC, or no relation.
		return superuserCatalogError(name)
	}
	if err := s.schemaAllowed(name); err != nil {
		return err
	}
	held := e.heldRoles(s.role)
	if slices.Contains(held, e.owners[name]) && e.ownerHoldsAll(name) {
		return nil // the owner holds every privilege (owner.go), and its members
	}
	g := e.relGrants(name)
	have := g[""]
	for _, h := range held {
		have |= g[h]
	}
	if missing := priv &^ have; missing != 0 {
		what := map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}[kind]
		err := pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", what, e.bareName(name))
		if e.colGrants[name] != nil {
			return err // as PostgreSQL's: a grant on the relation is not the only way
		}
		return err.WithHint("role %q needs %s on %q: a superuser grants it with GRANT %s ON %s TO %s", s.role, missing, name, missing, name, s.role)
	}
	return nil
}

// mustBeSuperuser returns an error (42501) unless the session's role is a
// superuser; what says what it may not do.
func (s *Session) mustBeSuperuser(what string) error {
	if s.role == "" {
		return nil
	}
	if r := s.e.roles[s.role]; r != nil && r.superuser {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to %s", what).
		WithHint("only superusers may; role %q is not one", s.role)
}

// authorize checks that the session's role may run b, whose binding
// resolved the relations rec recorded, and call the routines it calls
// (routine_acl.go), after its relations as PostgreSQL checks them; the
// caller holds the engine's lock.
func (s *Session) authorize(b sql.Bound, rec *recorder) error {
	if err := s.authorizeRole(b, rec); err != nil {
		return err
	}
	if cv, ok := b.(*sql.CreateView); ok && !cv.Materialized {
		return nil // a plain view's query is checked when read, as PostgreSQL's
	}
	return s.authorizeViews(rec) // whoever reads them (view_owner_acl.go)
}

// authorizeRole checks that the session's role may run b on the
// relations it names and call the routines it calls.
func (s *Session) authorizeRole(b sql.Bound, rec *recorder) error {
	if s.role == "" {
		return s.authorizeAutoOwners(b, rec)
	}
	if r := s.e.roles[s.role]; r != nil && r.superuser {
		return s.authorizeAutoOwners(b, rec)
	}
	if err := s.authorizeStmt(b, rec); err != nil {
		return err
	}
	var proc *sql.Function
	if c, ok := b.(*sql.Call); ok {
		proc = c.Proc
	}
	return s.authorizeCalls(rec, proc)
}

// authorizeStmt checks that the session's role, no superuser, may run b
// on the relations rec recorded.
func (s *Session) authorizeStmt(b sql.Bound, rec *recorder) error {
	// readAll needs SELECT on every relation the statement names itself
	// but skip (a view's own reads are the view's business).
	readAll := func(skip string) error {
		for _, name := range rec.direct {
			if name == skip {
				continue
			}
			need := rec.columnsRead(name)
			need.anyRead = true
			if err := s.allowedCols(rec, name, sql.PrivSelect, need); err != nil {
				return err
			}
		}
		for _, name := range rec.seqs {
			if err := s.seqAllowed(name, seqRead); err != nil {
				return err
			}
		}
		return nil
	}
	switch b := b.(type) {
	case *sql.Tx, *sql.Show, *sql.Listen, *sql.Notify:
		return nil
	case *sql.Maintenance:
		if b.Tag == "CHECKPOINT" {
			return s.mustBeSuperuser("do CHECKPOINT")
		}
		return nil
	case *sql.Set:
		if strings.HasPrefix(b.Name, "deltaview.") {
			return s.mustBeSuperuser(fmt.Sprintf("set parameter %q", b.Name))
		}
		return nil
	case *sql.Select:
		if err := readAll(""); err != nil || !locks(b) {
			return err
		}
		return s.lockAllowed(rec)
	case *sql.Explain:
		switch d := b.DML.(type) {
		case *sql.Update:
			return s.allowed(d.Table, sql.PrivSelect)
		case *sql.Delete:
			return s.allowed(d.Table, sql.PrivSelect)
		}
		if b.View == nil {
			return s.allowed(b.Name, sql.PrivSelect)
		}
		return s.mustBeSuperuser("explain a view definition")
	case *sql.Subscribe:
		return s.allowed(b.View, sql.PrivSelect)
	case *sql.ExplainAnalyze:
		if b.DML != nil {
			return s.authorizeRole(b.DML, rec)
		}
		return readAll("")
	case *sql.LockTable, *sql.Refresh:
		return nil // checked as they run
	case *sql.Call:
		// EXECUTE on the procedure is checked with the routines called
		// (authorizeCalls); its statements are checked as they run, as
		// the caller's or, SECURITY DEFINER, as its owner's.
		return readAll("")
	case *sql.GrantRoutine:
		return nil // the routine's owner may grant: checked as it runs
	case *sql.GrantRole:
		return nil // a role's admin may grant it: checked as it runs
	case *sql.AlterDefaultPrivileges:
		return nil // a member of the roles it names may: checked as it runs
	case *sql.AlterTypeOwner:
		return nil // its owner may: checked as it runs (owner_alter_types.go)
	case *sql.GrantType:
		return nil // its owner may: checked as it runs (type_acl.go)
	case *sql.RenameType, *sql.AlterEnum, *sql.AlterDomain, *sql.AlterComposite, *sql.AlterSchema,
		*sql.AttachPartition, *sql.DetachPartition:
		return s.mayAlterOwned(b)
	case *sql.WithModify:
		return s.authorizeWithModify(b, rec)
	case *sql.RuleThrough:
		return s.authorizeRole(b.DML, rec) // as the statement through the view
	case *sql.RuleDML:
		// The rules' statements run with the rights of the rules' owner,
		// a superuser: the statement needs its own privilege only.
		return s.allowed(b.Table, map[byte]sql.Privilege{sql.RuleInsert: sql.PrivInsert, sql.RuleUpdate: sql.PrivUpdate, sql.RuleDelete: sql.PrivDelete}[b.Event])
	case *sql.Insert:
		priv := sql.PrivInsert
		if len(b.Returning) > 0 || (b.OnConflict != nil && !b.OnConflict.DoNothing) || slices.Contains(plan.Relations(b.Source), b.Table) {
			priv |= sql.PrivSelect
		}
		if b.OnConflict != nil && !b.OnConflict.DoNothing {
			priv |= sql.PrivUpdate
		}
		if b.Auto != nil {
			return s.authorizeAuto(b, rec, priv, readAll)
		}
		need := rec.columnsRead(b.Table)
		need.ins = b.Targets
		if s.e.conflictNeeds(b, &need) {
			priv |= sql.PrivSelect
		}
		if err := s.allowedCols(rec, b.Table, priv, need); err != nil {
			return err
		}
		return readAll(b.Table)
	case *sql.Update:
		priv := sql.PrivUpdate
		if b.Where != nil || b.Rows != nil || len(b.Returning) > 0 {
			priv |= sql.PrivSelect // as PostgreSQL: the rows are read
		}
		if b.Auto != nil {
			// Its WHERE holds the view's: SELECT when it reads the view.
			return s.authorizeAuto(b, rec, autoReadPriv(b.Auto, sql.PrivUpdate), readAll)
		}
		need := rec.columnsRead(b.Table)
		need.upd = b.SetCols
		if need.reads() {
			priv |= sql.PrivSelect // SET c = c || 'x' reads c
		}
		if err := s.allowedCols(rec, b.Table, priv, need); err != nil {
			return err
		}
		return readAll(b.Table)
	case *sql.Delete:
		priv := sql.PrivDelete
		if b.Where != nil || b.Rows != nil || len(b.Returning) > 0 {
			priv |= sql.PrivSelect
		}
		if b.Auto != nil {
			return s.authorizeAuto(b, rec, autoReadPriv(b.Auto, sql.PrivDelete), readAll)
		}
		if err := s.allowedCols(rec, b.Table, priv, rec.columnsRead(b.Table)); err != nil {
			return err
		}
		return readAll(b.Table)
	case *sql.Merge:
		priv := sql.PrivSelect // the join reads the table's rows
		for _, c := range b.Clauses {
			priv |= map[sql.MergeAction]sql.Privilege{sql.MergeUpdate: sql.PrivUpdate, sql.MergeDelete: sql.PrivDelete, sql.MergeInsert: sql.PrivInsert}[c.Action]
		}
		if err := s.allowedCols(rec, b.Table, priv, mergeNeeds(b, rec)); err != nil {
			return err
		}
		return readAll(b.Table)
	case *sql.Truncate:
		for _, name := range b.Tables {
			if err := s.allowed(name, sql.PrivTruncate); err != nil {
				return err
			}
		}
		return nil
	case *sql.Copy:
		if b.File != "" {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser or have privileges of the pg_read_server_files role to COPY from a file").
				WithHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.")
		}
		return s.allowedCols(rec, b.Table, sql.PrivInsert, colNeeds{ins: b.Cols})
	case *sql.CopyTo:
		if b.File != "" {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser or have privileges of the pg_write_server_files role to COPY to a file").
				WithHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.")
		}
		return s.authorizeRole(b.Query, rec)
	case *sql.AlterRole:
		if b.Name == s.role && b.Opts.Login == nil && b.Opts.Superuser == nil && b.Opts.Inherit == nil {
			return nil // a role may change its own password
		}
		return s.mustBeSuperuser("alter role")
	case *sql.CreateRole:
		return s.mustBeSuperuser("create role")
	case *sql.DropRole:
		return s.mustBeSuperuser("drop role")
	case *sql.GrantDatabase, *sql.GrantSchema:
		return nil // their owners may: checked as they run (grant_holder.go)
	case *sql.Grant:
		return nil // the relations' owners may: checked as it runs (grant_option.go)
	case *sql.CreateSchema:
		return s.mayCreateSchema(b) // owner_create_objects.go
	case *sql.DropSchema:
		return s.mayDropSchema(b) // owner_drop_schema.go
	case *sql.CreateFunction:
		return s.mayCreateRoutine(b)
	case *sql.CreateEnum, *sql.CreateComposite, *sql.CreateRange, *sql.CreateDomain:
		return s.mayCreateType(b)
	case *sql.DropFunction, *sql.DropType, *sql.DropDomain:
		return s.mayDropObjects(b)
	case *sql.CreateTable, *sql.CreateTableAs, *sql.CreateView, *sql.CreateSequence:
		return s.mayCreateRelation(b, rec, readAll) // owner_create.go
	case *sql.AlterTable:
		return s.mayAlterTable(b) // its owner may (owner_alter.go)
	case *sql.AlterPartition:
		return s.mayAlterOwned(b)
	case *sql.CreateIndex:
		if err := s.mustOwnRel(b.Table, "table"); err != nil {
			return err
		}
		return s.mayCreateIn(b.Table)
	case *sql.MoveRelation:
		if b.Key == "" {
			return nil // IF EXISTS of none
		}
		if err := s.mustOwnRel(b.Key, ""); err != nil {
			return err
		}
		return s.mayCreateIn(b.NewKey)
	case *sql.RenameIndex:
		if err := s.mustOwnRel(b.Key, ""); err != nil {
			return err
		}
		// A constraint's or a materialized view's index is its relation's,
		// whose owner PostgreSQL requires before CREATE on the schema.
		if err := s.mustOwnIndex(b.Key); err != nil {
			return err
		}
		return s.mayCreateIn(b.NewKey)
	case *sql.AlterFunction:
		return s.mayAlterRoutine(b)
	case *sql.CreateAggregate:
		return s.mayCreateAggregate(b) // useragg_owner.go
	case *sql.DropAggregate:
		return s.mayDropAggregates(b)
	case *sql.RenameViewColumn:
		return s.mustOwnRel(b.View, "")
	case *sql.AlterViewDefault:
		return s.mustOwnRel(b.View, "")
	case *sql.Comment:
		switch b.Kind {
		case sql.CommentTable, sql.CommentView, sql.CommentMatView, sql.CommentSequence, sql.CommentIndex:
			return s.mustOwnRel(b.Relation, "")
		case sql.CommentColumn:
			return s.mustOwnRel(b.Relation, "relation")
		case sql.CommentConstraint, sql.CommentTrigger, sql.CommentRule, sql.CommentPolicy:
			return s.mustOwnRel(b.Object, "relation") // the relation whose Member it is
		case sql.CommentStatistics:
			return s.mustOwnStats(b.Object)
		}
		return s.mustBeSuperuser("comment on this object")
	case *sql.CreateEventTrigger:
		if s.mustBeSuperuser("") != nil {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create event trigger %q", b.Name).
				WithHint("Must be superuser to create an event trigger.")
		}
		return nil
	case *sql.AlterEventTrigger:
		return s.mayAlterEventTrigger([]string{b.Name}, false)
	case *sql.DropEventTrigger:
		return s.mayAlterEventTrigger(b.Names, b.IfExists)
	case *sql.CreatePolicy, *sql.AlterPolicy, *sql.DropPolicy, *sql.AlterRowSecurity:
		return s.mustOwnPolicyTable(b)
	case *sql.CreateTrigger, *sql.DropTrigger, *sql.AlterTriggers, *sql.RenameTrigger, *sql.CreateRule, *sql.DropRule, *sql.RenameRule,
		*sql.AlterRules, *sql.Cluster, *sql.Reindex, *sql.AlterRelOwner:
		return s.mayChangeOwned(b) // owner_change.go
	case *sql.Drop:
		if b.Kind == sql.DropIndex {
			for _, name := range b.Names {
				if err := s.mustOwnIndex(name); err != nil {
					return err
				}
			}
			return nil
		}
		return s.mustOwnRelations(b.Names, b.Kind, false)
	case *sql.DropSequence:
		return s.mustOwnRelations(b.Names, 0, true)
	case *sql.AlterSequence:
		return s.mustOwnRelations([]string{b.Name}, 0, true)
	case *sql.CreateStatistics, *sql.DropStatistics, *sql.AlterStatistics, *sql.AlterStatisticsOwner:
		return s.mayStatistics(b) // statistics_owner.go
	case *sql.CreateCollation, *sql.DropCollation, *sql.AlterCollation:
		return s.mayCollation(b) // collation_privileges.go
	case *sql.AlterMatViewOptions:
		return nil // its owner's, checked once the name is looked up (matview_options.go)
	}
	return s.mustBeSuperuser("run this statement")
}

// setPassword stores the verifier of password in r: password itself when
// it is a SCRAM-SHA-256 verifier already. An empty password clears it, as
// in PostgreSQL, with a notice.
func setPassword(r *role, password string) ([]string, error) {
	if password == "" {
		r.verifier = ""
		return []string{"empty string is not a valid password, clearing password"}, nil
	}
	if v, ok := scram.Parse(password); ok {
		r.verifier = v.String()
		return nil, nil
	}
	v, err := scram.NewVerifier(password)
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "cannot derive a password verifier: %v", err)
	}
	r.verifier = v.String()
	return nil, nil
}

func applyRoleOptions(r *role, o sql.RoleOptions) ([]string, error) {
	if o.Login != nil {
		r.login = *o.Login
	}
	if o.Superuser != nil {
		r.superuser = *o.Superuser
	}
	if o.BypassRLS != nil {
		r.bypassRLS = *o.BypassRLS
	}
	if o.Inherit != nil {
		r.noInherit = !*o.Inherit
	}
	if o.ClearPassword {
		r.verifier = ""
	}
	if o.Password != nil {
		return setPassword(r, *o.Password)
	}
	return nil, nil
}

func (e *Engine) createRole(c *sql.CreateRole) (Result, error) {
	if c.Name == "public" || c.Name == "" {
		return Result{}, pgerr.New("42939", "role name %q is reserved", c.Name)
	}
	if _, ok := e.roles[c.Name]; ok {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "role %q already exists", c.Name)
	}
	r := &role{name: c.Name}
	notices, err := applyRoleOptions(r, c.Opts)
	if err != nil {
		return Result{}, err
	}
	if err := e.storeRole(r); err != nil {
		return Result{}, err
	}
	if err := e.storeBypassRLS(r); err != nil {
		return Result{}, err
	}
	if err := e.storeNoInherit(r); err != nil {
		return Result{}, err
	}
	if e.roles == nil {
		e.roles = map[string]*role{}
	}
	e.roles[c.Name] = r
	return Result{Tag: "CREATE ROLE", Notices: notices}, nil
}

func (e *Engine) alterRole(a *sql.AlterRole) (Result, error) {
	r, ok := e.roles[a.Name]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", a.Name)
	}
	c := *r
	notices, err := applyRoleOptions(&c, a.Opts)
	if err != nil {
		return Result{}, err
	}
	if err := e.storeRole(&c); err != nil {
		return Result{}, err
	}
	if err := e.storeBypassRLS(&c); err != nil {
		return Result{}, err
	}
	if err := e.storeNoInherit(&c); err != nil {
		return Result{}, err
	}
	*r = c
	return Result{Tag: "ALTER ROLE", Notices: notices}, nil
}

// dropRole drops roles and every privilege granted to them.
func (s *Session) dropRole(d *sql.DropRole) (Result, error) {
	e := s.e
	var notices, gone []string
	for _, name := range d.Names {
		if _, ok := e.roles[name]; !ok {
			if d.IfExists {
				notices = append(notices, fmt.Sprintf("role %q does not exist, skipping", name))
				continue
			}
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", name)
		}
		if name == s.role {
			return Result{}, pgerr.New("55006", "current user cannot be dropped")
		}
		if deps := e.roleDependents(name); len(deps) > 0 {
			return Result{}, &pgerr.Error{Code: pgerr.DependentObjects,
				Message: fmt.Sprintf("role %q cannot be dropped because some objects depend on it", name), Detail: strings.Join(deps, "\n")}
		}
		gone = append(gone, name)
	}
	if e.store != nil && len(gone) > 0 {
		if err := e.store.DropRoles(gone); err != nil {
			return Result{}, err
		}
		if err := e.dropBypassRLS(gone); err != nil {
			return Result{}, err
		}
		if err := e.dropNoInherit(gone); err != nil {
			return Result{}, err
		}
	}
	if err := e.dropMemberships(gone); err != nil {
		return Result{}, err
	}
	for _, name := range gone {
		delete(e.roles, name)
		for rel, g := range e.grants {
			for key := range g {
				if grantee, grantor := splitItemKey(key, ""); grantee == name || grantor == name {
					delete(g, key)
					e.noteGrant(rel, key, 0)
				}
			}
		}
	}
	return Result{Tag: "DROP ROLE", Notices: notices}, nil
}

// grantPrivsOn is the privileges g gives or takes on rel, as PostgreSQL's
// ExecGrant_Relation reads them: a sequence has SELECT, UPDATE and USAGE
// (ALL is those three), and a statement ON TABLE naming one gives only
// those, with a WARNING for the others; ON SEQUENCE of another relation
// is 42809.
func (e *Engine) grantPrivsOn(g *sql.Grant, rel string) (sql.Privilege, string, error) {
	const seqPrivs = sql.PrivSelect | sql.PrivUpdate | sql.PrivUsage
	isSeq := e.seqs[rel] != nil
	switch {
	case g.Sequence && !isSeq:
		return 0, "", pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", e.bareName(rel))
	case !isSeq || g.Sequence:
		return g.Privs, "", nil
	case g.All:
		return seqPrivs, "", nil
	case g.Privs&^seqPrivs != 0:
		return g.Privs & seqPrivs, fmt.Sprintf("sequence %q only supports USAGE, SELECT, and UPDATE privileges", e.bareName(rel)), nil
	}
	return g.Privs, "", nil
}

// storeRole records r, new or changed, in the store.
func (e *Engine) storeRole(r *role) error {
	if e.store == nil {
		return nil
	}
	return e.store.SaveRole(StoredRole{Name: r.name, Login: r.login, Superuser: r.superuser, Verifier: r.verifier})
}

// Roles lists the catalog's roles, sorted by name: for a server's
// catalog queries (psql's \du).
func (e *Engine) Roles() []RoleInfo {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]RoleInfo, 0, len(e.roles))
	for _, r := range e.roles {
		info := RoleInfo{Name: r.name, Login: r.login, Superuser: r.superuser, Connect: e.mayConnect(r.name, r.superuser, e.dbACL)}
		info.Verifier, info.HasPassword = scram.Parse(r.verifier)
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// pruneGrants forgets the privileges on relations and sequences that no
// longer exist, so that one created again under the same name starts with
// none.
func (e *Engine) pruneGrants() {
	for name := range e.grants {
		if _, ok := e.kindOf(name); !ok && e.seqs[name] == nil {
			delete(e.grants, name)
			delete(e.grantOrder, name)
		}
	}
}

// Grants lists the privileges granted, as "relation role privileges"
// lines sorted by relation and role (PUBLIC for every role): for tests and
// tools.
func (e *Engine) Grants() []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []string
	for rel, m := range e.grants {
		for name, p := range m {
			if name == ownItemMark {
				continue // no item (acl_owner.go)
			}
			if name == "" || name[0] == 0 {
				name = "PUBLIC" + name
			}
			out = append(out, fmt.Sprintf("%s %s %s", rel, strings.ReplaceAll(name, "\x00", "/"), p))
		}
	}
	sort.Strings(out)
	return slices.Clip(out)
}
