package value

import (
	"math/big"
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The network types' functions and operators, computed as PostgreSQL's
// network.c and mac.c compute them.

// inetParts copies an inet's address, to be changed, with its mask length.
func inetParts(v Value) ([]byte, int) {
	addr, bits := v.Inet()
	return append([]byte(nil), addr...), bits
}

// InetFamily is family(inet): 4 or 6.
func InetFamily(v Value) int64 {
	if addr, _ := v.Inet(); len(addr) == 16 {
		return 6
	}
	return 4
}

// InetMaskLen is masklen(inet).
func InetMaskLen(v Value) int64 {
	_, bits := v.Inet()
	return int64(bits)
}

// InetHost is host(inet): the address without its mask.
func InetHost(v Value) string {
	addr, _ := v.Inet()
	return string(appendIPAddr(nil, addr))
}

// InetText is text(inet): the address and its mask, always.
func InetText(v Value) string { return string(appendInetFull(nil, v)) }

// InetAbbrev is abbrev(inet) and abbrev(cidr): an inet's output, or a
// cidr's with only the octets (IPv4) or groups (IPv6) its mask covers.
func InetAbbrev(v Value) string {
	addr, bits := v.Inet()
	if v.kind != Cidr {
		return string(appendInet(nil, v))
	}
	if len(addr) == 16 {
		return abbrevIPv6(addr, bits)
	}
	var buf []byte
	if bits == 0 {
		buf = append(buf, '0')
	}
	for i := 0; i < bits/8; i++ {
		if i > 0 {
			buf = append(buf, '.')
		}
		buf = strconv.AppendInt(buf, int64(addr[i]), 10)
	}
	if b := bits % 8; b > 0 {
		if len(buf) > 0 {
			buf = append(buf, '.')
		}
		buf = strconv.AppendInt(buf, int64(addr[bits/8]&byte(0xff<<(8-b))), 10)
	}
	buf = append(buf, '/')
	return string(strconv.AppendInt(buf, int64(bits), 10))
}

// maskBytes returns the netmask of bits bits over n bytes.
func maskBytes(n, bits int) []byte {
	m := make([]byte, n)
	for i := range m {
		m[i] = 0xff
	}
	clearHostBits(m, bits)
	return m
}

// InetNetmask is netmask(inet), InetHostmask hostmask(inet): the mask, or
// its complement, as an address with a full mask.
func InetNetmask(v Value, host bool) Value {
	addr, bits := v.Inet()
	m := maskBytes(len(addr), bits)
	if host {
		for i := range m {
			m[i] = ^m[i]
		}
	}
	return NewInet(Inet, m, 8*len(m))
}

// InetNetwork is network(inet): the cidr of the address's network.
func InetNetwork(v Value) Value {
	a, bits := inetParts(v)
	clearHostBits(a, bits)
	return NewInet(Cidr, a, bits)
}

// InetBroadcast is broadcast(inet): the address with every host bit set.
func InetBroadcast(v Value) Value {
	a, bits := inetParts(v)
	m := maskBytes(len(a), bits)
	for i := range a {
		a[i] |= ^m[i]
	}
	return NewInet(Inet, a, bits)
}

// InetSetMaskLen is set_masklen: -1 means the whole address; a cidr's
// host bits are cleared.
func InetSetMaskLen(v Value, n int64) (Value, error) {
	a, _ := inetParts(v)
	if n == -1 {
		n = int64(8 * len(a))
	}
	if n < 0 || n > int64(8*len(a)) {
		return Null, pgerr.New(pgerr.InvalidParameter, "invalid mask length: %d", n)
	}
	if v.kind == Cidr {
		clearHostBits(a, int(n))
	}
	return NewInet(v.kind, a, int(n)), nil
}

// InetSameFamily is inet_same_family.
func InetSameFamily(a, b Value) bool { return InetFamily(a) == InetFamily(b) }

// prefixEqual reports whether a and b agree on their first bits bits.
func prefixEqual(a, b []byte, bits int) bool {
	n := bits / 8
	if string(a[:n]) != string(b[:n]) {
		return false
	}
	r := bits % 8
	return r == 0 || (a[n]^b[n])&byte(0xff<<(8-r)) == 0
}

// InetContains is a >> b (strict) or a >>= b: b's network lies within a's.
func InetContains(a, b Value, strict bool) bool {
	x, xb := a.Inet()
	y, yb := b.Inet()
	if len(x) != len(y) || yb < xb || strict && yb == xb {
		return false
	}
	return prefixEqual(x, y, xb)
}

// InetOverlaps is a && b: either network contains the other.
func InetOverlaps(a, b Value) bool {
	x, xb := a.Inet()
	y, yb := b.Inet()
	return len(x) == len(y) && prefixEqual(x, y, min(xb, yb))
}

// InetMerge is inet_merge: the smallest network holding both.
func InetMerge(a, b Value) (Value, error) {
	x, xb := a.Inet()
	y, yb := b.Inet()
	if len(x) != len(y) {
		return Null, pgerr.New(pgerr.InvalidParameter, "cannot merge addresses from different families")
	}
	n := 0
	for n < min(xb, yb) && (x[n/8]^y[n/8])&(0x80>>(n%8)) == 0 {
		n++
	}
	r := append([]byte(nil), x...)
	clearHostBits(r, n)
	return NewInet(Cidr, r, n), nil
}

// InetNot is ~inet.
func InetNot(v Value) Value {
	a, bits := inetParts(v)
	for i := range a {
		a[i] = ^a[i]
	}
	return NewInet(Inet, a, bits)
}

// InetAndOr is inet & inet (or) or inet | inet (or): the mask length is
// the larger.
func InetAndOr(a, b Value, or bool) (Value, error) {
	x, xb := inetParts(a)
	y, yb := b.Inet()
	if len(x) != len(y) {
		if or {
			return Null, pgerr.New(pgerr.InvalidParameter, "cannot OR inet values of different sizes")
		}
		return Null, pgerr.New(pgerr.InvalidParameter, "cannot AND inet values of different sizes")
	}
	for i := range x {
		if or {
			x[i] |= y[i]
		} else {
			x[i] &= y[i]
		}
	}
	return NewInet(Inet, x, max(xb, yb)), nil
}

// InetPlus is inet + bigint (and inet - bigint, with n negated).
func InetPlus(v Value, n *big.Int) (Value, error) {
	addr, bits := v.Inet()
	s := new(big.Int).SetBytes(addr)
	s.Add(s, n)
	if s.Sign() < 0 || s.BitLen() > 8*len(addr) {
		return Null, pgerr.New(pgerr.NumericOutOfRange, "result is out of range")
	}
	r := make([]byte, len(addr))
	s.FillBytes(r)
	return NewInet(v.kind, r, bits), nil
}

// InetMinus is inet - inet: the difference of the addresses.
func InetMinus(a, b Value) (int64, error) {
	x, _ := a.Inet()
	y, _ := b.Inet()
	if len(x) != len(y) {
		return 0, pgerr.New(pgerr.InvalidParameter, "cannot subtract inet values of different sizes")
	}
	d := new(big.Int).Sub(new(big.Int).SetBytes(x), new(big.Int).SetBytes(y))
	if !d.IsInt64() {
		return 0, pgerr.New(pgerr.NumericOutOfRange, "result is out of range")
	}
	return d.Int64(), nil
}

// MacTrunc is trunc(macaddr) and trunc(macaddr8): the manufacturer's
// first 3 octets, the rest zero.
func MacTrunc(v Value) Value {
	b := []byte(v.Str())
	clear(b[3:])
	return NewMacAddr(b)
}

// MacSet7Bit is macaddr8_set7bit: the universal/local bit set.
func MacSet7Bit(v Value) Value {
	b := []byte(v.Str())
	b[0] |= 0x02
	return NewMacAddr(b)
}

// MacNot is ~macaddr; MacAndOr is macaddr & macaddr and macaddr | macaddr.
func MacNot(v Value) Value {
	b := []byte(v.Str())
	for i := range b {
		b[i] = ^b[i]
	}
	return NewMacAddr(b)
}

// MacAndOr is & (or false) and | (or true) of two macaddrs or macaddr8s.
func MacAndOr(a, b Value, or bool) Value {
	x, y := []byte(a.Str()), b.Str()
	for i := range x {
		if or {
			x[i] |= y[i]
		} else {
			x[i] &= y[i]
		}
	}
	return NewMacAddr(x)
}

// abbrevIPv6 is PostgreSQL's inet_cidr_ntop_ipv6: the groups the mask
// covers (two at least), a run of zero groups as :: (the first longest,
// as that function finds it, which forgets a shorter run only when a
// longer one ends), and an IPv4-compatible or IPv4-mapped tail in dotted
// octets, the last left out unless the mask covers it.
func abbrevIPv6(addr []byte, bits int) string {
	if bits == 0 {
		return "::/0"
	}
	words := (bits + 15) / 16
	if words == 1 {
		words = 2
	}
	zs, zl, ts, tl := 0, 0, 0, 0
	for i := 0; i < words; i++ {
		if addr[2*i]|addr[2*i+1] == 0 {
			if tl == 0 {
				ts = i
			}
			tl++
		} else if tl > 0 && zl < tl {
			zs, zl, tl = ts, tl, 0
		}
	}
	if tl > 0 && zl < tl {
		zs, zl = ts, tl
	}
	ipv4 := zl != words && zs == 0 && (zl == 6 || zl == 5 && addr[10] == 0xff && addr[11] == 0xff ||
		zl == 7 && addr[14] != 0 && addr[15] != 1)
	var buf []byte
	for p := 0; p < words; p++ {
		if zl != 0 && p >= zs && p < zs+zl {
			if p == zs {
				buf = append(buf, ':')
			}
			if p == words-1 {
				buf = append(buf, ':')
			}
			continue
		}
		if ipv4 && p > 5 {
			if p == 6 {
				buf = append(buf, ':')
			} else {
				buf = append(buf, '.')
			}
			buf = strconv.AppendInt(buf, int64(addr[2*p]), 10)
			if p != 7 || bits > 120 {
				buf = append(buf, '.')
				buf = strconv.AppendInt(buf, int64(addr[2*p+1]), 10)
			}
			continue
		}
		if len(buf) > 0 {
			buf = append(buf, ':')
		}
		buf = strconv.AppendUint(buf, uint64(addr[2*p])<<8|uint64(addr[2*p+1]), 16)
	}
	buf = append(buf, '/')
	return string(strconv.AppendInt(buf, int64(bits), 10))
}
