// The session's temporary schema as the schema objects are created in:
// when search_path names pg_temp before any other schema, PostgreSQL
// creates an unqualified table, view, sequence, function, type or domain
// there, as if it were written pg_temp.name.
package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// CreateInTemp returns st with the unqualified name of the object it
// creates qualified by pg_temp, and whether it changed it; st itself is
// left as it is. A statement that creates no such object, or names its
// schema, is returned as it is.
func CreateInTemp(st *Stmt) (*Stmt, bool) {
	if st.Node == nil || !createsUnqualified(st.Node) {
		return st, false
	}
	out := *st
	out.Node = proto.Clone(st.Node).(*pg_query.Node)
	rel := func(rv *pg_query.RangeVar) {
		if rv != nil && rv.Schemaname == "" {
			rv.Schemaname = "pg_temp"
		}
	}
	names := func(l *[]*pg_query.Node) {
		if len(*l) == 1 {
			*l = append([]*pg_query.Node{pg_query.MakeStrNode("pg_temp")}, *l...)
		}
	}
	n := out.Node
	switch {
	case n.GetCreateStmt() != nil:
		rel(n.GetCreateStmt().Relation)
	case n.GetCreateTableAsStmt() != nil:
		rel(n.GetCreateTableAsStmt().GetInto().GetRel())
	case n.GetSelectStmt() != nil:
		rel(n.GetSelectStmt().GetIntoClause().GetRel())
	case n.GetViewStmt() != nil:
		rel(n.GetViewStmt().View)
	case n.GetCreateSeqStmt() != nil:
		rel(n.GetCreateSeqStmt().Sequence)
	case n.GetCompositeTypeStmt() != nil:
		rel(n.GetCompositeTypeStmt().Typevar)
	case n.GetCreateFunctionStmt() != nil:
		names(&n.GetCreateFunctionStmt().Funcname)
	case n.GetCreateDomainStmt() != nil:
		names(&n.GetCreateDomainStmt().Domainname)
	case n.GetCreateEnumStmt() != nil:
		names(&n.GetCreateEnumStmt().TypeName)
	case n.GetCreateRangeStmt() != nil:
		names(&n.GetCreateRangeStmt().TypeName)
	}
	return &out, true
}

// createsUnqualified reports whether n creates a relation, routine,
// type or domain whose name names no schema.
func createsUnqualified(n *pg_query.Node) bool {
	unq := func(rv *pg_query.RangeVar) bool { return rv != nil && rv.Schemaname == "" }
	switch {
	case n.GetCreateStmt() != nil:
		return unq(n.GetCreateStmt().Relation)
	case n.GetCreateTableAsStmt() != nil:
		return unq(n.GetCreateTableAsStmt().GetInto().GetRel())
	case n.GetSelectStmt() != nil:
		return unq(n.GetSelectStmt().GetIntoClause().GetRel())
	case n.GetViewStmt() != nil:
		return unq(n.GetViewStmt().View)
	case n.GetCreateSeqStmt() != nil:
		return unq(n.GetCreateSeqStmt().Sequence)
	case n.GetCompositeTypeStmt() != nil:
		return unq(n.GetCompositeTypeStmt().Typevar)
	case n.GetCreateFunctionStmt() != nil:
		return len(n.GetCreateFunctionStmt().Funcname) == 1
	case n.GetCreateDomainStmt() != nil:
		return len(n.GetCreateDomainStmt().Domainname) == 1
	case n.GetCreateEnumStmt() != nil:
		return len(n.GetCreateEnumStmt().TypeName) == 1
	case n.GetCreateRangeStmt() != nil:
		return len(n.GetCreateRangeStmt().TypeName) == 1
	}
	return false
}
