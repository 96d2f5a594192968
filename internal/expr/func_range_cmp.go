package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The btree comparison support functions of ranges, multiranges, inet
// and enums (range_cmp, multirange_cmp, network_cmp, enum_cmp), with
// PostgreSQL's numbers: a range's bounds give what the subtype's own
// comparison function gives (btint2cmp's difference for a range over
// smallint), network_cmp the difference of the first bytes or mask
// lengths that differ. Stateless.
func init() {
	strict("network_cmp", kinds(value.Inet, value.Inet), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(networkCmp(a[0], a[1]))), nil
	})
	d := &FuncDef{Name: "enum_cmp", Strict: true, Eval: func(a []value.Value) (value.Value, error) {
		return int4(int64(value.Compare(a[0], a[1]))), nil
	}}
	polyRegister("enum_cmp", []poly{pEnum, pEnum}, intResult, func(value.Kind) *FuncDef { return d })
}

// rangeCmpFuncs gives add range_cmp of the range kind k, or
// multirange_cmp of the multirange kind k.
func rangeCmpFuncs(k value.Kind, add func(*FuncDef)) {
	name, f := "range_cmp", rangeTypeCmp
	if k.IsMultirange() {
		name, f = "multirange_cmp", multirangeCmp
	}
	add(&FuncDef{Name: name, Strict: true, Params: kinds(k, k), Result: value.Int4Type,
		Eval: func(a []value.Value) (value.Value, error) { return int4(int64(f(a[0], a[1]))), nil }})
}

// rangeTypeCmp is range_cmp: an empty range first, then by the lower
// bounds, then by the upper ones.
func rangeTypeCmp(a, b value.Value) int {
	ea, eb := a.IsEmptyRange(), b.IsEmptyRange()
	switch {
	case ea && eb:
		return 0
	case ea:
		return -1
	case eb:
		return 1
	}
	la, ua := a.RangeBounds()
	lb, ub := b.RangeBounds()
	if c := rangeBoundCmp(la, lb); c != 0 {
		return c
	}
	return rangeBoundCmp(ua, ub)
}

// multirangeCmp is multirange_cmp: range by range, by their bounds, a
// multirange that runs out first being the smaller.
func multirangeCmp(a, b value.Value) int {
	ra, rb := a.Ranges(), b.Ranges()
	for i := range max(len(ra), len(rb)) {
		switch {
		case i >= len(ra):
			return -1
		case i >= len(rb):
			return 1
		}
		if c := rangeTypeCmp(ra[i], rb[i]); c != 0 {
			return c
		}
	}
	return 0
}

// rangeBoundCmp is range_cmp_bounds: an infinite bound before (lower) or
// after (upper) every finite one; finite ones by the subtype's
// comparison, then, when equal, by their inclusivity (an exclusive lower
// bound after an inclusive one, an exclusive upper bound before).
func rangeBoundCmp(a, b value.RangeBound) int {
	side := func(x value.RangeBound) int {
		if x.Lower {
			return -1
		}
		return 1
	}
	switch {
	case a.Inf && b.Inf:
		if a.Lower == b.Lower {
			return 0
		}
		return side(a)
	case a.Inf:
		return side(a)
	case b.Inf:
		return -side(b)
	}
	if c := subtypeCmp(a.Val, b.Val); c != 0 {
		return c
	}
	switch {
	case !a.Inc && !b.Inc:
		if a.Lower == b.Lower {
			return 0
		}
		return -side(a)
	case !a.Inc:
		return -side(a)
	case !b.Inc:
		return side(b)
	}
	return 0
}

// networkCmp is network_cmp: IPv4 before IPv6 (the difference of
// PostgreSQL's family numbers), then the network parts' first differing
// bits over the shorter mask, the mask lengths' difference, and the whole
// addresses, byte-wise differences as memcmp gives them.
func networkCmp(a, b value.Value) int {
	x, xb := a.Inet()
	y, yb := b.Inet()
	if len(x) != len(y) {
		return inetFamily(x) - inetFamily(y)
	}
	if c := bitnCmp(x, y, min(xb, yb)); c != 0 {
		return c
	}
	if xb != yb {
		return xb - yb
	}
	return bitnCmp(x, y, 8*len(x))
}

// inetFamily is PostgreSQL's number of an address's family.
func inetFamily(addr []byte) int {
	if len(addr) == 16 {
		return 3
	}
	return 2
}

// bitnCmp is bitncmp: the first n bits of two addresses, whole bytes by
// memcmp's difference, then the bits left by -1 or 1.
func bitnCmp(x, y []byte, n int) int {
	whole := n / 8
	for i := range whole {
		if x[i] != y[i] {
			return int(x[i]) - int(y[i])
		}
	}
	if n%8 == 0 {
		return 0
	}
	l, r := x[whole], y[whole]
	for range n % 8 {
		if l&0x80 != r&0x80 {
			if l&0x80 != 0 {
				return 1
			}
			return -1
		}
		l, r = l<<1, r<<1
	}
	return 0
}
