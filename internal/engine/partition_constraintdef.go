package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// pg_get_partition_constraintdef(oid): a partition's constraint as
// PostgreSQL prints it (psql's \d+ of a partition shows it as "Partition
// constraint:"), its bounds' conditions and those of the partitions above
// it, for a RANGE or LIST key of one column of a type whose constants
// print simply. A default or hash partition, a key of several columns or
// an expression, or another type, is given as "" (its call is 0A000):
// PostgreSQL's text for them rests on its sibling bounds' order and its
// operators' casts.

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
	_, key, root := e.partitionsOf(p.parent)
	b := &p.def.PartitionOf.Bound
	if key == nil || len(key.Exprs) != 1 || b.Default || b.Modulus > 0 {
		return nil, false
	}
	c, isCol := key.Exprs[0].(*expr.Col)
	if !isCol || root == nil || c.Idx >= len(root.cols) {
		return nil, false
	}
	col := expr.QuoteIdent(root.cols[c.Idx].Name)
	lit := func(v value.Value) (string, bool) { return constraintConst(v, root.cols[c.Idx].Type.Kind) }
	notNull := "(" + col + " IS NOT NULL)"
	if b.From != nil {
		out := []string{notNull}
		if len(b.From) != 1 || len(b.To) != 1 {
			return nil, false
		}
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
	var vals []string
	null := false
	for _, v := range b.In {
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
	var in string
	switch len(vals) {
	case 0:
		return []string{"(" + col + " IS NULL)"}, true
	case 1:
		in = "(" + col + " = " + vals[0] + ")"
	default:
		in = "(" + col + " = ANY (ARRAY[" + strings.Join(vals, ", ") + "]))"
	}
	if null {
		return []string{"((" + col + " IS NULL) OR " + in + ")"}, true
	}
	return []string{notNull, in}, true
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
