package value

import (
	"bytes"
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// genBytesValue draws a bytea (NUL and high bytes included), a short bit
// string or a uuid with bytes near the ends of their range.
func genBytesValue(t *rapid.T, k Kind) Value {
	switch k {
	case Bytea:
		return NewBytea(rapid.SliceOfN(rapid.SampledFrom([]byte{0, 1, 'a', '\\', 0x7f, 0x80, 0xff}), 0, 6).Draw(t, "b"))
	case UUID:
		var u [16]byte
		for i, b := range rapid.SliceOfN(rapid.SampledFrom([]byte{0, 1, 0x7f, 0x80, 0xff}), 16, 16).Draw(t, "u") {
			u[i] = b
		}
		return NewUUID(u)
	}
	return NewBits(k, rapid.StringOfN(rapid.SampledFrom([]rune{'0', '1'}), 0, 12, -1).Draw(t, "bits"))
}

// packBits is a bit string as PostgreSQL stores it: its bits eight to a
// byte, the last byte padded with zeros.
func packBits(s string) []byte {
	b := make([]byte, (len(s)+7)/8)
	for i := 0; i < len(s); i++ {
		if s[i] == '1' {
			b[i/8] |= 0x80 >> (i % 8)
		}
	}
	return b
}

// TestBitOrderIsPostgreSQLs checks that Compare orders bit strings as
// PostgreSQL's bit_cmp does on their packed bytes: memcmp of the bytes
// both have, then the shorter first.
func TestBitOrderIsPostgreSQLs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genBytesValue(t, Varbit)
		b := genBytesValue(t, Varbit)
		pa, pb := packBits(a.Str()), packBits(b.Str())
		n := min(len(pa), len(pb))
		want := bytes.Compare(pa[:n], pb[:n])
		if want == 0 {
			want = cmpInt(int64(len(a.Str())), int64(len(b.Str())))
		}
		if got := Compare(a, b); got != want {
			t.Fatalf("Compare(%s, %s) = %d, bit_cmp %d", a, b, got, want)
		}
	})
}

// TestBytesTextForms checks the input forms PostgreSQL accepts and the
// output it prints.
func TestBytesTextForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		t    Type
		want string // output, or the SQLSTATE of the error
	}{
		{`\x`, ByteaType, `\x`},
		{`\x 01 ff` + "\n\tAb", ByteaType, `\x01ffab`},
		{`\x0`, ByteaType, "22023"},
		{`\x0 1`, ByteaType, "22023"},
		{`ab\\c\001\377`, ByteaType, `\x61625c6301ff`},
		{`a\`, ByteaType, "22P02"},
		{`\400`, ByteaType, "22P02"},
		{`\12`, ByteaType, "22P02"},
		{"b101", BitType, "101"},
		{"X1f", BitType, "00011111"},
		{"", VarbitType, ""},
		{"12", BitType, "22P02"},
		{"101", Type{Bit, 2}, "22026"},
		{"101", Type{Varbit, 2}, "22001"},
		{"101", Type{Varbit, 3}, "101"},
		{"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", UUIDType, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"{a0eebc999c0b4ef8bb6d6bb9bd380a11}", UUIDType, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11", UUIDType, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"a0eebc9-99c0b-4ef8-bb6d-6bb9bd380a11", UUIDType, "22P02"},
		{"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-", UUIDType, "22P02"},
		{"{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", UUIDType, "22P02"},
	} {
		v, err := Parse(c.in, c.t)
		got := v.String()
		if err != nil {
			got = errCode(err)
		}
		if got != c.want {
			t.Errorf("Parse(%q, %s) = %s, want %s", c.in, c.t, got, c.want)
		}
	}
}

func errCode(err error) string {
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return err.Error()
}
