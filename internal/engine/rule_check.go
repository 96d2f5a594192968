package engine

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// checkRule checks a rule as CREATE RULE does in PostgreSQL: what its
// actions may be, and each action bound as the rewrite of a statement on
// its relation would give it, so that a name it misspells is an error
// now rather than at the first statement.
func (s *Session) checkRule(r *rule) error {
	for _, a := range r.actions {
		if a.GetNotifyStmt() != nil {
			if r.where != nil {
				return pgerr.New("42P17", "rules with WHERE conditions can only have SELECT, INSERT, UPDATE, or DELETE actions")
			}
			continue // a NOTIFY action reads nothing: run once per statement (rule_exec.go)
		}
		if hasReturning(a) {
			switch {
			case r.where != nil:
				return pgerr.New(pgerr.FeatureNotSupported, "RETURNING lists are not supported in conditional rules")
			case !r.instead:
				return pgerr.New(pgerr.FeatureNotSupported, "RETURNING lists are not supported in non-INSTEAD rules")
			}
		}
	}
	if err := checkRuleQual(r); err != nil {
		return err
	}
	var probe string
	switch r.event {
	case sql.RuleInsert:
		probe = "INSERT INTO " + sql.QuoteIdent(r.table) + " SELECT * FROM " + sql.QuoteIdent(r.table) + " WHERE false"
	case sql.RuleUpdate:
		rw, err := s.e.newRuleRewrite(r.table, r.event, nil)
		if err != nil {
			return err
		}
		probe = "UPDATE " + sql.QuoteIdent(r.table) + " SET " + sql.QuoteIdent(rw.cols[0]) + " = " + sql.QuoteIdent(rw.cols[0]) + " WHERE false"
	case sql.RuleDelete:
		probe = "DELETE FROM " + sql.QuoteIdent(r.table) + " WHERE false"
	}
	tree, err := pg_query.Parse(probe)
	if err != nil {
		return err
	}
	rd := &sql.RuleDML{Table: r.table, Event: r.event, Stmt: &sql.Stmt{SQL: probe, Node: tree.Stmts[0].Stmt}}
	_, products, err := s.ruleRewriteOf(rd, []*rule{r})
	if err != nil {
		return err
	}
	frame := &ruleFrame{table: r.table, event: r.event}
	for _, p := range products {
		if p.src == srcOriginal {
			continue
		}
		if _, err := s.bindRuleStmt(p.node, nil, frame); err != nil {
			return err
		}
	}
	return nil
}

// checkRuleQual refuses a condition that names a relation other than NEW
// and OLD outside a subquery, as PostgreSQL's 42P01.
func checkRuleQual(r *rule) error {
	var err error
	walkNodes(r.where, func(n *pg_query.Node) {
		c := n.GetColumnRef()
		if err != nil || c == nil || len(c.Fields) < 2 {
			return
		}
		if s := c.Fields[0].GetString_(); s != nil && s.Sval != "new" && s.Sval != "old" {
			err = pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table %q", s.Sval)
		}
	})
	if err == nil && r.where != nil && walkHasSubquery(r.where) {
		return nil
	}
	return err
}

func walkHasSubquery(n *pg_query.Node) bool {
	found := false
	walkNodes(n, func(m *pg_query.Node) {
		if m.GetSubLink() != nil {
			found = true
		}
	})
	return found
}

// createReturnRule runs CREATE RULE "_RETURN" AS ON SELECT TO t DO
// INSTEAD SELECT …, which in PostgreSQL 15 makes the empty table t a view
// of the query; other ON SELECT rules get PostgreSQL's errors.
func (s *Session) createReturnRule(cr *sql.CreateRule) (Result, error) {
	e := s.e
	switch {
	case len(cr.Actions) == 0:
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "INSTEAD NOTHING rules on SELECT are not implemented").WithHint("Use views instead.")
	case len(cr.Actions) > 1:
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "multiple actions for rules on SELECT are not implemented")
	case !cr.Instead || cr.Actions[0].GetSelectStmt() == nil:
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "rules on SELECT must have action INSTEAD SELECT")
	case cr.Where != nil:
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "event qualifications are not implemented for rules on SELECT")
	}
	sel := cr.Actions[0]
	if w := sel.GetSelectStmt().WithClause; w != nil {
		for _, c := range w.Ctes {
			if q := c.GetCommonTableExpr().GetCtequery(); q != nil && q.GetSelectStmt() == nil {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "rules on SELECT must not contain data-modifying statements in WITH")
			}
		}
	}
	rel, ok := e.Relation(cr.Table)
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", cr.Table)
	}
	b, err := s.bindRuleStmt(clone(sel), nil, nil)
	if err != nil {
		return Result{}, err
	}
	q, ok := b.(*sql.Select)
	if !ok {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "rules on SELECT must have action INSTEAD SELECT")
	}
	got := q.Plan.Columns()
	for i, c := range got {
		if i >= len(rel.Cols) {
			return Result{}, pgerr.New(pgerr.InvalidObjectDef, "SELECT rule's target list has too many entries")
		}
		if c.Name != rel.Cols[i].Name {
			return Result{}, pgerr.New(pgerr.InvalidObjectDef, "SELECT rule's target entry %d has different column name from column %q", i+1, rel.Cols[i].Name).
				WithDetail("SELECT target entry is named %q.", c.Name)
		}
		if c.Type.String() != rel.Cols[i].Type.String() {
			return Result{}, pgerr.New(pgerr.InvalidObjectDef, "SELECT rule's target entry %d has different type from column %q", i+1, rel.Cols[i].Name).
				WithDetail("SELECT target entry has type %s, but column has type %s.", c.Type, rel.Cols[i].Type)
		}
	}
	if len(got) < len(rel.Cols) {
		return Result{}, pgerr.New(pgerr.InvalidObjectDef, "SELECT rule's target list has too few entries")
	}
	if rel.Kind == sql.KindView && !cr.Replace {
		return Result{}, pgerr.New("55000", "%q is already a view", unqualified(cr.Table))
	}
	if cr.Name != "_RETURN" && (len(cr.Name) < 4 || cr.Name[:4] != "_RET" || cr.Name[4:] != unqualified(cr.Table)) {
		return Result{}, pgerr.New(pgerr.InvalidObjectDef, "view rule for %q must be named \"_RETURN\"", unqualified(cr.Table))
	}
	if rel.Kind == sql.KindView {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "CREATE OR REPLACE RULE \"_RETURN\" of a view is not supported").WithHint("use CREATE OR REPLACE VIEW")
	}
	t := e.tables[cr.Table]
	name := unqualified(cr.Table)
	switch {
	case t.def.PartitionBy != nil:
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot convert partitioned table %q to a view", name)
	case rel.Partition != nil:
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot convert partition %q to a view", name)
	case t.rows.Len() > 0:
		return Result{}, pgerr.New("55000", "could not convert table %q to a view because it is not empty", name)
	case len(e.triggers[cr.Table]) > 0:
		return Result{}, pgerr.New("55000", "could not convert table %q to a view because it has triggers", name).
			WithHint("In particular, the table cannot be involved in any foreign key relationships.")
	case len(t.uniques) > 0:
		return Result{}, pgerr.New("55000", "could not convert table %q to a view because it has indexes", name)
	}
	text, err := deparseStmt(sel)
	if err != nil {
		return Result{}, err
	}
	// The table goes and the view takes its name: what reads the table
	// would have to follow it, which deltaview's views do not.
	for _, step := range []string{"DROP TABLE " + sql.QuoteIdent(cr.Table), fmt.Sprintf("CREATE VIEW %s AS %s", sql.QuoteIdent(cr.Table), text)} {
		st, err := sql.Parse(step)
		if err != nil {
			return Result{}, err
		}
		rec := &recorder{cat: e, seen: map[string]bool{}, text: step, names: &nameScope{e: e, path: s.searchPath()}}
		b, err := sql.Bind(rec, st)
		if err != nil {
			return Result{}, err
		}
		if _, err := s.execBound(b, rec); err != nil {
			return Result{}, err
		}
	}
	return Result{Tag: "CREATE RULE"}, nil
}
