package pgrepl

import (
	"encoding/binary"
	"testing"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// tuple encodes a TupleData of text values; nil is NULL.
func tuple(vals ...*string) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(len(vals)))
	for _, v := range vals {
		if v == nil {
			b = append(b, 'n')
			continue
		}
		b = append(b, 't')
		b = binary.BigEndian.AppendUint32(b, uint32(len(*v)))
		b = append(b, *v...)
	}
	return b
}

func str(s string) *string { return &s }

// TestDecodeInPlace decodes the messages that carry rows from their
// bytes, and turns every message cut short into a protocol error, never
// a panic (the general parser indexes past the end of a short message).
func TestDecodeInPlace(t *testing.T) {
	it, err := mapType(pgtype.Int4OID, -1)
	if err != nil {
		t.Fatal(err)
	}
	tt, err := mapType(pgtype.TextOID, -1)
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{Schema: "public", Name: "t", Local: "t", Key: []int{0}, Cols: []Column{{Name: "id", Type: it}, {Name: "v", Type: tt}}}
	d := newDecoder([]*Table{tb})
	if err := d.relation(&pglogrepl.RelationMessage{RelationID: 7, Namespace: "public", RelationName: "t", Columns: []*pglogrepl.RelationMessageColumn{
		{Name: "id", DataType: pgtype.Int4OID, TypeModifier: -1}, {Name: "v", DataType: pgtype.TextOID, TypeModifier: -1}}}); err != nil {
		t.Fatal(err)
	}
	ins := append([]byte{'N'}, tuple(str("42"), str("forty-two"))...)
	upd := append([]byte{'N'}, tuple(str("42"), nil)...)
	del := append([]byte{'K'}, tuple(str("42"), nil)...)
	for _, c := range []struct {
		decode func(uint32, *wire) error
		msg    []byte
	}{{d.insert, ins}, {d.update, upd}, {d.delete, del}} {
		buf := append([]byte(nil), c.msg...)
		if err := c.decode(7, &wire{b: buf}); err != nil {
			t.Fatal(err)
		}
		clear(buf) // the rows must not share the message's bytes
		for n := range len(c.msg) {
			if err := c.decode(7, &wire{b: c.msg[:n]}); pgerr.Code(err) != pgerr.ProtocolViolation {
				t.Errorf("%q cut to %d bytes: %v", c.msg, n, err)
			}
		}
	}
	if len(d.tx) != 3 {
		t.Fatalf("%d changes", len(d.tx))
	}
	if c, ok := d.tx[0].Change.(delta.Insert); !ok || c.Row[0].Int() != 42 || c.Row[1].Str() != "forty-two" {
		t.Errorf("insert: %#v", d.tx[0].Change)
	}
	if c, ok := d.tx[1].Change.(delta.PartialUpdate); !ok || c.Row[0].Int() != 42 || !c.Row[1].IsNull() {
		t.Errorf("update: %#v", d.tx[1].Change)
	}
	if c, ok := d.tx[2].Change.(delta.TruePartialDelete); !ok || c.KeyVals[0].Int() != 42 {
		t.Errorf("delete: %#v", d.tx[2].Change)
	}
}
