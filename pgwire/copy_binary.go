package pgwire

import (
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgbinary"
	"github.com/deltaview/deltaview/internal/sql"
)

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

// sendBinaryCopyOut sends COPY … TO STDOUT (FORMAT binary)'s rows in
// PostgreSQL's binary COPY format: the header with the first row, one
// CopyData message per row, the trailer, then CopyDone.
func (c *conn) sendBinaryCopyOut(out *engine.CopyOut) {
	c.be.Send(&pgproto3.CopyOutResponse{OverallFormat: 1, ColumnFormatCodes: slices.Repeat([]uint16{1}, len(out.Types))})
	buf := pgbinary.AppendCopyHeader(c.buf[:0])
	for n, row := range out.Rows {
		buf = pgbinary.AppendCopyRow(buf, row, out.Types)
		c.be.Send(&pgproto3.CopyData{Data: buf}) // encoded at once: buf is reused
		buf = buf[:0]
		if n%flushEvery == flushEvery-1 {
			c.be.Flush()
		}
	}
	buf = pgbinary.AppendCopyTrailer(buf)
	c.be.Send(&pgproto3.CopyData{Data: buf})
	c.buf = buf[:0]
	c.be.Send(&pgproto3.CopyDone{})
}
