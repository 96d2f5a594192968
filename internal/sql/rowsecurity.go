package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Row-level security, as PostgreSQL 15 applies it (its rowsecurity.c):
// the catalog hangs a RowSecurity on a table that has it enabled when the
// statement's role does not bypass it, with the policies that apply to
// that role. A table read in FROM is filtered by its SELECT policies; an
// UPDATE's or DELETE's target by that command's USING expressions (and
// the SELECT policies' when the statement reads the rows), ANDed into
// WHERE; the rows an INSERT or UPDATE writes are checked against the
// command's WITH CHECK expressions (RowCheck), the permissive ones ORed
// into one check, each restrictive one its own. No permissive policy is
// false: the table is denied. A policy's text is parsed again for each
// statement, so that binding it never shares a tree between statements.

// RowSecurity is what row-level security asks of a statement of a role
// that does not bypass it on a table where it is enabled.
type RowSecurity struct {
	// Policies are those of the table that apply to the role, in name
	// order.
	Policies []*Policy
	// Err, when set, is raised by any statement on the table: row_security
	// is off and the table's policies would apply.
	Err error
}

// Policy is one policy of a table, as RowSecurity gives it.
type Policy struct {
	Name       string
	Cmd        byte // PolicyAll, PolicySelect, …
	Permissive bool
	// Using and Check are the expressions' text; "" for none.
	Using, Check string
}

// RowCheck is a check of a row an INSERT or UPDATE writes: Expr, over
// the table's row, must be true (NULL fails), or the statement fails
// with Err.
type RowCheck struct {
	Expr expr.Expr
	Err  *pgerr.Error
}

// RowChecks are row-level security's checks of the rows a statement
// writes: expressions over each row, or, when a policy's expression
// holds a subquery, Plan, over a plan.Target of the rows written, whose
// rows (one per row, in order) hold each check's outcome in the column
// of its Errs. The plan runs once the statement's rows are known, over
// its snapshot, as PostgreSQL's checks read it.
type RowChecks struct {
	Exprs []RowCheck
	Plan  plan.Node
	Errs  []*pgerr.Error
}

// Empty reports whether there is nothing to check.
func (c *RowChecks) Empty() bool { return c == nil || (len(c.Exprs) == 0 && c.Plan == nil) }

// CheckPlanRows checks the rows Plan returned.
func (c *RowChecks) CheckPlanRows(rows []value.Row) error {
	for _, r := range rows {
		for i, v := range r {
			if v.IsNull() || !v.Bool() {
				e := *c.Errs[i]
				return &e
			}
		}
	}
	return nil
}

// CheckRow returns the error of the first check row fails.
func CheckRow(checks []RowCheck, row value.Row) error {
	for _, c := range checks {
		v, err := c.Expr.Eval(row)
		if err != nil {
			return err
		}
		if v.IsNull() || !v.Bool() {
			e := *c.Err
			return &e
		}
	}
	return nil
}

// policyNode parses a policy's expression. Its nodes' positions are
// cleared (-1): they would be read against the statement's text, which
// is not the policy's.
func policyNode(text string) (*pg_query.Node, error) {
	res, err := pg_query.Parse("SELECT WHERE " + text)
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "a policy's expression does not parse: %v", err)
	}
	n := res.Stmts[0].Stmt.GetSelectStmt().WhereClause
	walk(n.ProtoReflect(), func(m protoreflect.Message) {
		if fd := m.Descriptor().Fields().ByName("location"); fd != nil && fd.Kind() == protoreflect.Int32Kind {
			m.Set(fd, protoreflect.ValueOfInt32(-1))
		}
	})
	return n, nil
}

func boolNode(op pg_query.BoolExprType, args []*pg_query.Node) *pg_query.Node {
	if len(args) == 1 {
		return args[0]
	}
	return &pg_query.Node{Node: &pg_query.Node_BoolExpr{BoolExpr: &pg_query.BoolExpr{Boolop: op, Args: args, Location: -1}}}
}

func falseNode() *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{
		Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: false}}, Location: -1}}}
}

// applies reports whether p applies to the command cmd.
func (p *Policy) applies(cmd byte) bool { return p.Cmd == PolicyAll || p.Cmd == cmd }

// securityFilter is the condition a row of the table must meet to be
// seen by cmd: the permissive policies' USING ORed (false without one),
// ANDed with every restrictive one's.
func (sec *RowSecurity) securityFilter(cmd byte) (*pg_query.Node, error) {
	var perm, restr []*pg_query.Node
	for _, p := range sec.Policies {
		if !p.applies(cmd) || p.Using == "" {
			continue
		}
		n, err := policyNode(p.Using)
		if err != nil {
			return nil, err
		}
		if p.Permissive {
			perm = append(perm, n)
		} else {
			restr = append(restr, n)
		}
	}
	if len(perm) == 0 {
		return falseNode(), nil
	}
	return boolNode(pg_query.BoolExprType_AND_EXPR, append([]*pg_query.Node{boolNode(pg_query.BoolExprType_OR_EXPR, perm)}, restr...)), nil
}

// policyCheck is one check of written rows, unbound.
type policyCheck struct {
	node   *pg_query.Node
	policy string // the restrictive policy's name; "" for the permissive ones
}

// securityChecks are the checks of rows cmd writes: of each policy, its
// WITH CHECK, or else its USING (only USING with useUsing, for the SELECT
// policies a statement that returns rows must also meet, and the existing
// row ON CONFLICT DO UPDATE updates).
func (sec *RowSecurity) securityChecks(cmd byte, useUsing bool) ([]policyCheck, error) {
	var perm []*pg_query.Node
	var restr []policyCheck
	for _, p := range sec.Policies {
		if !p.applies(cmd) {
			continue
		}
		text := p.Check
		if text == "" || useUsing {
			text = p.Using
		}
		if text == "" {
			continue
		}
		n, err := policyNode(text)
		if err != nil {
			return nil, err
		}
		if p.Permissive {
			perm = append(perm, n)
		} else {
			restr = append(restr, policyCheck{node: n, policy: p.Name})
		}
	}
	first := policyCheck{node: falseNode()}
	if len(perm) > 0 {
		first.node = boolNode(pg_query.BoolExprType_OR_EXPR, perm)
	}
	return append([]policyCheck{first}, restr...), nil
}

// rowSecurityStmt is the statement a policy's expression is bound as:
// its positions are not the statement's.
var rowSecurityStmt = &Stmt{}

// policyBinder is a binder for a table's policy expressions, which may
// read other tables (and their policies) but not the same table's again.
func (b *binder) policyBinder(table string, loc int32) (*binder, error) {
	for _, t := range b.rlsOpen {
		if t == table {
			return nil, b.stmt.errf(loc, pgerr.InvalidObjectDef, "infinite recursion detected in policy for relation %q", table)
		}
	}
	return &binder{cat: b.cat, stmt: rowSecurityStmt, stmtClock: b.stmtClock, forView: b.forView, rows: b.rowCounts(),
		rlsOpen: append(append([]string{}, b.rlsOpen...), table)}, nil
}

// wrapPolicyErr says which table's policies an error of binding came from.
func wrapPolicyErr(err error, table string) error {
	e := *pgerr.Wrap(err)
	e.Position = 0
	e.Message = fmt.Sprintf("%s (in a row-level security policy of table %q)", e.Message, table)
	return &e
}

// secureScan filters a table read in FROM by its SELECT policies.
func (b *binder) secureScan(rel *Relation, p plan.Node, sc *scope, loc int32) (plan.Node, error) {
	sec := rel.Security
	if sec.Err != nil {
		return nil, sec.Err
	}
	cond, err := sec.securityFilter(PolicySelect)
	if err != nil {
		return nil, err
	}
	sub, err := b.policyBinder(rel.Name, loc)
	if err != nil {
		return nil, err
	}
	sc.allowScalar = true
	out, err := sub.bindWhere(sc, p, cond)
	sc.allowScalar = false
	if err != nil {
		if pgerr.Code(err) == pgerr.InvalidObjectDef {
			return nil, err
		}
		return nil, wrapPolicyErr(err, rel.Name)
	}
	// A scalar subquery's join adds its columns: the table's row is the
	// scan's alone.
	if cols := p.Columns(); len(out.Columns()) != len(cols) {
		exprs := make([]expr.Expr, len(cols))
		for i, c := range cols {
			exprs[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
		}
		out = &plan.Project{Input: out, Exprs: exprs, Cols: cols}
	}
	return out, nil
}

// securityWhere returns where ANDed, before it, with the USING
// expressions of cmd's policies on the target rel (under alias), and of
// the SELECT policies when the statement reads the rows; where itself
// when rel has no row security.
func (b *binder) securityWhere(rel *Relation, alias string, cmd byte, reads bool, where *pg_query.Node) (*pg_query.Node, error) {
	sec := rel.Security
	if sec == nil {
		return where, nil
	}
	if sec.Err != nil {
		return nil, sec.Err
	}
	for _, t := range b.rlsOpen {
		if t == rel.Name {
			return nil, pgerr.New(pgerr.InvalidObjectDef, "infinite recursion detected in policy for relation %q", rel.Name)
		}
	}
	cond, err := sec.securityFilter(cmd)
	if err != nil {
		return nil, err
	}
	conds := []*pg_query.Node{cond}
	if reads {
		c, err := sec.securityFilter(PolicySelect)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	for _, c := range conds {
		qualifyPolicyColumns(c, rel, alias)
	}
	if where != nil {
		conds = append(conds, where)
	}
	return boolNode(pg_query.BoolExprType_AND_EXPR, conds), nil
}

// qualifyPolicyColumns makes a policy's references to the table's
// columns, bare or under the table's name, references under alias, the
// name the statement gives the table, so that a FROM or USING list
// cannot capture them. A subquery's own references are left alone.
func qualifyPolicyColumns(n *pg_query.Node, rel *Relation, alias string) {
	var visit func(x *pg_query.Node) bool
	visit = func(x *pg_query.Node) bool {
		if sl := x.GetSubLink(); sl != nil {
			if sl.Testexpr != nil {
				walkNodesPruned(sl.Testexpr.ProtoReflect(), visit)
			}
			return false
		}
		cr := x.GetColumnRef()
		if cr == nil {
			return true
		}
		f := cr.Fields
		switch {
		case len(f) == 1 && f[0].GetString_() != nil && colIndex(rel.Cols, f[0].GetString_().Sval) >= 0:
			cr.Fields = append([]*pg_query.Node{stringNode(alias)}, f...)
		case len(f) == 2 && f[0].GetString_() != nil && f[0].GetString_().Sval == rel.Name:
			cr.Fields = []*pg_query.Node{stringNode(alias), f[1]}
		}
		return false
	}
	walkNodesPruned(n.ProtoReflect(), visit)
}

func stringNode(s string) *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: s}}}
}

// securityRowChecks binds the checks of the rows cmd writes to rel, and
// with reads the SELECT policies' checks of those rows too (RETURNING).
func (b *binder) securityRowChecks(rel *Relation, cmd byte, reads bool) (*RowChecks, error) {
	sec := rel.Security
	if sec == nil {
		return nil, nil
	}
	if sec.Err != nil {
		return nil, sec.Err
	}
	checks, err := sec.securityChecks(cmd, false)
	if err != nil {
		return nil, err
	}
	if reads {
		more, err := sec.securityChecks(PolicySelect, true)
		if err != nil {
			return nil, err
		}
		checks = append(checks, more...)
	}
	return b.bindRowChecks(rel, checks, "")
}

// conflictRowChecks binds the checks of INSERT … ON CONFLICT DO UPDATE,
// as PostgreSQL's: the existing row must meet the UPDATE and SELECT
// policies' USING (an error, not a filter: "(USING expression)"), the row
// the update makes their UPDATE WITH CHECK and SELECT USING. Conditions
// with subqueries are refused here.
func (b *binder) conflictRowChecks(rel *Relation) (existing, updated *RowChecks, err error) {
	sec := rel.Security
	old, err := sec.securityChecks(PolicyUpdate, true)
	if err != nil {
		return nil, nil, err
	}
	sel, err := sec.securityChecks(PolicySelect, true)
	if err != nil {
		return nil, nil, err
	}
	if existing, err = b.bindRowChecks(rel, append(old, sel...), " (USING expression)"); err != nil {
		return nil, nil, err
	}
	if updated, err = b.securityRowChecks(rel, PolicyUpdate, true); err != nil {
		return nil, nil, err
	}
	if existing.Plan != nil || updated.Plan != nil {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "INSERT … ON CONFLICT DO UPDATE on table %q whose row-level security policies hold a subquery is not supported for a role that does not bypass them", rel.Name).
			WithHint("write the policies' conditions over the row's own columns, or write the upsert as UPDATE and INSERT")
	}
	return existing, updated, nil
}

// bindRowChecks binds checks over rel's row; what qualifies the policy
// in their errors.
func (b *binder) bindRowChecks(rel *Relation, checks []policyCheck, what string) (*RowChecks, error) {
	sub, err := b.policyBinder(rel.Name, -1)
	if err != nil {
		return nil, err
	}
	sc := rowScope(rel.Name, relRowType(rel), rel.Cols)
	subs := false
	for _, c := range checks {
		subs = subs || hasSubLink(c.node)
	}
	out := &RowChecks{}
	if subs {
		sc.allowScalar = true
	}
	var exprs []expr.Expr
	for _, c := range checks {
		e, err := sub.bindExpr(sc, c.node)
		if err != nil {
			return nil, wrapPolicyErr(err, rel.Name)
		}
		if e, err = sub.toBool(e, "POLICY", -1); err != nil {
			return nil, wrapPolicyErr(err, rel.Name)
		}
		msg := fmt.Sprintf("new row violates row-level security policy%s for table %q", what, rel.Name)
		if c.policy != "" {
			msg = fmt.Sprintf("new row violates row-level security policy %q%s for table %q", c.policy, what, rel.Name)
		}
		perr := pgerr.New(pgerr.InsufficientPrivilege, "%s", msg)
		if subs {
			exprs = append(exprs, e)
			out.Errs = append(out.Errs, perr)
		} else {
			out.Exprs = append(out.Exprs, RowCheck{Expr: e, Err: perr})
		}
	}
	if subs {
		sc.allowScalar = false
		cols := make([]plan.Column, len(exprs))
		for i := range cols {
			cols[i] = plan.Column{Name: fmt.Sprintf("check%d", i+1), Type: value.BoolType}
		}
		out.Plan = &plan.Project{Input: applyPending(sc, &plan.Target{Name: rel.Name, Cols: rel.Cols}), Exprs: exprs, Cols: cols}
	}
	return out, nil
}

// refuseRowSecurity refuses a statement on a table under row-level
// security that is not supported there.
func refuseRowSecurity(rel *Relation, what string) error {
	if rel.Security == nil {
		return nil
	}
	if rel.Security.Err != nil {
		return rel.Security.Err
	}
	return pgerr.New(pgerr.FeatureNotSupported, "%s on table %q under row-level security is not supported for a role that does not bypass it", what, rel.Name).
		WithHint("run it as the table's owner or a superuser, or write it as INSERT, UPDATE and DELETE statements")
}

// readsTarget reports whether one of ns refers to a column of the
// target rel (under alias), bare or qualified, or to its whole row: a
// statement that does reads the rows, and meets the SELECT policies, as
// PostgreSQL's needs SELECT then.
func readsTarget(rel *Relation, alias string, ns ...*pg_query.Node) bool {
	found := false
	for _, n := range ns {
		if n == nil {
			continue
		}
		walkNodesPruned(n.ProtoReflect(), func(x *pg_query.Node) bool {
			cr := x.GetColumnRef()
			if cr == nil {
				return !found
			}
			f := cr.Fields
			first := ""
			if s := f[0].GetString_(); s != nil {
				first = s.Sval
			}
			switch {
			case len(f) == 1 && (colIndex(rel.Cols, first) >= 0 || first == alias):
				found = true
			case len(f) >= 2 && first == alias:
				found = true
			}
			return !found
		})
	}
	return found
}
