package engine

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ALTER FUNCTION … RENAME TO and SET SCHEMA keep the aggregates,
// operators and triggers that use the function, as PostgreSQL's follow
// it by its oid: each names the function (Aggregate.SFunc and the other
// options, Operator.Func, a trigger's fn and statement, an event
// trigger's), and takes its new name. Aggregates and operators are replaced in their lists (copy on
// write, which a block's ROLLBACK restores); a trigger is changed in
// place (the block's image copies triggers and event triggers whole). Their stored
// statements are rewritten where they stand in the store, as the
// function keeps its place there.

// definerRename is what a function's rename changes in the aggregates,
// operators and triggers that use it.
type definerRename struct {
	aggs  []aggRename
	ops   []opRename
	trigs []*trigger
	evts  []*evtTrigger
	// old, new and newSig are the function's keys and new signature.
	old, new, newSig string
}

// aggRename is an aggregate, the one that takes its place, and the
// statements the store keeps of it afterwards.
type aggRename struct {
	was, now *sql.Aggregate
	text     string
}

// opRename is an operator, the one that takes its place, and its
// statement afterwards.
type opRename struct {
	was, now *sql.Operator
	text     string
}

// renameDefiners rewrites the aggregates, operators and triggers that use
// the function f, which is to be keyed new with signature newSig; the
// catalog is left as it is.
func (e *Engine) renameDefiners(f *sql.Function, new, newSig string) (*definerRename, error) {
	d := &definerRename{old: f.Name, new: new, newSig: newSig}
	sig := f.Signature()
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			uses := aggOptionsUsing(a, f)
			if len(uses) == 0 {
				continue
			}
			b := *a
			for opt, names := range aggOptionFields(&b) {
				if uses[opt] {
					*names, _ = sql.RenamedFuncName(*names, f.Name, new)
				}
			}
			text := e.routineText[a.Signature()]
			if text != "" {
				var err error
				if text, _, err = sql.RenameDefinedFunction(text, f.Name, new, func(opt string) bool { return uses[opt] }); err != nil {
					return nil, err
				}
			}
			d.aggs = append(d.aggs, aggRename{was: a, now: &b, text: text})
		}
	}
	for _, name := range sortedKeys(e.opers) {
		for _, o := range e.opers[name] {
			if !slices.Contains(e.operatorsUsing(f), o.Signature()) {
				continue
			}
			p := *o
			p.Func, _ = sql.RenamedFuncName(o.Func, f.Name, new)
			text := e.routineText[o.DepKey()]
			if text != "" {
				var err error
				if text, _, err = sql.RenameDefinedFunction(text, f.Name, new, func(string) bool { return true }); err != nil {
					return nil, err
				}
			}
			d.ops = append(d.ops, opRename{was: o, now: &p, text: text})
		}
	}
	d.trigs = e.triggersUsing(sig)
	for _, tr := range d.trigs {
		if _, err := sql.RenameTriggerFunction(tr.text, f.Name, new); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(e.evtTriggers) {
		if t := e.evtTriggers[name]; t.fnSig == sig {
			d.evts = append(d.evts, t)
		}
	}
	return d, nil
}

// any reports whether anything uses the function.
func (d *definerRename) any() bool { return len(d.aggs)+len(d.ops)+len(d.trigs)+len(d.evts) > 0 }

// swap puts the rewritten aggregates and operators in the catalog in
// place of those they replace (back: the other way round), for the views
// over them to bind again.
func (d *definerRename) swap(e *Engine, back bool) {
	for _, r := range d.aggs {
		from, to := r.was, r.now
		if back {
			from, to = to, from
		}
		e.aggs[from.Name] = replaced(e.aggs[from.Name], from, to)
	}
	for _, r := range d.ops {
		from, to := r.was, r.now
		if back {
			from, to = to, from
		}
		e.opers[from.Name] = replaced(e.opers[from.Name], from, to)
	}
}

// replaced is a copy of list with from replaced by to.
func replaced[T comparable](list []T, from, to T) []T {
	out := slices.Clone(list)
	if i := slices.Index(out, from); i >= 0 {
		out[i] = to
	}
	return out
}

// apply keeps the rewritten aggregates, operators and triggers, and their
// statements in the store.
func (d *definerRename) apply(e *Engine) error {
	d.swap(e, false)
	ss, _ := e.store.(StatementStore)
	for _, r := range d.aggs {
		sig := r.now.Signature()
		if r.text == "" {
			continue
		}
		e.routineText[sig] = r.text
		if ss != nil && !isTemp(sig) {
			if err := ss.SetStatement(sig, r.text); err != nil {
				return err
			}
		}
	}
	for _, r := range d.ops {
		if r.text == "" {
			continue
		}
		e.routineText[r.now.DepKey()] = r.text
		if ss != nil {
			if err := ss.SetStatement(r.now.DepKey(), r.text); err != nil {
				return err
			}
		}
	}
	for _, tr := range d.trigs {
		text, err := sql.RenameTriggerFunction(tr.text, d.old, d.new)
		if err != nil {
			return err
		}
		tr.fn, tr.fnSig, tr.text = d.new, d.newSig, text
		if err := e.storeTrigger(tr, true); err != nil {
			return err
		}
	}
	for _, t := range d.evts {
		t.fn, t.fnSig = d.new, d.newSig
		if err := e.storeEvtTrigger(t.name, t); err != nil {
			return err
		}
	}
	return nil
}

// aggOptionFields are the options of an aggregate that name a function,
// by CREATE AGGREGATE's option name, as pointers into a.
func aggOptionFields(a *sql.Aggregate) map[string]*[]*pg_query.Node {
	return map[string]*[]*pg_query.Node{"sfunc": &a.SFunc, "finalfunc": &a.FinalFunc, "msfunc": &a.MSFunc,
		"minvfunc": &a.MInvFunc, "mfinalfunc": &a.MFinalFunc, "combinefunc": &a.CombineFunc}
}

// aggOptionsUsing are the options of aggregate a that name the function
// f: its name, and the argument types the option's function takes.
func aggOptionsUsing(a *sql.Aggregate, f *sql.Function) map[string]bool {
	args := func(state sql.FuncParam, inputs bool) []sql.FuncParam {
		ps := []sql.FuncParam{state}
		if inputs {
			ps = append(ps, a.Args...)
		}
		return ps
	}
	want := map[string][]sql.FuncParam{"sfunc": args(a.SType, true), "finalfunc": args(a.SType, false),
		"combinefunc": {a.SType, a.SType}}
	if a.MSType != nil {
		want["msfunc"], want["minvfunc"], want["mfinalfunc"] = args(*a.MSType, true), args(*a.MSType, true), args(*a.MSType, false)
	}
	// The function of the types as declared (domains too), or of their
	// base types (aggregateFunc).
	takes := func(ps []sql.FuncParam) bool {
		if sql.ParamsSignature(f.Name, ps) == f.Signature() {
			return true
		}
		ts := make([]value.Type, len(ps))
		for i, p := range ps {
			ts[i] = p.Type
		}
		return sql.Signature(f.Name, ts) == f.Signature()
	}
	out := map[string]bool{}
	for opt, names := range aggOptionFields(a) {
		ts, ok := want[opt]
		if !ok || *names == nil {
			continue
		}
		if _, named := sql.RenamedFuncName(*names, f.Name, f.Name); named && takes(ts) {
			out[opt] = true
		}
	}
	return out
}
