package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// Rule events, as pg_rewrite.ev_type spells them.
const (
	RuleSelect byte = '1'
	RuleUpdate byte = '2'
	RuleInsert byte = '3'
	RuleDelete byte = '4'
)

// RuleEventName is the event's keyword: "INSERT".
func RuleEventName(ev byte) string {
	return map[byte]string{RuleSelect: "SELECT", RuleUpdate: "UPDATE", RuleInsert: "INSERT", RuleDelete: "DELETE"}[ev]
}

// CreateRule is CREATE [OR REPLACE] RULE name AS ON event TO table [WHERE
// cond] DO [ALSO | INSTEAD] actions. The condition and the actions stay
// trees: the engine rewrites each statement on the table with them, as
// PostgreSQL's rewriter does, and binds what it gives.
type CreateRule struct {
	Name, Table string
	Event       byte
	Instead     bool
	Replace     bool
	Where       *pg_query.Node   // nil for none
	Actions     []*pg_query.Node // none for NOTHING
	// Kind is the table's kind: KindTable or KindView.
	Kind RelKind
}

func (*CreateRule) bound() {}

// DropRule is DROP RULE [IF EXISTS] name ON table.
type DropRule struct {
	Name, Table string
	IfExists    bool
	// Missing is set when the table does not exist (IF EXISTS skips).
	Missing bool
	// Written is the table's name as the statement wrote it, which the
	// notice of IF EXISTS prints.
	Written string
}

func (*DropRule) bound() {}

// RenameRule is ALTER RULE name ON table RENAME TO newname.
type RenameRule struct {
	Table, Name, NewName string
}

func (*RenameRule) bound() {}

// RuleToggle is one ALTER TABLE … {ENABLE [ALWAYS | REPLICA] | DISABLE}
// RULE name; Mode is pg_rewrite.ev_enabled: 'O', 'D', 'A' or 'R'.
type RuleToggle struct {
	Name string
	Mode byte
}

// AlterRules is an ALTER TABLE whose commands enable or disable rules.
type AlterRules struct {
	Table string
	Cmds  []RuleToggle
}

func (*AlterRules) bound() {}

// RuleDML is an INSERT, UPDATE or DELETE on a relation with rules for its
// event: the engine rewrites it by the rules and runs what they give.
type RuleDML struct {
	Table string
	Event byte
	Stmt  *Stmt
	// Params is set when the statement has parameters ($1); Slots are
	// then their slots, by number, whose values the engine writes into
	// the tree before it rewrites it (bind_rule_params.go); nil when the
	// statement takes no parameters.
	Params bool
	Slots  []*expr.ParamSlot
}

func (*RuleDML) bound() {}

// RuleCatalog is implemented by catalogs that hold rules: RulesOn
// reports whether the relation has rules for the event that a statement
// bound now must be rewritten by.
type RuleCatalog interface {
	RulesOn(table string, event byte) bool
	// HasRules reports whether the relation has any rule, enabled or
	// not; AnyRules whether any relation has.
	HasRules(table string) bool
	AnyRules() bool
}

// ruleTarget returns the statement's target and event when it is an
// INSERT, UPDATE or DELETE on a relation with rules for its event; MERGE
// on a relation with rules, and a data-modifying WITH on a statement
// that rules rewrite, are PostgreSQL's and deltaview's errors.
func (b *binder) ruleTarget(n *pg_query.Node) (*RuleDML, bool, error) {
	rc, ok := b.cat.(RuleCatalog)
	if !ok || !rc.AnyRules() {
		return nil, false, nil // a statement's binding pays one check
	}
	var rv *pg_query.RangeVar
	var ev byte
	var with *pg_query.WithClause
	switch {
	case n.GetInsertStmt() != nil:
		rv, ev, with = n.GetInsertStmt().Relation, RuleInsert, n.GetInsertStmt().WithClause
	case n.GetUpdateStmt() != nil:
		rv, ev, with = n.GetUpdateStmt().Relation, RuleUpdate, n.GetUpdateStmt().WithClause
	case n.GetDeleteStmt() != nil:
		rv, ev, with = n.GetDeleteStmt().Relation, RuleDelete, n.GetDeleteStmt().WithClause
	case n.GetMergeStmt() != nil:
		if m := n.GetMergeStmt().Relation; m != nil {
			if rel, ok := b.cat.Relation(m.Relname); ok && rc.HasRules(rel.Name) {
				return nil, false, pgerr.New(pgerr.FeatureNotSupported, "cannot execute MERGE on relation %q", m.Relname).
					WithDetail("MERGE is not supported for relations with rules.")
			}
		}
		return nil, false, nil
	default:
		return nil, false, nil
	}
	if rv == nil {
		return nil, false, nil
	}
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok || !rc.RulesOn(rel.Name, ev) {
		return nil, false, nil
	}
	if modifies(with) {
		return nil, false, b.refuse(rv.Location, "a data-modifying WITH on a statement on relation %q, which has rules for it, is not supported", rv.Relname)
	}
	out := &RuleDML{Table: rel.Name, Event: ev, Stmt: b.stmt, Params: hasParamRef(n.ProtoReflect())}
	if out.Params {
		out.Slots = b.ruleParams(n)
	}
	return out, true, nil
}

// ruleExplainRefusal is the 0A000 of EXPLAIN of a statement that rules
// rewrite.
func ruleExplainRefusal(rd *RuleDML) error {
	return pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN of %s on relation %q, which has rules for it, is not supported", RuleEventName(rd.Event), rd.Table)
}

// hasParamRef reports whether a tree holds a parameter $n.
func hasParamRef(m protoreflect.Message) bool {
	if _, ok := m.Interface().(*pg_query.ParamRef); ok {
		return true
	}
	found := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap() || fd.Message() == nil:
		case fd.IsList():
			for i := 0; i < v.List().Len() && !found; i++ {
				found = hasParamRef(v.List().Get(i).Message())
			}
		default:
			found = hasParamRef(v.Message())
		}
		return !found
	})
	return found
}

// bindCreateRule binds CREATE RULE.
func (b *binder) bindCreateRule(rs *pg_query.RuleStmt) (Bound, error) {
	name := rs.Relation.Relname
	rel, ok := b.cat.Relation(name)
	if !ok {
		return nil, b.stmt.errf(rs.Relation.Location, pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if rel.System {
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied: %q is a system catalog", name)
	}
	out := &CreateRule{Name: rs.Rulename, Table: rel.Name, Instead: rs.Instead, Replace: rs.Replace,
		Where: rs.WhereClause, Actions: rs.Actions, Kind: rel.Kind}
	switch rs.Event {
	case pg_query.CmdType_CMD_SELECT:
		out.Event = RuleSelect
	case pg_query.CmdType_CMD_UPDATE:
		out.Event = RuleUpdate
	case pg_query.CmdType_CMD_INSERT:
		out.Event = RuleInsert
	case pg_query.CmdType_CMD_DELETE:
		out.Event = RuleDelete
	}
	switch rel.Kind {
	case KindTable, KindView:
	case KindMatView:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "rules on materialized views are not supported")
	default:
		what := map[RelKind]string{KindMatView: "materialized views", KindSequence: "sequences", KindComposite: "composite types"}[rel.Kind]
		return nil, pgerr.New(pgerr.WrongObjectType, "relation %q cannot have rules", name).
			WithDetail("This operation is not supported for %s.", what)
	}
	if rel.Partition != nil && out.Event != RuleSelect {
		return nil, b.refuse(rs.Relation.Location, "rules on partition %q are not supported", name).
			WithHint("put the rule on the partitioned table")
	}
	return out, nil
}

// bindDropRule binds DROP RULE [IF EXISTS] name ON table.
func (b *binder) bindDropRule(ds *pg_query.DropStmt) (Bound, error) {
	items := ds.Objects[0].GetList().GetItems()
	if len(ds.Objects) != 1 || len(items) < 2 {
		return nil, pgerr.New(pgerr.SyntaxError, "DROP RULE names one rule of one table")
	}
	var parts []string
	for _, it := range items[:len(items)-1] {
		parts = append(parts, it.GetString_().GetSval())
	}
	out := &DropRule{Name: items[len(items)-1].GetString_().GetSval(), Table: strings.Join(parts, "."), IfExists: ds.MissingOk, Written: b.memberTable(items)}
	rel, ok := b.cat.Relation(out.Table)
	if !ok {
		if ds.MissingOk {
			out.Missing = true
			return out, nil
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", out.Table)
	}
	out.Table = rel.Name
	return out, nil
}

// bindRenameRule binds ALTER RULE name ON table RENAME TO newname.
func (b *binder) bindRenameRule(rs *pg_query.RenameStmt) (Bound, error) {
	rel, ok := b.cat.Relation(rs.Relation.Relname)
	if !ok {
		return nil, b.stmt.errf(rs.Relation.Location, pgerr.UndefinedTable, "relation %q does not exist", rs.Relation.Relname)
	}
	return &RenameRule{Table: rel.Name, Name: rs.Subname, NewName: rs.Newname}, nil
}

// ruleToggle reads an ALTER TABLE command that enables or disables a
// rule; ok is false for another command.
func ruleToggle(cmd *pg_query.AlterTableCmd) (RuleToggle, bool) {
	switch cmd.GetSubtype() {
	case pg_query.AlterTableType_AT_EnableRule:
		return RuleToggle{Name: cmd.Name, Mode: 'O'}, true
	case pg_query.AlterTableType_AT_DisableRule:
		return RuleToggle{Name: cmd.Name, Mode: 'D'}, true
	case pg_query.AlterTableType_AT_EnableAlwaysRule:
		return RuleToggle{Name: cmd.Name, Mode: 'A'}, true
	case pg_query.AlterTableType_AT_EnableReplicaRule:
		return RuleToggle{Name: cmd.Name, Mode: 'R'}, true
	}
	return RuleToggle{}, false
}

// bindAlterRules binds an ALTER TABLE whose commands all enable or
// disable rules; nil when none does.
func (b *binder) bindAlterRules(as *pg_query.AlterTableStmt) (Bound, error) {
	out := &AlterRules{Table: as.Relation.Relname}
	for _, n := range as.Cmds {
		t, ok := ruleToggle(n.GetAlterTableCmd())
		if !ok {
			if len(out.Cmds) > 0 {
				return nil, b.refuse(as.Relation.Location, "ALTER TABLE that enables or disables rules and makes other changes is not supported").
					WithHint("run the rule commands in an ALTER TABLE of their own")
			}
			continue
		}
		out.Cmds = append(out.Cmds, t)
	}
	if len(out.Cmds) == 0 {
		return nil, nil
	}
	if len(out.Cmds) != len(as.Cmds) {
		return nil, b.refuse(as.Relation.Location, "ALTER TABLE that enables or disables rules and makes other changes is not supported").
			WithHint("run the rule commands in an ALTER TABLE of their own")
	}
	rel, ok := b.cat.Relation(out.Table)
	if !ok {
		if as.MissingOk {
			return &AlterTable{Notices: []string{"relation \"" + out.Table + "\" does not exist, skipping"}}, nil
		}
		return nil, b.stmt.errf(as.Relation.Location, pgerr.UndefinedTable, "relation %q does not exist", out.Table)
	}
	out.Table = rel.Name
	return out, nil
}

// autoRules refuses a statement on an automatically updatable view whose
// table has rules for the statement's event: PostgreSQL rewrites the
// view's statement into one on the table, which its rules then rewrite.
func (b *binder) autoRules(bd Bound, err error) (Bound, error) {
	if err != nil {
		return bd, err
	}
	rc, ok := b.cat.(RuleCatalog)
	if !ok {
		return bd, nil
	}
	var auto *AutoView
	var ev byte
	switch s := bd.(type) {
	case *Insert:
		auto, ev = s.Auto, RuleInsert
	case *Update:
		auto, ev = s.Auto, RuleUpdate
	case *Delete:
		auto, ev = s.Auto, RuleDelete
	}
	if auto != nil && rc.RulesOn(auto.Table, ev) {
		if rt, err := ruleThrough(bd, auto, ev); rt != nil || err != nil {
			return rt, err
		}
	}
	if auto != nil && rc.RulesOn(auto.Table, ev) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s through automatically updatable view %q on table %q, which has rules ON %s, is not supported",
			RuleEventName(ev), auto.View, auto.Table, RuleEventName(ev)).
			WithHint("give the view an unconditional DO INSTEAD rule, or change the table itself")
	}
	return bd, nil
}

// memberTable is the table of DROP POLICY, TRIGGER or RULE, whose names
// items end with the member's, as the statement wrote it.
func (b *binder) memberTable(items []*pg_query.Node) string {
	if b.stmt != nil && b.stmt.MemberTable != "" {
		return b.stmt.MemberTable
	}
	var parts []string
	for _, it := range items[:len(items)-1] {
		parts = append(parts, it.GetString_().GetSval())
	}
	return strings.Join(parts, ".")
}
