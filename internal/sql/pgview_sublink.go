package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/value"
)

// subLink types a subquery in an expression as PostgreSQL's SubLink: it
// sees this level's columns and the names of every level around it.
func (p *ptyper) subLink(s *pg_query.SubLink) (*pexpr, error) {
	sel := s.Subselect.GetSelectStmt()
	if sel == nil {
		return nil, errNoDeparse
	}
	q, err := p.an.query(sel, scopeEnv{cols: p, names: p.names, ctes: p.ctes}, nil, false)
	if err != nil {
		return nil, err
	}
	types := q.types()
	out := &pexpr{k: pSubLink, sub: q, t: value.BoolType}
	switch s.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		out.name = "EXISTS"
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if len(types) != 1 {
			return nil, errNoDeparse
		}
		out.name, out.t = "EXPR", value.Type{Kind: types[0].Kind, Mod: types[0].Mod}
	case pg_query.SubLinkType_ARRAY_SUBLINK:
		if len(types) != 1 || types[0].Kind.IsArray() {
			return nil, errNoDeparse
		}
		out.name, out.t = "ARRAY", value.ArrayTypeOf(bareType(types[0]))
	case pg_query.SubLinkType_ANY_SUBLINK, pg_query.SubLinkType_ALL_SUBLINK:
		op := "="
		if len(s.OperName) == 1 {
			op = s.OperName[0].GetString_().GetSval()
		} else if len(s.OperName) > 1 {
			return nil, errNoDeparse
		}
		if len(types) != 1 || s.Testexpr.GetRowExpr() != nil {
			return nil, errNoDeparse
		}
		l, err := p.build(s.Testexpr)
		if err != nil {
			return nil, err
		}
		// The comparison is made with the subquery's column as its
		// right operand; only the left operand's coercion is printed.
		x, err := p.binary(op, l, &pexpr{k: pCol, t: types[0]})
		if err != nil || x.t.Kind != value.Bool {
			return nil, errNoDeparse
		}
		out.args = []*pexpr{x.args[0]}
		out.flag = s.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK
		out.lit = op
		if out.flag {
			out.name = " " + op + " ALL "
		} else if op == "=" {
			out.name = " IN "
		} else {
			out.name = " " + op + " ANY "
		}
	default:
		return nil, errNoDeparse
	}
	return out, nil
}

// windowCall types a window function call: an aggregate or one of the
// window functions, over a window of this level.
func (p *ptyper) windowCall(f *pg_query.FuncCall) (*pexpr, error) {
	if p.q == nil || len(f.AggOrder) > 0 || f.AggDistinct || f.FuncVariadic || len(f.Funcname) != 1 {
		return nil, errNoDeparse
	}
	name := f.Funcname[0].GetString_().GetSval()
	over := f.Over
	f.Over = nil
	defer func() { f.Over = over }()
	var x *pexpr
	var err error
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist":
		if len(f.Args) != 0 || f.AggStar || f.AggFilter != nil {
			return nil, errNoDeparse
		}
		x = &pexpr{k: pFunc, name: name, t: value.Type{Kind: value.Int8, Mod: -1}}
		if name == "percent_rank" || name == "cume_dist" {
			x.t = value.Float8Type
		}
	case "ntile", "lag", "lead", "first_value", "last_value", "nth_value":
		if f.AggFilter != nil {
			return nil, errNoDeparse
		}
		x = &pexpr{k: pFunc, name: name}
		for _, a := range f.Args {
			ax, err := p.build(a)
			if err != nil {
				return nil, err
			}
			x.args = append(x.args, ax)
		}
		n := len(x.args)
		intArg := -1
		switch name {
		case "ntile":
			if n != 1 {
				return nil, errNoDeparse
			}
			intArg, x.t = 0, value.Type{Kind: value.Int4, Mod: -1}
		case "lag", "lead":
			if n < 1 || n > 2 {
				return nil, errNoDeparse
			}
			if n == 2 {
				intArg = 1
			}
		case "nth_value":
			if n != 2 {
				return nil, errNoDeparse
			}
			intArg = 1
		default:
			if n != 1 {
				return nil, errNoDeparse
			}
		}
		if name != "ntile" {
			x.t = bareType(x.args[0].t)
			if x.t.Kind == value.Unknown || x.t.Kind == value.Record {
				return nil, errNoDeparse
			}
		}
		if intArg >= 0 {
			if x.args[intArg], err = p.coerce(x.args[intArg], value.Type{Kind: value.Int4, Mod: -1}, false); err != nil {
				return nil, err
			}
		}
	default:
		var ok bool
		if x, ok, err = p.aggregateCall(f); err != nil || !ok {
			return nil, errNoDeparse
		}
	}
	if over.Name != "" {
		// OVER w: the WINDOW clause's w
		if len(over.PartitionClause) > 0 || len(over.OrderClause) > 0 || over.FrameOptions&frameNonDefault != 0 {
			return nil, errNoDeparse
		}
		for _, o := range p.q.windows {
			if o.name == over.Name {
				x.win = o
			}
		}
	} else {
		win, err := p.windowDef(over)
		if err != nil {
			return nil, err
		}
		x.win = p.q.window(win)
	}
	if x.win == nil {
		return nil, errNoDeparse
	}
	return x, nil
}

// windowDef types a window's PARTITION BY, ORDER BY and frame.
func (p *ptyper) windowDef(wd *pg_query.WindowDef) (*pwindow, error) {
	w := &pwindow{ref: wd.Refname}
	if wd.Refname != "" {
		return nil, errNoDeparse // a window copied from another
	}
	for _, n := range wd.PartitionClause {
		x, err := p.build(n)
		if err != nil {
			return nil, err
		}
		w.part = append(w.part, x)
	}
	var err error
	if w.order, err = p.sortClause(wd.OrderClause, nil); err != nil {
		return nil, err
	}
	if w.frame, err = p.frame(wd); err != nil {
		return nil, err
	}
	key := &pg_query.WindowDef{Refname: wd.Refname, PartitionClause: wd.PartitionClause, OrderClause: wd.OrderClause,
		FrameOptions: wd.FrameOptions, StartOffset: wd.StartOffset, EndOffset: wd.EndOffset}
	w.key = rawKey(key)
	return w, nil
}

// window is the window a call's OVER writes: the first window written
// the same (as PostgreSQL's parser shares them, a named one included),
// or a new unnamed one.
func (q *pquery) window(w *pwindow) *pwindow {
	for _, o := range q.windows {
		if o.key == w.key && o.ref == w.ref {
			return o
		}
	}
	q.windows = append(q.windows, w)
	return w
}

// frameBetween is FRAMEOPTION_BETWEEN (bind_scalar.go has the others).
const frameBetween = 0x10

// frame types a window's frame clause as get_rule_windowspec prints
// it: words, and the offsets of ROWS and GROUPS (bigints, their
// implicit cast not shown); nil for the default frame. RANGE offsets,
// whose type follows the ORDER BY's, are not printed here.
func (p *ptyper) frame(wd *pg_query.WindowDef) ([]framePart, error) {
	o := wd.FrameOptions
	if o&frameNonDefault == 0 {
		return nil, nil
	}
	var out []framePart
	word := func(s string) { out = append(out, framePart{text: s}) }
	switch {
	case o&frameRange != 0:
		word("RANGE ")
	case o&frameRows != 0:
		word("ROWS ")
	case o&frameGroups != 0:
		word("GROUPS ")
	}
	if o&frameBetween != 0 {
		word("BETWEEN ")
	}
	offset := func(n *pg_query.Node, dir string) error {
		if o&frameRange != 0 {
			return errNoDeparse
		}
		x, err := p.build(n)
		if err != nil {
			return err
		}
		if x, err = p.coerce(x, value.Type{Kind: value.Int8, Mod: -1}, false); err != nil {
			return err
		}
		out = append(out, framePart{x: x}, framePart{text: dir})
		return nil
	}
	var err error
	switch {
	case o&frameStartUnboundedPreceding != 0:
		word("UNBOUNDED PRECEDING ")
	case o&frameStartCurrentRow != 0:
		word("CURRENT ROW ")
	case o&frameStartOffsetPreceding != 0:
		err = offset(wd.StartOffset, " PRECEDING ")
	case o&frameStartOffsetFollowing != 0:
		err = offset(wd.StartOffset, " FOLLOWING ")
	default:
		return nil, errNoDeparse
	}
	if err != nil {
		return nil, err
	}
	if o&frameBetween != 0 {
		word("AND ")
		switch {
		case o&frameEndUnboundedFollowing != 0:
			word("UNBOUNDED FOLLOWING ")
		case o&frameEndCurrentRow != 0:
			word("CURRENT ROW ")
		case o&frameEndOffsetPreceding != 0:
			err = offset(wd.EndOffset, " PRECEDING ")
		case o&frameEndOffsetFollowing != 0:
			err = offset(wd.EndOffset, " FOLLOWING ")
		default:
			return nil, errNoDeparse
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case o&frameExcludeCurrentRow != 0:
		word("EXCLUDE CURRENT ROW ")
	case o&frameExcludeGroup != 0:
		word("EXCLUDE GROUP ")
	case o&frameExcludeTies != 0:
		word("EXCLUDE TIES ")
	}
	return out, nil
}

// framePart is a word of a frame clause, or an offset.
type framePart struct {
	text string
	x    *pexpr
}

// rawKey is a parse tree's identity without its source positions, as
// PostgreSQL's equal() compares raw trees.
func rawKey(m proto.Message) string {
	c := proto.Clone(m)
	clearLocations(c.ProtoReflect())
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(c)
	return string(b)
}

func clearLocations(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Name() == "location":
			m.Clear(fd)
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				clearLocations(l.Get(i).Message())
			}
		case fd.Message() != nil && !fd.IsMap():
			clearLocations(v.Message())
		}
		return true
	})
}
