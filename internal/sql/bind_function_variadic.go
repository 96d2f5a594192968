package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// VARIADIC parameters of user functions. A call passes the parameter's
// elements one by one (f(1, 2, 3)), which become an ARRAY[…] of the
// parameter's element type, or the array itself after the VARIADIC
// keyword (f(VARIADIC ARRAY[1, 2])), as PostgreSQL does; no state.

// variadicArgs is bindArgs for a call marked VARIADIC or not (variadic):
// expand reports that the arguments from the last parameter's position on
// are its elements, slot then mapping each of them to it. As in
// PostgreSQL, a VARIADIC parameter takes its array only after the
// VARIADIC keyword, and that keyword only calls a function with one.
func (f *Function) variadicArgs(names []string, variadic bool) (slot []int, expand, ok bool) {
	n := len(f.Params)
	last := n > 0 && f.Params[n-1].Variadic
	if variadic {
		if !last {
			return nil, false, false
		}
		slot, ok = f.bindArgs(names)
		// The marked argument is the last, and must fill the VARIADIC
		// parameter.
		return slot, false, ok && len(slot) > 0 && slot[len(slot)-1] == n-1
	}
	if !last || len(names) < n {
		slot, ok = f.bindArgs(names)
		for _, p := range slot {
			if last && p == n-1 {
				return nil, false, false
			}
		}
		return slot, false, ok
	}
	for _, nm := range names[n-1:] {
		if nm != "" {
			return nil, false, false
		}
	}
	head := append(append([]string(nil), names[:n-1]...), "")
	if slot, ok = f.bindArgs(head); !ok {
		return nil, false, false
	}
	for range names[n:] {
		slot = append(slot, n-1)
	}
	return slot, true, true
}

// spreadArgs is the array of the elements a call passes to a VARIADIC
// parameter of type tn, each cast to the element type so that a literal
// takes it as PostgreSQL's resolution does.
func spreadArgs(tn *pg_query.TypeName, elems []*pg_query.Node, loc int32) *pg_query.Node {
	et := proto.Clone(tn).(*pg_query.TypeName)
	et.ArrayBounds = nil
	if t, ok := polyTypeFromName(tn); ok {
		et = polyTypeName(t.ElemType())
	}
	out := make([]*pg_query.Node, len(elems))
	for i, e := range elems {
		out[i] = castNode(proto.Clone(e).(*pg_query.Node), et)
	}
	return &pg_query.Node{Node: &pg_query.Node_AArrayExpr{AArrayExpr: &pg_query.A_ArrayExpr{Elements: out, Location: loc}}}
}

// noVariadicMatch is PostgreSQL's error for a call marked VARIADIC, or
// with named arguments, that no function of a user function's name takes:
// the name is the user's, so no built-in function is tried then.
func (b *binder) noVariadicMatch(s *scope, name string, f *pg_query.FuncCall) error {
	parts := make([]string, len(f.Args))
	for i, a := range f.Args {
		prefix := ""
		if na := a.GetNamedArgExpr(); na != nil {
			prefix, a = na.Name+" => ", na.Arg
		}
		e, err := b.bindExpr(s, a)
		if err != nil {
			return err
		}
		parts[i] = prefix + e.Type().String()
	}
	return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(parts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// namedCall reports whether a call names an argument.
func namedCall(args []*pg_query.Node) bool {
	for _, a := range args {
		if a.GetNamedArgExpr() != nil {
			return true
		}
	}
	return false
}
