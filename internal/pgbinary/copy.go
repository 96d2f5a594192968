package pgbinary

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's binary COPY format: the signature, a 32-bit flags field
// and the length of a header extension (and the extension); per row the
// field count, then each field's length, -1 for NULL, and its binary
// value of the column's type; a count of -1 after the last row.

// copySignature begins the binary COPY format.
const copySignature = "PGCOPY\n\xff\r\n\x00"

// AppendCopyHeader appends the format's header: the signature, no flags,
// no extension.
func AppendCopyHeader(buf []byte) []byte {
	buf = append(buf, copySignature...)
	return binary.BigEndian.AppendUint64(buf, 0)
}

// AppendCopyRow appends row, whose columns have types (each value cast
// to its column's kind first when it has another).
func AppendCopyRow(buf []byte, row value.Row, types []value.Type) []byte {
	buf = binary.BigEndian.AppendUint16(buf, uint16(len(row)))
	for i, v := range row {
		if v.IsNull() {
			buf = binary.BigEndian.AppendUint32(buf, 0xffffffff)
			continue
		}
		k := types[i].Kind
		if v.Kind() != k {
			if cv, err := value.Cast(v, value.Type{Kind: k, Mod: -1}, true); err == nil {
				v = cv
			}
		}
		at := len(buf)
		buf = binary.BigEndian.AppendUint32(buf, 0)
		buf = AppendBinary(buf, v, k)
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf
}

// AppendCopyTrailer appends the format's trailer, the field count -1.
func AppendCopyTrailer(buf []byte) []byte {
	return binary.BigEndian.AppendUint16(buf, 0xffff)
}

// ReadCopy reads data in the binary COPY format, rows of columns of
// types named names, and passes each row to emit (which must not keep it
// past the call's return when it keeps values' bytes: they are data's).
// Errors name the line (the row) and the column as PostgreSQL's do, of
// table (a column by its number when names lacks it).
func ReadCopy(data []byte, types []value.Type, names []string, table string, emit func(value.Row) error) error {
	bad := func(line int, format string, args ...any) error {
		return pgerr.New(pgerr.BadCopyFileFormat, format, args...).WithContext(fmt.Sprintf("COPY %s, line %d", table, line))
	}
	if !bytes.HasPrefix(data, []byte(copySignature)) {
		return bad(0, "COPY file signature not recognized")
	}
	data = data[len(copySignature):]
	if len(data) < 8 {
		return bad(0, "invalid COPY file header (missing flags)")
	}
	if flags := binary.BigEndian.Uint32(data); flags&(1<<16) != 0 {
		return bad(0, "invalid COPY file header (WITH OIDS)")
	} else if flags>>16 != 0 {
		return bad(0, "unrecognized critical flags in COPY file header")
	}
	ext := binary.BigEndian.Uint32(data[4:])
	data = data[8:]
	if uint64(ext) > uint64(len(data)) {
		return bad(0, "invalid COPY file header (wrong length)")
	}
	data = data[ext:]
	row := make(value.Row, len(types))
	for line := 1; ; line++ {
		if len(data) == 0 {
			return nil // the end of the data may stand for the trailer, as in PostgreSQL
		}
		if len(data) < 2 {
			return bad(line, "unexpected EOF in COPY data")
		}
		n := int16(binary.BigEndian.Uint16(data))
		data = data[2:]
		if n == -1 {
			return nil // what follows the trailer is ignored, as PostgreSQL does
		}
		if int(n) != len(types) {
			return bad(line, "row field count is %d, expected %d", n, len(types))
		}
		for i, t := range types {
			if len(data) < 4 {
				return bad(line, "unexpected EOF in COPY data")
			}
			size := int32(binary.BigEndian.Uint32(data))
			data = data[4:]
			if size == -1 {
				row[i] = value.Null
				continue
			}
			if size < 0 || int(size) > len(data) {
				return bad(line, "invalid field size")
			}
			v, err := DecodeParam(data[:size:size], 1, t, i+1)
			if err != nil {
				// A field too short for its type is the receive function's
				// 08P01; any other bad field PostgreSQL's COPY reports alike.
				pe := pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format")
				if pgerr.Code(err) == pgerr.ProtocolViolation {
					pe = pgerr.Wrap(err)
				}
				return pe.WithContext(fmt.Sprintf("COPY %s, line %d, column %s", table, line, columnName(names, i)))
			}
			row[i] = v
			data = data[size:]
		}
		if err := emit(row); err != nil {
			return err
		}
	}
}

// columnName is the i-th column's name as COPY's CONTEXT gives it: as it
// is, unquoted; its number when names lacks it.
func columnName(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return fmt.Sprint(i + 1)
}
