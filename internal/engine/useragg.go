package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// User-defined aggregates (CREATE AGGREGATE) live in the catalog by name,
// overloads together, beside the SQL functions, whose signatures they
// share: a function and an aggregate of the same name and argument types
// cannot both exist, as in PostgreSQL. A call binds the aggregate's
// functions as they are then (sql.Aggregate); a view that calls one
// depends on it by signature, in funcDeps as on a function, so that DROP
// AGGREGATE refuses to drop it (2BP01) unless CASCADE drops the view too.
// The store keeps an aggregate as its statement, under its signature.

// KindAggregate is the kind of a stored user-defined aggregate.
const KindAggregate RelKind = "aggregate"

// Aggregates implements sql.AggregateCatalog.
func (e *Engine) Aggregates(name string) []*sql.Aggregate { return e.aggs[name] }

// AnyAggregates implements sql.AggregateCatalog.
func (e *Engine) AnyAggregates() bool { return len(e.aggs) > 0 }

// AnyAggregates implements sql.AggregateCatalog.
func (r *recorder) AnyAggregates() bool {
	ac, ok := r.cat.(sql.AggregateCatalog)
	return ok && ac.AnyAggregates()
}

// AnyAggregates implements sql.AggregateCatalog.
func (v viewRecorder) AnyAggregates() bool { return v.r.AnyAggregates() }

// Aggregates implements sql.AggregateCatalog.
func (r *recorder) Aggregates(name string) []*sql.Aggregate {
	if ac, ok := r.cat.(sql.AggregateCatalog); ok {
		return ac.Aggregates(name)
	}
	return nil
}

// UseAggregate implements sql.AggregateUser.
func (r *recorder) UseAggregate(a *sql.Aggregate) {
	r.use(a.Signature())
	r.useAggregateCall(a)
}

// Aggregates implements sql.AggregateCatalog.
func (v viewRecorder) Aggregates(name string) []*sql.Aggregate { return v.r.Aggregates(name) }

// UseAggregate implements sql.AggregateUser.
func (v viewRecorder) UseAggregate(a *sql.Aggregate) { v.r.UseAggregate(a) }

// aggregate returns the aggregate of a signature, and its index among
// those of its name.
func (e *Engine) aggregate(sig, name string) (*sql.Aggregate, int) {
	for i, a := range e.aggs[name] {
		if a.Signature() == sig {
			return a, i
		}
	}
	return nil, -1
}

// createAggregate runs CREATE [OR REPLACE] AGGREGATE.
func (e *Engine) createAggregate(ca *sql.CreateAggregate, rec *recorder) (Result, error) {
	a := ca.Agg
	sig := a.Signature()
	if f, _ := e.function(sig, a.Name); f != nil {
		if ca.Replace {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "cannot change routine kind").
				WithDetail("%q is a function.", a.Name)
		}
		return Result{}, pgerr.New(sql.CodeDuplicateFunction, "function %q already exists with same argument types", e.bareName(a.Name))
	}
	old, i := e.aggregate(sig, a.Name)
	if old != nil {
		if !ca.Replace {
			return Result{}, pgerr.New(sql.CodeDuplicateFunction, "function %q already exists with same argument types", e.bareName(a.Name))
		}
		if v := e.matViewCalling(sig); v != "" {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot replace aggregate %s: materialized view %s calls it", sig, v).
				WithHint("drop the view, replace the aggregate, and create the view again")
		}
	}
	a.Owner = aggregateCreator(rec.session, old)
	text := rec.text
	if own := aggOwnerText(a); own != "" {
		text = strings.TrimRight(strings.TrimSpace(text), ";") + ";\n" + own
	}
	if old != nil && old.HasACL {
		// CREATE OR REPLACE keeps the aggregate's privileges.
		a.ACL, a.HasACL, a.ACLOptions = old.ACL, true, old.ACLOptions
		text = strings.TrimRight(strings.TrimSpace(text), ";") + ";\n" + aggACLText(a)
	}
	if e.store != nil {
		if old != nil {
			if err := e.store.Drop([]string{sig}); err != nil {
				return Result{}, err
			}
		}
		if err := e.store.Create(&StoredRelation{Name: sig, Kind: KindAggregate, SQL: text}); err != nil {
			return Result{}, err
		}
	}
	if e.aggs == nil {
		e.aggs = map[string][]*sql.Aggregate{}
	}
	e.recordRoutine(sig, text)
	if old != nil {
		e.aggs[a.Name][i] = a
	} else {
		e.aggs[a.Name] = append(e.aggs[a.Name], a)
	}
	return Result{Tag: "CREATE AGGREGATE"}, nil
}

// dropAggregates runs DROP AGGREGATE.
func (e *Engine) dropAggregates(d *sql.DropAggregate) (Result, error) {
	var notices []string
	var gone []*sql.Aggregate
	for _, ref := range d.Aggs {
		if ref.Missing != "" {
			notices = append(notices, ref.Missing)
			continue
		}
		sig := ref.Key()
		a, _ := e.aggregate(sig, ref.Name)
		if a == nil {
			if f, _ := e.function(sig, ref.Name); f != nil {
				return Result{}, pgerr.New(pgerr.WrongObjectType, "function %s is not an aggregate", ref.ArgsString())
			}
			if d.IfExists {
				notices = append(notices, fmt.Sprintf("aggregate %s does not exist, skipping", cmp.Or(ref.Written, ref.ArgsString())))
				continue
			}
			return Result{}, pgerr.New(pgerr.UndefinedFunction, "aggregate %s does not exist", ref.ArgsString())
		}
		gone = append(gone, a)
	}
	notices, err := e.dropAggregateObjs(gone, d.Cascade, notices)
	if err != nil {
		return Result{}, err
	}
	return Result{Tag: "DROP AGGREGATE", Notices: notices}, nil
}

// dropAggregateObjs drops the aggregates gone (with cascade, the views
// using them), after notices; it returns the notices with its own.
func (e *Engine) dropAggregateObjs(gone []*sql.Aggregate, cascade bool, notices []string) ([]string, error) {
	sigs := make([]string, len(gone))
	for i, a := range gone {
		sigs[i] = a.Signature()
	}
	notices, err := e.dropWithDependents("function", sigs, sigs, cascade, notices)
	if err != nil {
		return nil, err
	}
	for _, a := range gone {
		e.forgetRoutine(a.Signature())
		e.aggs[a.Name] = slices.DeleteFunc(e.aggs[a.Name], func(b *sql.Aggregate) bool { return b == a })
		if len(e.aggs[a.Name]) == 0 {
			delete(e.aggs, a.Name)
		}
	}
	return notices, nil
}

// aggregatesUsing are the signatures of the aggregates whose transition
// or final function is the SQL function f, sorted.
func (e *Engine) aggregatesUsing(f *sql.Function) []string {
	var out []string
	for _, a := range e.aggregateObjsUsing(f) {
		out = append(out, a.Signature())
	}
	return out
}

// aggregateObjsUsing are the aggregates whose transition or final
// function is the SQL function f, by name.
func (e *Engine) aggregateObjsUsing(f *sql.Function) []*sql.Aggregate {
	var out []*sql.Aggregate
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			if sql.FuncName(a.SFunc) == f.Name && e.aggregateFunc(a.SFunc, a.TransParams()) == f ||
				a.FinalFunc != nil && sql.FuncName(a.FinalFunc) == f.Name && e.aggregateFunc(a.FinalFunc, []sql.FuncParam{a.SType}) == f {
				out = append(out, a)
			}
		}
	}
	return out
}

// aggregateNamed returns an aggregate of a name and input types, for DROP
// FUNCTION to tell it is one.
func (e *Engine) aggregateNamed(ref sql.FuncRef) *sql.Aggregate {
	if ref.Args == nil {
		if len(e.aggs[ref.Name]) > 0 {
			return e.aggs[ref.Name][0]
		}
		return nil
	}
	a, _ := e.aggregate(ref.Key(), ref.Name)
	return a
}

// catalogAggregates lists the aggregates CREATE AGGREGATE made, as
// pg_proc rows of kind 'a'.
func (e *Engine) catalogAggregates() []catProc {
	var out []catProc
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			p := catProc{name: a.Name, kind: "a", src: "aggregate_dummy", lang: languageOID("internal"), owner: e.roleOID(aggOwnerName(a))}
			var args []string
			for _, x := range a.Args {
				p.args = append(p.args, e.typeOID(x.Type, x.Domain))
				p.argStr = append(p.argStr, x.TypeString())
				p.names = append(p.names, x.Name)
				args = append(args, x.TypeString())
			}
			p.argText = strings.Join(args, ", ")
			if len(args) == 0 {
				p.argText = "*"
			}
			res, resDom := a.SType.Type, a.SType.Domain
			if a.FinalFunc != nil {
				res, resDom = value.UnknownType, nil
				for _, f := range e.funcs[sql.FuncName(a.FinalFunc)] {
					if len(f.Params) == 1 && f.Params[0].Type.Kind == a.SType.Type.Kind && len(f.Cols) == 1 {
						res = f.Cols[0].Type
					}
				}
			}
			if res.Kind != value.Unknown {
				p.ret, p.resultText = e.typeOID(res, resDom), (&sql.FuncParam{Type: res, Domain: resDom}).TypeString()
			}
			p.oid = objectOID("function", p.signature())
			p.agg = e.catalogAgg(a)
			p.key = a.Signature()
			if a.HasACL {
				p.acl, p.execs = aggProACL(a), execItems(true, a.ACL, a.ACLOptions, aggOwnerName(a))
			}
			out = append(out, p)
		}
	}
	return out
}

// catalogAgg is what pg_aggregate shows of a.
func (e *Engine) catalogAgg(a *sql.Aggregate) *catAgg {
	// A function of another schema is named by its key, as regproc
	// prints it qualified.
	name := func(n []*pg_query.Node) string {
		switch {
		case n == nil:
			return ""
		case len(n) == 2 && n[0].GetString_().GetSval() != "public":
			return n[0].GetString_().GetSval() + "." + sql.FuncName(n)
		}
		return sql.FuncName(n)
	}
	c := &catAgg{trans: name(a.SFunc), final: name(a.FinalFunc), combine: name(a.CombineFunc), mtrans: name(a.MSFunc),
		minv: name(a.MInvFunc), mfinal: name(a.MFinalFunc), transType: e.typeOID(a.SType.Type, a.SType.Domain)}
	if a.MSType != nil {
		c.mTransType = e.typeOID(a.MSType.Type, nil)
	}
	if a.HasInit {
		c.initVal = a.InitCond
	}
	if a.MInitCond != nil {
		c.mInitVal = *a.MInitCond
	}
	return c
}
