package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// MovedRoutineText rewrites text, the statements a store keeps for a
// routine (its CREATE FUNCTION, PROCEDURE or AGGREGATE, then the ALTERs
// since, each after the SET search_path it ran under, if any), so that
// they make the routine in schema directly: the routine's name in each
// is qualified by schema, and the SET SCHEMA statements among them are
// left out. Run again when a database file opens, they then need no
// schema the routine was in before (which may be gone). ok is false when
// text holds a statement of another kind.
func MovedRoutineText(text, schema string) (string, bool) {
	res, err := pg_query.Parse(text)
	if err != nil {
		return "", false
	}
	qualify := func(names []*pg_query.Node) []*pg_query.Node {
		if len(names) == 0 {
			return names
		}
		name := names[len(names)-1].GetString_().GetSval()
		if len(names) == 1 {
			if _, n, ok := strings.Cut(name, "."); ok {
				name = n // a key, "s.name"
			}
		}
		return []*pg_query.Node{pg_query.MakeStrNode(schema), pg_query.MakeStrNode(name)}
	}
	var kept []*pg_query.RawStmt
	for _, rs := range res.Stmts {
		n := rs.Stmt
		switch {
		case n.GetVariableSetStmt() != nil:
		case n.GetCreateFunctionStmt() != nil:
			cf := n.GetCreateFunctionStmt()
			cf.Funcname = qualify(cf.Funcname)
		case n.GetDefineStmt() != nil && n.GetDefineStmt().Kind == pg_query.ObjectType_OBJECT_AGGREGATE:
			ds := n.GetDefineStmt()
			ds.Defnames = qualify(ds.Defnames)
		case n.GetAlterFunctionStmt() != nil:
			af := n.GetAlterFunctionStmt()
			af.Func.Objname = qualify(af.Func.Objname)
		case n.GetRenameStmt() != nil && n.GetRenameStmt().Object.GetObjectWithArgs() != nil:
			ow := n.GetRenameStmt().Object.GetObjectWithArgs()
			ow.Objname = qualify(ow.Objname)
		case n.GetAlterOwnerStmt() != nil && n.GetAlterOwnerStmt().Object.GetObjectWithArgs() != nil:
			ow := n.GetAlterOwnerStmt().Object.GetObjectWithArgs()
			ow.Objname = qualify(ow.Objname)
		case n.GetAlterObjectSchemaStmt() != nil:
			continue // its schema is the one the routine is made in now
		default:
			return "", false
		}
		kept = append(kept, &pg_query.RawStmt{Stmt: n})
	}
	var b strings.Builder
	for _, rs := range kept {
		out, err := pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{rs}})
		if err != nil {
			return "", false
		}
		if b.Len() > 0 {
			b.WriteString(";\n")
		}
		b.WriteString(out)
	}
	return b.String(), true
}
