package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER FUNCTION … STRICT or CALLED ON NULL INPUT changes what a call of
// NULL computes. A materialized view holds the calls of the function as
// they were bound (inlined under CASE WHEN arg IS NULL for a strict SQL
// function), so the views that call it, and those that read them, are
// bound again over the function as altered and built again (a cold start
// each, said by a NOTICE; subscribers receive the difference), as
// PostgreSQL's view computes with the function as it is when it runs. A
// view that would no longer bind refuses the change (0A000), which then
// changes nothing, and so does a view with a sink, or with subscribers
// inside a transaction block (strictWatched).

// strictCallers binds again, with g in f's place in the catalog, the
// materialized views that call f and those that read them, and returns
// them, in the order of the views; the catalog is left as it was.
func (e *Engine) strictCallers(f, g *sql.Function) ([]string, map[string]*sql.CreateView, error) {
	sig := f.Signature()
	names := e.viewsOver(e.callers(sig))
	if len(names) == 0 {
		return nil, nil, nil
	}
	if err := e.strictWatched(sig, names); err != nil {
		return nil, nil, err
	}
	_, i := e.function(sig, f.Name)
	list := e.funcs[f.Name]
	list[i] = g
	defer func() { list[i] = f }()
	plans := map[string]*sql.CreateView{}
	for _, v := range names {
		_, text, _, ok := e.readerText(v)
		err := errReaderKind(nil)
		if ok {
			plans[v], err = bindReader(e, text, true)
		}
		if err != nil {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "cannot change the strictness of function %s: materialized view %s would not bind again (%v)", sig, v, err).
				WithHint("drop the view, alter the function, and create the view again")
		}
	}
	return names, plans, nil
}

// rebuildStrictCallers builds again the views strictCallers bound, with
// the function altered in the catalog: the populated ones over their
// rows (rebuildViews), the unpopulated ones keep their new plans.
func (e *Engine) rebuildStrictCallers(sig string, names []string, plans map[string]*sql.CreateView) ([]string, error) {
	var built []string
	for _, v := range names {
		if e.views[v] != nil {
			built = append(built, v)
		} else {
			e.unpopulated[v] = plans[v]
		}
	}
	return e.rebuildViews(built, true, fmt.Sprintf("function %s altered", sig))
}

// strictWatched refuses (0A000) the rebuild of names where the
// difference of a view's rows could not reach who watches it: a sink,
// which a rebuild does not feed, or a subscriber inside a transaction
// block, whose ROLLBACK could not take a delivered difference back.
func (e *Engine) strictWatched(sig string, names []string) error {
	switch view, sink := e.watchedView(names); {
	case sink:
		return pgerr.New(pgerr.FeatureNotSupported, "cannot change the strictness of function %s: materialized view %s, which calls it, feeds a sink", sig, view).
			WithHint("drop the sink, alter the function, and create the sink again")
	case view != "":
		return pgerr.New(pgerr.FeatureNotSupported, "cannot change the strictness of function %s inside a transaction block: materialized view %s, which calls it, has subscribers", sig, view).
			WithHint("run the ALTER FUNCTION outside BEGIN … COMMIT")
	}
	return nil
}

// watchedView returns the first of the views names whose rebuild could
// not reach who watches it: one that feeds a sink (sink), which a
// rebuild does not feed, else, inside a transaction block, one with
// subscribers, whose ROLLBACK could not take a delivered difference
// back; "" for none.
func (e *Engine) watchedView(names []string) (view string, sink bool) {
	for _, sa := range e.sinks {
		if slices.Contains(names, sa.view) {
			return sa.view, true
		}
	}
	if e.txd == nil {
		return "", false
	}
	for _, sub := range e.subs {
		if slices.Contains(names, sub.view) {
			return sub.view, false
		}
	}
	return "", false
}

// viewsOver are the materialized views (populated or not) among names
// and those that read them, directly or through other views, in the
// order they were created.
func (e *Engine) viewsOver(names []string) []string {
	in := map[string]bool{}
	for _, n := range names {
		in[n] = true
	}
	for grew := true; grew; {
		grew = false
		for v, deps := range e.deps {
			if !in[v] && slices.ContainsFunc(deps, func(d string) bool { return in[d] }) {
				in[v], grew = true, true
			}
		}
	}
	var out []string
	for n := range in {
		if e.views[n] != nil || e.unpopulated[n] != nil {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := e.orderOf(a) - e.orderOf(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out
}
