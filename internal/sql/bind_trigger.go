package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// The bits of a trigger's type, PostgreSQL's pg_trigger.tgtype.
const (
	TriggerRow      int16 = 1 << 0 // FOR EACH ROW; else FOR EACH STATEMENT
	TriggerBefore   int16 = 1 << 1 // BEFORE; else AFTER
	TriggerInsert   int16 = 1 << 2
	TriggerDelete   int16 = 1 << 3
	TriggerUpdate   int16 = 1 << 4
	TriggerTruncate int16 = 1 << 5
	TriggerInstead  int16 = 1 << 6
)

// CreateTrigger is CREATE [OR REPLACE] TRIGGER on a table.
type CreateTrigger struct {
	Name, Table string
	Replace     bool
	// Type is pg_trigger.tgtype: TriggerRow, TriggerBefore and the
	// events the trigger fires on.
	Type int16
	// Cols are the columns of UPDATE OF, by position in the table.
	Cols []int
	// When is the WHEN condition, evaluated over the table's old row
	// followed by its new row (NULLs where a row is absent); nil for
	// none. WhenSQL is its text.
	When    expr.Expr
	WhenSQL string
	// Func is the trigger function's name, FuncSig its signature.
	Func, FuncSig string
	// Args are the arguments, as text (TG_ARGV).
	Args []string
	// OldTable and NewTable name the transition tables of REFERENCING
	// OLD TABLE AS and NEW TABLE AS; "" for none.
	OldTable, NewTable string
	// Constraint is CREATE CONSTRAINT TRIGGER (AFTER … FOR EACH ROW, by
	// the grammar), with DEFERRABLE and INITIALLY DEFERRED, and FROM's
	// table (From, "" for none).
	Constraint, Deferrable, InitDeferred bool
	From                                 string
}

// SetConstraints is SET CONSTRAINTS {ALL | name, …} {DEFERRED |
// IMMEDIATE}.
type SetConstraints struct {
	Names    []string // nil for ALL
	Deferred bool
}

func (*SetConstraints) bound() {}

// bindSetConstraints binds SET CONSTRAINTS; the engine finds the names.
func (b *binder) bindSetConstraints(cs *pg_query.ConstraintsSetStmt) (Bound, error) {
	out := &SetConstraints{Deferred: cs.Deferred}
	for _, n := range cs.Constraints {
		rv := n.GetRangeVar()
		if rv.Schemaname != "" && rv.Schemaname != "public" {
			return nil, b.stmt.errf(rv.Location, pgerr.UndefinedObject, "constraint \"%s.%s\" does not exist", rv.Schemaname, rv.Relname)
		}
		out.Names = append(out.Names, rv.Relname)
	}
	return out, nil
}

// DropTrigger is DROP TRIGGER [IF EXISTS] name ON table.
type DropTrigger struct {
	Name, Table string
	IfExists    bool
	Cascade     bool
	// Written is the table's name as the statement wrote it, which the
	// notice of IF EXISTS prints.
	Written string
}

// AlterTriggers is ALTER TABLE … {ENABLE | DISABLE} TRIGGER {name | ALL |
// USER}, one or more of them.
type AlterTriggers struct {
	Table string
	Cmds  []TriggerToggle
}

// TriggerToggle enables or disables one trigger (Name), or all of a
// table's (All; USER too, as the table has no internal ones).
type TriggerToggle struct {
	Name   string
	All    bool
	Enable bool
	// Mode is, for ENABLE ALWAYS and ENABLE REPLICA, 'A' or 'R'
	// (pg_trigger.tgenabled): when the trigger fires under
	// session_replication_role; 0 for ENABLE and DISABLE.
	Mode byte
}

func (*CreateTrigger) bound() {}
func (*DropTrigger) bound()   {}
func (*AlterTriggers) bound() {}

// bindCreateTrigger binds CREATE TRIGGER with PostgreSQL's checks, in its
// order; what the engine does not run (constraint triggers, transition
// tables, INSTEAD OF on views) is refused at its keyword.
func (b *binder) bindCreateTrigger(ct *pg_query.CreateTrigStmt) (Bound, error) {
	name := ct.Relation.Relname
	rel, ok := b.cat.Relation(name)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	out := &CreateTrigger{Name: ct.Trigname, Table: rel.Name, Replace: ct.Replace, Type: int16(ct.Events),
		Constraint: ct.Isconstraint, Deferrable: ct.Deferrable, InitDeferred: ct.Initdeferred}
	if ct.Constrrel != nil {
		if _, ok := b.cat.Relation(ct.Constrrel.Relname); !ok {
			return nil, b.stmt.errf(ct.Constrrel.Location, pgerr.UndefinedTable, "relation %q does not exist", ct.Constrrel.Relname)
		}
		out.From = ct.Constrrel.Relname
	}
	if ct.Row {
		out.Type |= TriggerRow
	}
	switch ct.Timing {
	case int32(TriggerBefore):
		out.Type |= TriggerBefore
	case int32(TriggerInstead):
		out.Type |= TriggerInstead
	}
	if rel.System {
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied: %q is a system catalog", name)
	}
	if rel.Partition != nil {
		return nil, b.refuse(ct.Relation.Location, "triggers on partition %q are not supported", name).
			WithHint("put the trigger on the partitioned table")
	}
	switch rel.Kind {
	case KindTable:
		if out.Type&TriggerInstead != 0 {
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is a table", name).
				WithDetail("Tables cannot have INSTEAD OF triggers.")
		}
	case KindView:
		if out.Type&TriggerInstead == 0 && ct.Row {
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is a view", name).
				WithDetail("Views cannot have row-level BEFORE or AFTER triggers.")
		}
		if ct.Events&int32(TriggerTruncate) != 0 {
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is a view", name).
				WithDetail("Views cannot have TRUNCATE triggers.")
		}
	default:
		what := map[RelKind]string{KindMatView: "materialized views", KindSequence: "sequences", KindComposite: "composite types"}[rel.Kind]
		return nil, pgerr.New(pgerr.WrongObjectType, "relation %q cannot have triggers", name).
			WithDetail("This operation is not supported for %s.", what)
	}
	if ct.Events&int32(TriggerTruncate) != 0 && ct.Row {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "TRUNCATE FOR EACH ROW triggers are not supported")
	}
	if out.Type&TriggerInstead != 0 {
		switch {
		case !ct.Row:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "INSTEAD OF triggers must be FOR EACH ROW")
		case ct.WhenClause != nil:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "INSTEAD OF triggers cannot have WHEN conditions")
		case len(ct.Columns) > 0:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "INSTEAD OF triggers cannot have column lists")
		}
	}
	if err := transitionTables(ct, rel, out); err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	for _, c := range ct.Columns {
		col := c.GetString_().GetSval()
		i := colIndex(rel.Cols, col)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", col, name)
		}
		if seen[i] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", col)
		}
		seen[i] = true
		out.Cols = append(out.Cols, i)
	}
	if ct.WhenClause != nil {
		if err := b.bindTriggerWhen(ct, rel, out); err != nil {
			return nil, err
		}
	}
	if err := b.triggerFunction(ct, out); err != nil {
		return nil, err
	}
	for _, a := range ct.Args {
		out.Args = append(out.Args, a.GetString_().GetSval())
	}
	return out, nil
}

// bindTriggerWhen binds the WHEN condition over the old row then the new
// one. A reference to a row the trigger's events do not have is
// PostgreSQL's 42P17, at the reference: the scope names that row so that
// the binder's error for an unknown table points there.
func (b *binder) bindTriggerWhen(ct *pg_query.CreateTrigStmt, rel *Relation, out *CreateTrigger) error {
	w := ct.WhenClause
	if hasSubLink(w) {
		return b.refuse(nodeLoc(w, -1), "cannot use subquery in trigger WHEN condition")
	}
	if ct.Row && out.Type&TriggerBefore != 0 {
		if err := b.whenReadsGenerated(w, rel); err != nil {
			return err
		}
	}
	oldQ, newQ := "old", "new"
	var bad string // the message for a reference to a missing row
	switch {
	case !ct.Row:
		oldQ, newQ, bad = "\x00old", "\x00new", "statement trigger's WHEN condition cannot reference column values"
	case out.Type&TriggerInsert != 0:
		oldQ, bad = "\x00old", "INSERT trigger's WHEN condition cannot reference OLD values"
	case out.Type&TriggerDelete != 0:
		newQ, bad = "\x00new", "DELETE trigger's WHEN condition cannot reference NEW values"
	}
	sc := newScope(oldQ, rel.Cols)
	sc.add(newQ, rel.Cols)
	e, err := b.bindExpr(sc, w)
	if err != nil {
		pe := pgerr.Wrap(err)
		switch {
		case pe.Code == pgerr.UndefinedTable && bad != "" &&
			(strings.HasSuffix(pe.Message, `"old"`) || strings.HasSuffix(pe.Message, `"new"`)):
			c := pgerr.New(pgerr.InvalidObjectDef, "%s", bad)
			c.Position = pe.Position
			return c
		case pe.Code == pgerr.GroupingError && strings.HasPrefix(pe.Message, "aggregate functions are not allowed"):
			c := *pe
			c.Message = "aggregate functions are not allowed in trigger WHEN conditions"
			return &c
		}
		return err
	}
	if out.When, err = b.toBool(e, "WHEN", nodeLoc(w, -1)); err != nil {
		return err
	}
	out.WhenSQL = whenText(b.stmt.SQL, b.keyword("when", 0))
	return nil
}

// whenText is the condition of WHEN ( … ) whose keyword is at start: the
// text inside the parentheses.
func whenText(sql string, start int32) string {
	if start < 0 {
		return ""
	}
	open := strings.IndexByte(sql[start:], '(')
	if open < 0 {
		return ""
	}
	i, depth := int(start)+open, 0
	for j := i; j < len(sql); j++ {
		switch sql[j] {
		case '\'', '"':
			k := strings.IndexByte(sql[j+1:], sql[j])
			if k < 0 {
				return ""
			}
			j += k + 1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return strings.TrimSpace(sql[i+1 : j])
			}
		}
	}
	return ""
}

// triggerFunction finds the trigger's function: one of its name without
// parameters, returning trigger.
func (b *binder) triggerFunction(ct *pg_query.CreateTrigStmt, out *CreateTrigger) error {
	var names []string
	for _, n := range ct.Funcname {
		names = append(names, n.GetString_().GetSval())
	}
	fname := names[len(names)-1]
	if fname == SuppressRedundantName && (len(names) == 1 || names[0] == "pg_catalog") {
		// pg_catalog comes first on the search path: the built-in one.
		out.Func, out.FuncSig = fname, SuppressRedundantSig
		return nil
	}
	var fn *Function
	if fc, ok := b.cat.(FunctionCatalog); ok {
		for _, f := range fc.Functions(fname) {
			if len(f.Params) == 0 && !f.Procedure {
				fn = f
			}
		}
	}
	if fn == nil {
		return pgerr.New(pgerr.UndefinedFunction, "function %s() does not exist", strings.Join(names, "."))
	}
	if !fn.Trigger || fn.EventTrigger {
		return pgerr.New(pgerr.InvalidObjectDef, "function %s must return type trigger", strings.Join(names, "."))
	}
	out.Func, out.FuncSig = fn.Name, fn.Signature()
	return nil
}

// bindDropTrigger binds DROP TRIGGER [IF EXISTS] name ON table.
func (b *binder) bindDropTrigger(ds *pg_query.DropStmt) (Bound, error) {
	items := ds.Objects[0].GetList().GetItems()
	if len(ds.Objects) != 1 || len(items) < 2 {
		return nil, pgerr.New(pgerr.SyntaxError, "DROP TRIGGER names one trigger of one table")
	}
	// The table, qualified by its schema or not, as its key.
	return &DropTrigger{Name: items[len(items)-1].GetString_().GetSval(), Table: b.keyOfNames(items[:len(items)-1]),
		IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE, Written: b.memberTable(items)}, nil
}

// triggerToggle reads an ALTER TABLE command that enables or disables
// triggers; ok is false for another command.
func (b *binder) triggerToggle(cmd *pg_query.AlterTableCmd) (TriggerToggle, bool, error) {
	switch cmd.Subtype {
	case pg_query.AlterTableType_AT_EnableTrig:
		return TriggerToggle{Name: cmd.Name, Enable: true}, true, nil
	case pg_query.AlterTableType_AT_DisableTrig:
		return TriggerToggle{Name: cmd.Name}, true, nil
	case pg_query.AlterTableType_AT_EnableTrigAll, pg_query.AlterTableType_AT_EnableTrigUser:
		return TriggerToggle{All: true, Enable: true}, true, nil
	case pg_query.AlterTableType_AT_DisableTrigAll, pg_query.AlterTableType_AT_DisableTrigUser:
		return TriggerToggle{All: true}, true, nil
	case pg_query.AlterTableType_AT_EnableAlwaysTrig:
		return TriggerToggle{Name: cmd.Name, Enable: true, Mode: 'A'}, true, nil
	case pg_query.AlterTableType_AT_EnableReplicaTrig:
		return TriggerToggle{Name: cmd.Name, Enable: true, Mode: 'R'}, true, nil
	}
	return TriggerToggle{}, false, nil
}

// bindAlterTriggers binds an ALTER TABLE whose commands enable or
// disable triggers; nil when it has other commands.
func (b *binder) bindAlterTriggers(as *pg_query.AlterTableStmt) (Bound, error) {
	out := &AlterTriggers{Table: as.Relation.Relname}
	for i, n := range as.Cmds {
		tt, ok, err := b.triggerToggle(n.GetAlterTableCmd())
		if err != nil {
			return nil, err
		}
		if !ok {
			if i > 0 {
				return nil, b.refuse(as.Relation.Location, "ALTER TABLE that enables or disables triggers and makes other changes is not supported").
					WithHint("run the trigger commands in an ALTER TABLE of their own")
			}
			return nil, nil
		}
		if i == 0 && len(as.Cmds) > 1 {
			for _, m := range as.Cmds[1:] {
				if _, ok, _ := b.triggerToggle(m.GetAlterTableCmd()); !ok {
					return nil, b.refuse(as.Relation.Location, "ALTER TABLE that enables or disables triggers and makes other changes is not supported").
						WithHint("run the trigger commands in an ALTER TABLE of their own")
				}
			}
		}
		out.Cmds = append(out.Cmds, tt)
	}
	rel, ok := b.cat.Relation(out.Table)
	if !ok {
		if as.MissingOk {
			return &AlterTable{Notices: []string{"relation \"" + out.Table + "\" does not exist, skipping"}}, nil
		}
		return nil, b.stmt.errf(as.Relation.Location, pgerr.UndefinedTable, "relation %q does not exist", out.Table)
	}
	if rel.Kind != KindTable || rel.Def == nil {
		return nil, b.stmt.errf(as.Relation.Location, pgerr.WrongObjectType, "%q is not a table", out.Table)
	}
	return out, nil
}

// setTargetCols are the columns a SET list assigns, by position, each
// once: those an UPDATE OF trigger looks for, also when the statement's
// subqueries make it a plan (Update.Rows).
func setTargetCols(rel *Relation, targets []*pg_query.Node) []int {
	var out []int
	for _, t := range targets {
		if rt := t.GetResTarget(); rt != nil {
			if i := colIndex(rel.Cols, rt.Name); i >= 0 && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	return out
}

// transitionTables reads REFERENCING {OLD | NEW} TABLE AS name, with
// PostgreSQL's checks in its order.
func transitionTables(ct *pg_query.CreateTrigStmt, rel *Relation, out *CreateTrigger) error {
	for _, n := range ct.TransitionRels {
		tt := n.GetTriggerTransition()
		events := 0
		for _, ev := range []int16{TriggerInsert, TriggerUpdate, TriggerDelete} {
			if out.Type&ev != 0 {
				events++
			}
		}
		switch {
		case !tt.IsTable:
			return pgerr.New(pgerr.FeatureNotSupported, "ROW variable naming in the REFERENCING clause is not supported").
				WithHint("Use OLD TABLE or NEW TABLE for naming transition tables.")
		case rel.Kind == KindView:
			return pgerr.New(pgerr.WrongObjectType, "%q is a view", rel.Name).
				WithDetail("Triggers on views cannot have transition tables.")
		case out.Type&(TriggerBefore|TriggerInstead) != 0:
			return pgerr.New(pgerr.InvalidObjectDef, "transition table name can only be specified for an AFTER trigger")
		case out.Type&TriggerTruncate != 0:
			return pgerr.New(pgerr.FeatureNotSupported, "TRUNCATE triggers with transition tables are not supported")
		case events > 1:
			return pgerr.New(pgerr.FeatureNotSupported, "transition tables cannot be specified for triggers with more than one event")
		case len(ct.Columns) > 0:
			return pgerr.New(pgerr.FeatureNotSupported, "transition tables cannot be specified for triggers with column lists")
		case tt.IsNew && out.Type&(TriggerInsert|TriggerUpdate) == 0:
			return pgerr.New(pgerr.InvalidObjectDef, "NEW TABLE can only be specified for an INSERT or UPDATE trigger")
		case tt.IsNew && out.NewTable != "":
			return pgerr.New(pgerr.InvalidObjectDef, "NEW TABLE cannot be specified multiple times")
		case !tt.IsNew && out.Type&(TriggerDelete|TriggerUpdate) == 0:
			return pgerr.New(pgerr.InvalidObjectDef, "OLD TABLE can only be specified for a DELETE or UPDATE trigger")
		case !tt.IsNew && out.OldTable != "":
			return pgerr.New(pgerr.InvalidObjectDef, "OLD TABLE cannot be specified multiple times")
		}
		if tt.IsNew {
			out.NewTable = tt.Name
		} else {
			out.OldTable = tt.Name
		}
	}
	if out.NewTable != "" && out.NewTable == out.OldTable {
		return pgerr.New(pgerr.InvalidObjectDef, "OLD TABLE name and NEW TABLE name cannot be the same")
	}
	return nil
}
