package expr

import (
	"math/big"

	"github.com/deltaview/deltaview/internal/value"
)

// The network types' functions, and their operators << <<= >> >>= && & |
// ~ + -, which the binder resolves for inet (a cidr converts to it) and,
// for & | ~, macaddr and macaddr8.
func init() {
	I, C, M, M8 := value.Inet, value.Cidr, value.MacAddr, value.MacAddr8
	it, ct, tt := value.InetType, value.CidrType, value.TextType
	strict("host", kinds(I), tt, func(a []value.Value) (value.Value, error) {
		return value.NewText(value.Text, value.InetHost(a[0])), nil
	})
	strict("text", kinds(I), tt, func(a []value.Value) (value.Value, error) {
		return value.NewText(value.Text, value.InetText(a[0])), nil
	})
	for _, k := range kinds(I, C) {
		strict("abbrev", kinds(k), tt, func(a []value.Value) (value.Value, error) {
			return value.NewText(value.Text, value.InetAbbrev(a[0])), nil
		})
		strict("set_masklen", kinds(k, value.Int4), value.Type{Kind: k, Mod: -1}, func(a []value.Value) (value.Value, error) {
			return value.InetSetMaskLen(a[0], a[1].Int())
		})
	}
	strict("masklen", kinds(I), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int4, value.InetMaskLen(a[0])), nil
	})
	strict("family", kinds(I), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int4, value.InetFamily(a[0])), nil
	})
	strict("netmask", kinds(I), it, func(a []value.Value) (value.Value, error) { return value.InetNetmask(a[0], false), nil })
	strict("hostmask", kinds(I), it, func(a []value.Value) (value.Value, error) { return value.InetNetmask(a[0], true), nil })
	strict("network", kinds(I), ct, func(a []value.Value) (value.Value, error) { return value.InetNetwork(a[0]), nil })
	strict("broadcast", kinds(I), it, func(a []value.Value) (value.Value, error) { return value.InetBroadcast(a[0]), nil })
	strict("inet_same_family", kinds(I, I), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(value.InetSameFamily(a[0], a[1])), nil
	})
	strict("inet_merge", kinds(I, I), ct, func(a []value.Value) (value.Value, error) { return value.InetMerge(a[0], a[1]) })
	test := func(op string, f func(a, b value.Value) bool) {
		rangeOp(op, kinds(I, I), value.BoolType, func(a []value.Value) (value.Value, error) { return value.NewBool(f(a[0], a[1])), nil })
	}
	test("<<", func(a, b value.Value) bool { return value.InetContains(b, a, true) })
	test("<<=", func(a, b value.Value) bool { return value.InetContains(b, a, false) })
	test(">>", func(a, b value.Value) bool { return value.InetContains(a, b, true) })
	test(">>=", func(a, b value.Value) bool { return value.InetContains(a, b, false) })
	test("&&", value.InetOverlaps)
	rangeOp("&", kinds(I, I), it, func(a []value.Value) (value.Value, error) { return value.InetAndOr(a[0], a[1], false) })
	rangeOp("|", kinds(I, I), it, func(a []value.Value) (value.Value, error) { return value.InetAndOr(a[0], a[1], true) })
	strict("~", kinds(I), it, func(a []value.Value) (value.Value, error) { return value.InetNot(a[0]), nil })
	rangeOp("+", kinds(I, value.Int8), it, func(a []value.Value) (value.Value, error) {
		return value.InetPlus(a[0], big.NewInt(a[1].Int()))
	})
	rangeOp("+", kinds(value.Int8, I), it, func(a []value.Value) (value.Value, error) {
		return value.InetPlus(a[1], big.NewInt(a[0].Int()))
	})
	rangeOp("-", kinds(I, value.Int8), it, func(a []value.Value) (value.Value, error) {
		return value.InetPlus(a[0], new(big.Int).Neg(big.NewInt(a[1].Int())))
	})
	rangeOp("-", kinds(I, I), value.Int8Type, func(a []value.Value) (value.Value, error) {
		d, err := value.InetMinus(a[0], a[1])
		return value.NewInt(value.Int8, d), err
	})
	for _, k := range kinds(M, M8) {
		t := value.Type{Kind: k, Mod: -1}
		strict("trunc", kinds(k), t, func(a []value.Value) (value.Value, error) { return value.MacTrunc(a[0]), nil })
		strict("~", kinds(k), t, func(a []value.Value) (value.Value, error) { return value.MacNot(a[0]), nil })
		rangeOp("&", kinds(k, k), t, func(a []value.Value) (value.Value, error) { return value.MacAndOr(a[0], a[1], false), nil })
		rangeOp("|", kinds(k, k), t, func(a []value.Value) (value.Value, error) { return value.MacAndOr(a[0], a[1], true), nil })
	}
	strict("macaddr8_set7bit", kinds(M8), value.MacAddr8Type, func(a []value.Value) (value.Value, error) {
		return value.MacSet7Bit(a[0]), nil
	})
}
