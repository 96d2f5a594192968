package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// Partition strategies, as pg_partitioned_table.partstrat spells them.
const (
	PartitionRange = 'r'
	PartitionList  = 'l'
	PartitionHash  = 'h'
)

// PartitionKey is how a partitioned table places its rows: the strategy
// and the key, each element a column or an expression over the table's
// row.
type PartitionKey struct {
	Strategy byte
	Exprs    []Expr
	// SQL is each key element as PostgreSQL prints it: a column's name,
	// an expression in parentheses.
	SQL []string
}

// Key evaluates the key of row into buf.
func (k *PartitionKey) Key(row value.Row, buf []value.Value) ([]value.Value, error) {
	buf = buf[:0]
	for _, e := range k.Exprs {
		if c, ok := e.(*Col); ok {
			buf = append(buf, row[c.Idx])
			continue
		}
		v, err := e.Eval(row)
		if err != nil {
			return nil, err
		}
		buf = append(buf, v)
	}
	return buf, nil
}

// RangeDatum is one column of a range bound: a value, or MINVALUE (-1)
// or MAXVALUE (+1).
type RangeDatum struct {
	Inf int8
	V   value.Value
}

// PartitionBound is a partition's FOR VALUES clause, its values cast to
// the key's types.
type PartitionBound struct {
	Default  bool
	From, To []RangeDatum // RANGE
	In       []value.Value
	// Modulus and Remainder are a HASH partition's.
	Modulus, Remainder int
}

// rangeCmp compares a key with a range bound as PostgreSQL does: column
// by column, an infinite bound datum deciding at once.
func rangeCmp(key []value.Value, b []RangeDatum) int {
	for i, d := range b {
		if d.Inf != 0 {
			return -int(d.Inf)
		}
		if c := value.Compare(key[i], d.V); c != 0 {
			return c
		}
	}
	return 0
}

// RangeBoundCmp compares two range bounds (a lower or an upper bound each).
func RangeBoundCmp(a, b []RangeDatum) int {
	for i := range a {
		if a[i].Inf != 0 || b[i].Inf != 0 {
			if a[i].Inf != b[i].Inf {
				if a[i].Inf < b[i].Inf {
					return -1
				}
				return 1
			}
			return 0
		}
		if c := value.Compare(a[i].V, b[i].V); c != 0 {
			return c
		}
	}
	return 0
}

// Accepts reports whether a partition with bound b, not the default,
// holds a row of key (PostgreSQL's partition constraint).
func (b *PartitionBound) Accepts(strategy byte, key []value.Value) bool {
	switch strategy {
	case PartitionList:
		for _, v := range b.In {
			if v.IsNull() && key[0].IsNull() || !v.IsNull() && !key[0].IsNull() && value.Compare(v, key[0]) == 0 {
				return true
			}
		}
		return false
	case PartitionHash:
		return HashPartitionRemainder(key, b.Modulus) == b.Remainder
	}
	for _, v := range key {
		if v.IsNull() {
			return false
		}
	}
	return rangeCmp(key, b.From) >= 0 && rangeCmp(key, b.To) < 0
}

// PartitionLevel is one level of a partition's constraint: the
// partitioned table's key and the bound of the partition (or of its
// ancestor) at that level; for a default partition, the bounds of its
// siblings, whose rows it does not hold.
type PartitionLevel struct {
	Key      *PartitionKey
	Bound    *PartitionBound
	Siblings []*PartitionBound
}

// accepts reports whether the level takes the row.
func (l *PartitionLevel) accepts(row value.Row) (bool, error) {
	var arr [4]value.Value
	key, err := l.Key.Key(row, arr[:0])
	if err != nil {
		return false, err
	}
	if !l.Bound.Default {
		return l.Bound.Accepts(l.Key.Strategy, key), nil
	}
	for _, s := range l.Siblings {
		if s.Accepts(l.Key.Strategy, key) {
			return false, nil
		}
	}
	return true, nil
}

// PartitionOf is true when a row of the root partitioned table belongs
// to a partition: it keeps the partition's constraint, one level per
// partitioned table from the root down, fixed when the statement was
// bound.
type PartitionOf struct {
	Name   string
	Levels []PartitionLevel
	// None accepts no row: ONLY a partitioned table, which keeps none.
	None bool
}

// Type implements Expr.
func (*PartitionOf) Type() value.Type { return value.BoolType }

// Volatile implements Expr.
func (*PartitionOf) Volatile() bool { return false }
func (*PartitionOf) expr()          {}

// String implements Expr.
func (p *PartitionOf) String() string { return "partition_of(" + p.Name + ")" }

// Eval implements Expr: never NULL.
func (p *PartitionOf) Eval(row value.Row) (value.Value, error) {
	ok, err := p.Accepts(row)
	return value.NewBool(ok), err
}

// Accepts reports whether the partition holds row.
func (p *PartitionOf) Accepts(row value.Row) (bool, error) {
	if p.None {
		return false, nil
	}
	for i := range p.Levels {
		ok, err := p.Levels[i].accepts(row)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// KeyText is the key of row as PostgreSQL's DETAIL prints it:
// "(a, b) = (1, x)".
func (k *PartitionKey) KeyText(row value.Row) string {
	key, err := k.Key(row, nil)
	if err != nil {
		return ""
	}
	vals := make([]string, len(key))
	for i, v := range key {
		if v.IsNull() {
			vals[i] = "null"
		} else {
			vals[i] = string(value.AppendText(nil, v))
		}
	}
	return "(" + strings.Join(k.SQL, ", ") + ") = (" + strings.Join(vals, ", ") + ")"
}
