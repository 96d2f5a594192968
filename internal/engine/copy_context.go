package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/source"
	"github.com/deltaview/deltaview/internal/sql"
)

// copyRowError names in err's CONTEXT the line of row i of batch b, as
// PostgreSQL does for the row it is inserting: with the line's text
// (`COPY t, line 3: "3	x"`), but for a unique or exclusion violation,
// which PostgreSQL finds when it flushes its buffered rows, and names
// by the line alone, unless BEFORE row triggers make it insert row by
// row. A domain's check of a value read from the line names the column
// and the field (copyfmt); one of a value the line does not hold (a
// default's) names the line with its text too.
func copyRowError(err error, name string, b *source.Batch, i int, tf *trigFire) error {
	text := b.LineText(i)
	if c := pgerr.Code(err); (c == "23505" || c == "23P01") && !tf.beforeInsertRow() {
		text = ""
	}
	return source.At(err, name, b.Lines[i], text)
}

// beforeInsertRow reports whether a BEFORE INSERT row trigger fires
// (false for f nil).
func (f *trigFire) beforeInsertRow() bool {
	if f == nil {
		return false
	}
	for _, tr := range f.list {
		if f.fires(tr, sql.TriggerInsert, sql.TriggerBefore|sql.TriggerRow) {
			return true
		}
	}
	return false
}
