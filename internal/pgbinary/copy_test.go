package pgbinary

import (
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// TestReadCopyFieldWidth: a field of the wrong width for its column's
// type fails as PostgreSQL 15's COPY … FROM (FORMAT binary) does: too
// short, the receive function's 08P01; too long, 22P03; both naming the
// line and the column.
func TestReadCopyFieldWidth(t *testing.T) {
	int4 := value.Type{Kind: value.Int4}
	int8 := value.Type{Kind: value.Int8}
	int2 := value.Type{Kind: value.Int2}
	boolean := value.Type{Kind: value.Bool}
	cases := []struct {
		from, into value.Type
		v          value.Value
		code, msg  string
	}{
		{int4, int8, value.NewInt(value.Int4, 1), "08P01", "insufficient data left in message"},
		{int2, int4, value.NewInt(value.Int2, 1), "08P01", "insufficient data left in message"},
		{int4, value.Type{Kind: value.Float8}, value.NewInt(value.Int4, 1), "08P01", "insufficient data left in message"},
		{int8, int4, value.NewInt(value.Int8, 1), "22P03", "incorrect binary data format"},
		{int4, boolean, value.NewInt(value.Int4, 1), "22P03", "incorrect binary data format"},
	}
	for _, c := range cases {
		data := AppendCopyHeader(nil)
		data = AppendCopyRow(data, value.Row{c.v}, []value.Type{c.from})
		data = AppendCopyTrailer(data)
		err := ReadCopy(data, []value.Type{c.into}, []string{"b"}, "t", func(value.Row) error { return nil })
		pe := pgerr.Wrap(err)
		if err == nil || pe.Code != c.code || pe.Message != c.msg || pe.Context != "COPY t, line 1, column b" {
			t.Errorf("%v into %v: %v (context %q), want %s %s", c.from.Kind, c.into.Kind, err, pe.Context, c.code, c.msg)
		}
	}
}
