package pgbinary

import (
	"encoding/binary"

	"github.com/deltaview/deltaview/internal/value"
)

// oidRecord is PostgreSQL's anonymous composite type, record, and
// oidRecordArray its array type, record[].
const (
	oidRecord      = 2249
	oidRecordArray = 2287
)

// appendRecordBinary writes PostgreSQL's binary record format (record_send):
// the number of fields, then per field its type's OID, its length (-1 for
// NULL) and its binary form. A NULL field's type is not known here: it
// goes out as text, which every client reads.
func appendRecordBinary(buf []byte, v value.Value) []byte {
	fs := v.Fields()
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(fs)))
	for _, f := range fs {
		buf = binary.BigEndian.AppendUint32(buf, TypeOID(value.Type{Kind: f.Kind(), Mod: -1}))
		if f.IsNull() {
			buf = binary.BigEndian.AppendUint32(buf, ^uint32(0))
			continue
		}
		at := len(buf)
		buf = binary.BigEndian.AppendUint32(buf, 0)
		buf = AppendBinary(buf, f, f.Kind())
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf
}
