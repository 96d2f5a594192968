package engine

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Event triggers (CREATE EVENT TRIGGER) run a PL/pgSQL function declared
// RETURNS event_trigger when a DDL statement starts (ddl_command_start),
// or after its change (sql_drop, ddl_command_end: event_trigger_end.go),
// with TG_EVENT and TG_TAG, as PostgreSQL's do: in name order, for the
// statements whose command tag is in the trigger's WHEN TAG IN list (every
// DDL statement without one), in the statement's session. An error the
// function raises stops the statement; what the function wrote is undone
// with it. A catalog change here is not transactional, so an error after
// the change leaves the change done. table_rewrite: event_trigger_rewrite.go.
// The triggers are kept in pg_event_trigger and in the database file as
// their statements; they fire for no statement a database file runs at
// open.

// KindEventTrigger is the stored kind of an event trigger.
const KindEventTrigger RelKind = "event trigger"

// evtTrigger is an event trigger.
type evtTrigger struct {
	name, event string
	fn, fnSig   string
	tags        []string
	enabled     byte // O, D, R or A, as pg_event_trigger.evtenabled
	owner       string
}

func evtKey(name string) string { return "pg_event_trigger/" + name }

// sql is the statements that make the trigger as it is now.
func (t *evtTrigger) sql() string {
	text := fmt.Sprintf("CREATE EVENT TRIGGER %s ON %s", expr.QuoteIdent(t.name), t.event)
	if t.tags != nil {
		q := make([]string, len(t.tags))
		for i, tag := range t.tags {
			q[i] = "'" + strings.ReplaceAll(tag, "'", "''") + "'"
		}
		text += " WHEN TAG IN (" + strings.Join(q, ", ") + ")"
	}
	text += " EXECUTE FUNCTION " + t.fnSig
	if mode := map[byte]string{'D': "DISABLE", 'R': "ENABLE REPLICA", 'A': "ENABLE ALWAYS"}[t.enabled]; mode != "" {
		text += fmt.Sprintf(";\nALTER EVENT TRIGGER %s %s", expr.QuoteIdent(t.name), mode)
	}
	if t.owner != SuperuserName {
		text += fmt.Sprintf(";\nALTER EVENT TRIGGER %s OWNER TO %s", expr.QuoteIdent(t.name), expr.QuoteIdent(t.owner))
	}
	return text
}

// storeEvtTrigger records t anew in the store (its entry under old
// dropped first when old is not "").
func (e *Engine) storeEvtTrigger(old string, t *evtTrigger) error {
	if e.store == nil {
		return nil
	}
	if old != "" {
		if err := e.store.Drop([]string{evtKey(old)}); err != nil {
			return err
		}
	}
	if t == nil {
		return nil
	}
	return e.store.Create(&StoredRelation{Name: evtKey(t.name), Kind: KindEventTrigger, SQL: t.sql()})
}

func (s *Session) createEventTrigger(c *sql.CreateEventTrigger) (Result, error) {
	e := s.e
	if e.evtTriggers[c.Name] != nil {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "event trigger %q already exists", c.Name)
	}
	owner := s.role
	if owner == "" {
		owner = SuperuserName
	}
	t := &evtTrigger{name: c.Name, event: c.Event, fn: c.Func, fnSig: c.FuncSig, tags: c.Tags, enabled: 'O', owner: owner}
	if err := e.storeEvtTrigger("", t); err != nil {
		return Result{}, err
	}
	if e.evtTriggers == nil {
		e.evtTriggers = map[string]*evtTrigger{}
	}
	e.evtTriggers[c.Name] = t
	return Result{Tag: "CREATE EVENT TRIGGER"}, nil
}

func (s *Session) alterEventTrigger(a *sql.AlterEventTrigger) (Result, error) {
	e := s.e
	t := e.evtTriggers[a.Name]
	if t == nil {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "event trigger %q does not exist", a.Name)
	}
	next := *t
	switch {
	case a.Rename != "":
		if e.evtTriggers[a.Rename] != nil {
			return Result{}, pgerr.New(pgerr.DuplicateObject, "event trigger %q already exists", a.Rename)
		}
		next.name = a.Rename
	case a.Owner != "":
		owner := a.Owner
		if owner == "current_user" {
			if owner = s.role; owner == "" {
				owner = SuperuserName
			}
		}
		if !s.restoring {
			r := e.roles[owner]
			if r == nil && owner != SuperuserName {
				return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", owner)
			}
			if r != nil && !r.superuser {
				return Result{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to change owner of event trigger %q", a.Name).
					WithHint("The owner of an event trigger must be a superuser.")
			}
		}
		next.owner = owner
	default:
		next.enabled = a.Enabled
	}
	if err := e.storeEvtTrigger(t.name, &next); err != nil {
		return Result{}, err
	}
	delete(e.evtTriggers, t.name)
	e.evtTriggers[next.name] = &next
	return Result{Tag: "ALTER EVENT TRIGGER"}, nil
}

func (s *Session) dropEventTrigger(d *sql.DropEventTrigger) (Result, error) {
	e := s.e
	res := Result{Tag: "DROP EVENT TRIGGER"}
	var gone []string
	for _, name := range d.Names {
		if e.evtTriggers[name] == nil {
			if d.IfExists {
				res.Notices = append(res.Notices, fmt.Sprintf("event trigger %q does not exist, skipping", name))
				continue
			}
			return Result{}, pgerr.New(pgerr.UndefinedObject, "event trigger %q does not exist", name)
		}
		gone = append(gone, name)
	}
	for _, name := range gone {
		if err := e.storeEvtTrigger(name, nil); err != nil {
			return Result{}, err
		}
		delete(e.evtTriggers, name)
	}
	return res, nil
}

// mayAlterEventTrigger is PostgreSQL's check that the session's role
// owns the event trigger it alters or drops (a superuser may).
func (s *Session) mayAlterEventTrigger(names []string, missingOK bool) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	for _, n := range names {
		if s.e.evtTriggers[n] == nil {
			if missingOK {
				continue
			}
			return pgerr.New(pgerr.UndefinedObject, "event trigger %q does not exist", n)
		}
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of event trigger %s", n)
	}
	return nil
}

// ddlTag parses the DDL statement text for its command tag, "" for a
// statement event triggers do not fire for.
func ddlTag(text string) (*pg_query.Node, string) {
	if text == "" {
		return nil, ""
	}
	if strings.HasPrefix(text, "SET search_path = ") {
		// The text a database file keeps (storedText): the statement
		// after the search path it ran under.
		if parts, err := sql.Split(text); err == nil && len(parts) > 1 {
			text = parts[len(parts)-1]
		}
	}
	st, err := sql.Parse(text)
	if err != nil || st == nil || st.Node == nil {
		return nil, ""
	}
	return st.Node, sql.EventTag(st.Node)
}

// fireDDLStart runs the ddl_command_start event triggers for the DDL
// statement of command tag tag, before it changes anything; an error
// stops it.
func (s *Session) fireDDLStart(tag string) error {
	e := s.e
	if s.restoring || tag == "" {
		return nil
	}
	fire := s.evtTriggersFor("ddl_command_start", tag)
	if len(fire) == 0 {
		return nil
	}
	s.evtEvent = "ddl_command_start"
	defer func() { s.evtEvent = "" }()
	// One transaction for them all: an error undoes what those before
	// wrote, as PostgreSQL's statement's transaction does.
	_, err := e.autocommit(func() (Result, error) {
		for _, t := range fire {
			if err := s.callEventTrigger(t, tag); err != nil {
				return Result{}, err
			}
		}
		return Result{}, nil
	})
	return err
}

// callEventTrigger runs t's function for tag.
func (s *Session) callEventTrigger(t *evtTrigger, tag string) error {
	e := s.e
	fn, _ := e.function(t.fnSig, t.fn)
	if fn == nil {
		return pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", t.fnSig)
	}
	pf, err := e.compiledTrigger(fn)
	if err != nil {
		return err
	}
	if s.routineDepth >= maxRoutineDepth {
		return pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	s.routineDepth++
	defer func() { s.routineDepth-- }()
	defer s.enterRoutine(fn)()
	return pf.CallEventTrigger(&plRuntime{s: s}, t.event, tag)
}

// dropFunctionEventTriggers handles the event triggers that use the
// functions DROP FUNCTION drops: 2BP01 without CASCADE, dropped with it.
func (e *Engine) dropFunctionEventTriggers(gone []*sql.Function, cascade bool, notices []string) ([]string, error) {
	var users, lines []string
	for _, f := range gone {
		for _, name := range sortedKeys(e.evtTriggers) {
			if e.evtTriggers[name].fnSig == f.Signature() {
				users = append(users, name)
				lines = append(lines, fmt.Sprintf("event trigger %s depends on function %s", name, f.Signature()))
			}
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
	for _, name := range users {
		if err := e.storeEvtTrigger(name, nil); err != nil {
			return nil, err
		}
		delete(e.evtTriggers, name)
		notices = append(notices, fmt.Sprintf("drop cascades to event trigger %s", name))
	}
	return notices, nil
}

// restoreEvtTriggersOf records anew the event triggers that use the
// function of signature sig, which the store has just recorded anew: at
// open each is then recreated after it.
func (e *Engine) restoreEvtTriggersOf(sig string) error {
	for _, name := range sortedKeys(e.evtTriggers) {
		if t := e.evtTriggers[name]; t.fnSig == sig {
			if err := e.storeEvtTrigger(name, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// pgEventTrigger lists the event triggers.
func pgEventTrigger(o *catalogObjects, r *catRows) {
	e := o.e
	for _, name := range sortedKeys(e.evtTriggers) {
		t := e.evtTriggers[name]
		var tags any
		if t.tags != nil {
			tags = t.tags
		}
		r.add("oid", objectOID("event_trigger", name), "evtname", name, "evtevent", t.event,
			"evtowner", e.roleOID(t.owner), "evtfoid", objectOID("function", t.fnSig),
			"evtenabled", t.enabled, "evttags", tags)
	}
}

func init() {
	const cols = "oid:oid,evtname:name,evtevent:name,evtowner:oid,evtfoid:oid,evtenabled:\"char\",evttags:text[]"
	name := "pg_catalog.pg_event_trigger"
	catalogColumns[name], catalogRowFuncs[name] = cols, pgEventTrigger
	catalogRelations[name] = catalogRelation{cols: catalogCols(cols), rows: pgEventTrigger}
}

// afterNotices runs fn, its result's notices after those raised before
// it (an event trigger's), which otherwise follow them.
func (e *Engine) afterNotices(fn func() (Result, error)) (Result, error) {
	notices, levels := e.notices, e.noticeLevels
	e.notices, e.noticeLevels = nil, nil
	res, err := fn()
	if len(notices) == 0 {
		return res, err
	}
	if err != nil {
		for i, n := range e.notices {
			if l, ok := e.noticeLevels[i]; ok {
				if levels == nil {
					levels = map[int]string{}
				}
				levels[len(notices)] = l
			}
			notices = append(notices, n)
		}
		e.notices, e.noticeLevels = notices, levels
		return res, err
	}
	var pre Result
	pre.Notices, pre.NoticeLevels = notices, levels
	e.takeNoticesInto(&res)
	for i, n := range res.Notices {
		if l, ok := res.NoticeLevels[i]; ok {
			if pre.NoticeLevels == nil {
				pre.NoticeLevels = map[int]string{}
			}
			pre.NoticeLevels[len(pre.Notices)] = l
		}
		pre.Notices = append(pre.Notices, n)
	}
	res.Notices, res.NoticeLevels = pre.Notices, pre.NoticeLevels
	return res, nil
}
