package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/value"
)

// sqlSyntaxCall types a call the parser made of SQL's special syntax
// (EXTRACT, SUBSTRING, TRIM, POSITION, OVERLAY), which ruleutils prints
// back in that syntax; its arguments print without implicit casts.
func (p *ptyper) sqlSyntaxCall(name string, args []*pg_query.Node) (*pexpr, error) {
	out := &pexpr{k: pSQLCall, name: name}
	text := func(i int) error {
		x, err := p.build(args[i])
		if err != nil {
			return err
		}
		if !textish(x.t.Kind) {
			return errNoDeparse
		}
		x, err = p.coerce(x, value.TextType, false)
		out.args = append(out.args, x)
		return err
	}
	integer := func(i int) error {
		x, err := p.build(args[i])
		if err != nil {
			return err
		}
		if x.t.Kind != value.Int4 && x.t.Kind != value.Int2 && !(x.k == pConst && x.t.Kind == value.Unknown) {
			return errNoDeparse
		}
		x, err = p.coerce(x, value.Type{Kind: value.Int4, Mod: -1}, false)
		out.args = append(out.args, x)
		return err
	}
	all := func(kinds ...func(int) error) error {
		if len(args) != len(kinds) {
			return errNoDeparse
		}
		for i, k := range kinds {
			if err := k(i); err != nil {
				return err
			}
		}
		return nil
	}
	var err error
	switch name {
	case "extract":
		field := args[0].GetAConst().GetSval()
		if len(args) != 2 || field == nil {
			return nil, errNoDeparse
		}
		x, err := p.build(args[1])
		if err != nil {
			return nil, err
		}
		switch x.t.Kind {
		case value.Date, value.Timestamp, value.TimestampTZ, value.Time, value.TimeTZ, value.Interval:
		default:
			return nil, errNoDeparse
		}
		out.lit, out.args, out.t = field.Sval, []*pexpr{x}, value.NumericType
		return out, nil
	case "substring":
		if len(args) == 2 {
			err = all(text, integer)
		} else {
			err = all(text, integer, integer)
		}
		out.t = value.TextType
	case "btrim", "ltrim", "rtrim":
		if len(args) == 1 {
			err = all(text)
		} else {
			err = all(text, text)
		}
		out.t = value.TextType
	case "position":
		err = all(text, text)
		out.t = value.Type{Kind: value.Int4, Mod: -1}
	case "overlay":
		if len(args) == 3 {
			err = all(text, text, integer)
		} else {
			err = all(text, text, integer, integer)
		}
		out.t = value.TextType
	default:
		return nil, errNoDeparse
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sqlCall prints a pSQLCall as ruleutils' get_func_sql_syntax.
func (pp *pprinter) sqlCall(x *pexpr) {
	b := &pp.b
	arg := func(i int) { pp.expr(x.args[i], false, nil) }
	switch x.name {
	case "extract":
		b.WriteString("EXTRACT(" + x.lit + " FROM ")
		arg(0)
	case "substring":
		b.WriteString("SUBSTRING(")
		arg(0)
		b.WriteString(" FROM ")
		arg(1)
		if len(x.args) == 3 {
			b.WriteString(" FOR ")
			arg(2)
		}
	case "btrim", "ltrim", "rtrim":
		b.WriteString(map[string]string{"btrim": "TRIM(BOTH", "ltrim": "TRIM(LEADING", "rtrim": "TRIM(TRAILING"}[x.name])
		if len(x.args) == 2 {
			b.WriteByte(' ')
			arg(1)
		}
		b.WriteString(" FROM ")
		arg(0)
	case "position":
		b.WriteString("POSITION((")
		arg(1)
		b.WriteString(") IN (")
		arg(0)
		b.WriteByte(')')
	case "overlay":
		b.WriteString("OVERLAY(")
		arg(0)
		b.WriteString(" PLACING ")
		arg(1)
		b.WriteString(" FROM ")
		arg(2)
		if len(x.args) == 4 {
			b.WriteString(" FOR ")
			arg(3)
		}
	}
	b.WriteByte(')')
}

// subscript types one array subscript or slice, a[i] or a[i:j].
func (p *ptyper) subscript(ind *pg_query.A_Indirection) (*pexpr, error) {
	if len(ind.Indirection) != 1 {
		return nil, errNoDeparse
	}
	ix := ind.Indirection[0].GetAIndices()
	if ix == nil {
		return nil, errNoDeparse
	}
	base, err := p.build(ind.Arg)
	if err != nil {
		return nil, err
	}
	if !base.t.Kind.IsArray() || base.k == pConst || !ix.IsSlice && ix.Uidx == nil {
		return nil, errNoDeparse
	}
	out := &pexpr{k: pSubscript, flag: ix.IsSlice, t: base.ElemOrSelf(ix.IsSlice), args: []*pexpr{base, nil, nil}}
	for i, n := range []*pg_query.Node{ix.Lidx, ix.Uidx} {
		if n == nil {
			continue
		}
		x, err := p.build(n)
		if err != nil {
			return nil, err
		}
		if !x.t.Kind.IsInteger() && !(x.k == pConst && x.t.Kind == value.Unknown) {
			return nil, errNoDeparse
		}
		if out.args[i+1], err = p.coerce(x, value.Type{Kind: value.Int4, Mod: -1}, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ElemOrSelf is a subscript's type: the element's, or the array's for a
// slice.
func (x *pexpr) ElemOrSelf(slice bool) value.Type {
	if slice {
		return value.Type{Kind: x.t.Kind, Mod: -1}
	}
	e := x.t.ElemType()
	return value.Type{Kind: e.Kind, Mod: e.Mod}
}

// subscript prints a[i] or a[i:j] as ruleutils: the array in
// parentheses unless a column.
func (pp *pprinter) subscript(x *pexpr) {
	b := &pp.b
	if x.args[0].k == pCol {
		pp.expr(x.args[0], true, nil)
	} else {
		b.WriteByte('(')
		pp.expr(x.args[0], true, nil)
		b.WriteByte(')')
	}
	b.WriteByte('[')
	if x.flag {
		if x.args[1] != nil {
			pp.expr(x.args[1], false, nil)
		}
		b.WriteByte(':')
		if x.args[2] != nil {
			pp.expr(x.args[2], false, nil)
		}
	} else {
		pp.expr(x.args[2], false, nil) // a subscript is held as the upper bound
	}
	b.WriteByte(']')
}

// aggregateCall types an aggregate call with its FILTER and ORDER BY:
// count, sum, avg, min and max (aggregate), string_agg, array_agg,
// bool_and and bool_or. ok is false for another function.
func (p *ptyper) aggregateCall(f *pg_query.FuncCall) (*pexpr, bool, error) {
	name := f.Funcname[0].GetString_().GetSval()
	var x *pexpr
	switch name {
	case "string_agg", "array_agg", "bool_and", "bool_or":
		if f.AggStar || len(f.Args) != map[string]int{"string_agg": 2}[name]+boolInt(name != "string_agg") {
			return nil, true, errNoDeparse
		}
		x = &pexpr{k: pFunc, name: name}
		if f.AggDistinct {
			x.lit = "DISTINCT "
		}
		for _, a := range f.Args {
			ax, err := p.build(a)
			if err != nil {
				return nil, true, err
			}
			x.args = append(x.args, ax)
		}
		var err error
		switch name {
		case "string_agg":
			for i := range x.args {
				if !textish(x.args[i].t.Kind) {
					return nil, true, errNoDeparse
				}
				if x.args[i], err = p.coerce(x.args[i], value.TextType, false); err != nil {
					return nil, true, err
				}
			}
			x.t = value.TextType
		case "array_agg":
			k := x.args[0].t.Kind
			if k == value.Unknown || k == value.Record || k.IsArray() {
				return nil, true, errNoDeparse
			}
			x.t = value.ArrayTypeOf(value.Type{Kind: k, Mod: -1})
		default:
			if x.args[0], err = p.coerce(x.args[0], value.BoolType, false); err != nil {
				return nil, true, err
			}
			x.t = value.BoolType
		}
	default:
		var ok bool
		var err error
		if x, ok, err = p.aggregate(f); !ok || err != nil {
			return x, ok, err
		}
	}
	if f.AggFilter != nil {
		cond, err := p.boolean(f.AggFilter)
		if err != nil {
			return nil, true, err
		}
		x.filter = cond
	}
	if len(f.AggOrder) > 0 {
		if f.AggStar {
			return nil, true, errNoDeparse
		}
		order, err := p.sortClause(f.AggOrder, nil)
		if err != nil {
			return nil, true, err
		}
		x.order = order
	}
	return x, true, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// escaped types x op fname(pattern[, escape]): LIKE … ESCAPE and
// SIMILAR TO, whose pattern the parser wraps in a call.
func (p *ptyper) escaped(op string, lexpr *pg_query.Node, f *pg_query.FuncCall, fname string) (*pexpr, error) {
	if p.syntactic || len(f.Funcname) == 0 || f.Funcname[len(f.Funcname)-1].GetString_().GetSval() != fname || len(f.Args) < 1 || len(f.Args) > 2 {
		return nil, errNoDeparse
	}
	if fname == "like_escape" && len(f.Args) != 2 {
		return nil, errNoDeparse
	}
	call := &pexpr{k: pFunc, name: fname, t: value.TextType}
	for _, a := range f.Args {
		x, err := p.build(a)
		if err != nil {
			return nil, err
		}
		if !textish(x.t.Kind) {
			return nil, errNoDeparse
		}
		if x, err = p.coerce(x, value.TextType, false); err != nil {
			return nil, err
		}
		call.args = append(call.args, x)
	}
	l, err := p.build(lexpr)
	if err != nil {
		return nil, err
	}
	return p.binary(op, l, call)
}
