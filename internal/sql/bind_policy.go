package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// Row-level security's statements: CREATE POLICY, ALTER POLICY (roles,
// expressions, RENAME TO), DROP POLICY, and ALTER TABLE … ENABLE |
// DISABLE | FORCE | NO FORCE ROW LEVEL SECURITY. A policy's expressions
// are checked here against the table's columns and kept as text, which
// rowsecurity.go parses again for each statement it applies to.

// Policy commands, as pg_policy.polcmd spells them.
const (
	PolicyAll    byte = '*'
	PolicySelect byte = 'r'
	PolicyInsert byte = 'a'
	PolicyUpdate byte = 'w'
	PolicyDelete byte = 'd'
)

// PolicyRole is a role a policy applies to: PUBLIC, CURRENT_USER or
// SESSION_USER (resolved when the statement runs), or a role by name.
type PolicyRole struct {
	Name                     string
	Public, Current, Session bool
}

// CreatePolicy is CREATE POLICY name ON table [AS PERMISSIVE |
// RESTRICTIVE] [FOR cmd] [TO roles] [USING (…)] [WITH CHECK (…)].
type CreatePolicy struct {
	Name, Table  string
	Permissive   bool
	Cmd          byte
	Roles        []PolicyRole // PUBLIC when none is named
	Using, Check string       // the expressions' text; "" for none
}

// AlterPolicy is ALTER POLICY name ON table [RENAME TO new | [TO roles]
// [USING (…)] [WITH CHECK (…)]]: what is nil (or empty) is left as it is.
type AlterPolicy struct {
	Name, Table  string
	NewName      string
	Roles        []PolicyRole
	Using, Check *string
}

// DropPolicy is DROP POLICY [IF EXISTS] name ON table.
type DropPolicy struct {
	Name, Table string
	IfExists    bool
	// Written is the table's name as the statement wrote it, which the
	// notice of IF EXISTS prints.
	Written string
}

// AlterRowSecurity is ALTER TABLE table ENABLE | DISABLE | FORCE | NO
// FORCE ROW LEVEL SECURITY (several, in order): each field is nil when
// no subcommand sets it.
type AlterRowSecurity struct {
	Table          string
	Enable, Force  *bool
	IfExistsMissed bool // ALTER TABLE IF EXISTS of no table: a notice
}

func (*CreatePolicy) bound()     {}
func (*AlterPolicy) bound()      {}
func (*DropPolicy) bound()       {}
func (*AlterRowSecurity) bound() {}

// bindRowSecurityStmt binds the statements of row-level security; ok is
// false for other statements.
func (b *binder) bindRowSecurityStmt(n *pg_query.Node) (Bound, bool, error) {
	switch {
	case n.GetCreatePolicyStmt() != nil:
		bd, err := b.bindCreatePolicy(n.GetCreatePolicyStmt())
		return bd, true, err
	case n.GetAlterPolicyStmt() != nil:
		bd, err := b.bindAlterPolicy(n.GetAlterPolicyStmt())
		return bd, true, err
	case n.GetDropStmt() != nil && n.GetDropStmt().RemoveType == pg_query.ObjectType_OBJECT_POLICY:
		ds := n.GetDropStmt()
		if len(ds.Objects) != 1 {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "DROP POLICY of several policies is not supported")
		}
		names := ds.Objects[0].GetList().GetItems()
		if len(names) < 2 {
			return nil, true, pgerr.New(pgerr.SyntaxError, "syntax error in DROP POLICY")
		}
		table := names[len(names)-2].GetString_().Sval
		if len(names) == 3 && names[0].GetString_().Sval != "public" {
			return nil, true, pgerr.New(pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", names[0].GetString_().Sval, table)
		}
		d := &DropPolicy{Name: names[len(names)-1].GetString_().Sval, Table: table, IfExists: ds.MissingOk, Written: b.memberTable(names)}
		if _, err := b.policyTable(table, -1, ds.MissingOk); err != nil {
			return nil, true, err
		}
		return d, true, nil
	case n.GetRenameStmt() != nil && n.GetRenameStmt().RenameType == pg_query.ObjectType_OBJECT_POLICY:
		rs := n.GetRenameStmt()
		if _, err := b.policyTable(rs.Relation.Relname, rs.Relation.Location, false); err != nil {
			return nil, true, err
		}
		return &AlterPolicy{Name: rs.Subname, Table: rs.Relation.Relname, NewName: rs.Newname}, true, nil
	case n.GetAlterTableStmt() != nil:
		return b.bindAlterRowSecurity(n.GetAlterTableStmt())
	}
	return nil, false, nil
}

// policyTable resolves the table a policy is on: a view or another
// relation is 42809, as in PostgreSQL. With missingOK, a missing table
// gives a nil relation.
func (b *binder) policyTable(name string, loc int32, missingOK bool) (*Relation, error) {
	rel, ok := b.cat.Relation(name)
	if !ok {
		if missingOK {
			return nil, nil
		}
		return nil, b.stmt.errf(loc, pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if rel.Kind != KindTable || rel.System {
		return nil, b.stmt.errf(loc, pgerr.WrongObjectType, "%q is not a table", name)
	}
	return rel, nil
}

var policyCmds = map[string]byte{"all": PolicyAll, "select": PolicySelect, "insert": PolicyInsert, "update": PolicyUpdate, "delete": PolicyDelete}

func (b *binder) bindCreatePolicy(cp *pg_query.CreatePolicyStmt) (Bound, error) {
	rv := cp.Table
	if rv.Schemaname != "" && rv.Schemaname != "public" {
		return nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", rv.Schemaname, rv.Relname)
	}
	rel, err := b.policyTable(rv.Relname, rv.Location, false)
	if err != nil {
		return nil, err
	}
	out := &CreatePolicy{Name: cp.PolicyName, Table: rel.Name, Permissive: cp.Permissive, Cmd: policyCmds[cp.CmdName]}
	switch {
	case out.Cmd == PolicySelect && cp.WithCheck != nil, out.Cmd == PolicyDelete && cp.WithCheck != nil:
		return nil, pgerr.New(pgerr.SyntaxError, "WITH CHECK cannot be applied to SELECT or DELETE")
	case out.Cmd == PolicyInsert && cp.Qual != nil:
		return nil, pgerr.New(pgerr.SyntaxError, "only WITH CHECK expression allowed for INSERT")
	}
	if out.Roles, err = b.policyRoles(cp.Roles); err != nil {
		return nil, err
	}
	if out.Using, err = b.policyExprText(rel, cp.Qual); err != nil {
		return nil, err
	}
	if out.Check, err = b.policyExprText(rel, cp.WithCheck); err != nil {
		return nil, err
	}
	return out, nil
}

func (b *binder) bindAlterPolicy(ap *pg_query.AlterPolicyStmt) (Bound, error) {
	rv := ap.Table
	rel, err := b.policyTable(rv.Relname, rv.Location, false)
	if err != nil {
		return nil, err
	}
	out := &AlterPolicy{Name: ap.PolicyName, Table: rel.Name}
	if len(ap.Roles) > 0 {
		if out.Roles, err = b.policyRoles(ap.Roles); err != nil {
			return nil, err
		}
	}
	if ap.Qual != nil {
		s, err := b.policyExprText(rel, ap.Qual)
		if err != nil {
			return nil, err
		}
		out.Using = &s
	}
	if ap.WithCheck != nil {
		s, err := b.policyExprText(rel, ap.WithCheck)
		if err != nil {
			return nil, err
		}
		out.Check = &s
	}
	return out, nil
}

// policyRoles reads TO's roles; none is PUBLIC.
func (b *binder) policyRoles(ns []*pg_query.Node) ([]PolicyRole, error) {
	if len(ns) == 0 {
		return []PolicyRole{{Public: true}}, nil
	}
	out := make([]PolicyRole, 0, len(ns))
	for _, n := range ns {
		r := n.GetRoleSpec()
		switch {
		case r == nil:
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error in a policy's roles")
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_PUBLIC:
			out = append(out, PolicyRole{Public: true})
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_CURRENT_USER, r.Roletype == pg_query.RoleSpecType_ROLESPEC_CURRENT_ROLE:
			out = append(out, PolicyRole{Current: true})
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_SESSION_USER:
			out = append(out, PolicyRole{Session: true})
		default:
			out = append(out, PolicyRole{Name: r.Rolename})
		}
	}
	return out, nil
}

// policyExprText checks a policy's expression over the table's row and
// returns its text; "" for none.
func (b *binder) policyExprText(rel *Relation, n *pg_query.Node) (string, error) {
	if n == nil {
		return "", nil
	}
	if hasAggregate(n) {
		return "", b.stmt.errf(nodeLoc(n, -1), pgerr.GroupingError, "aggregate functions are not allowed in policy expressions")
	}
	sc := rowScope(rel.Name, relRowType(rel), rel.Cols)
	// The expression is checked as a query's would be (current_user
	// reads a statement's clock, which a query has).
	sub := &binder{cat: b.cat, stmt: b.stmt, stmtClock: &expr.StmtClock{}, rows: b.rowCounts()}
	if !hasSubLink(n) {
		e, err := sub.bindExpr(sc, n)
		if err != nil {
			return "", err
		}
		if _, err := sub.toBool(e, "POLICY", nodeLoc(n, -1)); err != nil {
			return "", err
		}
	} else if _, err := sub.bindWhere(sc, &plan.Scan{Relation: rel.Name, Cols: rel.Cols}, n); err != nil {
		return "", err
	}
	return deparseExpr(n)
}

// bindAlterRowSecurity binds an ALTER TABLE whose subcommands are all of
// row-level security; ok is false for another ALTER TABLE, and one that
// mixes them with other subcommands is refused.
func (b *binder) bindAlterRowSecurity(as *pg_query.AlterTableStmt) (Bound, bool, error) {
	out := &AlterRowSecurity{Table: as.Relation.Relname}
	yes, no := true, false
	var others bool
	for _, n := range as.Cmds {
		c := n.GetAlterTableCmd()
		switch c.GetSubtype() {
		case pg_query.AlterTableType_AT_EnableRowSecurity:
			out.Enable = &yes
		case pg_query.AlterTableType_AT_DisableRowSecurity:
			out.Enable = &no
		case pg_query.AlterTableType_AT_ForceRowSecurity:
			out.Force = &yes
		case pg_query.AlterTableType_AT_NoForceRowSecurity:
			out.Force = &no
		default:
			others = true
		}
	}
	if out.Enable == nil && out.Force == nil {
		return nil, false, nil
	}
	if others {
		return nil, true, b.refuse(as.Relation.Location, "ALTER TABLE mixing ROW LEVEL SECURITY with other subcommands is not supported").
			WithHint("run the ROW LEVEL SECURITY subcommands in an ALTER TABLE of their own")
	}
	rel, ok := b.cat.Relation(as.Relation.Relname)
	switch {
	case !ok && as.MissingOk:
		out.IfExistsMissed = true
		return out, true, nil
	case !ok:
		return nil, true, b.stmt.errf(as.Relation.Location, pgerr.UndefinedTable, "relation %q does not exist", as.Relation.Relname)
	case rel.Kind != KindTable || rel.System:
		what := map[RelKind]string{KindView: "views", KindMatView: "materialized views"}[rel.Kind]
		if what == "" {
			what = "this kind of relation"
		}
		return nil, true, pgerr.New(pgerr.WrongObjectType, "ALTER action %s cannot be performed on relation %q", rowSecurityAction(as), rel.Name).
			WithDetail("This operation is not supported for %s.", what)
	}
	return out, true, nil
}

// rowSecurityAction names the first subcommand as PostgreSQL's messages do.
func rowSecurityAction(as *pg_query.AlterTableStmt) string {
	switch as.Cmds[0].GetAlterTableCmd().GetSubtype() {
	case pg_query.AlterTableType_AT_EnableRowSecurity:
		return "ENABLE ROW SECURITY"
	case pg_query.AlterTableType_AT_DisableRowSecurity:
		return "DISABLE ROW SECURITY"
	case pg_query.AlterTableType_AT_ForceRowSecurity:
		return "FORCE ROW SECURITY"
	}
	return "NO FORCE ROW SECURITY"
}

// PolicyCmdName is polcmd as pg_policies.cmd spells it.
func PolicyCmdName(c byte) string {
	return map[byte]string{PolicyAll: "ALL", PolicySelect: "SELECT", PolicyInsert: "INSERT", PolicyUpdate: "UPDATE", PolicyDelete: "DELETE"}[c]
}

// PolicySQL is a CREATE POLICY statement that makes the policy
// described, for the store.
func PolicySQL(name, table string, permissive bool, cmd byte, roles []string, using, check string) string {
	var sb strings.Builder
	sb.WriteString("CREATE POLICY " + QuoteIdent(name) + " ON " + QuoteIdent(table))
	if !permissive {
		sb.WriteString(" AS RESTRICTIVE")
	}
	sb.WriteString(" FOR " + PolicyCmdName(cmd) + " TO ")
	for i, r := range roles {
		if i > 0 {
			sb.WriteString(", ")
		}
		if r == "" {
			sb.WriteString("PUBLIC")
		} else {
			sb.WriteString(QuoteIdent(r))
		}
	}
	if using != "" {
		sb.WriteString(" USING (" + using + ")")
	}
	if check != "" {
		sb.WriteString(" WITH CHECK (" + check + ")")
	}
	return sb.String()
}

// viewSecurityOptions reads a plain view's security_invoker and
// security_barrier options (PostgreSQL's reloptions, boolean):
// security_barrier changes no result here, where a policy's conditions
// are applied before the view's, and is accepted.
func (b *binder) viewSecurityOptions(opts []*pg_query.Node) (invoker bool, err error) {
	for _, n := range opts {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		name := strings.ToLower(d.Defname)
		if name != "security_invoker" && name != "security_barrier" {
			continue
		}
		v := true
		if d.Arg != nil {
			s := ""
			switch {
			case d.Arg.GetString_() != nil:
				s = d.Arg.GetString_().Sval
			case d.Arg.GetBoolean() != nil:
				s = strconv.FormatBool(d.Arg.GetBoolean().Boolval)
			case d.Arg.GetInteger() != nil:
				s = strconv.Itoa(int(d.Arg.GetInteger().Ival))
			case d.Arg.GetTypeName() != nil:
				s = opName(d.Arg.GetTypeName().Names)
			}
			switch strings.ToLower(s) {
			case "true", "on", "yes", "1", "t", "y":
			case "false", "off", "no", "0", "f", "n":
				v = false
			default:
				return false, b.stmt.errf(d.Location, pgerr.InvalidParameter, "invalid value for boolean option %q: %s", name, s)
			}
		}
		if name == "security_invoker" {
			invoker = v
		}
	}
	return invoker, nil
}
