package sql

import (
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Exclusion is an EXCLUDE constraint: no two rows (each with no NULL
// element and passing Where) may have every element's operator true
// between them. The engine checks each written row against the rows
// whose `=` elements (Eq) have the same key, then tests every operator
// on each of them.
type Exclusion struct {
	Name string
	// Method is the access method named by USING (btree when none is
	// written), kept for the catalog and the constraint's text.
	Method string
	Elems  []ExclusionElem
	// Where is the predicate of WHERE (…) over the table's row, nil for
	// none; WhereSQL its text.
	Where    expr.Expr
	WhereSQL string
	// Gist is set when the constraint needs the btree_gist extension: a
	// gist exclusion over a scalar type.
	Gist bool
	// Include are the columns of INCLUDE (…), which its index carries
	// and nothing compares; IncludeSQL their names as written back.
	Include    []int
	IncludeSQL []string
	// Deferrable is set for DEFERRABLE, InitDeferred for INITIALLY
	// DEFERRED: the engine checks the constraint at the end of each
	// statement, or at the commit while deferred.
	Deferrable, InitDeferred bool
}

// ExclusionElem is one element of an EXCLUDE constraint: a column or an
// expression of the table's row, and the operator it is compared with.
type ExclusionElem struct {
	Col  int       // the column, -1 for an expression
	Expr expr.Expr // the element's value over the table's row
	SQL  string    // its text as pg_get_constraintdef prints it pretty
	Op   string
	// Opclass is the operator class written, other than the type's
	// default (which is taken when none is written), "" for none.
	Opclass string
	// Eq is set for `=` over a type whose equal values have one key
	// (value.AppendKey): candidates are found by it.
	Eq bool
	// Test is the operator applied to the new row's element (column 0)
	// and another row's (column 1).
	Test expr.Expr
}

// ExtensionInstalledCatalog is a Catalog that tells whether an
// extension is installed (btree_gist for gist exclusions over scalars).
type ExtensionInstalledCatalog interface {
	ExtensionInstalled(name string) bool
}

// commutativeOps are the operators that are their own commutator among
// those an exclusion can use.
var commutativeOps = map[string]bool{"=": true, "<>": true, "&&": true, "-|-": true, "~=": true, "+": true, "*": true, "&": true, "|": true, "#": true}

// bindExclusion binds an EXCLUDE constraint of the table ct over its
// scope sc, as PostgreSQL's DefineIndex checks it.
func (b *binder) bindExclusion(ct *CreateTable, sc *scope, c *pg_query.Constraint) (Exclusion, error) {
	x := Exclusion{Method: c.AccessMethod}
	if x.Method == "" {
		x.Method = "btree"
	}
	switch x.Method {
	case "btree", "hash", "gist", "spgist":
	case "gin", "brin":
		return x, pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support exclusion constraints", x.Method)
	default:
		return x, pgerr.New(pgerr.UndefinedObject, "access method %q does not exist", x.Method)
	}
	if c.SkipValidation {
		return x, b.stmt.errf(c.Location, pgerr.FeatureNotSupported, "EXCLUDE constraints cannot be marked NOT VALID")
	}
	// INITIALLY DEFERRED implies DEFERRABLE, as in PostgreSQL.
	x.Deferrable, x.InitDeferred = c.Deferrable || c.Initdeferred, c.Initdeferred
	switch {
	case len(c.Options) > 0:
		return x, b.refuse(c.Location, "storage parameters of an exclusion constraint's index are not supported")
	case c.Indexspace != "" && c.Indexspace != "pg_default":
		return x, b.refuse(c.Location, "USING INDEX TABLESPACE %s is not supported", c.Indexspace).
			WithHint("the index is kept in memory; write USING INDEX TABLESPACE pg_default or nothing")
	}
	var names []string
	for _, n := range c.Exclusions {
		pair := n.GetList().GetItems()
		ie, ops := pair[0].GetIndexElem(), pair[1].GetList().GetItems()
		el, name, err := b.exclusionElem(ct, sc, c, ie)
		if err != nil {
			return x, err
		}
		names = append(names, name)
		el.Op = ops[len(ops)-1].GetString_().Sval
		if len(ops) > 1 && ops[0].GetString_().Sval != "pg_catalog" {
			return x, b.refuse(c.Location, "operator %s outside pg_catalog in an exclusion constraint is not supported", el.Op)
		}
		t := el.Expr.Type()
		named, class, err := b.exclusionNamedOpclass(c, ie, x.Method, t)
		if err != nil {
			return x, err
		}
		if named == "" {
			if err := b.exclusionOpclass(&x, t); err != nil {
				return x, err
			}
		}
		el.Opclass = named
		test, err := b.exclusionTest(t, el.Op)
		if err != nil {
			return x, err
		}
		sig := el.Op + "(" + t.String() + "," + t.String() + ")"
		if t.Kind.IsRange() {
			sig = el.Op + "(anyrange,anyrange)"
		}
		if !commutativeOps[el.Op] {
			return x, pgerr.New(pgerr.WrongObjectType, "operator %s is not commutative", sig).
				WithDetail("Only commutative operators can be used in exclusion constraints.")
		}
		fam, ok := exclusionMember(x.Method, t, el.Op)
		if named != "" {
			fam, ok = class.family, slices.Contains(class.ops, el.Op)
		}
		if !ok {
			return x, pgerr.New(pgerr.WrongObjectType, "operator %s is not a member of operator family %q", sig, fam).
				WithDetail("The exclusion operator must be related to the index operator class for the constraint.")
		}
		el.Test = test
		el.Eq = el.Op == "=" && btreeKey(t) == nil
		x.Elems = append(x.Elems, el)
	}
	for _, n := range c.Including {
		name := n.GetString_().GetSval()
		i := slices.IndexFunc(ct.Cols, func(col ColumnDef) bool { return col.Name == name })
		if i < 0 {
			return x, b.stmt.errf(c.Location, pgerr.UndefinedColumn, "column %q named in key does not exist", name)
		}
		x.Include, x.IncludeSQL = append(x.Include, i), append(x.IncludeSQL, expr.QuoteIdent(name))
		names = append(names, name) // the default name takes them too, as PostgreSQL's
	}
	if c.WhereClause != nil {
		var err error
		if x.Where, x.WhereSQL, err = b.indexWhere(sc, c.WhereClause, c.Location); err != nil {
			return x, err
		}
	}
	x.Name = c.Conname
	if x.Name == "" {
		x.Name = ct.Name + "_" + strings.Join(indexColumnNames(names), "_") + "_excl"
	}
	return x, nil
}

// exclusionElem binds an element's column or expression; name is what
// the constraint's default name takes from it.
func (b *binder) exclusionElem(ct *CreateTable, sc *scope, c *pg_query.Constraint, ie *pg_query.IndexElem) (ExclusionElem, string, error) {
	el := ExclusionElem{Col: -1}
	switch {
	case ie.Ordering != pg_query.SortByDir_SORTBY_DEFAULT && c.AccessMethod != "" && c.AccessMethod != "btree":
		return el, "", pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support ASC/DESC options", c.AccessMethod)
	case ie.NullsOrdering != pg_query.SortByNulls_SORTBY_NULLS_DEFAULT && c.AccessMethod != "" && c.AccessMethod != "btree":
		return el, "", pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support NULLS FIRST/LAST options", c.AccessMethod)
	case len(ie.Opclassopts) > 0:
		return el, "", b.refuse(c.Location, "operator class options in an exclusion constraint are not supported")
	case len(ie.Collation) > 0:
		return el, "", b.refuse(c.Location, "COLLATE in an exclusion constraint is not supported")
	}
	if ie.Name != "" {
		for i, col := range ct.Cols {
			if col.Name == ie.Name {
				el.Col, el.SQL = i, expr.QuoteIdent(ie.Name)
				el.Expr = &expr.Col{Idx: i, T: col.Type, Name: col.Name}
				return el, ie.Name, nil
			}
		}
		return el, "", pgerr.New(pgerr.UndefinedColumn, "column %q named in key does not exist", ie.Name)
	}
	e, err := b.bindExpr(sc, ie.Expr)
	if err != nil {
		return el, "", err
	}
	if notImmutable(e) {
		return el, "", pgerr.New(pgerr.InvalidObjectDef, "functions in index expression must be marked IMMUTABLE")
	}
	text, err := deparseExpr(ie.Expr)
	if err != nil {
		return el, "", pgerr.New(pgerr.Internal, "cannot write an exclusion element: %v", err)
	}
	name := "expr"
	if fc := ie.Expr.GetFuncCall(); fc != nil {
		name = fc.Funcname[len(fc.Funcname)-1].GetString_().Sval
	} else {
		text = "(" + text + ")"
	}
	el.Expr, el.SQL = e, text
	return el, name, nil
}

// exclusionOpclass finds the default operator class of t for x's access
// method, as PostgreSQL: gist over a scalar type needs btree_gist.
func (b *binder) exclusionOpclass(x *Exclusion, t value.Type) error {
	k := t.Kind
	ok := false
	switch x.Method {
	case "btree", "hash":
		ok = btreeKey(t) == nil && !k.IsJSON() && k != value.XML
	case "gist":
		switch {
		case k.IsRange() || k.IsMultirange() || k == value.Box || k == value.Circle || k == value.Polygon || k == value.Point:
			ok = true
		case btreeGistKind(k):
			ic, has := b.cat.(ExtensionInstalledCatalog)
			ok = has && ic.ExtensionInstalled("btree_gist")
			x.Gist = x.Gist || ok
		}
	case "spgist":
		ok = k.IsRange() || k == value.Box || k == value.Point
	}
	if !ok {
		return pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method %q", t, x.Method).
			WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
	}
	return nil
}

// btreeGistKind reports whether btree_gist gives t a gist operator class.
func btreeGistKind(k value.Kind) bool {
	switch k {
	case value.Int2, value.Int4, value.Int8, value.Float4, value.Float8, value.Numeric, value.Text, value.Varchar,
		value.Char, value.Bytea, value.Bit, value.Varbit, value.Date, value.Time, value.TimeTZ, value.Timestamp,
		value.TimestampTZ, value.Interval, value.Oid, value.Money, value.Inet, value.Cidr, value.MacAddr,
		value.MacAddr8, value.UUID, value.Bool, value.Enum:
		return true
	}
	return false
}

// exclusionMember reports whether op is in the operator family of t's
// default class for method, and names the family.
func exclusionMember(method string, t value.Type, op string) (string, bool) {
	k := t.Kind
	switch {
	case k.IsRange():
		if method == "btree" || method == "hash" {
			return "range_ops", op == "="
		}
		return "range_ops", op == "&&" || op == "=" || op == "-|-"
	case method == "btree" || method == "hash":
		return method + "_ops", op == "="
	case k.IsMultirange():
		return "multirange_ops", op == "&&" || op == "="
	case k == value.Point:
		return "point_ops", op == "~="
	case k.IsGeometric():
		name := k.String()
		if k == value.Polygon {
			name = "poly"
		}
		return "gist_" + name + "_ops", op == "&&" || op == "~="
	case k == value.Inet || k == value.Cidr:
		return "gist_inet_ops", op == "=" || op == "<>"
	}
	return "gist_" + gistTypeName(k) + "_ops", op == "=" || op == "<>"
}

// gistTypeName is the name btree_gist's operator class of a kind takes.
func gistTypeName(k value.Kind) string {
	if n, ok := map[value.Kind]string{value.Int2: "int2", value.Int4: "int4", value.Int8: "int8", value.Float4: "float4",
		value.Float8: "float8", value.Varchar: "text", value.Char: "bpchar", value.Varbit: "vbit", value.Money: "cash",
		value.TimeTZ: "timetz", value.TimestampTZ: "timestamptz", value.Bool: "bool"}[k]; ok {
		return n
	}
	return k.String()
}

// exclusionTest binds `l op r` over two values of type t, the new row's
// element as column 0 and another row's as column 1.
func (b *binder) exclusionTest(t value.Type, op string) (expr.Expr, error) {
	const loc = -1 // PostgreSQL's errors here have no position
	sc := &scope{cols: []scopeCol{{name: "l", typ: t}, {name: "r", typ: t}}}
	ref := func(n string) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields: []*pg_query.Node{{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: n}}}}, Location: loc}}}
	}
	ae := &pg_query.A_Expr{Kind: pg_query.A_Expr_Kind_AEXPR_OP, Location: loc, Lexpr: ref("l"), Rexpr: ref("r"),
		Name: []*pg_query.Node{{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: op}}}}}
	e, err := b.bindAExpr(sc, ae)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// SQL returns the constraint's text as pg_get_constraintdef prints it
// pretty.
func (x *Exclusion) SQL() string { return x.text(true) }

// PlainSQL returns the constraint's text as pg_get_constraintdef prints
// it not pretty: an expression and the predicate in one more pair of
// parentheses.
func (x *Exclusion) PlainSQL() string { return x.text(false) }

func (x *Exclusion) text(pretty bool) string {
	var s strings.Builder
	s.WriteString("EXCLUDE USING " + x.Method + " (")
	for i, el := range x.Elems {
		if i > 0 {
			s.WriteString(", ")
		}
		e := el.SQL
		if !pretty && el.Col < 0 && strings.HasPrefix(e, "(") {
			e = "(" + e + ")"
		}
		if el.Opclass != "" {
			e += " " + el.Opclass
		}
		s.WriteString(e + " WITH " + el.Op)
	}
	s.WriteByte(')')
	if x.Include != nil {
		s.WriteString(" INCLUDE (" + strings.Join(x.IncludeSQL, ", ") + ")")
	}
	if x.Where != nil {
		w := x.WhereSQL
		if !pretty {
			w = "(" + w + ")"
		}
		s.WriteString(" WHERE (" + w + ")")
	}
	switch {
	case x.InitDeferred:
		s.WriteString(" DEFERRABLE INITIALLY DEFERRED")
	case x.Deferrable:
		s.WriteString(" DEFERRABLE")
	}
	return s.String()
}

// ExclusionDefaultName is the name PostgreSQL gives an EXCLUDE
// constraint the statement does not name, from its elements' columns.
func exclusionDefaultName(table string, c *pg_query.Constraint) string {
	var names []string
	for _, n := range c.Exclusions {
		ie := n.GetList().GetItems()[0].GetIndexElem()
		switch {
		case ie.Name != "":
			names = append(names, ie.Name)
		case ie.Expr.GetFuncCall() != nil:
			fn := ie.Expr.GetFuncCall().Funcname
			names = append(names, fn[len(fn)-1].GetString_().Sval)
		default:
			names = append(names, "expr")
		}
	}
	for _, n := range c.Including {
		names = append(names, n.GetString_().GetSval())
	}
	return table + "_" + strings.Join(indexColumnNames(names), "_") + "_excl"
}

// indexColumnNames makes the names an index's default name takes from its
// columns distinct, as PostgreSQL's ChooseIndexColumnNames: a name met
// again takes the first number that makes it new (b, b1).
func indexColumnNames(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		name := n
		for i := 1; slices.Contains(out, name); i++ {
			name = n + strconv.Itoa(i)
		}
		out = append(out, name)
	}
	return out
}

// exclusionRefers reports whether an EXCLUDE constraint's expressions,
// INCLUDE columns or predicate read the column col.
func exclusionRefers(c *pg_query.Constraint, col string) bool {
	for _, n := range c.Including {
		if n.GetString_().GetSval() == col {
			return true
		}
	}
	for _, n := range c.Exclusions {
		if ie := n.GetList().GetItems()[0].GetIndexElem(); ie.Expr != nil && refersTo(ie.Expr, col) {
			return true
		}
	}
	return c.WhereClause != nil && refersTo(c.WhereClause, col)
}

// renameExclusionColumn renames the column from to to in an EXCLUDE
// constraint's elements and predicate.
func renameExclusionColumn(c *pg_query.Constraint, from, to string) {
	rename := func(cr *pg_query.ColumnRef) {
		if s := cr.Fields[len(cr.Fields)-1].GetString_(); s != nil && s.Sval == from {
			s.Sval = to
		}
	}
	for _, n := range c.Exclusions {
		ie := n.GetList().GetItems()[0].GetIndexElem()
		if ie.Name == from {
			ie.Name = to
		}
		if ie.Expr != nil {
			columnRefs(ie.Expr, rename)
		}
	}
	for _, n := range c.Including {
		if sv := n.GetString_(); sv != nil && sv.Sval == from {
			sv.Sval = to
		}
	}
	if c.WhereClause != nil {
		columnRefs(c.WhereClause, rename)
	}
}

// freeConstraintName returns name, or name followed by the first number
// that makes it a name no constraint of ct has, as PostgreSQL chooses an
// index's name.
func (ct *CreateTable) freeConstraintName(name string) string {
	taken := func(n string) bool {
		if ct.PrimaryKey != nil && ct.KeyName(-1) == n {
			return true
		}
		for i := range ct.Uniques {
			if ct.KeyName(i) == n {
				return true
			}
		}
		for _, x := range ct.Exclusions {
			if x.Name == n {
				return true
			}
		}
		return false
	}
	out := name
	for i := 1; taken(out); i++ {
		out = name + strconv.Itoa(i)
	}
	return out
}

// GistClasses are the btree_gist operator classes a gist exclusion's
// elements use, in order, each once.
func (x *Exclusion) GistClasses() []string {
	var out []string
	if x.Method != "gist" {
		return nil
	}
	for _, el := range x.Elems {
		if k := el.Expr.Type().Kind; btreeGistKind(k) && el.Opclass == "" {
			if c := "gist_" + gistTypeName(k) + "_ops"; !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// constraint returns the constraint's tree, unnamed, read from its text:
// CREATE TABLE … (LIKE … INCLUDING INDEXES) copies it so.
func (x *Exclusion) constraint() (*pg_query.Constraint, error) {
	r, err := pg_query.Parse("CREATE TABLE t (" + x.SQL() + ")")
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "cannot read exclusion constraint %q: %v", x.Name, err)
	}
	c := r.Stmts[0].Stmt.GetCreateStmt().TableElts[0].GetConstraint()
	c.Location = -1
	return c, nil
}

// hasIndex reports whether a table constraint has an index of its name.
func hasIndex(c *pg_query.Constraint) bool {
	switch c.Contype {
	case pg_query.ConstrType_CONSTR_PRIMARY, pg_query.ConstrType_CONSTR_UNIQUE, pg_query.ConstrType_CONSTR_EXCLUSION:
		return true
	}
	return false
}
