package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Rules (CREATE RULE) keep, per table or view, the list of its rules in
// name order, the order PostgreSQL's rewriter applies them in. A rule is
// a rewrite of statements, not a trigger: an INSERT, UPDATE or DELETE on
// a relation with rules for its event is rewritten before it is bound
// (rule_rewrite.go) and the statements the rewrite gives run in
// PostgreSQL's order (rule_exec.go). The views over the tables those
// statements change see ordinary changes of those tables. The store keeps
// a rule as its CREATE RULE statement, followed by the ALTER TABLE that
// disables it when it is disabled; a rule on a table goes with the table.

// KindRule is the kind of a stored rule.
const KindRule RelKind = "rule"

// rule is one rule of a table or view.
type rule struct {
	name, table string
	event       byte // sql.RuleInsert, …
	instead     bool
	where       *pg_query.Node
	actions     []*pg_query.Node
	// mode is pg_rewrite.ev_enabled: 'O' (enabled), 'D', 'A' (always),
	// 'R' (replica only).
	mode byte
}

// firesIn reports whether the rule applies under session_replication_role
// replica or not, as ev_enabled says.
func (r *rule) firesIn(replica bool) bool {
	switch r.mode {
	case 'D':
		return false
	case 'A':
		return true
	case 'R':
		return replica
	}
	return !replica
}

// storeName is the rule's name in the store, apart from relations'.
func (r *rule) storeName() string { return "rule " + r.name + " on " + r.table }

// stmt is the CREATE RULE statement that makes the rule again.
func (r *rule) stmt() string {
	rs := &pg_query.RuleStmt{Relation: rangeVarOf(r.table), Rulename: r.name, WhereClause: r.where,
		Event: map[byte]pg_query.CmdType{sql.RuleSelect: pg_query.CmdType_CMD_SELECT, sql.RuleUpdate: pg_query.CmdType_CMD_UPDATE,
			sql.RuleInsert: pg_query.CmdType_CMD_INSERT, sql.RuleDelete: pg_query.CmdType_CMD_DELETE}[r.event],
		Instead: r.instead, Actions: r.actions}
	text, err := deparseStmt(&pg_query.Node{Node: &pg_query.Node_RuleStmt{RuleStmt: rs}})
	if err != nil {
		return ""
	}
	return text
}

// storeText is what the store keeps of the rule.
func (r *rule) storeText() string {
	text := r.stmt()
	if r.mode != 'O' {
		what := map[byte]string{'D': "DISABLE", 'A': "ENABLE ALWAYS", 'R': "ENABLE REPLICA"}[r.mode]
		text += ";\nALTER TABLE " + expr.QuoteIdent(r.table) + " " + what + " RULE " + expr.QuoteIdent(r.name)
	}
	return text
}

// rangeVarOf is a RangeVar naming the relation name (the engine's name:
// "t" or "s.t").
func rangeVarOf(name string) *pg_query.RangeVar {
	rv := &pg_query.RangeVar{Relname: name, Inh: true, Relpersistence: "p", Location: -1}
	if i := strings.IndexByte(name, '.'); i > 0 {
		rv.Schemaname, rv.Relname = name[:i], name[i+1:]
	}
	return rv
}

// deparseStmt is a statement's text, as PostgreSQL's deparser writes it.
func deparseStmt(n *pg_query.Node) (string, error) {
	return pg_query.Deparse(&pg_query.ParseResult{Version: ruleTreeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: n}}})
}

// ruleTreeVersion is the parse tree version Deparse expects.
var ruleTreeVersion = sync.OnceValue(func() int32 {
	r, err := pg_query.Parse("SELECT 1")
	if err != nil {
		return 0
	}
	return r.Version
})

// storeRule records the rule in the store, replacing what it held of it.
func (e *Engine) storeRule(r *rule, replace bool) error {
	if e.store == nil || isTemp(r.table) {
		return nil
	}
	if replace {
		if err := e.store.Drop([]string{r.storeName()}); err != nil {
			return err
		}
	}
	return e.store.Create(&StoredRelation{Name: r.storeName(), Kind: KindRule, SQL: r.storeText()})
}

// ruleIndex returns the position of the rule name in list, or -1.
func ruleIndex(list []*rule, name string) int {
	return slices.IndexFunc(list, func(r *rule) bool { return r.name == name })
}

// RulesOn implements sql.RuleCatalog: whether a statement on table for
// event is rewritten by rules. A statement that a rewrite gave for the
// relation whose rules it already applied is not rewritten by them again.
func (r *recorder) RulesOn(table string, event byte) bool {
	e := r.ruleEngine()
	if e == nil || len(e.rules[table]) == 0 {
		return false
	}
	if r.ruled != nil && r.ruled.table == table && r.ruled.event == event {
		return false
	}
	if r.ruleStack != nil && r.ruleStack.has(table, event) {
		return true // infinite recursion, which the rewrite reports
	}
	replica := e.replicaRole()
	for _, ru := range e.rules[table] {
		if ru.event == event && ru.firesIn(replica) {
			return true
		}
	}
	return false
}

// HasRules implements sql.RuleCatalog.
func (r *recorder) HasRules(table string) bool {
	e := r.ruleEngine()
	return e != nil && len(e.rules[table]) > 0
}

// ruleEngine is the engine whose rules the recorder's statement meets:
// its catalog's, also under a trigger's transition tables.
func (r *recorder) ruleEngine() *Engine {
	switch c := r.cat.(type) {
	case *Engine:
		return c
	case transCatalog:
		return c.Engine
	}
	return nil
}

// AnyRules implements sql.RuleCatalog.
func (r *recorder) AnyRules() bool {
	e := r.ruleEngine()
	return e != nil && len(e.rules) > 0
}

// createRule runs CREATE [OR REPLACE] RULE.
func (s *Session) createRule(cr *sql.CreateRule) (Result, error) {
	e := s.e
	if err := s.mustOwnRel(cr.Table, ""); err != nil {
		return Result{}, err
	}
	if cr.Event == sql.RuleSelect {
		return s.createReturnRule(cr)
	}
	r := &rule{name: cr.Name, table: cr.Table, event: cr.Event, instead: cr.Instead, where: cr.Where, actions: cr.Actions, mode: 'O'}
	if cr.Name == "_RETURN" {
		// PostgreSQL's name of a view's ON SELECT rule.
		return Result{}, pgerr.New(pgerr.InvalidObjectDef, "non-view rule for %q must not be named \"_RETURN\"", cr.Table)
	}
	if err := s.checkRule(r); err != nil {
		return Result{}, err
	}
	list := e.rules[cr.Table]
	i := ruleIndex(list, cr.Name)
	if i >= 0 && !cr.Replace {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "rule %q for relation %q already exists", cr.Name, cr.Table)
	}
	if err := e.storeRule(r, i >= 0); err != nil {
		return Result{}, err
	}
	if e.rules == nil {
		e.rules = map[string][]*rule{}
	}
	if i >= 0 {
		list[i] = r
	} else {
		list = append(list, r)
		slices.SortFunc(list, func(a, b *rule) int { return strings.Compare(a.name, b.name) })
	}
	e.rules[cr.Table] = list
	return Result{Tag: "CREATE RULE"}, nil
}

// dropRule runs DROP RULE.
func (e *Engine) dropRule(d *sql.DropRule) (Result, error) {
	if d.Missing {
		return Result{Tag: "DROP RULE", Notices: []string{e.missingTableSkip(d.Table)}}, nil
	}
	i := ruleIndex(e.rules[d.Table], d.Name)
	if i < 0 {
		if d.IfExists {
			return Result{Tag: "DROP RULE", Notices: []string{fmt.Sprintf("rule %q for relation %q does not exist, skipping", d.Name, d.Written)}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedObject, "rule %q for relation %q does not exist", d.Name, e.bareName(d.Table))
	}
	if err := e.removeRules([]*rule{e.rules[d.Table][i]}); err != nil {
		return Result{}, err
	}
	return Result{Tag: "DROP RULE"}, nil
}

// removeRules drops rules, from the store first.
func (e *Engine) removeRules(gone []*rule) error {
	if e.store != nil && len(gone) > 0 {
		var names []string
		for _, r := range gone {
			if !isTemp(r.table) {
				names = append(names, r.storeName())
			}
		}
		if err := e.store.Drop(names); err != nil {
			return err
		}
	}
	for _, r := range gone {
		l := slices.DeleteFunc(e.rules[r.table], func(x *rule) bool { return x == r })
		if len(l) == 0 {
			delete(e.rules, r.table)
		} else {
			e.rules[r.table] = l
		}
	}
	return nil
}

// forgetRules drops the rules of the relations in gone, which went: the
// store has dropped them with the relation (tableRuleNames).
func (e *Engine) forgetRules(gone map[string]bool) {
	for name := range e.rules {
		if gone[name] {
			delete(e.rules, name)
		}
	}
}

// tableRuleNames are the store's names of the rules of the relations in
// gone, which go with them.
func (e *Engine) tableRuleNames(gone map[string]bool) []string {
	var out []string
	for name, l := range e.rules {
		if gone[name] {
			for _, r := range l {
				out = append(out, r.storeName())
			}
		}
	}
	return out
}

// renameRule runs ALTER RULE … RENAME TO.
func (e *Engine) renameRule(a *sql.RenameRule) (Result, error) {
	list := e.rules[a.Table]
	i := ruleIndex(list, a.Name)
	if i < 0 {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "rule %q for relation %q does not exist", a.Name, a.Table)
	}
	if a.Name == "_RETURN" {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "renaming an ON SELECT rule is not allowed")
	}
	if ruleIndex(list, a.NewName) >= 0 {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "rule %q for relation %q already exists", a.NewName, a.Table)
	}
	old := list[i]
	r := *old
	r.name = a.NewName
	if e.store != nil && !isTemp(r.table) {
		if err := e.store.Drop([]string{old.storeName()}); err != nil {
			return Result{}, err
		}
		if err := e.storeRule(&r, false); err != nil {
			return Result{}, err
		}
	}
	list[i] = &r
	slices.SortFunc(list, func(a, b *rule) int { return strings.Compare(a.name, b.name) })
	return Result{Tag: "ALTER RULE"}, nil
}

// alterRules runs ALTER TABLE … {ENABLE [ALWAYS | REPLICA] | DISABLE}
// RULE.
func (e *Engine) alterRules(a *sql.AlterRules) (Result, error) {
	list := e.rules[a.Table]
	for _, c := range a.Cmds {
		if ruleIndex(list, c.Name) < 0 {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "rule %q for relation %q does not exist", c.Name, a.Table)
		}
	}
	for _, c := range a.Cmds {
		r := list[ruleIndex(list, c.Name)]
		if r.mode == c.Mode {
			continue
		}
		was := r.mode
		r.mode = c.Mode
		if err := e.storeRule(r, true); err != nil {
			r.mode = was
			return Result{}, err
		}
	}
	return Result{Tag: "ALTER TABLE"}, nil
}

// rulesReading are the rules whose actions or condition name one of the
// relations in gone, other than their own relation's, by table then
// name: DROP of such a relation is refused without CASCADE, as
// PostgreSQL's rules depend on what they read.
func (e *Engine) rulesReading(gone map[string]bool) []*rule {
	var out []*rule
	for _, table := range sortedKeys(e.rules) {
		if gone[table] {
			continue
		}
		for _, r := range e.rules[table] {
			if slices.ContainsFunc(ruleRelations(r), func(n string) bool { return gone[n] }) {
				out = append(out, r)
			}
		}
	}
	return out
}

// ruleRelations are the names of the relations a rule's actions and
// condition name.
func ruleRelations(r *rule) []string {
	var out []string
	visit := func(n *pg_query.Node) {
		walkNodes(n, func(m *pg_query.Node) {
			if rv := m.GetRangeVar(); rv != nil {
				name := rv.Relname
				if rv.Schemaname != "" && rv.Schemaname != "public" {
					name = rv.Schemaname + "." + name
				}
				out = append(out, name)
			}
		})
	}
	visit(r.where)
	for _, a := range r.actions {
		visit(a)
		switch {
		case a.GetInsertStmt() != nil:
			out = append(out, relName(a.GetInsertStmt().Relation))
		case a.GetUpdateStmt() != nil:
			out = append(out, relName(a.GetUpdateStmt().Relation))
		case a.GetDeleteStmt() != nil:
			out = append(out, relName(a.GetDeleteStmt().Relation))
		}
	}
	return out
}

// relName is the engine's name of a RangeVar's relation.
func relName(rv *pg_query.RangeVar) string {
	if rv == nil {
		return ""
	}
	if rv.Schemaname != "" && rv.Schemaname != "public" {
		return rv.Schemaname + "." + rv.Relname
	}
	return rv.Relname
}

// dropRulesReading handles, for DROP, the rules of other relations that
// read a relation that goes: without CASCADE PostgreSQL's 2BP01, a
// DETAIL line each; with it they go, a NOTICE each.
func (e *Engine) dropRulesReading(gone map[string]bool, cascade bool, kinds map[sql.DropKind]string) ([]string, error) {
	rs := e.rulesReading(gone)
	if len(rs) == 0 {
		return nil, nil
	}
	var lines []string
	first := ""
	for _, r := range rs {
		on := ""
		for _, n := range ruleRelations(r) {
			if gone[n] && on == "" {
				on = n
			}
		}
		if first == "" {
			first = on
		}
		what := "table"
		if e.named[r.table] != nil {
			what = "view"
		}
		lines = append(lines, fmt.Sprintf("rule %s on %s %s depends on %s %s", r.name, what, r.table, kinds[e.mustKind(on)], on))
	}
	if !cascade {
		return nil, &pgerr.Error{Code: pgerr.DependentObjects,
			Message: fmt.Sprintf("cannot drop %s %s because other objects depend on it", kinds[e.mustKind(first)], first),
			Detail:  strings.Join(lines, "\n"),
			Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	if err := e.removeRules(rs); err != nil {
		return nil, err
	}
	var notes []string
	for _, r := range rs {
		what := "table"
		if e.named[r.table] != nil {
			what = "view"
		}
		notes = append(notes, fmt.Sprintf("drop cascades to rule %s on %s %s", r.name, what, r.table))
	}
	return notes, nil
}

// refuseRuleAlter refuses a change of the columns or the name of a table
// that has rules or that a rule names: the rules are kept as text, which
// would not follow, where PostgreSQL's follow the table by its oid.
func (e *Engine) refuseRuleAlter(table string) error {
	var r *rule
	if l := e.rules[table]; len(l) > 0 {
		r = l[0]
	} else if l := e.rulesReading(map[string]bool{table: true}); len(l) > 0 {
		r = l[0]
	}
	if r == nil {
		return nil
	}
	return pgerr.New(pgerr.FeatureNotSupported, "cannot change the columns or the name of table %q: rule %q on %q reads it", unqualified(table), r.name, unqualified(r.table)).
		WithHint("DROP RULE, alter the table, then create the rule again")
}
