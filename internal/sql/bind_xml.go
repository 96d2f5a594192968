package sql

import (
	"fmt"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindXMLExpr binds SQL's XML forms, as PostgreSQL's transformXmlExpr
// does: element and attribute names mapped to XML names, arguments
// coerced to the type each form takes (42804 when they cannot be).
func (b *binder) bindXMLExpr(s *scope, x *pg_query.XmlExpr) (expr.Expr, error) {
	switch x.Op {
	case pg_query.XmlExprOp_IS_XMLELEMENT:
		names, attrs, err := b.bindXMLNamed(s, x.NamedArgs, "attribute", true)
		if err != nil {
			return nil, err
		}
		args := []expr.Expr{textConst(xmlName(x.Name, false)), namesConst(names)}
		args = append(args, attrs...)
		for _, a := range x.Args {
			e, err := b.bindXMLValue(s, a)
			if err != nil {
				return nil, err
			}
			args = append(args, e)
		}
		return &expr.Func{Def: expr.XMLElement, Args: args, T: value.XMLType}, nil
	case pg_query.XmlExprOp_IS_XMLFOREST:
		names, vals, err := b.bindXMLNamed(s, x.NamedArgs, "element", false)
		if err != nil {
			return nil, err
		}
		return &expr.Func{Def: expr.XMLForest, Args: append([]expr.Expr{namesConst(names)}, vals...), T: value.XMLType}, nil
	case pg_query.XmlExprOp_IS_XMLCONCAT:
		args, err := b.bindXMLArgs(s, x.Args, []value.Type{value.XMLType}, "XMLCONCAT")
		if err != nil {
			return nil, err
		}
		return &expr.Func{Def: expr.XMLConcat, Args: args, T: value.XMLType}, nil
	case pg_query.XmlExprOp_IS_XMLPARSE:
		args, err := b.bindXMLArgs(s, x.Args[:1], []value.Type{value.TextType}, "XMLPARSE")
		if err != nil {
			return nil, err
		}
		doc := x.Xmloption == pg_query.XmlOptionType_XMLOPTION_DOCUMENT
		return &expr.Func{Def: expr.XMLParse(doc), Args: args, T: value.XMLType}, nil
	case pg_query.XmlExprOp_IS_XMLPI:
		args, err := b.bindXMLArgs(s, x.Args, []value.Type{value.TextType}, "XMLPI")
		if err != nil {
			return nil, err
		}
		args = append([]expr.Expr{textConst(xmlName(x.Name, false))}, args...)
		return &expr.Func{Def: expr.XMLPI, Args: args, T: value.XMLType}, nil
	case pg_query.XmlExprOp_IS_XMLROOT:
		args, err := b.bindXMLArgs(s, x.Args, []value.Type{value.XMLType, value.TextType, value.Int4Type}, "XMLROOT")
		if err != nil {
			return nil, err
		}
		return &expr.Func{Def: expr.XMLRoot, Args: args, T: value.XMLType}, nil
	case pg_query.XmlExprOp_IS_DOCUMENT:
		args, err := b.bindXMLArgs(s, x.Args, []value.Type{value.XMLType}, "IS DOCUMENT")
		if err != nil {
			return nil, err
		}
		return &expr.Func{Def: expr.XMLIsDocument, Args: args, T: value.BoolType}, nil
	}
	return nil, b.refuse(x.Location, "XML expression %s is not supported", x.Op)
}

// bindXMLSerialize binds XMLSERIALIZE(DOCUMENT|CONTENT x AS type): x's
// text, converted to type as text converts implicitly (a string type).
func (b *binder) bindXMLSerialize(s *scope, x *pg_query.XmlSerialize) (expr.Expr, error) {
	if x.Indent {
		return nil, b.stmt.errf(x.Location, pgerr.SyntaxError, "syntax error at or near \"INDENT\"")
	}
	args, err := b.bindXMLArgs(s, []*pg_query.Node{x.Expr}, []value.Type{value.XMLType}, "XMLSERIALIZE")
	if err != nil {
		return nil, err
	}
	t, err := b.typeFromName(x.TypeName)
	if err != nil {
		return nil, err
	}
	doc := x.Xmloption == pg_query.XmlOptionType_XMLOPTION_DOCUMENT
	e := expr.Expr(&expr.Func{Def: expr.XMLSerialize(doc), Args: args, T: value.TextType})
	if !t.Kind.IsString() {
		return nil, b.stmt.errf(nodeLoc(x.Expr, x.Location), pgerr.CannotCoerce, "cannot cast XMLSERIALIZE result to %s", t.Kind)
	}
	return b.coerce(e, t, x.Location)
}

// bindXMLArgs binds args and converts each to its type in ts (the last
// for the rest) as an assignment does (every type converts to text), as
// PostgreSQL's coerce_to_specific_type: what names the form in its error.
func (b *binder) bindXMLArgs(s *scope, args []*pg_query.Node, ts []value.Type, what string) ([]expr.Expr, error) {
	out := make([]expr.Expr, len(args))
	for i, a := range args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, err
		}
		t := ts[min(i, len(ts)-1)]
		loc := nodeLoc(a, -1)
		toText := t.Kind.IsString() && e.Type().Kind != value.Unknown
		if k := e.Type().Kind; !toText && !value.CanCast(k, t.Kind, false) {
			return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "argument of %s must be type %s, not type %s", what, t.Kind, e.Type())
		}
		if out[i], err = expr.Coerce(e, t, toText); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
	}
	return out, nil
}

// bindXMLValue binds a value that XMLELEMENT or XMLFOREST writes out: of
// any type, an untyped literal read as text.
func (b *binder) bindXMLValue(s *scope, n *pg_query.Node) (expr.Expr, error) {
	e, err := b.bindExpr(s, n)
	if err != nil || e.Type().Kind != value.Unknown {
		return e, err
	}
	return b.coerce(e, value.TextType, nodeLoc(n, -1))
}

// bindXMLNamed binds XMLATTRIBUTES' or XMLFOREST's list of v [AS name]:
// a value without a name must be a column, whose name it takes (42601
// otherwise); attribute names must differ.
func (b *binder) bindXMLNamed(s *scope, list []*pg_query.Node, what string, unique bool) ([]string, []expr.Expr, error) {
	names := make([]string, len(list))
	vals := make([]expr.Expr, len(list))
	for i, n := range list {
		rt := n.GetResTarget()
		switch {
		case rt.Name != "":
			names[i] = xmlName(rt.Name, false)
		case rt.Val.GetColumnRef() != nil:
			names[i] = xmlName(figureName(rt.Val), true)
		default:
			return nil, nil, b.stmt.errf(nodeLoc(rt.Val, rt.Location), pgerr.SyntaxError, "unnamed XML %s value must be a column reference", what)
		}
		if unique {
			for _, prev := range names[:i] {
				if prev == names[i] {
					return nil, nil, b.stmt.errf(rt.Location, pgerr.SyntaxError, "XML attribute name \"%s\" appears more than once", names[i])
				}
			}
		}
		e, err := b.bindXMLValue(s, rt.Val)
		if err != nil {
			return nil, nil, err
		}
		vals[i] = e
	}
	return names, vals, nil
}

// xmlName maps an SQL identifier to an XML name as PostgreSQL's
// map_sql_identifier_to_xml_name does (without escaping periods): a
// character that cannot stand where it is becomes _xHHHH_, as do a
// leading colon, the underscore of "_x", and, fully escaped (a name taken
// from a column), every colon and a leading "xml".
func xmlName(ident string, full bool) string {
	var sb strings.Builder
	for i, r := range ident {
		switch {
		case r == ':' && (i == 0 || full):
			sb.WriteString("_x003A_")
		case r == '_' && strings.HasPrefix(ident[i+1:], "x"):
			sb.WriteString("_x005F_")
		case full && i == 0 && len(ident) >= 3 && strings.EqualFold(ident[:3], "xml"):
			if r == 'x' {
				sb.WriteString("_x0078_")
			} else {
				sb.WriteString("_x0058_")
			}
		case i == 0 && !(value.IsXMLNameStart(r) && r != ':') || i > 0 && !value.IsXMLNameChar(r) || r == utf8.RuneError:
			fmt.Fprintf(&sb, "_x%04X_", r)
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func textConst(s string) expr.Expr {
	return &expr.Const{V: value.NewText(value.Text, s), T: value.TextType}
}

// namesConst is a text[] constant of names.
func namesConst(names []string) expr.Expr {
	elems := make([]value.Value, len(names))
	for i, n := range names {
		elems[i] = value.NewText(value.Text, n)
	}
	t := value.Type{Kind: value.ArrayOf(value.Text), Mod: -1}
	return &expr.Const{V: value.NewArray(t.Kind, elems), T: t}
}

// bindXMLAgg binds xmlagg(x) as XMLCONCAT over array_agg(x), computed ad
// hoc and maintained in views as array_agg is. Its order is the input's:
// a view takes it only with ORDER BY among its arguments.
func (b *binder) bindXMLAgg(f *pg_query.FuncCall) (expr.Expr, error) {
	if b.forView && len(f.AggOrder) == 0 {
		return nil, b.refuse(f.Location, "xmlagg without ORDER BY depends on the order of its input and cannot be maintained").
			WithHint("order the values: xmlagg(… ORDER BY …)")
	}
	if len(f.Args) != 1 || f.AggStar {
		return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function xmlagg with %d arguments does not exist", len(f.Args))
	}
	arg := f.Args[0]
	if c := arg.GetAConst(); c != nil && (c.GetSval() != nil || c.Isnull) { // an untyped literal is read as xml
		arg = &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{Arg: arg,
			TypeName: &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode("xml")}, Typemod: -1}, Location: -1}}}
	}
	call := &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("array_agg")}, Args: []*pg_query.Node{arg},
		AggOrder: f.AggOrder, AggFilter: f.AggFilter, AggDistinct: f.AggDistinct, Location: f.Location, Funcformat: f.Funcformat}
	agg, err := b.bindAggCall(call)
	if err != nil {
		return nil, err
	}
	if k := agg.Type().Kind; k != value.ArrayOf(value.XML) {
		return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function xmlagg(%s) does not exist", k.Elem()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	return &expr.Func{Def: expr.XMLAggFinish, Args: []expr.Expr{agg}, T: value.XMLType}, nil
}
