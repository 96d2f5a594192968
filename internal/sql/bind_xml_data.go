package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// RelationLister is a Catalog that lists its relations' names in order,
// for schema_to_xml and database_to_xml.
type RelationLister interface {
	RelationNames() []string
}

// xmlDataArgs is the number of arguments of each function of the
// table_to_xml family this binder runs.
var xmlDataArgs = map[string]int{"table_to_xml": 4, "query_to_xml": 4, "schema_to_xml": 4, "database_to_xml": 3}

// isXMLDataCall reports whether f is table_to_xml, query_to_xml,
// schema_to_xml or database_to_xml with its arguments.
func isXMLDataCall(name string, f *pg_query.FuncCall) bool {
	n, ok := xmlDataArgs[name]
	return ok && len(f.Args) == n
}

// bindXMLData binds a function of the table_to_xml family as expr.XMLData
// over the rows of the tables or the query it reads, which it collects at
// the call as ts_rewrite collects its query's (queryTextRows): ad hoc
// only, a view refusing it as it cannot track what it reads. The table
// (a regclass literal), the query and the schema must be constants.
func (b *binder) bindXMLData(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, error) {
	if b.forView {
		return nil, b.refuse(f.Location, "%s cannot be maintained in a view: it reads tables the view cannot track", name).
			WithHint("join the tables in the view's query")
	}
	first := 0
	if name != "database_to_xml" {
		first = 1
	}
	opts := make([]expr.Expr, 3)
	for i, t := range []value.Type{value.BoolType, value.BoolType, value.TextType} {
		e, err := b.bindExpr(s, f.Args[first+i])
		if err != nil {
			return nil, err
		}
		if opts[i], err = b.coerce(e, t, nodeLoc(f.Args[first+i], f.Location)); err != nil {
			return nil, err
		}
	}
	args := opts
	var outer []string
	var tables []string // relations, or "" for the query
	switch name {
	case "query_to_xml":
		text, null, ok := constantText(f.Args[0])
		if !ok {
			return nil, b.refuse(f.Location, "%s's query text must be a constant", name)
		}
		if null {
			return &expr.Const{V: value.Null, T: value.XMLType}, nil
		}
		last, err := b.lastSelect(text, f.Location)
		if err != nil {
			return nil, err
		}
		part, err := b.xmlDataTable(s, name, "", last, f.Location)
		if err != nil {
			return nil, err
		}
		return b.xmlDataCall(append(append(args, namesConst(nil)), part...)), nil
	case "table_to_xml":
		rel, null, err := b.regclassArg(f.Args[0])
		if err != nil || null {
			return &expr.Const{V: value.Null, T: value.XMLType}, err
		}
		tables = []string{rel}
	case "schema_to_xml":
		schema, null, ok := constantText(f.Args[0])
		if !ok {
			return nil, b.refuse(f.Location, "%s's schema must be a constant", name)
		}
		if null {
			return &expr.Const{V: value.Null, T: value.XMLType}, nil
		}
		q := b.qualifier()
		if schema != "public" && (q == nil || !q.SchemaExists(schema) || systemSchema(schema)) {
			return nil, b.stmt.errf(nodeLoc(f.Args[0], f.Location), "3F000", "schema \"%s\" does not exist", schema)
		}
		outer = []string{xmlName(schema, true)}
		tables = b.relationsOf(schema)
	case "database_to_xml":
		// The relations of public (those of other schemas are not
		// written).
		outer = []string{xmlName(expr.DatabaseName, true), xmlName("public", true)}
		tables = b.relationsOf("public")
	}
	args = append(args, namesConst(outer))
	for _, t := range tables {
		quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
		from := quote(t)
		if schema, rel, ok := strings.Cut(t, "."); ok && systemSchema(schema) {
			from = quote(schema) + "." + quote(rel) // a system catalog's relation
		}
		part, err := b.xmlDataTable(s, name, t, `SELECT * FROM `+from, f.Location)
		if err != nil {
			return nil, err
		}
		args = append(args, part...)
	}
	return b.xmlDataCall(args), nil
}

func (b *binder) xmlDataCall(args []expr.Expr) expr.Expr {
	return &expr.Func{Def: expr.XMLData, Args: args, T: value.XMLType}
}

// xmlDataTable binds the query text of a table (rel) or of query_to_xml
// (rel ""): the table's element name, its columns' and its rows.
func (b *binder) xmlDataTable(s *scope, name, rel, text string, loc int32) ([]expr.Expr, error) {
	node, cols, err := b.bindQueryText(name, text, loc)
	if err != nil {
		return nil, err
	}
	rows, err := b.bindExpr(s, rowsArray(node, true, loc))
	if err != nil {
		return nil, err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = xmlName(c.Name, true)
	}
	elem := ""
	if rel != "" {
		n := b.refName(rel)
		if schema, r, ok := strings.Cut(rel, "."); ok && systemSchema(schema) {
			n = r // a system catalog's relation
		}
		elem = xmlName(n, true)
	}
	return []expr.Expr{textConst(elem), namesConst(names), rows}, nil
}

// lastSelect is the last statement of query_to_xml's text, which
// PostgreSQL runs whole, read-only, and maps the last's rows: every
// statement must be a SELECT, whose others' rows are not used.
func (b *binder) lastSelect(text string, loc int32) (string, error) {
	tree, err := parseTree(text)
	if err != nil {
		return "", pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	if len(tree.Stmts) == 0 {
		return "", pgerr.New("22000", "invalid query")
	}
	for _, st := range tree.Stmts {
		if st.Stmt.GetSelectStmt() == nil {
			kind := stmtName(st.Stmt)
			if kind == "CREATE" {
				kind = "CREATE TABLE"
			}
			return "", pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed in a non-volatile function", kind)
		}
	}
	st := tree.Stmts[len(tree.Stmts)-1]
	if st.StmtLen == 0 {
		return text[st.StmtLocation:], nil
	}
	return text[st.StmtLocation : st.StmtLocation+st.StmtLen], nil
}

// regclassArg reads table_to_xml's table: a constant naming a relation
// (quoted or not, optionally in schema public).
func (b *binder) regclassArg(n *pg_query.Node) (rel string, null bool, err error) {
	loc := nodeLoc(n, -1)
	if tc := n.GetTypeCast(); tc != nil {
		if names := tc.TypeName.GetNames(); len(names) > 0 && names[len(names)-1].GetString_().GetSval() == "regclass" {
			n = tc.Arg
		}
	}
	text, null, ok := constantText(n)
	if !ok {
		return "", false, b.refuse(loc, "table_to_xml's table must be a constant")
	}
	if null {
		return "", true, nil
	}
	if key, ok := b.catalogRelationKey(text); ok {
		return key, false, nil
	}
	rel, err = b.textRelationKey(text)
	if err != nil {
		return "", false, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	if _, ok := b.lookupRelation(rel); !ok {
		return "", false, b.stmt.errf(loc, pgerr.UndefinedTable, "relation \"%s\" does not exist", text)
	}
	return rel, false, nil
}

// catalogRelationKey returns the key of the system catalog's relation
// that text names, a regclass literal: pg_catalog.pg_class, or pg_class
// (pg_catalog is searched first, as PostgreSQL searches it), or
// information_schema.tables. ok is false for any other name.
func (b *binder) catalogRelationKey(text string) (key string, ok bool) {
	parts, err := expr.RelationParts(text)
	if err != nil {
		return "", false
	}
	switch {
	case len(parts) == 2 && (parts[0] == "pg_catalog" || parts[0] == "information_schema"):
		key = parts[0] + "." + parts[1]
	case len(parts) == 1:
		key = "pg_catalog." + parts[0]
	default:
		return "", false
	}
	rel, found := b.cat.Relation(key)
	return key, found && rel.System
}

// relationNames are the catalog's relations, for schema_to_xml and
// database_to_xml.
func (b *binder) relationNames() []string {
	if l, ok := b.cat.(RelationLister); ok {
		return l.RelationNames()
	}
	return nil
}
