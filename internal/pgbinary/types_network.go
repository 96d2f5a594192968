package pgbinary

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's OIDs of inet, cidr, macaddr and macaddr8.
const (
	oidInet     = 869
	oidCidr     = 650
	oidMacAddr  = 829
	oidMacAddr8 = 774
)

// appendNetworkBinary appends an inet or cidr in PostgreSQL's binary
// format (family, mask length, a cidr flag, the address's length, the
// address), or a macaddr's or macaddr8's octets.
func appendNetworkBinary(buf []byte, v value.Value, k value.Kind) []byte {
	if k == value.MacAddr || k == value.MacAddr8 {
		return append(buf, v.Str()...)
	}
	addr, bits := v.Inet()
	family := byte(2)
	if len(addr) == 16 {
		family = 3
	}
	cidr := byte(0)
	if k == value.Cidr {
		cidr = 1
	}
	buf = append(buf, family, byte(bits), cidr, byte(len(addr)))
	return append(buf, addr...)
}

// decodeNetworkParam reads a binary inet, cidr, macaddr or macaddr8
// parameter.
func decodeNetworkParam(b []byte, k value.Kind, n int) (value.Value, error) {
	bad := func() (value.Value, error) {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format in bind parameter %d", n)
	}
	switch k {
	case value.MacAddr, value.MacAddr8:
		if (k == value.MacAddr) != (len(b) == 6) || (k == value.MacAddr8) != (len(b) == 8) {
			return bad()
		}
		return value.NewMacAddr(append([]byte(nil), b...)), nil
	}
	if len(b) != 8 && len(b) != 20 || b[0] != 2+byte(len(b)/20) || int(b[3]) != len(b)-4 || int(b[1]) > 8*(len(b)-4) {
		return bad()
	}
	v := value.NewInet(k, append([]byte(nil), b[4:]...), int(b[1]))
	if k == value.Cidr && value.Compare(value.InetNetwork(v), v) != 0 {
		return bad() // bits set right of the mask
	}
	return v, nil
}
