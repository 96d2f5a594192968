package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Triggers (CREATE TRIGGER) keep, per table, the list of its triggers in
// name order, the order PostgreSQL fires them in. The list hangs on the
// table (table.trig, relinked by linkTriggers after any change of
// triggers or tables), so that a statement on a table without triggers
// pays one nil check; firing is trigger_fire.go's.
//
// A trigger names its function by signature: CREATE OR REPLACE FUNCTION
// changes the body the trigger runs, DROP FUNCTION refuses to drop a
// function a trigger uses (2BP01) unless CASCADE drops the trigger, and
// DROP TABLE drops the table's triggers. The store keeps a trigger as its
// CREATE TRIGGER statement (followed by ALTER TABLE … DISABLE TRIGGER
// when it is disabled), stored again after its function whenever the
// function is, so that it is recreated after it at open.

// KindTrigger is the kind of a stored trigger.
const KindTrigger RelKind = "trigger"

// trigger is one trigger of a table.
type trigger struct {
	name, table string
	// typ is pg_trigger.tgtype (sql.TriggerRow, sql.TriggerBefore, the
	// events).
	typ int16
	// cols are UPDATE OF's columns; nil for any.
	cols []int
	// when is the WHEN condition over the old row followed by the new.
	when    expr.Expr
	whenSQL string
	// fn and fnSig name the function.
	fn, fnSig string
	args      []string
	enabled   bool
	// mode is 'A' for ENABLE ALWAYS, 'R' for ENABLE REPLICA, 0 for
	// ENABLE (trigger_mode.go).
	mode byte
	// oldTable and newTable name the transition tables; "" for none.
	oldTable, newTable string
	// constraint marks a constraint trigger, DEFERRABLE and INITIALLY
	// DEFERRED or not (trigger_constraint.go); from is FROM's table.
	constraint, deferrable, initDeferred bool
	from                                 string
	// text is the CREATE TRIGGER statement.
	text string
}

// storeName is the trigger's name in the store, apart from relations'.
func (tr *trigger) storeName() string { return "trigger " + tr.name + " on " + tr.table }

// storeText is what the store keeps of the trigger: its CREATE TRIGGER,
// and its disabling.
func (tr *trigger) storeText() string {
	if tr.enabled {
		return tr.text + tr.modeText()
	}
	return strings.TrimRight(strings.TrimSpace(tr.text), ";") + ";\nALTER TABLE " + expr.QuoteIdent(tr.table) + " DISABLE TRIGGER " + expr.QuoteIdent(tr.name)
}

// store records the trigger in the store, replacing what it held of it.
func (e *Engine) storeTrigger(tr *trigger, replace bool) error {
	if e.store == nil || isTemp(tr.table) { // a temporary table's goes with its session
		return nil
	}
	if replace {
		if err := e.store.Drop([]string{tr.storeName()}); err != nil {
			return err
		}
	}
	return e.store.Create(&StoredRelation{Name: tr.storeName(), Kind: KindTrigger, SQL: tr.storeText()})
}

// linkTriggers hangs each table's triggers on it.
func (e *Engine) linkTriggers() {
	for name, t := range e.tables {
		t.trig = nil
		if l := e.triggers[name]; len(l) > 0 {
			t.trig = l
		}
	}
}

// triggerIndex returns the position of the trigger name in list, or -1.
func triggerIndex(list []*trigger, name string) int {
	for i, tr := range list {
		if tr.name == name {
			return i
		}
	}
	return -1
}

func (e *Engine) createTrigger(ct *sql.CreateTrigger, text string) (Result, error) {
	t, ok := e.tables[ct.Table]
	switch {
	case !ok && e.named[ct.Table] != nil: // a view's
	case !ok:
		return Result{}, pgerr.New(pgerr.WrongObjectType, "relation %q cannot have triggers", ct.Table).
			WithDetail("This operation is not supported for system views.")
	case t.def.ChangeStream:
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "CREATE TRIGGER on change-stream table %q is not supported", ct.Table).
			WithHint("its rows arrive as change events, which fire no trigger")
	}
	list := e.triggers[ct.Table]
	i := triggerIndex(list, ct.Name)
	if i >= 0 && !ct.Replace {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "trigger %q for relation %q already exists", ct.Name, ct.Table)
	}
	tr := &trigger{name: ct.Name, table: ct.Table, typ: ct.Type, cols: ct.Cols, when: ct.When, whenSQL: ct.WhenSQL,
		fn: ct.Func, fnSig: ct.FuncSig, args: ct.Args, enabled: true, text: text, oldTable: ct.OldTable, newTable: ct.NewTable,
		constraint: ct.Constraint, deferrable: ct.Deferrable, initDeferred: ct.InitDeferred, from: ct.From}
	if err := e.storeTrigger(tr, i >= 0); err != nil {
		return Result{}, err
	}
	if e.triggers == nil {
		e.triggers = map[string][]*trigger{}
	}
	if i >= 0 {
		list[i] = tr
	} else {
		list = append(list, tr)
		slices.SortFunc(list, func(a, b *trigger) int { return strings.Compare(a.name, b.name) })
	}
	e.triggers[ct.Table] = list
	e.linkTriggers()
	return Result{Tag: "CREATE TRIGGER"}, nil
}

func (e *Engine) dropTrigger(d *sql.DropTrigger) (Result, error) {
	if _, ok := e.Relation(d.Table); !ok {
		if d.IfExists {
			return Result{Tag: "DROP TRIGGER", Notices: []string{e.missingTableSkip(d.Table)}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", d.Table)
	}
	i := triggerIndex(e.triggers[d.Table], d.Name)
	if i < 0 {
		if d.IfExists {
			return Result{Tag: "DROP TRIGGER", Notices: []string{fmt.Sprintf("trigger %q for relation %q does not exist, skipping", d.Name, d.Written)}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedObject, "trigger %q for table %q does not exist", d.Name, e.bareName(d.Table))
	}
	if err := e.removeTriggers([]*trigger{e.triggers[d.Table][i]}); err != nil {
		return Result{}, err
	}
	return Result{Tag: "DROP TRIGGER"}, nil
}

// removeTriggers drops triggers, from the store first.
func (e *Engine) removeTriggers(gone []*trigger) error {
	if e.store != nil && len(gone) > 0 {
		var names []string
		for _, tr := range gone {
			if !isTemp(tr.table) {
				names = append(names, tr.storeName())
			}
		}
		if err := e.store.Drop(names); err != nil {
			return err
		}
	}
	for _, tr := range gone {
		l := slices.DeleteFunc(e.triggers[tr.table], func(x *trigger) bool { return x == tr })
		if len(l) == 0 {
			delete(e.triggers, tr.table)
		} else {
			e.triggers[tr.table] = l
		}
	}
	e.linkTriggers()
	return nil
}

// tableTriggerNames are the store's names of the triggers of the tables
// in gone, which go with them.
func (e *Engine) tableTriggerNames(gone map[string]bool) []string {
	var out []string
	for name, l := range e.triggers {
		if gone[name] {
			for _, tr := range l {
				out = append(out, tr.storeName())
			}
		}
	}
	return out
}

// alterTriggers runs ALTER TABLE … {ENABLE | DISABLE} TRIGGER.
func (e *Engine) alterTriggers(a *sql.AlterTriggers) (Result, error) {
	list := e.triggers[a.Table]
	changed := map[*trigger]bool{}
	for _, c := range a.Cmds {
		if c.All {
			for _, tr := range list {
				changed[tr] = true
			}
			continue
		}
		i := triggerIndex(list, c.Name)
		if i < 0 {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "trigger %q for table %q does not exist", c.Name, a.Table)
		}
		changed[list[i]] = true
	}
	type toggle struct {
		enabled bool
		mode    byte
	}
	state := map[*trigger]toggle{}
	for _, tr := range list {
		state[tr] = toggle{tr.enabled, tr.mode}
	}
	for _, c := range a.Cmds {
		for _, tr := range list {
			if c.All || tr.name == c.Name {
				state[tr] = toggle{c.Enable, c.Mode}
			}
		}
	}
	for _, tr := range list {
		if !changed[tr] || state[tr] == (toggle{tr.enabled, tr.mode}) {
			continue
		}
		was := toggle{tr.enabled, tr.mode}
		tr.enabled, tr.mode = state[tr].enabled, state[tr].mode
		if err := e.storeTrigger(tr, true); err != nil {
			tr.enabled, tr.mode = was.enabled, was.mode
			return Result{}, err
		}
	}
	return Result{Tag: "ALTER TABLE"}, nil
}

// triggersUsing are the triggers whose function has signature sig, by
// table then name.
func (e *Engine) triggersUsing(sig string) []*trigger {
	var out []*trigger
	for _, table := range sortedKeys(e.triggers) {
		for _, tr := range e.triggers[table] {
			if tr.fnSig == sig {
				out = append(out, tr)
			}
		}
	}
	return out
}

// restoreTriggersOf stores again, after their function, the triggers of
// the function of signature sig, which the store has just recorded
// anew: at open each is then recreated after it.
func (e *Engine) restoreTriggersOf(sig string) error {
	for _, tr := range e.triggersUsing(sig) {
		if err := e.storeTrigger(tr, true); err != nil {
			return err
		}
	}
	return nil
}

// dropFunctionTriggers handles the triggers that use the functions DROP
// FUNCTION drops: without CASCADE they are 2BP01, with it they go, each
// with PostgreSQL's notice.
func (e *Engine) dropFunctionTriggers(gone []*sql.Function, cascade bool, notices []string) ([]string, error) {
	var users []*trigger
	var lines []string
	for _, f := range gone {
		for _, tr := range e.triggersUsing(f.Signature()) {
			users = append(users, tr)
			lines = append(lines, fmt.Sprintf("trigger %s on table %s depends on function %s", tr.name, tr.table, f.Signature()))
		}
	}
	if len(users) == 0 {
		return notices, nil
	}
	if !cascade {
		return nil, &pgerr.Error{Code: pgerr.DependentObjects,
			Message: fmt.Sprintf("cannot drop function %s because other objects depend on it", gone[0].Signature()),
			Detail:  strings.Join(lines, "\n"),
			Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	for _, tr := range users {
		notices = append(notices, fmt.Sprintf("drop cascades to trigger %s on table %s", tr.name, tr.table))
	}
	return notices, e.removeTriggers(users)
}

// triggers are the relation's triggers: a table's or a view's.
func (rel *catRel) triggers() []*trigger {
	switch {
	case rel.kind == 'r' && rel.t != nil:
		return rel.t.trig
	case rel.kind == 'v':
		return rel.trig
	}
	return nil
}

// hasTriggers is pg_class.relhastriggers (and pg_tables.hastriggers): the
// relation has triggers of its own, or is at either end of a FOREIGN
// KEY, whose checks PostgreSQL runs as triggers on both tables.
func (rel *catRel) hasTriggers() bool {
	return rel.triggers() != nil || rel.t != nil && (rel.t.fkeyed || len(rel.t.def.ForeignKeys) > 0) || rel.part != nil && rel.part.root.fkeyed
}

// nameOrNull is s, or NULL for "".
func nameOrNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// foid is pg_trigger.tgfoid, the oid of the trigger's function.
func (tr *trigger) foid() uint32 {
	if tr.fnSig == sql.SuppressRedundantSig {
		return sql.SuppressRedundantOID
	}
	return objectOID("function", expr.QuoteIdent(tr.fn)+"()")
}

// pgTrigger lists the triggers in pg_trigger, by table then name.
func pgTrigger(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		for _, tr := range rel.triggers() {
			var args []byte
			for _, a := range tr.args {
				args = append(append(args, a...), 0)
			}
			attrs := make([]int16, len(tr.cols))
			for i, c := range tr.cols {
				attrs[i] = int16(c + 1)
				if c < len(rel.cols) {
					attrs[i] = rel.num(c)
				}
			}
			enabled := tr.tgenabled()
			var qual any
			if tr.when != nil {
				qual = tr.whenSQL
			}
			var con, from uint32
			if tr.constraint {
				con = objectOID("constraint trigger", tr.table+"."+tr.name)
			}
			if tr.from != "" {
				from = RelationOID(tr.from)
			}
			r.add("oid", objectOID("trigger", tr.table+"."+tr.name), "tgrelid", rel.oid, "tgparentid", uint32(0), "tgname", tr.name,
				"tgfoid", tr.foid(), "tgtype", int64(tr.typ), "tgenabled", enabled,
				"tgisinternal", false, "tgconstrrelid", from, "tgconstrindid", uint32(0), "tgconstraint", con,
				"tgdeferrable", tr.deferrable, "tginitdeferred", tr.initDeferred, "tgnargs", int64(len(tr.args)), "tgattr", attrs,
				"tgargs", value.NewBytea(args), "tgqual", qual, "tgoldtable", nameOrNull(tr.oldTable), "tgnewtable", nameOrNull(tr.newTable))
		}
	}
}

// infoTriggers lists information_schema.triggers: a row per trigger and
// event (TRUNCATE is not an event there), numbered by action_order among
// the table's triggers of the same event, timing and level, in name
// order. action_condition is the WHEN condition as written, where
// PostgreSQL deparses it.
func infoTriggers(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if o.otherTemp(rel) {
			continue
		}
		for _, op := range []int16{sql.TriggerInsert, sql.TriggerDelete, sql.TriggerUpdate} {
			order := map[int16]int64{}
			for _, tr := range rel.triggers() {
				if tr.typ&op == 0 {
					continue
				}
				kind := tr.typ & (sql.TriggerRow | sql.TriggerBefore | sql.TriggerInstead)
				order[kind]++
				var cond any
				if tr.when != nil {
					cond = "(" + tr.whenSQL + ")"
				}
				args := make([]string, len(tr.args))
				for i, a := range tr.args {
					args[i] = "'" + strings.ReplaceAll(a, "'", "''") + "'"
				}
				level, timing := "STATEMENT", "AFTER"
				if kind&sql.TriggerRow != 0 {
					level = "ROW"
				}
				switch {
				case kind&sql.TriggerBefore != 0:
					timing = "BEFORE"
				case kind&sql.TriggerInstead != 0:
					timing = "INSTEAD OF"
				}
				r.add("trigger_catalog", DatabaseName, "trigger_schema", "public", "trigger_name", tr.name,
					"event_manipulation", opNames[op], "event_object_catalog", DatabaseName, "event_object_schema", "public",
					"event_object_table", tr.table, "action_order", order[kind], "action_condition", cond,
					"action_statement", "EXECUTE FUNCTION "+expr.QuoteIdent(tr.fn)+"("+strings.Join(args, ", ")+")",
					"action_orientation", level, "action_timing", timing)
			}
		}
	}
}

// def is the trigger as pg_get_triggerdef prints it, its table qualified
// by public; the WHEN condition is as written, where PostgreSQL deparses
// it.
func (tr *trigger) def(cols []string, keyText func(string) string) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if tr.constraint {
		b.WriteString("CONSTRAINT ")
	}
	b.WriteString("TRIGGER " + expr.QuoteIdent(tr.name) + " ")
	switch {
	case tr.typ&sql.TriggerBefore != 0:
		b.WriteString("BEFORE")
	case tr.typ&sql.TriggerInstead != 0:
		b.WriteString("INSTEAD OF")
	default:
		b.WriteString("AFTER")
	}
	sep := " "
	for _, ev := range []int16{sql.TriggerInsert, sql.TriggerDelete, sql.TriggerUpdate, sql.TriggerTruncate} {
		if tr.typ&ev == 0 {
			continue
		}
		b.WriteString(sep + opNames[ev])
		sep = " OR "
		if ev == sql.TriggerUpdate && tr.cols != nil {
			for i, c := range tr.cols {
				if i == 0 {
					b.WriteString(" OF ")
				} else {
					b.WriteString(", ")
				}
				b.WriteString(expr.QuoteIdent(cols[c]))
			}
		}
	}
	table := keyText(tr.table)
	if !strings.Contains(table, ".") {
		table = "public." + table
	}
	b.WriteString(" ON " + table)
	if tr.from != "" {
		b.WriteString(" FROM " + expr.QuoteIdent(tr.from))
	}
	if tr.constraint {
		if !tr.deferrable {
			b.WriteString(" NOT")
		}
		b.WriteString(" DEFERRABLE INITIALLY ")
		if tr.initDeferred {
			b.WriteString("DEFERRED")
		} else {
			b.WriteString("IMMEDIATE")
		}
	}
	if tr.oldTable != "" || tr.newTable != "" {
		b.WriteString(" REFERENCING")
		if tr.oldTable != "" {
			b.WriteString(" OLD TABLE AS " + expr.QuoteIdent(tr.oldTable))
		}
		if tr.newTable != "" {
			b.WriteString(" NEW TABLE AS " + expr.QuoteIdent(tr.newTable))
		}
	}
	if tr.typ&sql.TriggerRow != 0 {
		b.WriteString(" FOR EACH ROW")
	} else {
		b.WriteString(" FOR EACH STATEMENT")
	}
	if tr.when != nil {
		b.WriteString(" WHEN (" + tr.whenSQL + ")")
	}
	args := make([]string, len(tr.args))
	for i, a := range tr.args {
		args[i] = "'" + strings.ReplaceAll(a, "'", "''") + "'"
	}
	b.WriteString(" EXECUTE FUNCTION " + keyText(tr.fn) + "(" + strings.Join(args, ", ") + ")")
	return b.String()
}

// triggerDefs are pg_get_triggerdef's texts of the triggers, by oid.
func triggerDefs(o *catalogObjects) map[uint32]string {
	out := map[uint32]string{}
	for _, rel := range o.rels {
		cols := make([]string, len(rel.cols))
		for i, c := range rel.cols {
			cols[i] = c.name
		}
		for _, tr := range rel.triggers() {
			out[objectOID("trigger", tr.table+"."+tr.name)] = tr.def(cols, o.e.keyText)
		}
	}
	return out
}
