package value

import (
	"strconv"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Network kinds. An inet or cidr points at bytes ordered as PostgreSQL's
// btree orders it (family, then network, then mask length, then
// address): the family (2 for IPv4, 3 for IPv6, PostgreSQL's numbers),
// the address with the bits right of the mask cleared, the mask length,
// then the address itself. Bytewise order of these bytes is that order
// (a shorter network that is a prefix of a longer one clears to the same
// or a smaller address, and its shorter mask then decides), so Compare
// and the key encoding treat them as strings. A macaddr points at its 6
// octets, a macaddr8 at its 8, both ordered bytewise.

// IsNetwork reports whether k is inet, cidr, macaddr or macaddr8.
func (k Kind) IsNetwork() bool { return k >= Inet && k <= MacAddr8 }

// InetType, CidrType, MacAddrType and MacAddr8Type have no modifier.
var (
	InetType     = Type{Inet, -1}
	CidrType     = Type{Cidr, -1}
	MacAddrType  = Type{MacAddr, -1}
	MacAddr8Type = Type{MacAddr8, -1}
)

// NewInet returns an inet or cidr (kind k) of the address addr (4 or 16
// bytes) with a mask of bits bits; a cidr's caller has cleared the bits
// right of the mask.
func NewInet(k Kind, addr []byte, bits int) Value {
	b := make([]byte, 2+2*len(addr))
	b[0] = 2
	if len(addr) == 16 {
		b[0] = 3
	}
	net := b[1 : 1+len(addr)]
	copy(net, addr)
	clearHostBits(net, bits)
	b[1+len(addr)] = byte(bits)
	copy(b[2+len(addr):], addr)
	return Value{kind: k, p: unsafe.Pointer(unsafe.SliceData(b)), n: int64(len(b))}
}

// Inet returns an inet's or cidr's address (4 or 16 bytes, not to be
// modified) and mask length.
func (v Value) Inet() (addr []byte, bits int) {
	s := v.Str()
	n := (len(s) - 2) / 2
	return unsafe.Slice(unsafe.StringData(s[2+n:]), n), int(s[1+n])
}

// NewMacAddr returns a macaddr (6 octets) or macaddr8 (8 octets).
func NewMacAddr(b []byte) Value {
	k := MacAddr
	if len(b) == 8 {
		k = MacAddr8
	}
	s := string(b)
	return Value{kind: k, p: unsafe.Pointer(unsafe.StringData(s)), n: int64(len(s))}
}

// clearHostBits zeroes the bits of addr right of the first bits.
func clearHostBits(addr []byte, bits int) {
	for i := range addr {
		switch {
		case bits >= 8*(i+1):
		case bits <= 8*i:
			addr[i] = 0
		default:
			addr[i] &= byte(0xff << (8 - (bits - 8*i)))
		}
	}
}

// hostBitsClear reports whether addr has no bit set right of the first bits.
func hostBitsClear(addr []byte, bits int) bool {
	for i, b := range addr {
		switch {
		case bits >= 8*(i+1):
		case bits <= 8*i:
			if b != 0 {
				return false
			}
		default:
			if b&^byte(0xff<<(8-(bits-8*i))) != 0 {
				return false
			}
		}
	}
	return true
}

// parseInet is PostgreSQL's inet_in and cidr_in: an IPv4 address (for
// inet, whole octets up to the mask; for cidr, fewer octets, the mask
// then guessed from the address's class) or an IPv6 address, optionally
// followed by /bits. A cidr with bits right of its mask is refused.
func parseInet(s string, k Kind) (Value, error) {
	bad := func() (Value, error) {
		return Null, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type %s: \"%s\"", k, s)
	}
	var addr []byte
	var bits int
	var ok bool
	if containsByte(s, ':') {
		addr, bits, ok = parseIPv6(s)
	} else {
		addr, bits, ok = parseIPv4(s, k == Cidr)
	}
	if !ok {
		return bad()
	}
	if k == Cidr && !hostBitsClear(addr, bits) {
		return Null, &pgerr.Error{Code: pgerr.InvalidTextRep, Message: "invalid cidr value: \"" + s + "\"",
			Detail: "Value has bits set to right of mask."}
	}
	return NewInet(k, addr, bits), nil
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// parseMaskLen reads "/bits" at the end of s, at most max; it returns s
// without it, bits -1 if absent.
func parseMaskLen(s string, max int) (rest string, bits int, ok bool) {
	i := len(s)
	for i > 0 && s[i-1] != '/' {
		i--
	}
	if i == 0 {
		return s, -1, true
	}
	d := s[i:]
	if d == "" || len(d) > 3 {
		return s, 0, false
	}
	for j := 0; j < len(d); j++ {
		if !isDigit(d[j]) {
			return s, 0, false
		}
		bits = bits*10 + int(d[j]-'0')
	}
	return s[:i-1], bits, bits <= max
}

// parseIPv4 is PostgreSQL's inet_net_pton_ipv4 (inet) and
// inet_cidr_pton_ipv4 (cidr) for decimal octets.
func parseIPv4(s string, cidr bool) ([]byte, int, bool) {
	s, bits, ok := parseMaskLen(s, 32)
	if !ok || s == "" {
		return nil, 0, false
	}
	addr := make([]byte, 4)
	n := 0
	for {
		if n == 4 || s == "" || !isDigit(s[0]) {
			return nil, 0, false
		}
		v := 0
		for s != "" && isDigit(s[0]) {
			v = v*10 + int(s[0]-'0')
			if v > 255 {
				return nil, 0, false
			}
			s = s[1:]
		}
		addr[n] = byte(v)
		n++
		if s == "" {
			break
		}
		if s[0] != '.' {
			return nil, 0, false
		}
		s = s[1:]
	}
	if !cidr {
		switch {
		case bits == -1 && n == 4:
			bits = 32
		case bits == -1 || bits/8 > n:
			return nil, 0, false
		}
		return addr, bits, true
	}
	if bits == -1 {
		switch a := addr[0]; {
		case a >= 240:
			bits = 32
		case a >= 224:
			bits = 8
		case a >= 192:
			bits = 24
		case a >= 128:
			bits = 16
		default:
			bits = 8
		}
		if bits < 8*n {
			bits = 8 * n
		}
		if bits == 8 && addr[0] == 224 {
			bits = 4
		}
	}
	return addr, bits, true
}

// parseIPv6 reads an IPv6 address, with :: for a run of zero groups and
// an IPv4 address as its last 32 bits, and an optional /bits.
func parseIPv6(s string) ([]byte, int, bool) {
	s, bits, ok := parseMaskLen(s, 128)
	if !ok {
		return nil, 0, false
	}
	if bits == -1 {
		bits = 128
	}
	addr := make([]byte, 16)
	n, gap := 0, -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		gap, s = 0, s[2:]
	} else if s != "" && s[0] == ':' {
		return nil, 0, false
	}
	for s != "" {
		j := 0
		for j < len(s) && j < 5 && hexOK(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '.' {
			// An IPv4 address ends it.
			if n > 12 || !parseEmbeddedIPv4(s, addr[n:n+4]) {
				return nil, 0, false
			}
			n += 4
			s = ""
			break
		}
		if j == 0 || j > 4 || n == 16 {
			return nil, 0, false
		}
		v, _ := strconv.ParseUint(s[:j], 16, 16)
		addr[n], addr[n+1] = byte(v>>8), byte(v)
		n += 2
		s = s[j:]
		if s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return nil, 0, false
		}
		s = s[1:]
		if s[0] == ':' {
			if gap >= 0 {
				return nil, 0, false
			}
			gap, s = n, s[1:]
		}
	}
	if gap >= 0 {
		if n == 16 {
			return nil, 0, false
		}
		copy(addr[16-(n-gap):], addr[gap:n])
		clear(addr[gap : 16-(n-gap)])
	} else if n != 16 {
		return nil, 0, false
	}
	return addr, bits, true
}

// parseEmbeddedIPv4 reads the IPv4 tail of an IPv6 address into dst as
// PostgreSQL's getv4 does: one to four decimal octets without leading
// zeros, the octets left out zero.
func parseEmbeddedIPv4(s string, dst []byte) bool {
	n := 0
	for {
		if n == 4 || s == "" || !isDigit(s[0]) || len(s) > 1 && s[0] == '0' && isDigit(s[1]) {
			return false
		}
		v := 0
		for s != "" && isDigit(s[0]) {
			v = v*10 + int(s[0]-'0')
			if v > 255 {
				return false
			}
			s = s[1:]
		}
		dst[n] = byte(v)
		n++
		if s == "" {
			return true
		}
		if s[0] != '.' {
			return false
		}
		s = s[1:]
	}
}

func hexOK(c byte) bool {
	_, ok := hexDigit(c)
	return ok
}

// appendInet writes inet_out's form, or cidr_out's: the address, then
// /bits unless an inet's mask covers the whole address.
func appendInet(buf []byte, v Value) []byte {
	addr, bits := v.Inet()
	buf = appendIPAddr(buf, addr)
	if v.kind == Cidr || bits != 8*len(addr) {
		buf = append(buf, '/')
		buf = strconv.AppendInt(buf, int64(bits), 10)
	}
	return buf
}

// appendIPAddr writes an address as PostgreSQL's inet_net_ntop does: IPv4
// as four octets; IPv6 in hexadecimal groups, the first longest run of at
// least two zero groups as ::, and the last 32 bits as IPv4 when the
// address is IPv4-compatible or IPv4-mapped.
func appendIPAddr(buf []byte, addr []byte) []byte {
	if len(addr) == 4 {
		for i, b := range addr {
			if i > 0 {
				buf = append(buf, '.')
			}
			buf = strconv.AppendInt(buf, int64(b), 10)
		}
		return buf
	}
	var w [8]uint16
	for i := range w {
		w[i] = uint16(addr[2*i])<<8 | uint16(addr[2*i+1])
	}
	best, bestLen, cur, curLen := -1, 0, -1, 0
	for i, x := range w {
		if x == 0 {
			if cur < 0 {
				cur, curLen = i, 0
			}
			curLen++
			if curLen > bestLen {
				best, bestLen = cur, curLen
			}
		} else {
			cur = -1
		}
	}
	if bestLen < 2 {
		best = -1
	}
	for i := 0; i < 8; i++ {
		if best >= 0 && i >= best && i < best+bestLen {
			if i == best {
				buf = append(buf, ':')
			}
			continue
		}
		if i > 0 {
			buf = append(buf, ':')
		}
		if i == 6 && best == 0 && (bestLen == 6 || (bestLen == 5 && w[5] == 0xffff)) {
			return appendIPAddr(buf, addr[12:])
		}
		buf = strconv.AppendUint(buf, uint64(w[i]), 16)
	}
	if best >= 0 && best+bestLen == 8 {
		buf = append(buf, ':')
	}
	return buf
}

// appendInetFull writes text(inet)'s form: always with /bits.
func appendInetFull(buf []byte, v Value) []byte {
	addr, bits := v.Inet()
	buf = appendIPAddr(buf, addr)
	buf = append(buf, '/')
	return strconv.AppendInt(buf, int64(bits), 10)
}

// macAddrLayouts are macaddr_in's sscanf formats, tried in turn: x is
// %x (any number of digits), X is %2x.
var macAddrLayouts = [...]string{"x:x:x:x:x:x", "x-x-x-x-x-x", "XXX:XXX", "XXX-XXX", "XX.XX.XX", "XX-XX-XX", "XXXXXX"}

// parseMacAddr is PostgreSQL's macaddr_in: six hexadecimal octets in one
// of macAddrLayouts, read as C's sscanf reads them (spaces before each
// number and at the end, a sign, a 0x prefix); an octet over 255 is 22003.
func parseMacAddr(s string) (Value, error) {
	for _, l := range macAddrLayouts {
		if b, ok := scanHex(s, l); ok {
			out := make([]byte, 6)
			for i, v := range b {
				if v > 255 {
					return Null, pgerr.New(pgerr.NumericOutOfRange, "invalid octet value in \"macaddr\" value: \"%s\"", s)
				}
				out[i] = byte(v)
			}
			return NewMacAddr(out), nil
		}
	}
	return Null, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type macaddr: \"%s\"", s)
}

// scanHex reads s as sscanf(s, layout "%1s") with 6 numbers read, nothing
// but spaces after them.
func scanHex(s, layout string) ([]uint64, bool) {
	var out []uint64
	for i := 0; i < len(layout); i++ {
		c := layout[i]
		if c != 'x' && c != 'X' {
			if s == "" || s[0] != c {
				return nil, false
			}
			s = s[1:]
			continue
		}
		s = trimLeadingSpaces(s)
		width := len(s)
		if c == 'X' {
			width = min(2, width)
		}
		t := s[:width]
		neg := false
		if t != "" && (t[0] == '+' || t[0] == '-') {
			neg, t = t[0] == '-', t[1:]
		}
		if len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && hexOK(t[2]) {
			t = t[2:]
		}
		var v uint64
		j := 0
		for j < len(t) && hexOK(t[j]) {
			d, _ := hexDigit(t[j])
			if v < 1<<56 {
				v = v<<4 | uint64(d)
			}
			j++
		}
		if j == 0 {
			return nil, false
		}
		if neg && v != 0 {
			v = 1 << 32 // out of range, as a negative octet is
		}
		s = s[width-len(t)+j:]
		out = append(out, v)
	}
	return out, trimLeadingSpaces(s) == ""
}

// parseMacAddr8 is PostgreSQL's macaddr8_in: after leading spaces, pairs
// of hex digits, each optionally followed by one separator (:, - or .,
// the same throughout); spaces may end the input after 6 or 8 octets.
// 6 octets become an EUI-64 with FF:FE in the middle.
func parseMacAddr8(s string) (Value, error) {
	bad := func() (Value, error) {
		return Null, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type macaddr8: \"%s\"", s)
	}
	t := trimLeadingSpaces(s)
	var b []byte
	var sep byte
	for len(t) >= 2 {
		hi, ok1 := hexDigit(t[0])
		lo, ok2 := hexDigit(t[1])
		if !ok1 || !ok2 || len(b) == 8 {
			return bad()
		}
		b = append(b, hi<<4|lo)
		t = t[2:]
		if t != "" && (t[0] == ':' || t[0] == '-' || t[0] == '.') {
			if sep != 0 && sep != t[0] {
				return bad()
			}
			sep, t = t[0], t[1:]
		}
		if (len(b) == 6 || len(b) == 8) && t != "" && isSpace(t[0]) {
			if trimLeadingSpaces(t) != "" {
				return bad()
			}
			t = ""
		}
	}
	switch len(b) {
	case 6:
		b = []byte{b[0], b[1], b[2], 0xff, 0xfe, b[3], b[4], b[5]}
	case 8:
	default:
		return bad()
	}
	return NewMacAddr(b), nil
}

func trimLeadingSpaces(s string) string {
	for s != "" && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}

// appendMacAddr writes macaddr_out's and macaddr8_out's form: lowercase
// octets separated by colons.
func appendMacAddr(buf []byte, v Value) []byte {
	s := v.Str()
	for i := 0; i < len(s); i++ {
		if i > 0 {
			buf = append(buf, ':')
		}
		buf = append(buf, hexDigits[s[i]>>4], hexDigits[s[i]&15])
	}
	return buf
}

// castNetwork converts among the network kinds: cidr to inet keeps the
// value, inet to cidr clears the host bits, macaddr to macaddr8 inserts
// FF:FE, and macaddr8 to macaddr needs those there.
func castNetwork(v Value, to Kind) (Value, error) {
	switch {
	case v.kind == Cidr && to == Inet, v.kind == Inet && to == Cidr:
		addr, bits := v.Inet()
		a := append([]byte(nil), addr...)
		if to == Cidr {
			clearHostBits(a, bits)
		}
		return NewInet(to, a, bits), nil
	case v.kind == MacAddr && to == MacAddr8:
		s := v.Str()
		return NewMacAddr([]byte{s[0], s[1], s[2], 0xff, 0xfe, s[3], s[4], s[5]}), nil
	case v.kind == MacAddr8 && to == MacAddr:
		s := v.Str()
		if s[3] != 0xff || s[4] != 0xfe {
			return Null, &pgerr.Error{Code: pgerr.NumericOutOfRange, Message: "macaddr8 data out of range to convert to macaddr",
				Hint: "Only addresses that have FF and FE as values in the 4th and 5th bytes from the left, for example xx:xx:xx:ff:fe:xx:xx:xx, are eligible to be converted from macaddr8 to macaddr."}
		}
		return NewMacAddr([]byte{s[0], s[1], s[2], s[5], s[6], s[7]}), nil
	}
	return Null, errCannotCast(v.kind, to)
}
