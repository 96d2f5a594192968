package engine

import (
	"regexp"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/sql"
)

// The rules in the catalogs: pg_rewrite has a row per rule and one named
// "_RETURN" per view (its query, as in PostgreSQL); pg_rules the rules
// but those; pg_get_ruledef their CREATE RULE as PostgreSQL's deparser
// lays it out: the header and the clauses' line breaks are PostgreSQL's,
// the expressions are written as parsed (a constant keeps no cast that
// PostgreSQL's typed tree would print, '-1'::integer for -1).

func init() {
	add := addCatalogRelation
	add("pg_catalog.pg_rewrite", "oid:oid,rulename:name,ev_class:oid,ev_type:\"char\",ev_enabled:\"char\",is_instead:boolean,ev_qual:pg_node_tree,ev_action:pg_node_tree", pgRewrite)
	add("pg_catalog.pg_rules", "schemaname:name,tablename:name,rulename:name,definition:text", pgRules)
}

// ruleOID is a rule's oid; a view's "_RETURN" rule's is by the view.
func ruleOID(table, name string) uint32 { return objectOID("rule", table+"."+name) }

func pgRewrite(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.key == "" {
			continue
		}
		if rel.kind == 'v' || rel.kind == 'm' {
			r.add("oid", ruleOID(rel.key, "_RETURN"), "rulename", "_RETURN", "ev_class", rel.oid, "ev_type", "1",
				"ev_enabled", "O", "is_instead", true, "ev_qual", "<>", "ev_action", rel.def)
		}
		for _, ru := range o.e.rules[rel.key] {
			var qual any = "<>"
			if ru.where != nil {
				qual = ruleExprText(ru.where, true)
			}
			r.add("oid", ruleOID(rel.key, ru.name), "rulename", ru.name, "ev_class", rel.oid, "ev_type", string(ru.event),
				"ev_enabled", string(ru.mode), "is_instead", ru.instead, "ev_qual", qual, "ev_action", ru.stmt())
		}
	}
}

func pgRules(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.key == "" {
			continue
		}
		for _, ru := range o.e.rules[rel.key] {
			r.add("schemaname", rel.schema, "tablename", rel.name, "rulename", ru.name, "definition", o.e.ruleDef(ru, rel.schema, false))
		}
	}
}

// ruleDefs are pg_get_ruledef's texts by the rule's oid, plain and
// pretty.
func ruleDefs(o *catalogObjects) (plain, pretty map[uint32]string) {
	plain, pretty = map[uint32]string{}, map[uint32]string{}
	for _, rel := range o.rels {
		if rel.key == "" {
			continue
		}
		for _, ru := range o.e.rules[rel.key] {
			plain[ruleOID(rel.key, ru.name)] = o.e.ruleDef(ru, rel.schema, false)
			pretty[ruleOID(rel.key, ru.name)] = o.e.ruleDef(ru, rel.schema, true)
		}
	}
	return plain, pretty
}

var plainRuleIdent = regexp.MustCompile(`^[a-z_][a-z0-9_$]*$`)

func ruleIdent(n string) string {
	if plainRuleIdent.MatchString(n) {
		return n
	}
	return sql.QuoteIdent(n)
}

// ruleDef is a rule's CREATE RULE as pg_get_ruledef writes it; pretty
// leaves the table unqualified and the conditions without their outer
// parentheses, as pg_get_ruledef(oid, true).
func (e *Engine) ruleDef(r *rule, schema string, pretty bool) string {
	var b strings.Builder
	b.WriteString("CREATE RULE " + ruleIdent(r.name) + " AS\n    ON " + sql.RuleEventName(r.event) + " TO ")
	if !pretty {
		b.WriteString(ruleIdent(schema) + ".")
	}
	b.WriteString(ruleIdent(unqualified(r.table)))
	if r.where != nil {
		b.WriteString("\n   WHERE " + ruleExprText(r.where, pretty))
	}
	b.WriteString(" DO ")
	if r.instead {
		b.WriteString("INSTEAD ")
	}
	switch len(r.actions) {
	case 0:
		b.WriteString("NOTHING;")
	case 1:
		writeRuleAction(&b, e.ruleActionText(r.actions[0], pretty), r.actions[0])
		b.WriteString(";")
	default:
		b.WriteString("(")
		for _, a := range r.actions {
			writeRuleAction(&b, e.ruleActionText(a, pretty), a)
			b.WriteString(";\n")
		}
		b.WriteString(");")
	}
	return b.String()
}

// writeRuleAction writes an action's text; a NOTIFY starts a line of its
// own, the spaces before it dropped, as ruleutils' appendContextKeyword
// writes a utility statement.
func writeRuleAction(b *strings.Builder, text string, a *pg_query.Node) {
	if a.GetNotifyStmt() == nil {
		b.WriteString(text)
		return
	}
	s := strings.TrimRight(b.String(), " ")
	b.Reset()
	b.WriteString(s + "\n " + text)
}

// ruleExprText writes an expression: the plain form parenthesizes each
// operator and AND/OR as PostgreSQL's, the pretty one only where needed.
func ruleExprText(n *pg_query.Node, pretty bool) string {
	if !pretty {
		switch {
		case n.GetAExpr() != nil && n.GetAExpr().Kind == pg_query.A_Expr_Kind_AEXPR_OP && n.GetAExpr().Lexpr != nil && len(n.GetAExpr().Name) == 1:
			a := n.GetAExpr()
			return "(" + ruleExprText(a.Lexpr, false) + " " + a.Name[0].GetString_().GetSval() + " " + ruleExprText(a.Rexpr, false) + ")"
		case n.GetBoolExpr() != nil && n.GetBoolExpr().Boolop != pg_query.BoolExprType_NOT_EXPR:
			op := " AND "
			if n.GetBoolExpr().Boolop == pg_query.BoolExprType_OR_EXPR {
				op = " OR "
			}
			var parts []string
			for _, x := range n.GetBoolExpr().Args {
				parts = append(parts, ruleExprText(x, false))
			}
			return "(" + strings.Join(parts, op) + ")"
		}
	}
	sel := &pg_query.SelectStmt{TargetList: []*pg_query.Node{resTarget("", n)}}
	text, err := deparseStmt(&pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}})
	if err != nil {
		return "?"
	}
	return strings.TrimPrefix(text, "SELECT ")
}

// qualifyCols names the relation of each unqualified column of n, as
// PostgreSQL's deparser does where a rule's NEW and OLD are in scope.
func qualifyCols(n *pg_query.Node, rel string) *pg_query.Node {
	n = clone(n)
	walkNodes(n, func(m *pg_query.Node) {
		if c := m.GetColumnRef(); c != nil && len(c.Fields) == 1 && c.Fields[0].GetString_() != nil {
			c.Fields = append([]*pg_query.Node{strNode(rel)}, c.Fields...)
		}
	})
	return n
}

// ruleActionText writes one action as PostgreSQL's deparser lays it out.
func (e *Engine) ruleActionText(a *pg_query.Node, pretty bool) string {
	exprs := func(list []*pg_query.Node, qual string) string {
		var parts []string
		for _, x := range list {
			if qual != "" {
				x = qualifyCols(x, qual)
			}
			parts = append(parts, ruleExprText(x, true))
		}
		return strings.Join(parts, ", ")
	}
	targets := func(list []*pg_query.Node) []*pg_query.Node {
		var out []*pg_query.Node
		for _, t := range list {
			out = append(out, t.GetResTarget().Val)
		}
		return out
	}
	returning := func(list []*pg_query.Node) string {
		if len(list) == 0 {
			return ""
		}
		return "\n  RETURNING " + exprs(targets(list), "")
	}
	switch {
	case a.GetNotifyStmt() != nil:
		n := a.GetNotifyStmt()
		out := "NOTIFY " + ruleIdent(n.Conditionname)
		if n.Payload != "" {
			out += ", '" + strings.ReplaceAll(n.Payload, "'", "''") + "'"
		}
		return out
	case a.GetInsertStmt() != nil:
		ins := a.GetInsertStmt()
		rel := relName(ins.Relation)
		var cols []string
		for _, c := range ins.Cols {
			cols = append(cols, ruleIdent(c.GetResTarget().Name))
		}
		s := ins.SelectStmt.GetSelectStmt()
		if len(cols) == 0 && s != nil && len(s.ValuesLists) == 1 {
			if rel, ok := e.Relation(rel); ok {
				for i := range s.ValuesLists[0].GetList().Items {
					if i < len(rel.Cols) {
						cols = append(cols, ruleIdent(rel.Cols[i].Name))
					}
				}
			}
		}
		out := " INSERT INTO " + ruleIdent(unqualified(rel))
		if len(cols) > 0 {
			out += " (" + strings.Join(cols, ", ") + ")"
		}
		switch {
		case s == nil:
			out += " DEFAULT VALUES"
		case len(s.ValuesLists) == 1:
			out += "\n  VALUES (" + exprs(s.ValuesLists[0].GetList().Items, "") + ")"
		default:
			text, _ := deparseStmt(ins.SelectStmt)
			out += "\n " + text
		}
		return out + returning(ins.ReturningList)
	case a.GetUpdateStmt() != nil:
		up := a.GetUpdateStmt()
		rel := ruleIdent(unqualified(relName(up.Relation)))
		var sets []string
		for _, t := range up.TargetList {
			rt := t.GetResTarget()
			sets = append(sets, ruleIdent(rt.Name)+" = "+ruleExprText(rt.Val, true))
		}
		out := " UPDATE " + rel + " SET " + strings.Join(sets, ", ")
		if up.WhereClause != nil {
			w := up.WhereClause
			if len(up.FromClause) == 0 {
				w = qualifyCols(w, rel)
			}
			out += "\n  WHERE " + ruleExprText(w, pretty)
		}
		return out + returning(up.ReturningList)
	case a.GetDeleteStmt() != nil:
		del := a.GetDeleteStmt()
		rel := ruleIdent(unqualified(relName(del.Relation)))
		out := " DELETE FROM " + rel
		if del.WhereClause != nil {
			w := del.WhereClause
			if len(del.UsingClause) == 0 {
				w = qualifyCols(w, rel)
			}
			out += "\n  WHERE " + ruleExprText(w, pretty)
		}
		return out + returning(del.ReturningList)
	}
	text, _ := deparseStmt(a)
	return " " + text
}
