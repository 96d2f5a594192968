package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// BodyNames lists the names of the functions a SQL function's body calls
// and of the relations it names, as written in its own statements (last
// part, lower case), each once. Binding a body inlines the bodies of the
// SQL functions it calls, whose calls and relations are then recorded
// with its own; PostgreSQL records only those of the body itself
// (information_schema.routine_routine_usage, routine_table_usage), which
// these names pick out.
func BodyNames(f *Function) (funcs, rels []string) {
	return namesIn(bodyStatements(f))
}

// bodyStatements are the statements of f's body, the last one last.
func bodyStatements(f *Function) []*pg_query.Node {
	stmts := slices.Clone(f.Earlier)
	if f.Body != nil {
		stmts = append(stmts, selectNode(f.Body))
	}
	return stmts
}

// StmtNames is BodyNames of a statement: a view's query, whose binding
// inlines the SQL functions it calls and the views it reads
// (information_schema.view_routine_usage).
func StmtNames(st *Stmt) (funcs, rels []string) {
	if st == nil || st.Node == nil {
		return nil, nil
	}
	return namesIn([]*pg_query.Node{st.Node})
}

// namesIn lists the names of the functions called and the relations
// named in stmts.
func namesIn(stmts []*pg_query.Node) (funcs, rels []string) {
	add := func(list *[]string, name string) {
		if name != "" && !slices.Contains(*list, name) {
			*list = append(*list, name)
		}
	}
	for _, st := range stmts {
		walkNodes(st.ProtoReflect(), func(n *pg_query.Node) {
			switch x := n.Node.(type) {
			case *pg_query.Node_FuncCall:
				if names := x.FuncCall.Funcname; len(names) > 0 {
					add(&funcs, names[len(names)-1].GetString_().GetSval())
				}
			case *pg_query.Node_RangeVar:
				add(&rels, x.RangeVar.Relname)
			}
		})
	}
	return funcs, rels
}

// OwnRefs are the column references of log, made by binding f's body
// (FunctionBodyRefs), that f's body itself writes: the bodies of the
// functions it calls are inlined with their locations set to the call's,
// which no column reference of its own has.
func OwnRefs(f *Function, log *RefLog) []RefOrigin {
	own := map[int32]bool{}
	for _, st := range bodyStatements(f) {
		walkNodes(st.ProtoReflect(), func(n *pg_query.Node) {
			if c := n.GetColumnRef(); c != nil {
				own[c.Location] = true
			}
		})
	}
	var out []RefOrigin
	for i, o := range log.Seq {
		if own[log.locs[i]] {
			out = append(out, o)
		}
	}
	return out
}
