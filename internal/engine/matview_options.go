// A materialized view's storage parameters: kept with its statement,
// shown in pg_class.reloptions, written to the store after its CREATE.
package engine

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// alterMatViewOptions runs ALTER MATERIALIZED VIEW … SET (…) / RESET
// (…): the view's parameters change, nothing else (rows are kept in
// memory, so none of them changes what the engine does).
func (s *Session) alterMatViewOptions(a *sql.AlterMatViewOptions) (Result, error) {
	e := s.e
	name := a.Name
	kind, ok := e.kindOf(name)
	if !ok {
		if a.MissingOk {
			return Result{Tag: a.Tag, Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if kind != sql.DropMatView {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a materialized view", e.bareName(name))
	}
	if err := s.mustOwnRel(name, "materialized view"); err != nil {
		return Result{}, err
	}
	vs, ok := e.viewStmts[name]
	if !ok {
		return Result{}, pgerr.New(pgerr.Internal, "no statement text kept for materialized view %q", name)
	}
	old := vs
	vs.relOpts, vs.optsAltered = a.Apply(vs.relOpts), true
	e.viewStmts[name] = vs
	if err := e.restate(name, e.views[name] != nil); err != nil {
		e.viewStmts[name] = old
		return Result{}, err
	}
	return Result{Tag: a.Tag}, nil
}

// matViewOptionsText is what follows a view's statement in the store
// once ALTER has changed its parameters: RESET of those its CREATE gave,
// then SET of the ones it has, in their order; "" when unchanged.
func matViewOptionsText(name string, vs viewStmt) string {
	if !vs.optsAltered {
		return ""
	}
	var b strings.Builder
	q := expr.QuoteIdent(name)
	if len(vs.createOpts) > 0 {
		names := make([]string, len(vs.createOpts))
		for i, o := range vs.createOpts {
			n, _, _ := strings.Cut(o, "=")
			names[i] = expr.QuoteIdent(n)
		}
		fmt.Fprintf(&b, "\n;\nALTER MATERIALIZED VIEW %s RESET (%s)", q, strings.Join(names, ", "))
	}
	if len(vs.relOpts) > 0 {
		sets := make([]string, len(vs.relOpts))
		for i, o := range vs.relOpts {
			n, v, _ := strings.Cut(o, "=")
			sets[i] = expr.QuoteIdent(n) + " = '" + strings.ReplaceAll(v, "'", "''") + "'"
		}
		fmt.Fprintf(&b, "\n;\nALTER MATERIALIZED VIEW %s SET (%s)", q, strings.Join(sets, ", "))
	}
	return b.String()
}
