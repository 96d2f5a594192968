package engine

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TABLE … ADD, DROP and ALTER … TYPE of columns of a table that has
// rules, or that a rule names, as PostgreSQL's dependencies allow them.
// The rules are kept as their text, which names columns by name: a rule
// depends on each column its text names (by name: a column of the same
// name of another table counts too) and, through NEW.* or OLD.*, on every
// column of the table it is on. DROP COLUMN of a column a rule depends on
// is 2BP01 with PostgreSQL's DETAIL (CASCADE drops the rule, with a
// NOTICE); a column whose type changes is 0A000, PostgreSQL's; ADD
// COLUMN goes ahead unless a rule on the table reads NEW.* or OLD.*,
// which PostgreSQL expanded when the rule was made (0A000). A rename of
// the table, or of a column a rule names, stays refused (refuseRuleAlter).

// ruleAlter checks ALTER TABLE a of t against the rules on it and those
// that name it; it returns the rules DROP COLUMN … CASCADE drops and its
// notices, or PostgreSQL's error. ok is false when the ALTER renames the
// table or a column a rule names (refuseRuleAlter then says why).
func (e *Engine) ruleAlter(t *table, a *sql.AlterTable) (drop []*rule, notices []string, ok bool, err error) {
	rules := slices.Clone(e.rules[a.Table])
	for _, r := range e.rulesReading(map[string]bool{a.Table: true}) {
		if !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 {
		return nil, nil, true, nil
	}
	if a.New.Name != a.Table {
		return nil, nil, false, nil
	}
	kept := make([]bool, len(t.cols))
	added := false
	for i, o := range a.Map {
		if o < 0 {
			added = true
			continue
		}
		kept[o] = true
		if a.New.Cols[i].Name != t.cols[o].Name && slices.ContainsFunc(rules, func(r *rule) bool { return e.ruleNames(r, t.cols[o].Name) }) {
			return nil, nil, false, nil
		}
		if a.Cast[i] != nil {
			for _, r := range rules {
				if e.ruleNames(r, t.cols[o].Name) || r.table == a.Table && ruleStar(r) {
					return nil, nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of a column used by a view or rule").
						WithDetail("rule %s on %s depends on column %q", r.name, e.ruleRelKind(r), t.cols[o].Name)
				}
			}
		}
	}
	var lines []string
	for o, c := range t.cols {
		if kept[o] {
			continue
		}
		for _, r := range rules {
			if (e.ruleNames(r, c.Name) || r.table == a.Table && ruleStar(r)) && !slices.Contains(drop, r) {
				drop = append(drop, r)
				lines = append(lines, fmt.Sprintf("rule %s on %s depends on column %s of table %s", r.name, e.ruleRelKind(r), c.Name, unqualified(a.Table)))
				if len(drop) == 1 && !a.Cascade {
					err = &pgerr.Error{Code: pgerr.DependentObjects,
						Message: fmt.Sprintf("cannot drop column %s of table %s because other objects depend on it", c.Name, unqualified(a.Table)),
						Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
				}
			}
		}
	}
	if err != nil {
		err.(*pgerr.Error).Detail = strings.Join(lines, "\n")
		return nil, nil, true, err
	}
	if added {
		for _, r := range e.rules[a.Table] {
			if ruleStar(r) && !slices.Contains(drop, r) {
				return nil, nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot add a column to table %q: rule %q reads NEW.* or OLD.*, which PostgreSQL expanded when the rule was made", unqualified(a.Table), r.name).
					WithHint("DROP RULE, alter the table, then create the rule again")
			}
		}
	}
	for _, r := range drop {
		notices = append(notices, fmt.Sprintf("drop cascades to rule %s on %s", r.name, e.ruleRelKind(r)))
	}
	return drop, notices, true, nil
}

// ruleRelKind is "table t" or "view v" for the relation rule r is on.
func (e *Engine) ruleRelKind(r *rule) string {
	if e.named[r.table] != nil {
		return "view " + unqualified(r.table)
	}
	return "table " + unqualified(r.table)
}

// ruleNames reports whether rule r's condition or actions name a column
// called name: a column reference, or a column an action's INSERT lists
// (or fills, without a list) or UPDATE sets.
func (e *Engine) ruleNames(r *rule, name string) bool {
	found := false
	visit := func(n *pg_query.Node) {
		walkNodes(n, func(m *pg_query.Node) {
			switch {
			case m.GetColumnRef() != nil:
				f := m.GetColumnRef().Fields
				if s := f[len(f)-1].GetString_(); s != nil && s.Sval == name {
					found = true
				}
			case m.GetInsertStmt() != nil:
				ins := m.GetInsertStmt()
				for _, c := range ins.Cols {
					found = found || c.GetResTarget().GetName() == name
				}
				if len(ins.Cols) == 0 {
					// Without a column list: the first columns of its
					// table, as many as its rows give.
					found = found || e.insertFills(ins, name)
				}
			case m.GetUpdateStmt() != nil:
				for _, c := range m.GetUpdateStmt().TargetList {
					found = found || c.GetResTarget().GetName() == name
				}
			}
		})
	}
	visit(r.where)
	for _, a := range r.actions {
		visit(a)
	}
	return found
}

// ruleStar reports whether rule r reads NEW.* or OLD.*.
func ruleStar(r *rule) bool {
	found := false
	visit := func(n *pg_query.Node) {
		walkNodes(n, func(m *pg_query.Node) {
			if cr := m.GetColumnRef(); cr != nil && len(cr.Fields) == 2 && cr.Fields[1].GetAStar() != nil {
				if s := cr.Fields[0].GetString_(); s != nil && (strings.EqualFold(s.Sval, "new") || strings.EqualFold(s.Sval, "old")) {
					found = true
				}
			}
		})
	}
	visit(r.where)
	for _, a := range r.actions {
		visit(a)
	}
	return found
}

// insertFills reports whether ins, an INSERT without a column list,
// fills its table's column called name.
func (e *Engine) insertFills(ins *pg_query.InsertStmt, name string) bool {
	key := ins.Relation.Relname
	if sc := ins.Relation.Schemaname; sc != "" && sc != "public" {
		key = sc + "." + key
	}
	t, ok := e.tables[key]
	if !ok {
		return false
	}
	n := len(t.cols)
	if sel := ins.SelectStmt.GetSelectStmt(); sel != nil {
		if len(sel.ValuesLists) > 0 {
			n = len(sel.ValuesLists[0].GetList().GetItems())
		} else if !slices.ContainsFunc(sel.TargetList, func(t *pg_query.Node) bool {
			cr := t.GetResTarget().GetVal().GetColumnRef()
			return cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil
		}) {
			n = len(sel.TargetList)
		}
	}
	for _, c := range t.cols[:min(n, len(t.cols))] {
		if c.Name == name {
			return true
		}
	}
	return false
}
