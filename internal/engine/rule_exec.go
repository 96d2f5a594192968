package engine

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// A statement on a relation with rules runs as the statements its
// rewrite gives (rule_rewrite.go), each bound and run in turn within the
// statement's transaction, as PostgreSQL runs a rewritten query list;
// each statement an action gives is rewritten by its own target's rules,
// and a rewrite that comes back to a relation and event it is already
// rewriting is PostgreSQL's 42P17. The command tag is the original's when
// it ran, else that of the last statement of the same command an
// INSTEAD rule gave, else the command's with a count of 0.

// ruleFrame is a relation and event being rewritten, and the rewrite it
// is within.
type ruleFrame struct {
	table string
	event byte
	up    *ruleFrame
}

func (f *ruleFrame) has(table string, event byte) bool {
	for ; f != nil; f = f.up {
		if f.table == table && f.event == event {
			return true
		}
	}
	return false
}

// ranProduct is a statement of a rewrite that ran.
type ranProduct struct {
	src   ruleSource
	event byte
	res   Result
	// returning is the action's result whose RETURNING gives the
	// original's.
	returning bool
}

// rulesFor are the rules of table for event that fire now.
func (e *Engine) rulesFor(table string, event byte) []*rule {
	var out []*rule
	replica := e.replicaRole()
	for _, r := range e.rules[table] {
		if r.event == event && r.firesIn(replica) {
			out = append(out, r)
		}
	}
	return out
}

// bindRuleStmt binds a statement of a rewrite: its text parsed again, so
// that its errors point into it.
func (s *Session) bindRuleStmt(n *pg_query.Node, frame, ruled *ruleFrame) (sql.Bound, error) {
	text, err := deparseStmt(n)
	if err != nil {
		return nil, err
	}
	st, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	if st, err = s.qualify(st); err != nil {
		return nil, err
	}
	rec := &recorder{cat: s.e, seen: map[string]bool{}, text: st.SQL, rowSec: s.rowSecurity(),
		names: &nameScope{e: s.e, path: s.searchPath()}, ruleStack: frame, ruled: ruled}
	b, err := sql.Bind(rec, st)
	s.statementClock(rec) // its sequences, functions and clock: the session's
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok && pe.Position > 0 {
			c := *pe
			c.Position = 0 // a place in the rewritten text, not the user's
			return nil, &c
		}
	}
	return b, err
}

// ruleRewriteOf rewrites a statement by the rules of its target.
func (s *Session) ruleRewriteOf(rd *sql.RuleDML, rules []*rule) (*ruleRewrite, []ruleProduct, error) {
	rw, err := s.e.newRuleRewrite(rd.Table, rd.Event, clone(rd.Stmt.Node))
	if err != nil {
		return nil, nil, err
	}
	width := func(src *pg_query.Node) (int, error) {
		b, err := s.bindRuleStmt(clone(src), nil, nil)
		if err != nil {
			return 0, err
		}
		sel, ok := b.(*sql.Select)
		if !ok {
			return 0, ruleRefuse("this INSERT source on a relation with rules is not supported")
		}
		return len(sel.Plan.Columns()), nil
	}
	if err := rw.prepare(width); err != nil {
		return nil, nil, err
	}
	products, err := rw.rewrite(rules)
	return rw, products, err
}

// execRuleDML runs a statement on a relation with rules: the statements
// of its rewrite, in order.
func (s *Session) execRuleDML(rd *sql.RuleDML, stack *ruleFrame) (*ruleRewrite, []ranProduct, error) {
	e := s.e
	if rd.Params {
		var ok bool
		var err error
		if rd, ok, err = withParamValues(rd); err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, nil, ruleRefuse("%s with parameters on relation %q, which has rules, is not supported", sql.RuleEventName(rd.Event), unqualified(rd.Table)).
				WithHint("write the values into the statement (EXECUTE format(…) in PL/pgSQL)")
		}
	}
	if stack.has(rd.Table, rd.Event) {
		return nil, nil, pgerr.New(pgerr.InvalidObjectDef, "infinite recursion detected in rules for relation %q", unqualified(rd.Table))
	}
	rw, products, err := s.ruleRewriteOf(rd, e.rulesFor(rd.Table, rd.Event))
	if err != nil {
		return nil, nil, err
	}
	if !rw.instead && rw.view && len(rw.quals) > 0 && !e.viewHasInstead(rd.Table, rd.Event) {
		verb := map[byte]string{sql.RuleInsert: "insert into", sql.RuleUpdate: "update", sql.RuleDelete: "delete from"}[rd.Event]
		what := map[byte]string{sql.RuleInsert: "inserting into", sql.RuleUpdate: "updating", sql.RuleDelete: "deleting from"}[rd.Event]
		ev := sql.RuleEventName(rd.Event)
		return nil, nil, pgerr.New("55000", "cannot %s view %q", verb, unqualified(rd.Table)).
			WithDetail("Views with conditional DO INSTEAD rules are not automatically updatable.").
			WithHint("To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.", what, ev, ev)
	}
	frame := &ruleFrame{table: rd.Table, event: rd.Event, up: stack}
	var ran []ranProduct
	for _, p := range products {
		var ruled *ruleFrame
		if p.src == srcOriginal {
			ruled = frame
		}
		b, err := s.bindRuleStmt(p.node, frame, ruled)
		if err != nil {
			return nil, nil, err
		}
		var res Result
		switch b := b.(type) {
		case *sql.RuleDML:
			_, sub, err := s.execRuleDML(b, frame)
			if err != nil {
				return nil, nil, err
			}
			for i := range sub {
				if sub[i].src == srcOriginal {
					sub[i].src = p.src
					sub[i].returning = p.returning
				} else {
					sub[i].returning = false
				}
			}
			ran = append(ran, sub...)
			continue
		case *sql.Insert:
			res, err = e.atomically(func() (Result, error) { return e.execInsert(b) })
			res.Columns = b.RetCols
		case *sql.Update:
			res, err = e.atomically(func() (Result, error) { return e.execUpdate(b) })
			res.Columns = b.RetCols
		case *sql.Delete:
			res, err = e.atomically(func() (Result, error) { return e.execDelete(b) })
			res.Columns = b.RetCols
		case *sql.Select:
			res, err = execSelect(b.Plan, e.queryBudget(s.source()))
		case *sql.Notify: // a NOTIFY action, once per statement, as in PostgreSQL
			res, err = s.execNotify(b)
		default:
			err = ruleRefuse("this statement in a rule's rewrite is not supported")
		}
		if err != nil {
			return nil, nil, err
		}
		ran = append(ran, ranProduct{src: p.src, event: p.event, res: res, returning: p.returning})
	}
	return rw, ran, nil
}

// viewHasInstead reports whether view has an INSTEAD OF trigger for the
// rule event.
func (e *Engine) viewHasInstead(view string, event byte) bool {
	op := map[byte]int16{sql.RuleInsert: sql.TriggerInsert, sql.RuleUpdate: sql.TriggerUpdate, sql.RuleDelete: sql.TriggerDelete}[event]
	for _, tr := range e.triggers[view] {
		if tr.typ&sql.TriggerInstead != 0 && tr.typ&op != 0 {
			return true
		}
	}
	return false
}

// unqualified is a relation's name without its schema.
func unqualified(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// execRules runs a statement on a relation with rules and gives its
// result: the command tag, and its RETURNING rows.
func (s *Session) execRules(rd *sql.RuleDML) (Result, error) {
	rw, ran, err := s.execRuleDML(rd, nil)
	if err != nil {
		return Result{}, err
	}
	verb := sql.RuleEventName(rd.Event)
	count := int64(0)
	out := Result{}
	found := false
	for _, r := range ran {
		if r.src == srcOriginal {
			out, found = r.res, true
			break
		}
	}
	if !found {
		for _, r := range ran {
			if r.event == rd.Event && (r.src == srcInstead || r.src == srcQualInstead) {
				count = int64(tagCount(r.res.Tag))
			}
		}
		if hasReturning(rw.orig) {
			for _, r := range ran {
				if r.returning {
					if out, err = s.ruleReturning(rw, r.res); err != nil {
						return Result{}, err
					}
				}
			}
		}
		out.Tag = verb + " " + strconv.FormatInt(count, 10)
		if rd.Event == sql.RuleInsert {
			out.Tag = "INSERT 0 " + strconv.FormatInt(count, 10)
		}
	}
	out.HasRows = hasReturning(rw.orig)
	if !out.HasRows {
		// A SELECT action's rows go to the client, as PostgreSQL's do,
		// with the statement's command tag.
		for _, r := range ran {
			if r.event == 0 && r.res.Columns != nil {
				out.Columns, out.Rows, out.HasRows = r.res.Columns, r.res.Rows, true
			}
		}
	}
	return out, nil
}

// ruleReturning computes the original statement's RETURNING over the
// rows the RETURNING of an INSTEAD rule's action gave, which stand for
// the rows of the original's target.
func (s *Session) ruleReturning(rw *ruleRewrite, res Result) (Result, error) {
	var list []*pg_query.Node
	switch {
	case rw.orig.GetInsertStmt() != nil:
		list = rw.orig.GetInsertStmt().ReturningList
	case rw.orig.GetUpdateStmt() != nil:
		list = rw.orig.GetUpdateStmt().ReturningList
	case rw.orig.GetDeleteStmt() != nil:
		list = rw.orig.GetDeleteStmt().ReturningList
	}
	if len(res.Columns) != len(rw.cols) {
		return Result{}, pgerr.New(pgerr.InvalidObjectDef, "RETURNING list has %d entries where relation %q has %d columns", len(res.Columns), unqualified(rw.table), len(rw.cols))
	}
	alias := rw.tref
	if alias == "" {
		alias = unqualified(rw.table)
		if ins := rw.orig.GetInsertStmt(); ins.Relation.Alias != nil {
			alias = ins.Relation.Alias.Aliasname
		}
	}
	inner := &pg_query.SelectStmt{}
	types := make([]value.Type, len(res.Columns))
	for i, c := range res.Columns {
		types[i] = c.Type
		p := &pg_query.Node{Node: &pg_query.Node_ParamRef{ParamRef: &pg_query.ParamRef{Number: int32(i + 1), Location: -1}}}
		inner.TargetList = append(inner.TargetList, resTarget(rw.cols[i], castNode(p, rw.types[i])))
	}
	sel := &pg_query.SelectStmt{TargetList: make([]*pg_query.Node, len(list)), FromClause: []*pg_query.Node{{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Subquery: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: inner}}, Alias: &pg_query.Alias{Aliasname: alias}}}}}}
	for i, t := range list {
		sel.TargetList[i] = clone(t)
	}
	text, err := deparseStmt(&pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}})
	if err != nil {
		return Result{}, err
	}
	st, err := sql.Parse(text)
	if err != nil {
		return Result{}, err
	}
	bd, err := s.bindPL(st, types)
	if err != nil {
		return Result{}, err
	}
	s.statementClock(bd.rec)
	b, ok := bd.bound.(*sql.Select)
	if !ok {
		return Result{}, ruleRefuse("this RETURNING on a relation with rules is not supported")
	}
	out := Result{Columns: b.Plan.Columns()}
	for _, row := range res.Rows {
		for i, p := range bd.params {
			p.V, p.Set = row[i], true
		}
		r, err := execSelect(b.Plan, s.e.queryBudget(s.source()))
		if err != nil {
			return Result{}, err
		}
		out.Rows = append(out.Rows, r.Rows...)
	}
	return out, nil
}
