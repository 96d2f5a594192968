package sql

import (
	"math"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindExpr binds a scalar expression over the columns of s, with strict
// operations on a NULL constant folded to NULL (see foldNull).
func (b *binder) bindExpr(s *scope, n *pg_query.Node) (expr.Expr, error) {
	if err := b.collationMismatch(n); err != nil {
		return nil, err
	}
	e, err := b.bindExprNode(s, n)
	if err != nil || e == nil {
		return e, err
	}
	if e, err = b.implicitCollation(s, n, b.deriveCollation(n, e)); err != nil {
		return nil, err
	}
	return b.zoned(foldNull(e)), nil
}

// foldNull replaces each strict operation with a NULL constant operand (a
// cast, arithmetic, a comparison, ||, a strict function) by a NULL of its
// type, bottom-up, as PostgreSQL's planner does before any row is read: so
// that (x + NULL) <= CAST(n AS integer) is NULL without converting n, which
// may fail (NaN), in PostgreSQL too.
func foldNull(e expr.Expr) expr.Expr {
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		var kids []expr.Expr
		switch n := x.(type) {
		case *expr.Cast:
			kids = []expr.Expr{n.E}
		case *expr.Arith:
			kids = []expr.Expr{n.L, n.R}
		case *expr.Neg:
			kids = []expr.Expr{n.E}
		case *expr.Concat:
			kids = []expr.Expr{n.L, n.R}
		case *expr.Cmp:
			kids = []expr.Expr{n.L, n.R}
		case *expr.Func:
			if n.Def == nil || !n.Def.Strict {
				return x
			}
			kids = n.Args
		default:
			return x
		}
		for _, k := range kids {
			if c, ok := k.(*expr.Const); ok && c.V.IsNull() {
				return &expr.Const{V: value.Null, T: x.Type()}
			}
		}
		return x
	})
}

// bindExprNode binds n; bindExpr folds the result.
func (b *binder) bindExprNode(s *scope, n *pg_query.Node) (expr.Expr, error) {
	if b.agg != nil && s == b.agg.post {
		if e, err := b.bindAggregated(n); e != nil || err != nil {
			if tc := n.GetTypeCast(); tc != nil && err == nil {
				b.noteBaseCast(s, tc, e) // a grouping key cast
			}
			return e, err
		}
	}
	switch {
	case n.GetColumnRef() != nil:
		return b.bindColumnRef(s, n.GetColumnRef())
	case n.GetAConst() != nil:
		e, err := bindConst(n.GetAConst())
		if c, ok := e.(*expr.Const); ok && c.T.Kind == value.Unknown && !c.V.IsNull() {
			c.Order = b.dateOrder()
		}
		if pe, ok := err.(*pgerr.Error); ok {
			// PostgreSQL reports a literal's conversion error at the literal.
			err = pe.At(b.stmt.SQL, int(n.GetAConst().Location))
		}
		return e, err
	case n.GetTypeCast() != nil:
		return b.bindTypeCast(s, n.GetTypeCast())
	case n.GetAExpr() != nil:
		if n.GetAExpr().Kind == pg_query.A_Expr_Kind_AEXPR_OP {
			if e, ok, err := b.bindQualifiedOperator(s, n.GetAExpr()); ok {
				return e, err
			}
		}
		if e, ok, err := b.bindUserOperatorExpr(s, n.GetAExpr()); ok {
			return e, err
		}
		return b.bindAExpr(s, n.GetAExpr())
	case n.GetBoolExpr() != nil:
		return b.bindBoolExpr(s, n.GetBoolExpr())
	case n.GetNullTest() != nil:
		t := n.GetNullTest()
		if args, ok := b.rowElems(s, t.Arg); ok {
			return b.bindRowNullTest(s, args, t.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL)
		}
		e, err := b.bindExpr(s, t.Arg)
		if err != nil {
			return nil, err
		}
		return nullTest(e, t.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL), nil
	case n.GetBooleanTest() != nil:
		return b.bindBooleanTest(s, n.GetBooleanTest())
	case n.GetFuncCall() != nil:
		return b.bindFuncCall(s, n.GetFuncCall())
	case n.GetCaseExpr() != nil:
		return b.bindCase(s, n.GetCaseExpr())
	case n.GetXmlExpr() != nil:
		return b.bindXMLExpr(s, n.GetXmlExpr())
	case n.GetXmlSerialize() != nil:
		return b.bindXMLSerialize(s, n.GetXmlSerialize())
	case n.GetCoalesceExpr() != nil:
		c := n.GetCoalesceExpr()
		args, t, err := b.bindCommon(s, c.Args, "COALESCE", c.Location)
		if err != nil {
			return nil, err
		}
		return &expr.Coalesce{Args: args, T: t}, nil
	case n.GetMinMaxExpr() != nil:
		m := n.GetMinMaxExpr()
		ctx := "GREATEST"
		if m.Op == pg_query.MinMaxOp_IS_LEAST {
			ctx = "LEAST"
		}
		args, t, err := b.bindCommon(s, m.Args, ctx, m.Location)
		if err != nil {
			return nil, err
		}
		if t.Kind.IsGeometric() {
			return nil, b.stmt.errf(-1, pgerr.UndefinedFunction, "could not identify a comparison function for type %s", t.Kind)
		}
		return &expr.MinMax{Args: args, T: t, Least: m.Op == pg_query.MinMaxOp_IS_LEAST}, nil
	case n.GetSqlvalueFunction() != nil:
		f := n.GetSqlvalueFunction()
		if b.forView && !b.clockOK && (f.Op == pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE || f.Op == pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP) {
			return nil, b.refuse(f.Location, "volatile function %s cannot be maintained in a view outside a temporal filter", strings.TrimPrefix(f.Op.String(), "SVFOP_")).
				WithHint(clockHint)
		}
		if t, ok := clockTimeTypes[f.Op]; ok {
			return b.bindClockTime(s, f, t)
		}
		switch f.Op {
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
			return b.callFunc(s, "current_date", nil, nil, f.Location)
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP:
			return b.callFunc(s, "now", nil, nil, f.Location)
		case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP:
			if b.forView {
				return nil, b.refuse(f.Location, "volatile function LOCALTIMESTAMP cannot be maintained in a view").WithHint(volatileHint)
			}
			now, err := b.callFunc(s, "now", nil, nil, f.Location)
			if err != nil {
				return nil, err
			}
			out, err := expr.Coerce(now, value.TimestampType, true)
			if err != nil {
				return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
			}
			return out, nil
		}
		return b.bindSessionValue(f)
	case n.GetSubLink() != nil:
		return b.bindSubLink(s, n.GetSubLink())
	case n.GetParamRef() != nil:
		if e, ok := b.prebound[n.GetParamRef().Location]; ok {
			return e, nil
		}
		if names := b.stmt.Vars[n.GetParamRef().Location]; names != nil {
			if e, ok, err := b.plVar(s, names, n.GetParamRef().Location); ok {
				return e, err
			}
		}
		return b.bindParam(n.GetParamRef())
	case n.GetAArrayExpr() != nil:
		return b.bindArrayExpr(s, n.GetAArrayExpr(), value.UnknownType)
	case n.GetRowExpr() != nil:
		return b.bindRowValue(s, n.GetRowExpr())
	case n.GetCollateClause() != nil:
		return b.bindCollate(s, n.GetCollateClause())
	case n.GetGroupingFunc() != nil:
		// Above a grouping bindAggregated binds it; anywhere else it is
		// misplaced.
		return nil, b.stmt.errf(n.GetGroupingFunc().Location, pgerr.GroupingError, "grouping operations are not allowed here")
	case n.GetCurrentOfExpr() != nil:
		return b.bindCurrentOf(s, n.GetCurrentOfExpr())
	case n.GetAIndirection() != nil:
		return b.bindIndirection(s, n.GetAIndirection())
	case n.GetSetToDefault() != nil:
		// INSERT and UPDATE take DEFAULT before binding expressions; a
		// VALUES list of a query has no column to take it from.
		return nil, b.stmt.errf(n.GetSetToDefault().Location, pgerr.SyntaxError, "DEFAULT is not allowed in this context")
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "expression %s is not supported", stmtName(n))
}

func (b *binder) bindColumnRef(s *scope, c *pg_query.ColumnRef) (expr.Expr, error) {
	e, err := b.bindColumnRefNode(s, c)
	if err != nil {
		return nil, err
	}
	return b.columnCollated(s, e, c.Location)
}

func (b *binder) bindColumnRefNode(s *scope, c *pg_query.ColumnRef) (expr.Expr, error) {
	var names []string
	for _, f := range c.Fields {
		if f.GetAStar() != nil {
			if len(names) == 1 {
				if r, ok := b.WholeRow(s, names[0]); ok {
					return r, nil // t.* as a value: t's row
				}
				return nil, b.stmt.errf(c.Location, pgerr.UndefinedTable, "missing FROM-clause entry for table %q", names[0])
			}
			return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "* is only allowed in a select list")
		}
		names = append(names, f.GetString_().Sval)
	}
	switch len(names) {
	case 1:
		e, err := b.resolve(s, "", names[0], c.Location)
		if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.UndefinedColumn {
			if r, ok := b.scalarRowRef(s, names[0]); ok {
				return r, nil
			}
			if r, ok := b.WholeRow(s, names[0]); ok {
				if b.sequenceRow(s, names[0]) {
					return nil, b.stmt.errf(c.Location, "42809", "relation \"%s\" does not have a composite type", names[0])
				}
				return r, nil // a relation's name as a value: its row
			}
		}
		return e, err
	case 2:
		return b.resolve(s, names[0], names[1], c.Location)
	case 3:
		if names[0] == "public" {
			return b.resolve(s, names[1], names[2], c.Location)
		}
	}
	return nil, b.stmt.errf(c.Location, pgerr.FeatureNotSupported, "column reference %s is not supported", strings.Join(names, "."))
}

// bindConst binds a literal: integers are int4, or int8 or numeric when
// larger; decimals are numeric; strings are of unknown type until context
// gives them one.
func bindConst(c *pg_query.A_Const) (expr.Expr, error) {
	if c.Isnull {
		return &expr.Const{V: value.Null, T: value.UnknownType}, nil
	}
	switch v := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		return &expr.Const{V: value.NewInt(value.Int4, int64(v.Ival.Ival)), T: value.Int4Type}, nil
	case *pg_query.A_Const_Fval:
		s := v.Fval.Fval
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			if n >= math.MinInt32 && n <= math.MaxInt32 {
				return &expr.Const{V: value.NewInt(value.Int4, n), T: value.Int4Type}, nil
			}
			return &expr.Const{V: value.NewInt(value.Int8, n), T: value.Int8Type}, nil
		}
		// numeric's input function, with its limits: 131072 digits before
		// the point, 16383 after (22003 beyond either).
		d, err := value.Parse(s, value.NumericType)
		if err != nil {
			return nil, err
		}
		return &expr.Const{V: d, T: value.NumericType}, nil
	case *pg_query.A_Const_Sval:
		return &expr.Const{V: value.NewText(value.Text, v.Sval.Sval), T: value.UnknownType}, nil
	case *pg_query.A_Const_Boolval:
		return &expr.Const{V: value.NewBool(v.Boolval.Boolval), T: value.BoolType}, nil
	case *pg_query.A_Const_Bsval:
		bits, err := value.Parse(v.Bsval.Bsval, value.BitType)
		if err != nil {
			return nil, err
		}
		return &expr.Const{V: bits, T: value.BitType}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "this literal is not supported").At("", -1)
}

// typeFromName resolves a TypeName node.
func (b *binder) typeFromName(tn *pg_query.TypeName) (value.Type, error) {
	if t, ok := polyTypeFromName(tn); ok {
		return t, nil // a polymorphic function's instance's
	}
	if err := b.schemaOfName(tn.Names, tn.Location); err != nil {
		return value.Type{}, err
	}
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().Sval)
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	var mods []int32
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			return value.Type{}, b.stmt.errf(tn.Location, pgerr.SyntaxError, "type modifiers must be simple constants")
		}
		mods = append(mods, c.GetIval().Ival)
	}
	t, err := value.TypeFromName(strings.Join(names, "."), mods)
	if err == nil && strings.ToLower(names[len(names)-1]) != names[len(names)-1] {
		// The parser folds unquoted names to lower case and every built-in
		// type's name is lower case: a quoted "Int4" names no built-in type.
		err = pgerr.New(pgerr.UndefinedObject, "type %q does not exist", strings.Join(names, "."))
	}
	if pgerr.Code(err) == pgerr.UndefinedObject {
		if ut, ok := b.userType(names); ok {
			if len(mods) > 0 {
				return value.Type{}, b.stmt.errf(tn.Location, pgerr.SyntaxError, "type modifier is not allowed for type %q", ut)
			}
			t, err = ut, nil
		} else if rt, ok, rerr := b.relationTypeName(names, mods, tn.Location); ok {
			t, err = rt, rerr
		} else if et, ok := b.extensionType(names); ok {
			t, err = et, nil
		}
	}
	if err != nil {
		// Not a built-in type, which comes first in PostgreSQL's search
		// path: a domain's values are its base type's.
		if d, derr := b.typeDomain(tn); d != nil || derr != nil {
			if derr != nil {
				return value.Type{}, derr
			}
			return d.Def().Base, nil
		}
		return value.Type{}, pgerr.Wrap(err).At(b.stmt.SQL, int(tn.Location))
	}
	if len(tn.ArrayBounds) > 0 {
		if t.Kind == value.Void || t.Kind.IsValueless() {
			return value.Type{}, b.stmt.errf(tn.Location, pgerr.UndefinedObject, "type \"%s[]\" does not exist", t)
		}
		// int[], int[3] and int[][] are all int[]: PostgreSQL does not
		// enforce the bounds or the dimensions either.
		return value.ArrayTypeOf(t), nil
	}
	return t, nil
}

func (b *binder) bindTypeCast(s *scope, c *pg_query.TypeCast) (expr.Expr, error) {
	if e, ok, err := b.pseudoTypeCast(s, c); ok || err != nil {
		return e, err
	}
	if e, ok, err := b.userTypeCast(s, c); ok || err != nil {
		return e, err
	}
	if e, ok, err := b.rowTypeCast(s, c); ok || err != nil {
		return e, err
	}
	if e, ok, err := b.rowArrayCast(s, c); ok || err != nil {
		return e, err
	}
	t, err := b.typeFromName(c.TypeName)
	if err != nil {
		return nil, err
	}
	var e expr.Expr
	if a := c.Arg.GetAArrayExpr(); a != nil && t.Kind.IsArray() {
		e, err = b.bindArrayExpr(s, a, t)
	} else {
		e, err = b.bindExpr(s, c.Arg)
	}
	if err != nil {
		return nil, err
	}
	if t.Kind.IsValueless() {
		return nil, b.valuelessCast(e, t, c)
	}
	inferred := untypedParam(e) // $1::d makes $1 of domain d (below)
	if t.Kind.IsReg() && t.Kind != value.RegConfig {
		return b.regCast(e, t.Kind, c)
	}
	if t.Kind.IsArray() && t.Kind.Elem().IsReg() && t.Kind.Elem() != value.RegConfig {
		return b.regArrayCast(e, t, c)
	}
	out, err := expr.Coerce(e, t, true)
	if err != nil && t.Kind == value.RegConfig {
		err = b.regConfigSchema(e, err)
	}
	if err != nil {
		loc := c.Location
		switch {
		case e.Type().Kind == value.Unknown:
			// A literal's input failed: PostgreSQL points at the literal.
			loc = nodeLoc(c.Arg, c.Location)
		case strings.HasPrefix(pgerr.Code(err), "22"):
			// A constant's conversion failed, which PostgreSQL finds
			// when it folds constants, with no position.
			loc = -1
		}
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	zoned := b.zoned(out)
	if err := b.refuseTodaysOffset(zoned, c.Location); err != nil {
		return nil, err
	}
	out = b.xmlOption(e, t, b.dateInput(e, t, b.intervalInput(e, t, b.intervalText(zoned))))
	if out, err = b.aclRolesChecked(out, e, t, nodeLoc(c.Arg, c.Location)); err != nil {
		return nil, err
	}
	if d, _ := b.typeDomain(c.TypeName); d != nil {
		out = &expr.DomainCheck{E: out, Domain: d}
		inferDomain(inferred, d)
		if d.Elem() != nil && e.Type().Kind == value.Unknown {
			if _, isConst := e.(*expr.Const); isConst {
				// A literal of d[] is read by array_in, which checks each
				// element as it reads it: PostgreSQL points at the literal.
				if _, err := out.Eval(nil); err != nil {
					return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(c.Arg, c.Location)))
				}
			}
		}
	} else if out == e {
		b.noteBaseCast(s, c, out)
	}
	return out, nil
}

// coerce converts e to t in an implicit (or, with explicit, explicit)
// context, positioning any error at loc.
func (b *binder) coerce(e expr.Expr, t value.Type, loc int32) (expr.Expr, error) {
	out, err := expr.Coerce(e, t, false)
	if err != nil {
		if uc := b.castFor(e.Type(), CastKey(t), 'i'); uc != nil {
			return b.applyCast(uc, e, t, false, loc)
		}
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	out = b.zoned(b.dateInput(e, t, b.intervalInput(e, t, out)))
	if err := b.refuseTodaysOffset(out, loc); err != nil {
		return nil, err
	}
	return out, nil
}

// toBool coerces e to boolean for WHERE, CHECK, AND/OR/NOT, CASE WHEN.
func (b *binder) toBool(e expr.Expr, what string, loc int32) (expr.Expr, error) {
	switch e.Type().Kind {
	case value.Bool:
		return e, nil
	case value.Unknown:
		return b.coerce(e, value.BoolType, loc)
	}
	return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "argument of %s must be type boolean, not type %s", what, e.Type())
}

func (b *binder) bindBoolExpr(s *scope, be *pg_query.BoolExpr) (expr.Expr, error) {
	what := map[pg_query.BoolExprType]string{
		pg_query.BoolExprType_AND_EXPR: "AND", pg_query.BoolExprType_OR_EXPR: "OR", pg_query.BoolExprType_NOT_EXPR: "NOT",
	}[be.Boolop]
	args := make([]expr.Expr, len(be.Args))
	for i, a := range be.Args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, err
		}
		if args[i], err = b.toBool(e, what, nodeLoc(a, be.Location)); err != nil {
			return nil, err
		}
	}
	switch be.Boolop {
	case pg_query.BoolExprType_AND_EXPR:
		return &expr.And{Args: args}, nil
	case pg_query.BoolExprType_OR_EXPR:
		return &expr.Or{Args: args}, nil
	}
	return &expr.Not{E: args[0]}, nil
}

func (b *binder) bindBooleanTest(s *scope, t *pg_query.BooleanTest) (expr.Expr, error) {
	e, err := b.bindExpr(s, t.Arg)
	if err != nil {
		return nil, err
	}
	if e, err = b.toBool(e, "IS TRUE", t.Location); err != nil {
		return nil, err
	}
	switch t.Booltesttype {
	case pg_query.BoolTestType_IS_TRUE:
		return &expr.IsBool{E: e, Want: 1}, nil
	case pg_query.BoolTestType_IS_NOT_TRUE:
		return &expr.IsBool{E: e, Want: 1, Not: true}, nil
	case pg_query.BoolTestType_IS_FALSE:
		return &expr.IsBool{E: e, Want: 0}, nil
	case pg_query.BoolTestType_IS_NOT_FALSE:
		return &expr.IsBool{E: e, Want: 0, Not: true}, nil
	case pg_query.BoolTestType_IS_UNKNOWN:
		return &expr.IsBool{E: e, Want: -1}, nil
	}
	return &expr.IsBool{E: e, Want: -1, Not: true}, nil
}

func opName(names []*pg_query.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().Sval
}

func (b *binder) bindAExpr(s *scope, a *pg_query.A_Expr) (expr.Expr, error) {
	op := opName(a.Name)
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		switch op {
		case "~~", "!~~", "~~*", "!~~*":
			if a.Lexpr != nil {
				return b.bindLike(s, a, op) // LIKE's operators, written as such
			}
		}
		if a.Lexpr == nil {
			r, err := b.bindExpr(s, a.Rexpr)
			if err != nil {
				return nil, err
			}
			if e, ok, err := b.geometricOperator(op, nil, r, a.Location); ok {
				return e, err
			}
			switch op {
			case "-":
				if r.Type().Kind == value.Time { // - time is - interval, through the implicit cast
					r = &expr.Cast{E: r, To: value.IntervalType}
				}
				if c, ok := r.(*expr.Const); ok && r.Type().Kind != value.Unknown {
					// Fold negative literals so that -2147483648 is an int4.
					v, err := value.Neg(c.V)
					if err == nil {
						return &expr.Const{V: v, T: c.T}, nil
					}
				}
				if !isNumeric(r.Type().Kind) && r.Type().Kind != value.Unknown && r.Type().Kind != value.Interval {
					return nil, b.stmt.errf(a.Location, pgerr.UndefinedFunction, "operator does not exist: - %s", r.Type()).
						WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
				}
				if r.Type().Kind == value.Unknown {
					if r, err = b.coerce(r, value.Float8Type, a.Location); err != nil {
						return nil, err
					}
				}
				return &expr.Neg{E: r}, nil
			case "+":
				return r, nil
			}
			if fn, ok := prefixFuncs[op]; ok {
				if fn == "sqrt" || fn == "||/" {
					// |/ and ||/ are of double precision only.
					if r, err = b.coerce(r, value.Float8Type, a.Location); err != nil {
						return nil, err
					}
				}
				e, err := b.callFunc(s, fn, nil, []expr.Expr{r}, a.Location)
				if pgerr.Code(err) == pgerr.UndefinedFunction {
					return nil, b.errNoOperator(op, nil, r, a.Location)
				}
				return e, err
			}
			return nil, b.stmt.errf(a.Location, pgerr.UndefinedFunction, "operator does not exist: %s %s", op, r.Type()).
				WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
		}
		switch op {
		case "~~", "!~~", "~~*", "!~~*":
			// LIKE and ILIKE spelled as their operators.
			return b.bindLike(s, a, op)
		case "~<~", "~<=~", "~>=~", "~>~":
			return b.bindPatternCompare(s, a, op)
		}
		if l, r, ok := b.rowPair(s, a.Lexpr, a.Rexpr); ok {
			return b.bindRowCompare(s, op, l, r, a.Location)
		}
		l, err := b.bindExpr(s, a.Lexpr)
		if err != nil {
			return nil, err
		}
		r, err := b.bindExpr(s, a.Rexpr)
		if err != nil {
			return nil, err
		}
		if err := b.arrayCompareTypes(op, l, r, a.Location); err != nil {
			return nil, err
		}
		if err := b.domainArrayOperands(s, op, l, r, a.Lexpr, a.Rexpr, a.Location); err != nil {
			return nil, err
		}
		return b.operatorThroughCast(op, l, r, a.Location)
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		if l, r, ok := b.rowPair(s, a.Lexpr, a.Rexpr); ok {
			return b.bindRowDistinct(s, l, r, a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT, a.Location)
		}
		l, r, err := b.bindPair(s, a.Lexpr, a.Rexpr)
		if err != nil {
			return nil, err
		}
		if isGeometric(l) || isGeometric(r) {
			return b.geometricDistinct(l, r, a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT, a.Location)
		}
		if e, ok := voidDistinctFromNull(a, l, r); ok {
			return e, nil
		}
		if err := b.noVoidEquality(l.Type(), r.Type(), a.Location); err != nil {
			return nil, err
		}
		if l, r, err = b.comparedOperands(l, r, a.Location); err != nil {
			return nil, err
		}
		return &expr.IsDistinct{L: l, R: r, Not: a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT, Check: expr.NewRecordCheck(l, r)}, nil
	case pg_query.A_Expr_Kind_AEXPR_NULLIF:
		l, r, err := b.bindPair(s, a.Lexpr, a.Rexpr)
		if err != nil {
			return nil, err
		}
		if isGeometric(l) || isGeometric(r) {
			return b.geometricNullIf(l, r, a.Location)
		}
		if l, r, err = b.comparable(l, r, a.Location); err != nil {
			return nil, err
		}
		return &expr.NullIf{L: l, R: r}, nil
	case pg_query.A_Expr_Kind_AEXPR_IN:
		return b.bindIn(s, a, op == "<>")
	case pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
		return b.bindLike(s, a, op)
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		return b.bindBetween(s, a)
	case pg_query.A_Expr_Kind_AEXPR_SIMILAR:
		return b.bindSimilar(s, a, op)
	case pg_query.A_Expr_Kind_AEXPR_OP_ANY, pg_query.A_Expr_Kind_AEXPR_OP_ALL:
		which := "ANY"
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL {
			which = "ALL"
		}
		if sl := a.Rexpr.GetSubLink(); sl == nil || sl.SubLinkType == pg_query.SubLinkType_ARRAY_SUBLINK {
			return b.bindArrayCompare(s, a, op, which == "ALL") // x op ANY (ARRAY(SELECT …)) too
		}
		return nil, b.stmt.errf(a.Location, pgerr.FeatureNotSupported, "%s %s (array) is not supported", op, which).WithHint("use IN (list) or NOT IN (list)")
	}
	return nil, b.stmt.errf(a.Location, pgerr.FeatureNotSupported, "operator %s is not supported", op)
}

func isNumeric(k value.Kind) bool {
	switch k {
	case value.Int2, value.Int4, value.Int8, value.Numeric, value.Float4, value.Float8:
		return true
	}
	return false
}

// binaryOp builds l op r for arithmetic, comparison and concatenation.
func (b *binder) binaryOp(op string, l, r expr.Expr, loc int32) (expr.Expr, error) {
	if e, ok, err := b.geometricOperator(op, l, r, loc); ok {
		return e, err
	}
	if cmp, ok := cmpOps[op]; ok {
		t, err := expr.ResolveCompareOp(op, l.Type(), r.Type())
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		if l, err = b.compareOperand(l, t, loc); err != nil {
			return nil, err
		}
		if r, err = b.compareOperand(r, t, loc); err != nil {
			return nil, err
		}
		check := expr.NewRecordCheck(l, r)
		if check != nil {
			check.Ordering = op != "=" && op != "<>" && op != "!="
		}
		return &expr.Cmp{Op: cmp, L: l, R: r, Check: check}, nil
	}
	if re, ok := regexOps[op]; ok {
		return b.regexOp(re, op, l, r, loc)
	}
	if e, ok, err := b.rangeOperator(op, l, r, loc); ok {
		return e, err
	}
	if e, ok, err := b.networkOperator(op, l, r, loc); ok {
		return e, err
	}
	if e, ok, err := b.textSearchOperator(op, l, r, loc); ok {
		return e, err
	}
	if e, ok, err := b.jsonOperator(op, l, r, loc); ok {
		return e, err
	}
	if op == "||" {
		if e, ok, err := b.arrayConcat(l, r, loc); ok {
			return e, err
		}
		lk, rk := l.Type().Kind, r.Type().Kind
		if charConcatAmbiguous(lk, rk) {
			return nil, (&pgerr.Error{Code: "42725", Message: "operator is not unique: " + l.Type().String() + " || " + r.Type().String()}).
				WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.").At(b.stmt.SQL, int(loc))
		}
		if !isString(lk) && !isString(rk) && (lk == value.Bytea || lk.IsBits() || rk == value.Bytea || rk.IsBits()) {
			e, err := b.callFunc(nil, "||", nil, []expr.Expr{l, r}, loc)
			if pgerr.Code(err) == pgerr.UndefinedFunction {
				return nil, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s || %s", lk, rk).
					WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
			}
			return e, err
		}
		if !isString(lk) && !isString(rk) && lk != value.Unknown && rk != value.Unknown && lk != value.InternalChar && rk != value.InternalChar {
			return nil, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s || %s", l.Type(), r.Type()).
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
		}
		var err error
		if l, err = expr.Coerce(l, value.TextType, true); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		if r, err = expr.Coerce(r, value.TextType, true); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		return &expr.Concat{L: b.intervalText(l), R: b.intervalText(r)}, nil
	}
	if e, ok, err := b.arrayOperator(op, l, r, loc); ok {
		return e, err
	}
	if fn, ok := binaryFuncs[op]; ok {
		e, err := b.callFunc(nil, fn, nil, []expr.Expr{l, r}, loc)
		if pgerr.Code(err) == pgerr.UndefinedFunction {
			return nil, b.errNoOperator(op, l, r, loc) // the operator's function, named by the operator
		}
		return e, err
	}
	arith, ok := arithOps[op]
	if !ok {
		return nil, b.errNoOperator(op, l, r, loc)
	}
	lt, rt, res, err := expr.ResolveArith(arith, l.Type(), r.Type())
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	if l, err = b.coerce(l, lt, loc); err != nil {
		return nil, err
	}
	if r, err = b.coerce(r, rt, loc); err != nil {
		return nil, err
	}
	return &expr.Arith{Op: arith, L: l, R: r, T: res}, nil
}

var cmpOps = map[string]expr.CmpOp{
	"=": expr.EQ, "<>": expr.NE, "!=": expr.NE, "<": expr.LT, "<=": expr.LE, ">": expr.GT, ">=": expr.GE,
}

// binaryFuncs and prefixFuncs are operators bound as calls of the
// catalog's functions (the bitwise ones registered under their symbols).
var (
	binaryFuncs = map[string]string{"^": "power", "^@": "starts_with", "&": "&", "|": "|", "#": "#", "<<": "<<", ">>": ">>",
		"*=": "*=", "*<>": "*<>", "*<": "*<", "*<=": "*<=", "*>": "*>", "*>=": "*>="} // record_image_ops
	prefixFuncs = map[string]string{"|/": "sqrt", "||/": "||/", "@": "abs", "~": "~", "!!": "!!"}
)

var arithOps = map[string]expr.ArithOp{
	"+": expr.OpAdd, "-": expr.OpSub, "*": expr.OpMul, "/": expr.OpDiv, "%": expr.OpMod,
}

func isString(k value.Kind) bool { return k.IsString() }

// textCoercible reports whether k converts to text implicitly: the
// string kinds and "char", which text's operators (LIKE, ~) take.
func textCoercible(k value.Kind) bool { return k.IsString() || k == value.InternalChar }

// charConcatAmbiguous reports whether l || r, one of them "char", is
// ambiguous in PostgreSQL: "char" converts to text implicitly, so text ||
// text, text || anynonarray and anynonarray || text all fit when the
// other side is a string, "char" or an untyped literal.
func charConcatAmbiguous(l, r value.Kind) bool {
	textual := func(k value.Kind) bool { return isString(k) || k == value.Unknown || k == value.InternalChar }
	return l == value.InternalChar && textual(r) || r == value.InternalChar && textual(l)
}

// ciMatch reports whether a pattern match of l by r takes the citext
// extension's case-insensitive operator (texticlike, texticregexeq): l
// is citext, or l is an untyped literal and r citext. A text l matched
// by a citext pattern takes text's own operator, as in PostgreSQL, where
// text does not convert to citext implicitly.
func ciMatch(l, r value.Kind) bool {
	return l == value.CIText || l == value.Unknown && r == value.CIText
}

// bindComparable binds two expressions and casts them to their comparison
// type.
func (b *binder) bindComparable(s *scope, ln, rn *pg_query.Node, loc int32) (expr.Expr, expr.Expr, error) {
	l, r, err := b.bindPair(s, ln, rn)
	if err != nil {
		return nil, nil, err
	}
	return b.comparable(l, r, loc)
}

// bindPair binds two expressions.
func (b *binder) bindPair(s *scope, ln, rn *pg_query.Node) (expr.Expr, expr.Expr, error) {
	l, err := b.bindExpr(s, ln)
	if err != nil {
		return nil, nil, err
	}
	r, err := b.bindExpr(s, rn)
	if err != nil {
		return nil, nil, err
	}
	return l, r, nil
}

// comparable casts l and r to their comparison type.
func (b *binder) comparable(l, r expr.Expr, loc int32) (expr.Expr, expr.Expr, error) {
	t, err := expr.ResolveCompare(l.Type(), r.Type())
	if err != nil {
		return nil, nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	if l, err = b.coerce(l, t, loc); err != nil {
		return nil, nil, err
	}
	if r, err = b.coerce(r, t, loc); err != nil {
		return nil, nil, err
	}
	return l, r, nil
}

func (b *binder) bindIn(s *scope, a *pg_query.A_Expr, not bool) (expr.Expr, error) {
	list := a.Rexpr.GetList()
	if list == nil {
		return nil, b.stmt.errf(a.Location, pgerr.FeatureNotSupported, "IN (subquery) is not supported yet")
	}
	if l, ok := b.rowElems(s, a.Lexpr); ok {
		return b.bindRowIn(s, l, list.Items, not, a.Location)
	}
	nodes := append([]*pg_query.Node{a.Lexpr}, list.Items...)
	all, err := b.bindAll(s, nodes)
	if err != nil {
		return nil, err
	}
	if hasChar(all) {
		return b.charIn(all, nodes, not, a.Location)
	}
	left := all[0]
	if left.Type().Kind == value.Date {
		// x IN (…) compares x with each item by the = of their types
		// without casting x (date = timestamp): x takes part in the
		// common type alone.
		all[0] = &expr.Const{V: value.Null, T: left.Type()}
	}
	t, err := b.coerceAllCommon(all, nodes, "IN", a.Location)
	if err != nil {
		return nil, err
	}
	if left.Type().Kind == value.Date {
		if all[0], err = b.compareOperand(left, t, a.Location); err != nil {
			return nil, err
		}
	}
	if isGeometric(all[0]) {
		return b.geometricIn(all[0], all[1:], not, a.Location)
	}
	if err := b.noVoidEquality(all[0].Type(), t, a.Location); err != nil {
		return nil, err
	}
	if k := all[0].Type().Kind; k == value.JSON || k == value.XML {
		return nil, b.stmt.errf(a.Location, pgerr.UndefinedFunction, "operator does not exist: %s = %s", k, k)
	}
	in := &expr.InList{E: all[0], List: all[1:], Not: not}
	for i, e := range in.List {
		if c := expr.NewRecordCheck(in.E, e); c != nil {
			if in.Checks == nil {
				in.Checks = make([]*expr.RecordCheck, len(in.List))
			}
			in.Checks[i] = c
		}
	}
	return in, nil
}

func (b *binder) bindLike(s *scope, a *pg_query.A_Expr, op string) (expr.Expr, error) {
	l, err := b.bindExpr(s, a.Lexpr)
	if err != nil {
		return nil, err
	}
	patNode := a.Rexpr
	var esc expr.Expr
	if f := patNode.GetFuncCall(); f != nil && opName(f.Funcname) == "like_escape" && len(f.Args) == 2 {
		patNode = f.Args[0]
		if esc, err = b.bindExpr(s, f.Args[1]); err != nil {
			return nil, err
		}
	}
	p, err := b.bindExpr(s, patNode)
	if err != nil {
		return nil, err
	}
	if lk, pk := l.Type().Kind, p.Type().Kind; (lk == value.Bytea || pk == value.Bytea) && !strings.Contains(op, "*") {
		return b.byteaLike(l, p, esc, op, a.Location)
	}
	if esc != nil {
		if esc, err = b.coerce(esc, value.TextType, a.Location); err != nil {
			return nil, err
		}
	}
	ci := ciMatch(l.Type().Kind, p.Type().Kind)
	for _, e := range []*expr.Expr{&l, &p} {
		k := (*e).Type().Kind
		if !textCoercible(k) && k != value.Unknown {
			return nil, b.stmt.errf(a.Location, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, p.Type()).
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
		}
		if k == value.Char && e == &l {
			continue // bpchar ~~ text matches the padded value, as in PostgreSQL
		}
		if *e, err = b.coerce(*e, value.TextType, a.Location); err != nil {
			return nil, err
		}
	}
	return &expr.Like{E: l, Pattern: p, Escape: esc, ILike: ci || strings.Contains(op, "*"), Not: strings.HasPrefix(op, "!")}, nil
}

// bindCollate binds e COLLATE name. "C", "POSIX", "default" and
// "ucs_basic" compare byte by byte, as uncollated strings do here: they
// leave e as it is, or take off an ICU collation e carries; an ICU
// collation deltaview supports (value.LookupCollation) wraps e in
// expr.Collate; any other collation is refused.
func (b *binder) bindCollate(s *scope, c *pg_query.CollateClause) (expr.Expr, error) {
	var names []string
	for _, n := range c.Collname {
		names = append(names, n.GetString_().Sval)
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	e, err := b.bindExpr(s, c.Arg)
	if err != nil {
		return nil, err
	}
	switch k := e.Type().Kind; {
	case k == value.Unknown:
		if e, err = b.coerce(e, value.TextType, c.Location); err != nil {
			return nil, err
		}
	case !isString(k):
		return nil, b.stmt.errf(c.Location, pgerr.DatatypeMismatch, "collations are not supported by type %s", e.Type())
	}
	if coll := icuCollation(names); coll != nil {
		if k := e.Type().Kind; k != value.Text && k != value.Varchar && k != value.Char {
			return nil, b.refuse(c.Location, "collation %s on type %s is not supported", expr.QuoteIdent(coll.Name), e.Type())
		}
		return &expr.Collate{E: e, ID: coll.ID, Name: coll.Name}, nil
	}
	if uc := b.userCollationOf(names); uc != nil {
		if k := e.Type().Kind; uc.ID != 0 && k != value.Text && k != value.Varchar && k != value.Char {
			return nil, b.refuse(c.Location, "collation %s on type %s is not supported", expr.QuoteIdent(uc.Name), e.Type())
		}
		if uc.ID != 0 || carriesCollation(e) || readsColumns(e) {
			return &expr.Collate{E: e, ID: uc.ID, Name: uc.Name}, nil
		}
		return e, nil
	}
	if err := b.checkCollation(names, c.Location); err != nil {
		return nil, err
	}
	if carriesCollation(e) || readsColumns(e) {
		return &expr.Collate{E: e, Name: names[0]}, nil
	}
	return e, nil
}

// readsColumns reports whether e reads a column (of its query or an
// enclosing one), whose values may carry an ICU collation from a
// subquery or a materialized view that applied one: a byte-wise COLLATE
// must take it off.
func readsColumns(e expr.Expr) bool {
	found := false
	expr.Walk(e, func(n expr.Expr) bool {
		switch n.(type) {
		case *expr.Col, *expr.Outer:
			found = true
		}
		return !found
	})
	return found
}

// icuCollation is the ICU collation names name, nil for another.
func icuCollation(names []string) *value.Collation {
	if len(names) != 1 {
		return nil
	}
	return value.LookupCollation(names[0])
}

// carriesCollation reports whether e applies an ICU collation, which a
// byte-wise COLLATE must take off.
func carriesCollation(e expr.Expr) bool {
	found := false
	expr.Walk(e, func(n expr.Expr) bool {
		if c, ok := n.(*expr.Collate); ok && c.ID != 0 {
			found = true
		}
		return !found
	})
	return found
}

// checkCollation refuses a collation other than those that compare text
// byte by byte, as uncollated text does here.
func (b *binder) checkCollation(names []string, loc int32) error {
	if len(names) == 1 {
		switch names[0] {
		case "C", "POSIX", "default", "ucs_basic":
			return nil
		}
	}
	if uc := b.userCollationOf(names); uc != nil {
		return b.stmt.errf(loc, pgerr.FeatureNotSupported, "collation %s made by CREATE COLLATION is not supported here", uc.QualifiedName())
	}
	if !(len(names) == 1 && (names[0] == "C.utf8" || value.PostgreSQLICUCollation(names[0]))) {
		return b.stmt.errf(loc, pgerr.UndefinedObject, "collation \"%s\" for encoding \"UTF8\" does not exist", strings.Join(names, "."))
	}
	return b.stmt.errf(loc, pgerr.FeatureNotSupported, "collation \"%s\" is not supported", strings.Join(names, ".")).
		WithHint(`the collations accepted are "C", "POSIX", "default", "ucs_basic" and the ICU collations listed in pg_collation`)
}

// regexOps are the regular-expression match operators: fold, not.
var regexOps = map[string][2]bool{"~": {false, false}, "~*": {true, false}, "!~": {false, true}, "!~*": {true, true}}

// regexOp binds l ~ r and its kin over strings.
func (b *binder) regexOp(flags [2]bool, op string, l, r expr.Expr, loc int32) (expr.Expr, error) {
	if ciMatch(l.Type().Kind, r.Type().Kind) {
		flags[0] = true
	}
	for _, e := range []*expr.Expr{&l, &r} {
		k := (*e).Type().Kind
		if !textCoercible(k) && k != value.Unknown {
			return nil, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type()).
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
		}
		if k == value.Char && e == &l {
			continue // bpcharregexeq matches the padded value, as in PostgreSQL
		}
		var err error
		if *e, err = b.coerce(*e, value.TextType, loc); err != nil {
			return nil, err
		}
	}
	return &expr.Regex{E: l, Pattern: r, Fold: flags[0], Not: flags[1]}, nil
}

// bindSimilar binds E [NOT] SIMILAR TO pattern [ESCAPE e], which the parser
// writes E ~ similar_to_escape(pattern [, e]) (!~ for NOT).
func (b *binder) bindSimilar(s *scope, a *pg_query.A_Expr, op string) (expr.Expr, error) {
	patNode := a.Rexpr
	var escNode *pg_query.Node
	if f := patNode.GetFuncCall(); f != nil && opName(f.Funcname) == "similar_to_escape" && len(f.Args) >= 1 {
		patNode = f.Args[0]
		if len(f.Args) == 2 {
			escNode = f.Args[1]
		}
	}
	var es []expr.Expr
	fold := false
	for _, n := range []*pg_query.Node{a.Lexpr, patNode, escNode} {
		if n == nil {
			continue
		}
		e, err := b.bindExpr(s, n)
		if err != nil {
			return nil, err
		}
		if k := e.Type().Kind; !textCoercible(k) && k != value.Unknown {
			return nil, b.stmt.errf(a.Location, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", e.Type(), op, "text").
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
		}
		fold = fold || len(es) == 0 && e.Type().Kind == value.CIText // citext ~ text: texticregexeq
		// bpchar ~ text matches the padded value.
		if len(es) > 0 || e.Type().Kind != value.Char {
			if e, err = b.coerce(e, value.TextType, a.Location); err != nil {
				return nil, err
			}
		}
		es = append(es, e)
	}
	r := &expr.Regex{E: es[0], Pattern: es[1], Similar: true, Not: op == "!~", Fold: fold}
	if len(es) > 2 {
		r.Escape = es[2]
	}
	return r, nil
}

func (b *binder) bindBetween(s *scope, a *pg_query.A_Expr) (expr.Expr, error) {
	items := a.Rexpr.GetList().GetItems()
	if len(items) != 2 {
		return nil, b.stmt.errf(a.Location, pgerr.SyntaxError, "malformed BETWEEN")
	}
	build := func(lo, hi *pg_query.Node) (expr.Expr, error) {
		x, err := b.bindExpr(s, a.Lexpr)
		if err != nil {
			return nil, err
		}
		l, err := b.bindExpr(s, lo)
		if err != nil {
			return nil, err
		}
		h, err := b.bindExpr(s, hi)
		if err != nil {
			return nil, err
		}
		ge, err := b.binaryOp(">=", x, l, a.Location)
		if err != nil {
			return nil, err
		}
		le, err := b.binaryOp("<=", x, h, a.Location)
		if err != nil {
			return nil, err
		}
		return &expr.And{Args: []expr.Expr{b.consumeCollation(s, ge), b.consumeCollation(s, le)}}, nil
	}
	e, err := build(items[0], items[1])
	if err != nil {
		return nil, err
	}
	sym := a.Kind == pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM || a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM
	if sym {
		e2, err := build(items[1], items[0])
		if err != nil {
			return nil, err
		}
		e = &expr.Or{Args: []expr.Expr{e, e2}}
	}
	if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN || a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
		e = &expr.Not{E: e}
	}
	return e, nil
}

// bindCommon binds expressions and casts them to their common type.
func (b *binder) bindCommon(s *scope, nodes []*pg_query.Node, context string, loc int32) ([]expr.Expr, value.Type, error) {
	es, err := b.bindAll(s, nodes)
	if err != nil {
		return nil, value.Type{}, err
	}
	t, err := b.coerceAllCommon(es, nodes, context, loc)
	if err != nil {
		return nil, value.Type{}, err
	}
	return es, t, nil
}

// bindAll binds nodes in order.
func (b *binder) bindAll(s *scope, nodes []*pg_query.Node) ([]expr.Expr, error) {
	es := make([]expr.Expr, len(nodes))
	for i, n := range nodes {
		e, err := b.bindExpr(s, n)
		if err != nil {
			return nil, err
		}
		es[i] = e
	}
	return es, nil
}

// coerceAllCommon converts es, bound from nodes, in place to their common
// type in the construct named context, and returns that type.
func (b *binder) coerceAllCommon(es []expr.Expr, nodes []*pg_query.Node, context string, loc int32) (value.Type, error) {
	ts := make([]value.Type, len(es))
	for i, e := range es {
		ts[i] = e.Type()
	}
	if context == "CASE" {
		// PostgreSQL resolves a CASE's type from its ELSE first (the
		// last node here), which decides between types that convert to
		// each other implicitly (char(n) and varchar).
		ts = append(ts[len(ts)-1:len(ts):len(ts)], ts[:len(ts)-1]...)
	}
	t, err := expr.CommonType(ts, context)
	if err != nil {
		at := loc
		if i := mismatchAt(ts, context); i >= 0 && context != "IN" { // IN's = fails at IN
			j := i // the node of ts[i]
			if context == "CASE" {
				j = (i + len(es) - 1) % len(es)
			}
			if l := leftmostLoc(nodes[j]); l >= 0 {
				at = l
			}
		}
		return value.Type{}, pgerr.Wrap(err).At(b.stmt.SQL, int(at))
	}
	for i := range es {
		var err error
		untyped := es[i].Type().Kind == value.Unknown || isUnknownConst(nodes[i]) || nodes[i].GetAConst().GetIsnull()
		if es[i], err = b.coerceCommon(es[i], t, context, nodes[i], loc); err != nil {
			return value.Type{}, err
		}
		if untyped {
			b.noteUntyped(es[i])
		}
	}
	return t, nil
}

// mismatchAt returns the index of the first of ts that has no common type
// with those before it, where PostgreSQL's select_common_type reports the
// error (at that expression); -1 if there is none.
func mismatchAt(ts []value.Type, context string) int {
	for k := 2; k <= len(ts); k++ {
		if _, err := expr.CommonType(ts[:k], context); err != nil {
			return k - 1
		}
	}
	return -1
}

// coerceCommon converts e, bound from node, to t, the common type of the
// construct named context. A type of t's category without an implicit
// cast to it (money beside a number) is 42846 at the expression, as
// PostgreSQL's coerce_to_common_type reports it.
func (b *binder) coerceCommon(e expr.Expr, t value.Type, context string, node *pg_query.Node, loc int32) (expr.Expr, error) {
	out, err := b.coerce(e, t, nodeLoc(node, loc))
	if pgerr.Code(err) != pgerr.DatatypeMismatch {
		return out, err
	}
	if context == "CASE" {
		context = "CASE/WHEN"
	}
	at := leftmostLoc(node)
	if at < 0 {
		at = loc
	}
	return nil, b.stmt.errf(at, pgerr.CannotCoerce, "%s could not convert type %s to %s", context, e.Type(), t)
}

func (b *binder) bindCase(s *scope, c *pg_query.CaseExpr) (expr.Expr, error) {
	var arg expr.Expr
	if c.Arg != nil {
		var err error
		if arg, err = b.bindExpr(s, c.Arg); err != nil {
			return nil, err
		}
	}
	results := make([]*pg_query.Node, 0, len(c.Args)+1)
	var conds []expr.Expr
	for _, w := range c.Args {
		cw := w.GetCaseWhen()
		cond, err := b.bindExpr(s, cw.Expr)
		if err != nil {
			return nil, err
		}
		if arg != nil {
			if cond.Type().Kind == value.Unknown && arg.Type().Kind != value.Unknown {
				// An untyped literal that does not read as the
				// argument's type fails at the literal, as in
				// PostgreSQL; one that does is compared as before.
				// The type's modifier is not applied: PostgreSQL
				// reads 'abc' as varchar against a varchar(2).
				t := arg.Type()
				if t.Typmod() >= 0 {
					t.Mod = -1
				}
				if _, err := b.coerce(cond, t, nodeLoc(cw.Expr, cw.Location)); err != nil {
					return nil, err
				}
			}
			if cond, err = b.binaryOp("=", arg, cond, cw.Location); err != nil {
				return nil, err
			}
			cond = b.consumeCollation(s, cond)
		} else if cond, err = b.toBool(cond, "CASE/WHEN", cw.Location); err != nil {
			return nil, err
		}
		conds = append(conds, cond)
		results = append(results, cw.Result)
	}
	hasElse := c.Defresult != nil
	if hasElse {
		results = append(results, c.Defresult)
	} else {
		results = append(results, &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true, Location: -1}}})
	}
	res, t, err := b.bindCommon(s, results, "CASE", c.Location)
	if err != nil {
		return nil, err
	}
	out := &expr.Case{Else: res[len(res)-1], T: t}
	for i, cond := range conds {
		out.Whens = append(out.Whens, expr.When{Cond: cond, Result: res[i]})
	}
	return out, nil
}

func (b *binder) bindFuncCall(s *scope, f *pg_query.FuncCall) (expr.Expr, error) {
	name := opName(f.Funcname)
	if isExtSRF(f) {
		return nil, b.srfCallError(f, name)
	}
	if err := b.schemaOfName(f.Funcname, f.Location); err != nil {
		return nil, err
	}
	if e, ok, err := b.bindUserCall(s, f); ok {
		return e, err
	}
	if err := b.builtinOutOfSchema(s, f); err != nil {
		return nil, err
	}
	if err := b.procedureCalled(s, f); err != nil {
		return nil, err
	}
	if f.Over != nil {
		return b.bindWindow(s, f)
	}
	if isHypothetical(name) && !f.AggWithinGroup {
		// PostgreSQL finds the hypothetical-set aggregate of the name
		// for a call with arguments, the window function otherwise.
		if len(f.Args) > 0 {
			return nil, b.stmt.errf(f.Location, pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name)
		}
		return nil, b.stmt.errf(f.Location, pgerr.WrongObjectType, "window function %s requires an OVER clause", name)
	}
	if isAggregateName(name) || isUserAggCall(f) || f.AggStar || f.AggDistinct || f.AggFilter != nil || len(f.AggOrder) > 0 {
		if e, err := b.outerAggregate(s, f); e != nil || err != nil {
			return e, err
		}
		if b.aggArgs != nil {
			// In a subquery an aggregate in an aggregate's arguments may be
			// an enclosing query's; this one is not.
			return nil, b.stmt.errf(b.aggArgs.Location, pgerr.GroupingError, "aggregate function calls cannot be nested")
		}
		if !isAggregateName(name) && !isUserAggCall(f) && !f.AggStar {
			return nil, b.notAggregate(s, name, f)
		}
		return nil, b.misplacedAggregate(f.Location)
	}
	if expr.IsSRF(name) {
		return nil, b.srfCallError(f, name)
	}
	if f.FuncVariadic {
		return b.bindVariadicCall(s, name, f)
	}
	if name == "pg_collation_for" {
		return b.bindCollationFor(s, f)
	}
	if name == "pg_typeof" {
		return b.bindTypeof(s, f)
	}
	if name == "pg_column_size" {
		return b.bindColumnSize(s, f)
	}
	if e, ok, err := b.bindSequenceCall(s, name, f); ok {
		return e, err
	}
	if e, ok, err := b.bindCurrentSchema(s, name, f); ok {
		return e, err
	}
	if e, ok, err := b.bindEnumCall(s, name, f); ok {
		return e, err
	}
	if e, ok, err := b.bindCatalogCall(s, name, f); ok {
		return e, err
	}
	if name == "json_populate_record" || name == "jsonb_populate_record" {
		return b.bindJSONPopulateRecord(s, name, f)
	}
	if expr.IsJSONRecordFunc(name) {
		return b.bindJSONToRecordValue(s, name, f)
	}
	if name == "ts_rewrite" && len(f.Args) == 2 {
		return b.bindTSRewriteQuery(s, f)
	}
	if isXMLDataCall(name, f) {
		return b.bindXMLData(s, name, f)
	}
	args, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	e, err := b.callFunc(s, name, args, nil, f.Location)
	if pgerr.Code(err) == pgerr.UndefinedFunction {
		if p, ok := b.columnProjection(s, f); ok {
			return p, nil
		}
	}
	return e, err
}

// callFunc resolves and binds a call of a catalog function. pre are
// arguments already bound (used for SQL-syntax functions), args are nodes.
func (b *binder) callFunc(s *scope, name string, args []*pg_query.Node, pre []expr.Expr, loc int32) (expr.Expr, error) {
	es := pre
	for _, a := range args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, err
		}
		es = append(es, e)
	}
	b.styledIntervalArgs(name, es)
	if e, ok, err := b.settingFunc(name, es, loc); ok {
		return e, err
	}
	if e, ok, err := b.backendFunc(name, es, loc); ok {
		return e, err
	}
	if e, ok, err := b.builtinTriggerCall(name, es, loc); ok {
		return e, err
	}
	if e, ok, err := b.sysInfoFunc(name, es, loc); ok {
		return e, err
	}
	if e, ok, err := b.notifyFunc(name, es, loc); ok {
		return e, err
	}
	if e, ok := recordJSON(name, es); ok {
		return e, nil
	}
	if e, ok, err := b.hstoreRecordCall(name, es, loc); ok {
		return e, err
	}
	ts := make([]value.Type, len(es))
	for i, e := range es {
		ts[i] = e.Type()
	}
	if name == "position" {
		name = "strpos"
	}
	if e, ok, err := b.textSearchDefault(name, es, loc); ok {
		return e, err
	}
	def, params, res, err := b.resolveFunc(name, ts)
	if err != nil {
		if aerr := ambiguousFunctionCast(name, ts); aerr != nil {
			return nil, aerr.At(b.stmt.SQL, int(loc))
		}
		argLoc := loc
		if len(args) == 1 {
			argLoc = nodeLoc(args[0], loc)
		}
		if e, ok, cerr := b.functionCast(name, es, pre, err, argLoc); ok {
			return e, cerr
		}
		if rerr := b.refuseImplicitCastCall(name, ts, err, loc); rerr != nil {
			return nil, rerr
		}
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	if len(es) == 0 {
		if e, ok, err := b.clockRead(def.Name, loc); ok || err != nil {
			return e, err
		}
	}
	if def.Volatile && b.forView && !(b.clockOK && expr.IsClockFunc(def.Name)) {
		if expr.IsClockFunc(def.Name) {
			return nil, b.refuse(loc, "volatile function %s() cannot be maintained in a view outside a temporal filter", name).
				WithHint(clockHint)
		}
		return nil, b.refuse(loc, "volatile function %s() cannot be maintained in a view", name).
			WithHint(volatileHint)
	}
	if b.forView && expr.IsTZJSONPathFunc(def.Name) {
		return nil, b.refuseTZJSONPath(name, loc)
	}
	for i := range es {
		if i < len(params) {
			if es[i], err = b.coerce(es[i], params[i], loc); err != nil {
				return nil, err
			}
		}
	}
	if def.Session != nil {
		return b.sessionFuncCall(def, es, loc)
	}
	if expr.IsSleepFunc(def.Name) && b.stmtClock != nil && !b.forView {
		return &expr.SleepCall{C: b.stmtClock, Def: def, Arg: es[0]}, nil
	}
	return &expr.Func{Def: def, Args: es, T: res}, nil
}

// clockHint says where a view may read the clock.
const clockHint = "a view maintains comparisons of a row with the clock in its WHERE, ts > now() - interval '1 hour' or ts + interval '1 hour' > now(), ANDed with other conditions; elsewhere store the time in a table column when the row is written"

// volatileHint is the alternative to a volatile function in a view.
const volatileHint = "compute the value when the rows are written, and store it in a table column"

// refuse returns the 0A000 error for a construct a view cannot maintain.
func (b *binder) refuse(loc int32, format string, args ...any) *pgerr.Error {
	return b.stmt.errf(loc, pgerr.FeatureNotSupported, format, args...)
}

// nodeLoc returns the location of an expression node, or def.
func nodeLoc(n *pg_query.Node, def int32) int32 {
	if n == nil {
		return def
	}
	switch v := n.GetNode().(type) {
	case *pg_query.Node_ColumnRef:
		return v.ColumnRef.Location
	case *pg_query.Node_AConst:
		return v.AConst.Location
	case *pg_query.Node_FuncCall:
		return v.FuncCall.Location
	case *pg_query.Node_AExpr:
		return v.AExpr.Location
	case *pg_query.Node_TypeCast:
		return v.TypeCast.Location
	case *pg_query.Node_BoolExpr:
		return v.BoolExpr.Location
	case *pg_query.Node_CaseExpr:
		return v.CaseExpr.Location
	case *pg_query.Node_CoalesceExpr:
		return v.CoalesceExpr.Location
	case *pg_query.Node_NullTest:
		return v.NullTest.Location
	case *pg_query.Node_SubLink:
		return v.SubLink.Location
	case *pg_query.Node_RowExpr:
		return v.RowExpr.Location
	}
	return def
}

// byteaLike binds bytea [NOT] LIKE bytea [ESCAPE bytea]: each operand is
// read as one character per byte, so the match is byte by byte.
func (b *binder) byteaLike(l, p, esc expr.Expr, op string, loc int32) (expr.Expr, error) {
	ops := []*expr.Expr{&l, &p}
	if esc != nil {
		ops = append(ops, &esc)
	}
	lt, pt := l.Type(), p.Type()
	noOperator := func() error {
		return b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", lt, op, pt).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	if esc != nil && pt.Kind == value.Unknown && esc.Type().Kind == value.Unknown {
		pt = value.TextType // like_escape of two literals is the text one
		return nil, noOperator()
	}
	for _, e := range ops {
		if k := (*e).Type().Kind; k != value.Bytea && k != value.Unknown {
			return nil, noOperator()
		}
		c, err := b.coerce(*e, value.ByteaType, loc)
		if err != nil {
			return nil, err
		}
		*e = &expr.Func{Def: expr.ByteaChars, Args: []expr.Expr{c}, T: value.TextType}
	}
	return &expr.Like{E: l, Pattern: p, Escape: esc, Not: strings.HasPrefix(op, "!")}, nil
}
