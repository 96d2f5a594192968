package sql

import (
	"errors"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// pexpr is an expression as PostgreSQL's analysis leaves it for its
// deparser (ruleutils): literals typed, implicit coercions made nodes,
// IN lists and BETWEEN rewritten. It keeps no state beyond the tree.
type pexpr struct {
	k    pkind
	t    value.Type
	name string // operator, function, keyword or column name
	lit  string // a constant's text; null marks NULL
	null bool
	// flag: a cast's implicitness, IS NOT NULL, ALL (not ANY), a prefix
	// operator, a cast that is binary (relabel or I/O) rather than a call.
	flag, relabel bool
	args          []*pexpr
	caseArg, els  *pexpr
	whens         [][2]*pexpr
	// sub is a subquery's; win a window function's window; colno a set
	// operation's output column, which ORDER BY prints by number.
	sub   *pquery
	win   *pwindow
	colno int
	// filter and order are an aggregate's FILTER and ORDER BY.
	filter *pexpr
	order  []psort
}

type pkind uint8

const (
	pConst pkind = iota
	pCol
	pCast
	pOp
	pAnd
	pOr
	pNot
	pFunc
	pKeyword
	pNullTest
	pBoolTest
	pCase
	pCall // COALESCE, GREATEST, LEAST, NULLIF
	pArray
	pAnyAll
	pDistinct
	pSubLink // a subquery: EXISTS, IN, op ANY/ALL, scalar, ARRAY
	pSQLCall // EXTRACT, SUBSTRING, TRIM, POSITION, OVERLAY in their SQL syntax
	pSubscript
	pCollate // x COLLATE name; name is the collation's as printed
)

// errNoDeparse marks a form the deparser does not know; the caller keeps
// the expression's source text.
var errNoDeparse = errors.New("deltaview: form not deparsed")

// ptyper builds pexpr trees from parse trees. With syntactic set it reads
// a text this deparser wrote (every cast already spelt) and resolves
// nothing: pg_get_expr's pretty form is made from its plain form so.
type ptyper struct {
	cols      map[string]value.Type
	syntactic bool
	// rels are a view's FROM items, whose columns are printed qualified;
	// aggs allows aggregate calls.
	rels []*prel
	aggs bool
	// user resolves calls of user functions (a table's defaults and
	// checks); nil for none.
	user UserFuncTypes
	// types resolves the names of user enum types; nil for none (a
	// view's levels ask their analyser's).
	types EnumTypes
	// A view's query level: the level around it (outer), the analyser
	// of nested queries (an), the query (q), the relation names in use
	// (names), the WITH queries in scope and the FROM items.
	outer *ptyper
	an    *viewAnalyzer
	q     *pquery
	names map[string]int
	ctes  []*pcte
	from  []*pfrom
	// levelRefs, when not nil, counts the columns resolved at this
	// level (a FROM function's references to the items beside it).
	levelRefs *int
}

// column resolves a column reference among rels: an unqualified name
// among the FROM items (a join's merged columns once), a qualified one
// by its relation; then in the levels around.
func (p *ptyper) column(fields []*pg_query.Node) (*pexpr, error) {
	var names []string
	for _, f := range fields {
		if f.GetString_() == nil {
			return nil, errNoDeparse
		}
		names = append(names, f.GetString_().Sval)
	}
	var found *pexpr
	switch len(names) {
	case 1:
		n := 0
		for _, f := range p.from {
			x, c := f.lookup(names[0])
			if c > 0 {
				found, n = x, n+c
			}
		}
		if n > 1 {
			return nil, errNoDeparse // ambiguous: PostgreSQL refused the view
		}
	case 2:
		if r := p.relByRef(names[0]); r != nil {
			for i, c := range r.cols {
				if c == names[1] {
					if found != nil {
						return nil, errNoDeparse
					}
					found = r.column(i)
				}
			}
			if found == nil {
				return nil, errNoDeparse
			}
		}
	default:
		return nil, errNoDeparse
	}
	if found == nil {
		if p.outer != nil {
			return p.outer.column(fields)
		}
		return nil, errNoDeparse
	}
	if p.levelRefs != nil {
		*p.levelRefs++
	}
	return found, nil
}

func (p *ptyper) build(n *pg_query.Node) (*pexpr, error) {
	switch {
	case n.GetColumnRef() != nil && p.rels != nil:
		return p.column(n.GetColumnRef().Fields)
	case n.GetColumnRef() != nil:
		f := n.GetColumnRef().Fields
		if len(f) != 1 || f[0].GetString_() == nil {
			return nil, errNoDeparse
		}
		name := f[0].GetString_().Sval
		t, ok := p.cols[name]
		if !ok && !p.syntactic {
			return nil, errNoDeparse
		}
		return &pexpr{k: pCol, name: name, t: t}, nil
	case n.GetAConst() != nil:
		return p.constant(n.GetAConst())
	case n.GetTypeCast() != nil:
		return p.typeCast(n.GetTypeCast())
	case n.GetAExpr() != nil:
		return p.aexpr(n.GetAExpr())
	case n.GetBoolExpr() != nil:
		b := n.GetBoolExpr()
		k := map[pg_query.BoolExprType]pkind{pg_query.BoolExprType_AND_EXPR: pAnd, pg_query.BoolExprType_OR_EXPR: pOr, pg_query.BoolExprType_NOT_EXPR: pNot}[b.Boolop]
		out := &pexpr{k: k, t: value.BoolType}
		for _, a := range b.Args {
			x, err := p.build(a)
			if err != nil {
				return nil, err
			}
			if x, err = p.coerce(x, value.BoolType, false); err != nil {
				return nil, err
			}
			out.args = append(out.args, x)
		}
		return out, nil
	case n.GetNullTest() != nil:
		nt := n.GetNullTest()
		x, err := p.build(nt.Arg)
		if err != nil || x.t.Kind == value.Record {
			return nil, errNoDeparse
		}
		return &pexpr{k: pNullTest, t: value.BoolType, flag: nt.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL, args: []*pexpr{x}}, nil
	case n.GetBooleanTest() != nil:
		bt := n.GetBooleanTest()
		x, err := p.build(bt.Arg)
		if err != nil {
			return nil, err
		}
		if x, err = p.coerce(x, value.BoolType, false); err != nil {
			return nil, err
		}
		name := map[pg_query.BoolTestType]string{pg_query.BoolTestType_IS_TRUE: " IS TRUE", pg_query.BoolTestType_IS_NOT_TRUE: " IS NOT TRUE",
			pg_query.BoolTestType_IS_FALSE: " IS FALSE", pg_query.BoolTestType_IS_NOT_FALSE: " IS NOT FALSE",
			pg_query.BoolTestType_IS_UNKNOWN: " IS UNKNOWN", pg_query.BoolTestType_IS_NOT_UNKNOWN: " IS NOT UNKNOWN"}[bt.Booltesttype]
		return &pexpr{k: pBoolTest, t: value.BoolType, name: name, args: []*pexpr{x}}, nil
	case n.GetFuncCall() != nil:
		return p.funcCall(n.GetFuncCall())
	case n.GetSqlvalueFunction() != nil:
		return sqlValueFunction(n.GetSqlvalueFunction())
	case n.GetCaseExpr() != nil:
		return p.caseExpr(n.GetCaseExpr())
	case n.GetCoalesceExpr() != nil:
		return p.call("COALESCE", n.GetCoalesceExpr().Args)
	case n.GetMinMaxExpr() != nil:
		name := "GREATEST"
		if n.GetMinMaxExpr().Op == pg_query.MinMaxOp_IS_LEAST {
			name = "LEAST"
		}
		return p.call(name, n.GetMinMaxExpr().Args)
	case n.GetAArrayExpr() != nil:
		return p.array(n.GetAArrayExpr().Elements, nil)
	case n.GetAIndirection() != nil && !p.syntactic:
		return p.subscript(n.GetAIndirection())
	case n.GetSubLink() != nil && p.an != nil:
		return p.subLink(n.GetSubLink())
	case n.GetCollateClause() != nil && !p.syntactic:
		return p.collate(n.GetCollateClause())
	}
	return nil, errNoDeparse
}

// constant types a literal as the parser does: integers that fit int4
// are int4, larger ones int8, then numeric; a quoted string is unknown.
func (p *ptyper) constant(c *pg_query.A_Const) (*pexpr, error) {
	if c.Isnull {
		return &pexpr{k: pConst, null: true, t: value.UnknownType}, nil
	}
	switch v := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		return &pexpr{k: pConst, lit: strconv.FormatInt(int64(v.Ival.Ival), 10), t: value.Type{Kind: value.Int4, Mod: -1}}, nil
	case *pg_query.A_Const_Fval:
		s := v.Fval.Fval
		if !strings.ContainsAny(s, ".eE") {
			if _, err := strconv.ParseInt(s, 10, 64); err == nil {
				return &pexpr{k: pConst, lit: s, t: value.Type{Kind: value.Int8, Mod: -1}}, nil
			}
		}
		d, err := value.Parse(s, value.NumericType)
		if err != nil {
			return nil, errNoDeparse
		}
		return &pexpr{k: pConst, lit: d.String(), t: value.NumericType}, nil
	case *pg_query.A_Const_Sval:
		return &pexpr{k: pConst, lit: v.Sval.Sval, t: value.UnknownType}, nil
	case *pg_query.A_Const_Boolval:
		s := "f"
		if v.Boolval.Boolval {
			s = "t"
		}
		return &pexpr{k: pConst, lit: s, t: value.BoolType}, nil
	}
	return nil, errNoDeparse
}

// EnumTypes resolves a type's name, as written (maybe qualified by its
// schema), to a user enum type; ok is false for any other name.
type EnumTypes func(names []string) (t value.Type, ok bool)

// enumTypes is the resolver of user enum names at p's level.
func (p *ptyper) enumTypes() EnumTypes {
	if p.types == nil && p.an != nil {
		return p.an.types
	}
	return p.types
}

// typeName resolves a built-in type's name, or an enum's by p's
// resolver; other types are not deparsed.
func (p *ptyper) typeName(tn *pg_query.TypeName) (value.Type, error) {
	t, err := typeName(tn)
	if err == nil || p.syntactic || p.enumTypes() == nil || tn.Setof || tn.PctType || len(tn.Typmods) > 0 || len(tn.ArrayBounds) > 1 {
		return t, err
	}
	var names []string
	for _, n := range tn.Names {
		if n.GetString_() == nil {
			return value.Type{}, errNoDeparse
		}
		names = append(names, n.GetString_().Sval)
	}
	et, ok := p.enumTypes()(names)
	if !ok || et.Kind != value.Enum {
		return value.Type{}, errNoDeparse
	}
	if len(tn.ArrayBounds) > 0 {
		et = value.ArrayTypeOf(et)
	}
	return et, nil
}

// bareType is t without its modifier: an enum's, which names the type,
// stays.
func bareType(t value.Type) value.Type {
	if t.Enum() != nil {
		return t
	}
	return value.Type{Kind: t.Kind, Mod: -1}
}

// typeName resolves a built-in type's name; other types are not deparsed.
func typeName(tn *pg_query.TypeName) (value.Type, error) {
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().Sval)
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	if len(names) != 1 || tn.Setof || tn.PctType {
		return value.Type{}, errNoDeparse
	}
	var mods []int32
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			return value.Type{}, errNoDeparse
		}
		mods = append(mods, c.GetIval().Ival)
	}
	if names[0] == "bpchar" && len(mods) == 0 {
		return value.Type{Kind: value.Char, Mod: -1}, nil // char without a length is char(1)
	}
	t, err := value.TypeFromName(names[0], mods)
	if err != nil || t.Enum() != nil || t.UserRange() != nil || t.Kind == value.Record || t.Kind == value.Unknown {
		return value.Type{}, errNoDeparse
	}
	if len(tn.ArrayBounds) > 0 {
		t = value.ArrayTypeOf(t)
	}
	return t, nil
}

func (p *ptyper) typeCast(c *pg_query.TypeCast) (*pexpr, error) {
	t, err := p.typeName(c.TypeName)
	if err != nil {
		return nil, err
	}
	if a := c.Arg.GetAArrayExpr(); a != nil && t.Kind.IsArray() && !p.syntactic {
		// ARRAY[…]::T[] types the elements as T, as PostgreSQL does.
		x, err := p.array(a.Elements, &t)
		if err != nil {
			return nil, err
		}
		return p.coerce(x, t, true)
	}
	x, err := p.build(c.Arg)
	if err != nil {
		return nil, err
	}
	if p.syntactic {
		return &pexpr{k: pCast, t: t, args: []*pexpr{x}}, nil
	}
	return p.coerce(x, t, true)
}

// coerce converts x to t as PostgreSQL's coerce_to_target_type: a string
// literal becomes a constant of t, a value of t stays, anything else gets
// a cast node, shown when explicit or where implicit casts show.
func (p *ptyper) coerce(x *pexpr, t value.Type, explicit bool) (*pexpr, error) {
	if p.syntactic {
		return x, nil
	}
	if x.k == pConst && x.t.Kind == value.Unknown {
		c := &pexpr{k: pConst, t: bareType(t), null: x.null}
		if t.Kind == value.Interval {
			c.t.Mod = t.Mod
		}
		if !x.null {
			lit, err := literalAs(x.lit, c.t)
			if err != nil {
				return nil, err
			}
			c.lit = lit
		}
		if t.Mod >= 0 && c.t.Mod != t.Mod {
			return &pexpr{k: pCast, t: t, flag: !explicit, args: []*pexpr{c}}, nil
		}
		return c, nil
	}
	if x.t.Kind == t.Kind && (t.Mod < 0 || x.t.Mod == t.Mod) {
		return x, nil
	}
	if x.t.Kind == value.Unknown || t.Kind == value.Unknown {
		return nil, errNoDeparse
	}
	relabel := x.t.Kind.IsString() && t.Kind.IsString() && x.t.Kind != t.Kind ||
		x.t.Kind.IsString() != t.Kind.IsString() || x.t.Kind.IsArray() || t.Kind.IsArray()
	return &pexpr{k: pCast, t: t, flag: !explicit, relabel: relabel, args: []*pexpr{x}}, nil
}

// literalAs is a string literal's text once read as t: its value's output.
func literalAs(s string, t value.Type) (string, error) {
	switch t.Kind {
	case value.Text, value.Varchar, value.Char, value.Unknown, value.RegClass, value.RegProc, value.RegType, value.RegProcedure,
		value.RegNamespace, value.RegRole, value.RegOper, value.RegOperator, value.RegCollation, value.RegConfig:
		return s, nil
	}
	if t.UserRange() != nil {
		return "", errNoDeparse
	}
	v, err := value.Parse(s, t)
	if err != nil {
		return "", errNoDeparse
	}
	if t.Kind == value.Bool {
		if v.Bool() {
			return "t", nil
		}
		return "f", nil
	}
	return v.String(), nil
}

func (p *ptyper) aexpr(a *pg_query.A_Expr) (*pexpr, error) {
	op := ""
	if len(a.Name) == 1 && a.Name[0].GetString_() != nil {
		op = a.Name[0].GetString_().Sval
	}
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP, pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
		if op == "" {
			return nil, errNoDeparse
		}
		if a.Lexpr == nil {
			x, err := p.build(a.Rexpr)
			if err != nil {
				return nil, err
			}
			if op != "-" || !(x.t.Kind.IsNumeric() || x.t.Kind == value.Interval || p.syntactic) {
				return nil, errNoDeparse
			}
			return &pexpr{k: pOp, name: op, t: x.t, flag: true, args: []*pexpr{x}}, nil
		}
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_OP && (op == "=" || op == "<>") && a.Lexpr.GetRowExpr() != nil && a.Rexpr.GetRowExpr() != nil {
			return p.rowCompare(op, a.Lexpr.GetRowExpr(), a.Rexpr.GetRowExpr(), false)
		}
		if a.Rexpr.GetFuncCall() != nil && a.Kind != pg_query.A_Expr_Kind_AEXPR_OP {
			// LIKE … ESCAPE: the pattern is like_escape(pattern, escape)
			return p.escaped(op, a.Lexpr, a.Rexpr.GetFuncCall(), "like_escape")
		}
		l, r, err := p.buildPair(a.Lexpr, a.Rexpr)
		if err != nil {
			return nil, err
		}
		return p.binary(op, l, r)
	case pg_query.A_Expr_Kind_AEXPR_OP_ANY, pg_query.A_Expr_Kind_AEXPR_OP_ALL:
		l, r, err := p.buildPair(a.Lexpr, a.Rexpr)
		if err != nil {
			return nil, err
		}
		return p.anyAll(op, l, r, a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL)
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		var x *pexpr
		if a.Lexpr.GetRowExpr() != nil && a.Rexpr.GetRowExpr() != nil {
			var err error
			if x, err = p.rowCompare("=", a.Lexpr.GetRowExpr(), a.Rexpr.GetRowExpr(), true); err != nil {
				return nil, err
			}
		} else {
			l, r, err := p.buildPair(a.Lexpr, a.Rexpr)
			if err != nil {
				return nil, err
			}
			if x, err = p.binary("=", l, r); err != nil {
				return nil, err
			}
			x.k = pDistinct
		}
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT {
			return &pexpr{k: pNot, t: value.BoolType, args: []*pexpr{x}}, nil
		}
		return x, nil
	case pg_query.A_Expr_Kind_AEXPR_NULLIF:
		l, r, err := p.buildPair(a.Lexpr, a.Rexpr)
		if err != nil {
			return nil, err
		}
		x, err := p.binary("=", l, r)
		if err != nil {
			return nil, err
		}
		return &pexpr{k: pCall, name: "NULLIF", t: x.args[0].t, args: x.args}, nil
	case pg_query.A_Expr_Kind_AEXPR_SIMILAR:
		// x SIMILAR TO p is x ~ similar_to_escape(p)
		f := a.Rexpr.GetFuncCall()
		if f == nil || op == "" || p.syntactic {
			return nil, errNoDeparse
		}
		return p.escaped(op, a.Lexpr, f, "similar_to_escape")
	case pg_query.A_Expr_Kind_AEXPR_IN:
		return p.in(op, a.Lexpr, a.Rexpr.GetList())
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN:
		list := a.Rexpr.GetList()
		if list == nil || len(list.Items) != 2 {
			return nil, errNoDeparse
		}
		return p.between(a.Lexpr, list.Items[0], list.Items[1], a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN)
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		// either order of the bounds: PostgreSQL writes both
		list := a.Rexpr.GetList()
		if list == nil || len(list.Items) != 2 {
			return nil, errNoDeparse
		}
		not := a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM
		out := &pexpr{k: pOr, t: value.BoolType}
		if not {
			out.k = pAnd
		}
		for _, b := range [][2]*pg_query.Node{{list.Items[0], list.Items[1]}, {list.Items[1], list.Items[0]}} {
			x, err := p.between(a.Lexpr, b[0], b[1], not)
			if err != nil {
				return nil, err
			}
			out.args = append(out.args, x)
		}
		return out, nil
	}
	return nil, errNoDeparse
}

// between is x BETWEEN lo AND hi as PostgreSQL rewrites it: x >= lo AND
// x <= hi, or when not, x < lo OR x > hi.
func (p *ptyper) between(x, lo, hi *pg_query.Node, not bool) (*pexpr, error) {
	ops, k := [2]string{">=", "<="}, pAnd
	if not {
		ops, k = [2]string{"<", ">"}, pOr
	}
	out := &pexpr{k: k, t: value.BoolType}
	for i, bound := range []*pg_query.Node{lo, hi} {
		l, r, err := p.buildPair(x, bound)
		if err != nil {
			return nil, err
		}
		c, err := p.binary(ops[i], l, r)
		if err != nil {
			return nil, err
		}
		out.args = append(out.args, c)
	}
	return out, nil
}

// rowCompare is a comparison of two row constructors as PostgreSQL's
// make_row_comparison_op rewrites it: = an AND of the columns' (<> an
// OR), IS DISTINCT FROM an OR of the columns'; one column alone is its
// comparison.
func (p *ptyper) rowCompare(op string, l, r *pg_query.RowExpr, distinct bool) (*pexpr, error) {
	if len(l.Args) != len(r.Args) || len(l.Args) == 0 || p.syntactic {
		return nil, errNoDeparse
	}
	out := &pexpr{k: pAnd, t: value.BoolType}
	if op == "<>" || distinct {
		out.k = pOr
	}
	for i := range l.Args {
		lx, rx, err := p.buildPair(l.Args[i], r.Args[i])
		if err != nil {
			return nil, err
		}
		x, err := p.binary(op, lx, rx)
		if err != nil || x.t.Kind != value.Bool {
			return nil, errNoDeparse
		}
		if distinct {
			x.k = pDistinct
		}
		out.args = append(out.args, x)
	}
	if len(out.args) == 1 {
		return out.args[0], nil
	}
	return out, nil
}

// buildPair builds the two operands of a binary expression.
func (p *ptyper) buildPair(ln, rn *pg_query.Node) (l, r *pexpr, err error) {
	if l, err = p.build(ln); err != nil {
		return nil, nil, err
	}
	if r, err = p.build(rn); err != nil {
		return nil, nil, err
	}
	return l, r, nil
}

// in rewrites x IN (…) as PostgreSQL's transformAExprIn does for a list
// of constants: x = ANY (ARRAY[…]) (NOT IN: <> ALL), or x = c for one.
func (p *ptyper) in(op string, lexpr *pg_query.Node, list *pg_query.List) (*pexpr, error) {
	if list == nil || len(list.Items) == 0 || p.syntactic {
		return nil, errNoDeparse
	}
	l, err := p.build(lexpr)
	if err != nil {
		return nil, err
	}
	var elems []*pexpr
	for _, it := range list.Items {
		e, err := p.build(it)
		if err != nil {
			return nil, err
		}
		if hasCol(e) {
			return nil, errNoDeparse // PostgreSQL writes an OR of comparisons
		}
		elems = append(elems, e)
	}
	if len(elems) == 1 {
		return p.binary(op, l, elems[0])
	}
	t, err := commonType(append([]*pexpr{l}, elems...))
	if err != nil {
		return nil, err
	}
	for i, e := range elems {
		if elems[i], err = p.coerce(e, t, false); err != nil {
			return nil, err
		}
	}
	if l, err = p.coerce(l, t, false); err != nil {
		return nil, err
	}
	arr := &pexpr{k: pArray, t: value.ArrayTypeOf(bareType(t)), args: elems}
	return p.anyAll(op, l, arr, op == "<>")
}

func hasCol(e *pexpr) bool {
	if e == nil {
		return false
	}
	if e.k == pCol {
		return true
	}
	for _, a := range e.args {
		if hasCol(a) {
			return true
		}
	}
	return hasCol(e.caseArg) || hasCol(e.els)
}

func (p *ptyper) anyAll(op string, l, r *pexpr, all bool) (*pexpr, error) {
	out := &pexpr{k: pAnyAll, name: op, t: value.BoolType, flag: all}
	if p.syntactic {
		out.args = []*pexpr{l, r}
		return out, nil
	}
	if !r.t.Kind.IsArray() {
		return nil, errNoDeparse
	}
	elem := &pexpr{k: pCol, t: r.t.ElemType()}
	x, err := p.binary(op, l, elem)
	if err != nil || x.t.Kind != value.Bool {
		return nil, errNoDeparse
	}
	et := elem.t
	if x.args[1] != elem {
		et = x.args[1].t
	}
	if r, err = p.coerce(r, value.ArrayTypeOf(bareType(et)), false); err != nil {
		return nil, err
	}
	out.args = []*pexpr{x.args[0], r}
	return out, nil
}

// funcCall resolves a call among the catalog's functions; each argument
// is coerced to its parameter's type.
func (p *ptyper) funcCall(f *pg_query.FuncCall) (*pexpr, error) {
	if f.Over != nil {
		return p.windowCall(f)
	}
	if p.aggs && len(f.Funcname) == 1 && f.Over == nil && !f.FuncVariadic {
		if x, ok, err := p.aggregateCall(f); ok || err != nil {
			return x, err
		}
	}
	if f.AggStar || f.AggDistinct || f.Over != nil || f.AggFilter != nil || len(f.AggOrder) > 0 || f.FuncVariadic {
		return nil, errNoDeparse
	}
	var names []string
	for _, n := range f.Funcname {
		names = append(names, n.GetString_().Sval)
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	if len(names) != 1 {
		return nil, errNoDeparse
	}
	name := names[0]
	if f.Funcformat == pg_query.CoercionForm_COERCE_SQL_SYNTAX {
		if kw, ok := sqlUserFuncs[name]; ok && len(f.Args) == 0 {
			return &pexpr{k: pKeyword, name: kw, t: value.TextType}, nil
		}
		if p.syntactic {
			return nil, errNoDeparse
		}
		return p.sqlSyntaxCall(name, f.Args)
	}
	out := &pexpr{k: pFunc, name: name}
	var types []value.Type
	for _, a := range f.Args {
		if a.GetNamedArgExpr() != nil {
			return nil, errNoDeparse
		}
		x, err := p.build(a)
		if err != nil {
			return nil, err
		}
		out.args = append(out.args, x)
		types = append(types, x.t)
	}
	if p.syntactic {
		return out, nil
	}
	params, result, err := resolveCall(name, types)
	if err != nil && p.user != nil {
		var ok bool
		if params, result, ok = p.user(name, types); ok {
			err = nil
		}
	}
	if err != nil || len(params) != len(out.args) {
		return nil, errNoDeparse
	}
	for i, a := range out.args {
		if params[i].Kind == value.Unknown || params[i].Kind == value.Record {
			return nil, errNoDeparse // "any" and polymorphic parameters
		}
		if out.args[i], err = p.coerce(a, bareType(params[i]), false); err != nil {
			return nil, err
		}
	}
	out.t = result
	return out, nil
}

// resolveCall resolves a function's parameter and result types; the
// sequence functions, which the binder resolves apart, are PostgreSQL's.
func resolveCall(name string, args []value.Type) ([]value.Type, value.Type, error) {
	switch name {
	case "nextval", "currval", "setval", "pg_sequence_last_value":
		reg, i8 := value.Type{Kind: value.RegClass, Mod: -1}, value.Type{Kind: value.Int8, Mod: -1}
		ps := []value.Type{reg, i8, value.BoolType}
		if n := len(args); name == "setval" && (n == 2 || n == 3) || name != "setval" && n == 1 {
			return ps[:n], i8, nil
		}
		return nil, value.Type{}, errNoDeparse
	}
	_, params, result, err := expr.ResolveFunc(name, args)
	return params, result, err
}

// sqlUserFuncs are the SQL-standard calls without parentheses that the
// parse tree holds as function calls.
var sqlUserFuncs = map[string]string{"current_user": "CURRENT_USER", "session_user": "SESSION_USER", "current_role": "CURRENT_ROLE",
	"user": "USER", "current_catalog": "CURRENT_CATALOG", "current_schema": "CURRENT_SCHEMA"}

func sqlValueFunction(f *pg_query.SQLValueFunction) (*pexpr, error) {
	var name string
	var t value.Type
	switch f.Op {
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		name, t = "CURRENT_DATE", value.DateType
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		name, t = "CURRENT_TIMESTAMP", value.TimestampTZType
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		name, t = "LOCALTIMESTAMP", value.TimestampType
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:
		name, t = "CURRENT_TIME", value.Type{Kind: value.TimeTZ, Mod: -1}
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		name, t = "LOCALTIME", value.TimeType
	default:
		return nil, errNoDeparse
	}
	switch f.Op {
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N,
		pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		name += "(" + strconv.Itoa(int(f.Typmod)) + ")"
		t.Mod = f.Typmod
	}
	return &pexpr{k: pKeyword, name: name, t: t}, nil
}

func (p *ptyper) caseExpr(c *pg_query.CaseExpr) (*pexpr, error) {
	out := &pexpr{k: pCase}
	var results []*pexpr
	if c.Arg != nil {
		if p.syntactic {
			return nil, errNoDeparse
		}
		arg, err := p.build(c.Arg)
		if err != nil {
			return nil, err
		}
		out.caseArg = arg
	}
	for _, w := range c.Args {
		cw := w.GetCaseWhen()
		cond, err := p.build(cw.Expr)
		if err != nil {
			return nil, err
		}
		if out.caseArg != nil {
			// WHEN v compares the CASE's value with v; PostgreSQL prints v.
			x, err := p.binary("=", out.caseArg, cond)
			if err != nil || x.args[0] != out.caseArg {
				return nil, errNoDeparse
			}
			cond = x.args[1]
		} else if cond, err = p.coerce(cond, value.BoolType, false); err != nil {
			return nil, err
		}
		res, err := p.build(cw.Result)
		if err != nil {
			return nil, err
		}
		out.whens = append(out.whens, [2]*pexpr{cond, res})
		results = append(results, res)
	}
	if c.Defresult != nil {
		d, err := p.build(c.Defresult)
		if err != nil {
			return nil, err
		}
		out.els = d
	} else {
		out.els = &pexpr{k: pConst, null: true, t: value.UnknownType}
	}
	// PostgreSQL's transformCaseExpr puts the ELSE first.
	results = append([]*pexpr{out.els}, results...)
	if p.syntactic {
		return out, nil
	}
	t, err := commonType(results)
	if err != nil {
		return nil, err
	}
	out.t = t
	for i := range out.whens {
		if out.whens[i][1], err = p.coerce(out.whens[i][1], t, false); err != nil {
			return nil, err
		}
	}
	if out.els, err = p.coerce(out.els, t, false); err != nil {
		return nil, err
	}
	return out, nil
}

func (p *ptyper) call(name string, args []*pg_query.Node) (*pexpr, error) {
	out := &pexpr{k: pCall, name: name}
	for _, a := range args {
		x, err := p.build(a)
		if err != nil {
			return nil, err
		}
		out.args = append(out.args, x)
	}
	if p.syntactic {
		return out, nil
	}
	t, err := commonType(out.args)
	if err != nil {
		return nil, err
	}
	out.t = t
	for i, a := range out.args {
		if out.args[i], err = p.coerce(a, t, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// array types ARRAY[…]: its elements' common type, or elem's when the
// array is cast.
func (p *ptyper) array(elems []*pg_query.Node, arrayType *value.Type) (*pexpr, error) {
	out := &pexpr{k: pArray}
	for _, e := range elems {
		if e.GetAArrayExpr() != nil {
			return nil, errNoDeparse
		}
		x, err := p.build(e)
		if err != nil {
			return nil, err
		}
		out.args = append(out.args, x)
	}
	if p.syntactic {
		return out, nil
	}
	var t value.Type
	if arrayType != nil {
		t = arrayType.ElemType()
	} else {
		if len(out.args) == 0 {
			return nil, errNoDeparse
		}
		var err error
		if t, err = commonType(out.args); err != nil {
			return nil, err
		}
	}
	var err error
	for i, a := range out.args {
		if out.args[i], err = p.coerce(a, t, arrayType != nil); err != nil {
			return nil, err
		}
	}
	out.t = value.ArrayTypeOf(bareType(t))
	return out, nil
}

// commonType is PostgreSQL's select_common_type for the cases it prints
// without doubt: all literals make text; otherwise the first typed
// value's type, which the others must share, numbers widening along
// their implicit casts.
func commonType(xs []*pexpr) (value.Type, error) {
	t := value.UnknownType
	for _, x := range xs {
		k := x.t.Kind
		switch {
		case k == value.Unknown:
		case t.Kind == value.Unknown:
			t = bareType(x.t)
		case k == t.Kind && (t.Enum() == nil || x.t.Mod == t.Mod):
		case k.IsNumeric() && t.Kind.IsNumeric():
			// each converts implicitly to the next: int2, int4, int8,
			// numeric, float4, float8
			if numRank(k) > numRank(t.Kind) {
				t = value.Type{Kind: k, Mod: -1}
			}
		case k.IsString() && t.Kind.IsString() && k != value.CIText && t.Kind != value.CIText:
			// text, varchar and bpchar convert implicitly both ways: the
			// first stays, as in PostgreSQL's select_common_type.
		default:
			return value.Type{}, errNoDeparse
		}
	}
	if t.Kind == value.Unknown {
		t = value.TextType
	}
	return t, nil
}

func numRank(k value.Kind) int {
	switch k {
	case value.Numeric:
		return 4
	case value.Float4:
		return 5
	case value.Float8:
		return 6
	}
	return intRank(k)
}

func intRank(k value.Kind) int {
	switch k {
	case value.Int2:
		return 1
	case value.Int4:
		return 2
	}
	return 3
}

// binary resolves L op R among PostgreSQL's operators for the types it
// prints without doubt, and coerces both sides to the operator's.
func (p *ptyper) binary(op string, l, r *pexpr) (*pexpr, error) {
	out := &pexpr{k: pOp, name: op, t: value.BoolType}
	if p.syntactic {
		out.args = []*pexpr{l, r}
		return out, nil
	}
	lt, rt, res, err := resolveOperator(op, l.t, r.t)
	if err != nil {
		return nil, err
	}
	if l, err = p.coerce(l, lt, false); err != nil {
		return nil, err
	}
	if r, err = p.coerce(r, rt, false); err != nil {
		return nil, err
	}
	out.t, out.args = res, []*pexpr{l, r}
	return out, nil
}

var (
	pCmpOps   = map[string]bool{"=": true, "<>": true, "<": true, ">": true, "<=": true, ">=": true}
	pArithOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true}
	pTextOps  = map[string]bool{"~": true, "~*": true, "!~": true, "!~*": true, "~~": true, "~~*": true, "!~~": true, "!~~*": true}
)

// textish reports a type whose operators are text's: varchar, and a
// literal; char(n) has its own.
func textish(k value.Kind) bool { return k == value.Text || k == value.Varchar || k == value.Unknown }

func resolveOperator(op string, l, r value.Type) (lt, rt, res value.Type, err error) {
	bare := func(t value.Type) value.Type { return value.Type{Kind: t.Kind, Mod: -1} }
	lk, rk := l.Kind, r.Kind
	switch {
	case op == "||":
		switch {
		case textish(lk) && textish(rk):
			return value.TextType, value.TextType, value.TextType, nil
		case textish(lk) && !rk.IsArray() && rk != value.Char:
			return value.TextType, bare(r), value.TextType, nil
		case textish(rk) && !lk.IsArray() && lk != value.Char:
			return bare(l), value.TextType, value.TextType, nil
		}
	case pTextOps[op]:
		if textish(lk) && textish(rk) {
			return value.TextType, value.TextType, value.BoolType, nil
		}
	case pCmpOps[op] || pArithOps[op]:
		res := value.BoolType
		if lk == value.Unknown && rk == value.Unknown {
			if !pCmpOps[op] {
				break
			}
			return value.TextType, value.TextType, res, nil
		}
		if lk == value.Unknown {
			l, lk = r, rk
		}
		if rk == value.Unknown {
			r, rk = l, lk
		}
		if textish(lk) && textish(rk) && pCmpOps[op] {
			return value.TextType, value.TextType, res, nil
		}
		if lk == value.Char && rk == value.Char && pCmpOps[op] {
			return bare(l), bare(r), res, nil
		}
		num := func(k value.Kind) bool {
			return k.IsInteger() || k == value.Numeric || k == value.Float8 || k == value.Float4
		}
		if num(lk) && num(rk) {
			t := bare(l)
			switch {
			case lk.IsInteger() && rk.IsInteger():
				if intRank(rk) > intRank(lk) {
					t = bare(r)
				}
				if op == "%" && lk != rk {
					l, r = t, t // no cross-type modulo
				}
			case lk.IsFloat() && rk.IsFloat():
				t = value.Float8Type
				if lk == value.Float4 && rk == value.Float4 {
					t = bare(l)
				}
			case lk == value.Float4:
				// float4 meets float8 through cross-type operators
				t, r = value.Float8Type, value.Float8Type
			case rk == value.Float4:
				t, l = value.Float8Type, value.Float8Type
			case lk == value.Float8 || rk == value.Float8:
				t = value.Float8Type
				l, r = t, t
			default: // numeric with an integer
				t = value.NumericType
				l, r = t, t
			}
			if pArithOps[op] {
				res = t
			}
			return bare(l), bare(r), res, nil
		}
		if lk == rk && pCmpOps[op] && lk != value.Record && l.Enum() == nil && l.UserRange() == nil {
			return bare(l), bare(r), res, nil
		}
		if lk == rk && pCmpOps[op] && l.Enum() != nil && l.Mod == r.Mod {
			return l, r, res, nil // an enum's (or its arrays') comparisons
		}
		if pCmpOps[op] && lk.IsDateTime() && rk.IsDateTime() {
			return bare(l), bare(r), res, nil // cross-type comparisons exist
		}
		if (op == "+" || op == "-") && lk == value.Date && rk == value.Int4 {
			return l, r, value.DateType, nil
		}
		if (op == "+" || op == "-") && (lk == value.Timestamp || lk == value.TimestampTZ) && rk == value.Interval {
			return bare(l), bare(r), bare(l), nil
		}
	}
	return lt, rt, res, errNoDeparse
}

// aggregate types count, sum, avg, min and max over the argument types
// whose aggregate PostgreSQL has without a cast.
func (p *ptyper) aggregate(f *pg_query.FuncCall) (*pexpr, bool, error) {
	name := f.Funcname[0].GetString_().GetSval()
	switch name {
	case "count", "sum", "avg", "min", "max":
	default:
		return nil, false, nil
	}
	out := &pexpr{k: pFunc, name: name, t: value.Type{Kind: value.Int8, Mod: -1}}
	if f.AggStar {
		if name != "count" || len(f.Args) != 0 {
			return nil, true, errNoDeparse
		}
		out.lit = "*"
		return out, true, nil
	}
	if len(f.Args) != 1 {
		return nil, true, errNoDeparse
	}
	if f.AggDistinct {
		out.lit = "DISTINCT "
	}
	x, err := p.build(f.Args[0])
	if err != nil {
		return nil, true, err
	}
	out.args = []*pexpr{x}
	k := x.t.Kind
	switch name {
	case "count":
		if k == value.Unknown {
			return nil, true, errNoDeparse
		}
		return out, true, nil
	case "sum":
		switch {
		case k == value.Int2 || k == value.Int4:
		case k == value.Int8 || k == value.Numeric:
			out.t = value.NumericType
		case k.IsFloat() || k == value.Interval || k == value.Money:
			out.t = value.Type{Kind: k, Mod: -1}
		default:
			return nil, true, errNoDeparse
		}
	case "avg":
		switch {
		case k.IsInteger() || k == value.Numeric:
			out.t = value.NumericType
		case k.IsFloat():
			out.t = value.Float8Type
		case k == value.Interval:
			out.t = value.IntervalType
		default:
			return nil, true, errNoDeparse
		}
	default: // min, max
		switch {
		case k == value.Varchar:
			if out.args[0], err = p.coerce(x, value.TextType, false); err != nil {
				return nil, true, err
			}
			out.t = value.TextType
		case k.IsNumeric() || k == value.Text || k == value.Char || k.IsDateTime() || k == value.Interval || k == value.Time || k == value.Enum:
			out.t = bareType(x.t)
		default:
			return nil, true, errNoDeparse
		}
	}
	return out, true, nil
}
