package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// pg_get_partition_constraintdef(oid): a partition's constraint as
// PostgreSQL prints it (psql's \d+ of a partition shows it as "Partition
// constraint:"), its bounds' conditions and those of the partitions above
// it, for a RANGE or LIST key of one column of a type whose constants
// print simply, a default partition's too (NOT its siblings'). A hash
// partition, a key of several columns or an expression, or another type,
// is given as "" (its call is 0A000): PostgreSQL's text for them rests on
// its operators' casts and its support functions.

// partitionConstraints are the partitions' constraint texts by oid.
func (o *catalogObjects) partitionConstraints() map[uint32]string {
	out := map[uint32]string{}
	for _, r := range o.rels {
		if r.part == nil {
			continue
		}
		var conj []string
		ok := true
		for q := r.part; q != nil && ok; q = o.e.parts[q.parent] {
			var c []string
			c, ok = o.e.boundConjuncts(q)
			conj = append(c, conj...)
		}
		switch {
		case !ok:
			out[r.oid] = ""
		case len(conj) == 0: // a default partition alone: none, NULL
		case len(conj) == 1:
			out[r.oid] = conj[0]
		default:
			out[r.oid] = "(" + strings.Join(conj, " AND ") + ")"
		}
	}
	return out
}

// boundConjuncts are the conditions of p's bound; ok is false for a
// bound this does not print.
func (e *Engine) boundConjuncts(p *partition) ([]string, bool) {
	kids, key, root := e.partitionsOf(p.parent)
	b := &p.def.PartitionOf.Bound
	if key == nil || len(key.Exprs) != 1 || b.Modulus > 0 {
		return nil, false
	}
	c, isCol := key.Exprs[0].(*expr.Col)
	if !isCol || root == nil || c.Idx >= len(root.cols) {
		return nil, false
	}
	col := expr.QuoteIdent(root.cols[c.Idx].Name)
	lit := func(v value.Value) (string, bool) { return constraintConst(v, root.cols[c.Idx].Type.Kind) }
	notNull := "(" + col + " IS NOT NULL)"
	if b.Default {
		return defaultConjuncts(*kids, key.Strategy, col, lit)
	}
	if b.From != nil {
		r, ok := rangeConjuncts(b, col, lit)
		return append([]string{notNull}, r...), ok
	}
	return listConjuncts(b.In, col, lit)
}

// rangeConjuncts are the comparisons of a RANGE bound b of one column,
// without its NOT NULL test.
func rangeConjuncts(b *expr.PartitionBound, col string, lit func(value.Value) (string, bool)) ([]string, bool) {
	if len(b.From) != 1 || len(b.To) != 1 {
		return nil, false
	}
	var out []string
	if b.From[0].Inf == 0 {
		s, ok := lit(b.From[0].V)
		if !ok {
			return nil, false
		}
		out = append(out, "("+col+" >= "+s+")")
	}
	if b.To[0].Inf == 0 {
		s, ok := lit(b.To[0].V)
		if !ok {
			return nil, false
		}
		out = append(out, "("+col+" < "+s+")")
	}
	return out, true
}

// listConjuncts are the conditions of a LIST bound of values in.
func listConjuncts(in []value.Value, col string, lit func(value.Value) (string, bool)) ([]string, bool) {
	var vals []string
	null := false
	for _, v := range in {
		if v.IsNull() {
			null = true
			continue
		}
		s, ok := lit(v)
		if !ok {
			return nil, false
		}
		vals = append(vals, s)
	}
	var eq string
	switch len(vals) {
	case 0:
		return []string{"(" + col + " IS NULL)"}, true
	case 1:
		eq = "(" + col + " = " + vals[0] + ")"
	default:
		eq = "(" + col + " = ANY (ARRAY[" + strings.Join(vals, ", ") + "]))"
	}
	if null {
		return []string{"((" + col + " IS NULL) OR " + eq + ")"}, true
	}
	return []string{"(" + col + " IS NOT NULL)", eq}, true
}

// defaultConjuncts is a default partition's condition, as PostgreSQL's
// get_qual_for_list and get_qual_for_range make it: NOT the conditions
// of its siblings, a LIST's values sorted as its bound info keeps them,
// a RANGE's siblings in the order of their bounds; none when it has no
// sibling.
func defaultConjuncts(kids []*partition, strategy byte, col string, lit func(value.Value) (string, bool)) ([]string, bool) {
	var sibs []*expr.PartitionBound
	for _, k := range kids {
		if b := &k.def.PartitionOf.Bound; !b.Default {
			sibs = append(sibs, b)
		}
	}
	and := func(c []string) string {
		if len(c) == 1 {
			return c[0]
		}
		return "(" + strings.Join(c, " AND ") + ")"
	}
	if strategy != expr.PartitionRange {
		var in []value.Value
		for _, b := range sibs {
			in = append(in, b.In...)
		}
		if len(in) == 0 {
			return nil, true
		}
		slices.SortStableFunc(in, func(x, y value.Value) int {
			switch {
			case x.IsNull() || y.IsNull():
				return btoi(x.IsNull()) - btoi(y.IsNull())
			}
			return value.Compare(x, y)
		})
		c, ok := listConjuncts(in, col, lit)
		if !ok {
			return nil, false
		}
		return []string{"(NOT " + and(c) + ")"}, true
	}
	if len(sibs) == 0 {
		return nil, true
	}
	slices.SortStableFunc(sibs, func(x, y *expr.PartitionBound) int {
		if len(x.From) != 1 || len(y.From) != 1 || x.From[0].Inf != 0 || y.From[0].Inf != 0 {
			return int(x.From[0].Inf) - int(y.From[0].Inf)
		}
		return value.Compare(x.From[0].V, y.From[0].V)
	})
	var ors []string
	for _, b := range sibs {
		c, ok := rangeConjuncts(b, col, lit)
		if !ok || len(c) == 0 {
			return nil, false
		}
		ors = append(ors, and(c))
	}
	or := ors[0]
	if len(ors) > 1 {
		or = "(" + strings.Join(ors, " OR ") + ")"
	}
	return []string{"(NOT ((" + col + " IS NOT NULL) AND " + or + "))"}, true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// constraintConst prints a constant of a key of kind k as PostgreSQL's
// ruleutils does: an integer or numeric bare unless negative, a boolean
// bare, any other as a string literal cast to its type.
func constraintConst(v value.Value, k value.Kind) (string, bool) {
	s := string(value.AppendText(nil, v))
	typ := map[value.Kind]string{value.Int2: "smallint", value.Int4: "integer", value.Int8: "bigint", value.Numeric: "numeric",
		value.Float4: "real", value.Float8: "double precision", value.Text: "text", value.Date: "date",
		value.Timestamp: "timestamp without time zone", value.TimestampTZ: "timestamp with time zone",
		value.Time: "time without time zone", value.Interval: "interval"}[k]
	switch {
	case k == value.Bool:
		if v.Bool() {
			return "true", true
		}
		return "false", true
	case typ == "":
		return "", false
	case (k == value.Int4 || k == value.Numeric) && !strings.HasPrefix(s, "-") && s != "NaN" && !strings.Contains(s, "Infinity"):
		return s, true
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'::" + typ, true
}
