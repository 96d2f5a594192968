package pgbinary

import (
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestNumericRoundTrip: a numeric's binary form reads back as the same
// text, scale included, and numeric_send's layout for a few values.
func TestNumericRoundTrip(t *testing.T) {
	for _, s := range []string{"0", "0.00", "1.50", "-0.001", "100", "12345678", "0.0000000001", "-123456789.000012345",
		"10000000000000000000000.0000000000001", "NaN", "Infinity", "-Infinity", "9999", "10000", "0.5", "-7e3"} {
		v, err := value.Parse(s, value.NumericType)
		if err != nil {
			t.Fatal(err)
		}
		b := AppendBinary(nil, v, value.Numeric)
		got, err := DecodeParam(b, 1, value.NumericType, 1)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got.String() != v.String() {
			t.Errorf("%s: read back %s", s, got)
		}
	}
	v, _ := value.Parse("1.50", value.NumericType)
	if got, want := string(AppendBinary(nil, v, value.Numeric)), "\x00\x02\x00\x00\x00\x00\x00\x02\x00\x01\x13\x88"; got != want {
		t.Errorf("1.50: %q, want %q", got, want)
	}
	for _, bad := range []string{"", "\x00\x01\x00\x00\x00\x00\x00\x00", "\x00\x01\x00\x00\x00\x00\x00\x00\x27\x10", "\x00\x00\x00\x00\x12\x34\x00\x00"} {
		if _, err := DecodeParam([]byte(bad), 1, value.NumericType, 1); err == nil {
			t.Errorf("%q read as a numeric", bad)
		}
	}
}

// FuzzReadCopy: any bytes read as a binary COPY of a few columns give
// rows or an error, never a panic.
func FuzzReadCopy(f *testing.F) {
	types := []value.Type{value.Int4Type, value.TextType, value.NumericType}
	v, _ := value.Parse("-12.340", value.NumericType)
	good := AppendCopyTrailer(AppendCopyRow(AppendCopyHeader(nil), value.Row{value.NewInt(value.Int4, 1), value.NewText(value.Text, "a"), v}, types))
	f.Add(good)
	f.Add(good[:len(good)-5])
	f.Add([]byte("PGCOPY\n\xff\r\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = ReadCopy(data, types, nil, "t", func(value.Row) error { return nil })
	})
}
