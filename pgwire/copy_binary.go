package pgwire

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// binaryCopySignature begins PostgreSQL's binary COPY format; a 32-bit
// flags field and the length of a header extension follow it.
const binaryCopySignature = "PGCOPY\n\xff\r\n\x00"

// isBinaryCopy reports whether st, a COPY, asks for FORMAT binary.
func isBinaryCopy(st *sql.Stmt) bool {
	for _, o := range st.Node.GetCopyStmt().GetOptions() {
		d := o.GetDefElem()
		if d == nil || !strings.EqualFold(d.Defname, "format") {
			continue
		}
		if tn := d.Arg.GetTypeName(); tn != nil && len(tn.Names) > 0 {
			return strings.EqualFold(tn.Names[len(tn.Names)-1].GetString_().GetSval(), "binary")
		}
		return strings.EqualFold(d.Arg.GetString_().GetSval(), "binary")
	}
	return false
}

// copyTable is the name a COPY's errors give its table.
func copyTable(st *sql.Stmt) string { return st.Node.GetCopyStmt().GetRelation().GetRelname() }

// binaryCopyText reads a client's rows in PostgreSQL's binary COPY format
// (the signature, flags and extension; per row the field count, then each
// field's length, -1 for NULL, and its binary value of the column's type;
// a count of -1 after the last) and writes them in COPY's text format,
// which the engine loads. Errors name the row as PostgreSQL's do.
func binaryCopyText(data []byte, types []value.Type, table string) ([]byte, error) {
	bad := func(line int, format string, args ...any) error {
		return pgerr.New(pgerr.BadCopyFileFormat, format, args...).WithDetail("COPY %s, line %d", table, line)
	}
	if !bytes.HasPrefix(data, []byte(binaryCopySignature)) {
		return nil, bad(0, "COPY file signature not recognized")
	}
	data = data[len(binaryCopySignature):]
	if len(data) < 8 {
		return nil, bad(0, "invalid COPY file header (missing flags)")
	}
	if flags := binary.BigEndian.Uint32(data); flags&(1<<16) != 0 {
		return nil, bad(0, "invalid COPY file header (WITH OIDS)")
	} else if flags>>16 != 0 {
		return nil, bad(0, "unrecognized critical flags in COPY file header")
	}
	ext := binary.BigEndian.Uint32(data[4:])
	data = data[8:]
	if uint64(ext) > uint64(len(data)) {
		return nil, bad(0, "invalid COPY file header (wrong length)")
	}
	data = data[ext:]
	var out, text []byte
	for line := 1; ; line++ {
		if len(data) == 0 {
			return out, nil // the end of the data may stand for the trailer, as in PostgreSQL
		}
		if len(data) < 2 {
			return nil, bad(line, "unexpected EOF in COPY data")
		}
		n := int16(binary.BigEndian.Uint16(data))
		data = data[2:]
		if n == -1 {
			return out, nil // what follows the trailer is ignored, as PostgreSQL does
		}
		if int(n) != len(types) {
			return nil, bad(line, "row field count is %d, expected %d", n, len(types))
		}
		for i, t := range types {
			if len(data) < 4 {
				return nil, bad(line, "unexpected EOF in COPY data")
			}
			size := int32(binary.BigEndian.Uint32(data))
			data = data[4:]
			if i > 0 {
				out = append(out, '\t')
			}
			if size == -1 {
				out = append(out, `\N`...)
				continue
			}
			if size < 0 || int(size) > len(data) {
				return nil, bad(line, "invalid field size")
			}
			v, err := decodeParam(data[:size:size], 1, t, i+1)
			if err != nil {
				return nil, pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format").
					WithDetail("COPY %s, line %d, column %d", table, line, i+1)
			}
			data = data[size:]
			text = value.AppendTextStyle(text[:0], v, value.IntervalPostgres)
			out = engine.AppendCopyText(out, text)
		}
		out = append(out, '\n')
	}
}

// sendBinaryCopyOut sends COPY … TO STDOUT (FORMAT binary)'s rows in
// PostgreSQL's binary COPY format: the header with the first row, one
// CopyData message per row, the trailer, then CopyDone.
func (c *conn) sendBinaryCopyOut(out *engine.CopyOut) {
	c.be.Send(&pgproto3.CopyOutResponse{OverallFormat: 1, ColumnFormatCodes: slices.Repeat([]uint16{1}, len(out.Types))})
	buf := append(c.buf[:0], binaryCopySignature...)
	buf = binary.BigEndian.AppendUint64(buf, 0) // flags, extension length
	for n, row := range out.Rows {
		buf = binary.BigEndian.AppendUint16(buf, uint16(len(row)))
		for i, v := range row {
			if v.IsNull() {
				buf = binary.BigEndian.AppendUint32(buf, 0xffffffff)
				continue
			}
			k := out.Types[i].Kind
			if v.Kind() != k {
				if cv, err := value.Cast(v, value.Type{Kind: k, Mod: -1}, true); err == nil {
					v = cv
				}
			}
			at := len(buf)
			buf = binary.BigEndian.AppendUint32(buf, 0)
			buf = appendBinary(buf, v, k)
			binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
		}
		c.be.Send(&pgproto3.CopyData{Data: buf}) // encoded at once: buf is reused
		buf = buf[:0]
		if n%flushEvery == flushEvery-1 {
			c.be.Flush()
		}
	}
	buf = binary.BigEndian.AppendUint16(buf, 0xffff)
	c.be.Send(&pgproto3.CopyData{Data: buf})
	c.buf = buf[:0]
	c.be.Send(&pgproto3.CopyDone{})
}
