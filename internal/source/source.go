// Package source holds what every source of outside input shares: the
// description of the table its changes are for, the batch a decoder
// yields, and how an error names where in the input it was found.
//
// A source package (copyfmt for COPY's text and CSV rows, changefeed for
// Debezium and upsert change events) reads its input and yields typed
// batches of changes, grouped by source transaction. It knows nothing of
// the engine: the engine opens the input, picks the decoder by format and
// applies each batch through its one entry point, committing at the end of
// each source transaction.
package source

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Column is one column of the target table.
type Column struct {
	Name string
	Type value.Type
	// Check, when not nil, is the column's domain's check, which a
	// decoder of rows applies to each value it reads, NULL included, as
	// PostgreSQL's input function of a domain does.
	Check func(value.Value) error
}

// Table describes the table a decoder's changes are for.
type Table struct {
	Name    string
	Columns []Column
	// Key is the primary key's column positions, in key order; nil when
	// the table has none (change events need one).
	Key []int
	// Default returns the value of column i for a row whose input omits
	// it (COPY with a column list). Nil means NULL.
	Default func(i int) (value.Value, error)
}

// Schema returns t as a keyed relation, for decoders of change events.
func (t *Table) Schema() (*delta.Schema, error) {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return delta.NewSchema(t.Name, names, t.Key)
}

// Batch is the next part of one source transaction's changes to the
// table, in order. A decoder owns its batches: a batch and its slices are
// valid until the next call of Next.
type Batch struct {
	// Changes are change events of the explicit model. A decoder of plain
	// rows leaves it empty and fills Rows.
	Changes delta.Batch
	// Rows are plain insertions (as by INSERT: no key is needed, and the
	// table's constraints name a violation), given as rows so that a bulk
	// load does not box each row in a change.
	Rows []value.Row
	// Lines is the line of input of each change, or of each row.
	Lines []int64
	// More reports that the source transaction goes on in the next batch.
	More bool
	// text and textEnds keep each row's record, when the decoder keeps
	// them (batch_text.go).
	text     []byte
	textEnds []int
}

// Len is the number of changes or rows in b.
func (b *Batch) Len() int { return len(b.Changes) + len(b.Rows) }

// Decoder reads one input as batches of changes of one table.
type Decoder interface {
	// Next returns the next batch; io.EOF after the last one. An error in
	// the input names its line (At); the batches of source transactions
	// already returned are unaffected, and the open one's are void.
	Next() (*Batch, error)
}

// At adds where in the input an error was found, as PostgreSQL's CONTEXT
// line of a COPY does: "COPY t, line 3, column a: "x"". col is empty or
// starts with ", ".
func At(err error, table string, line int64, col string) error {
	return pgerr.Wrap(err).WithContext(fmt.Sprintf("COPY %s, line %d%s", table, line, col))
}

// Limits bound what one input can make a decoder hold, so that input
// without line ends (COPY t FROM '/dev/zero') or a transaction without
// end fails at once instead of exhausting memory. Zero fields take the
// defaults.
type Limits struct {
	MaxLine   int // bytes of one record: a line, or a CSV record's lines
	MaxField  int // bytes of one field, after unescaping
	MaxEvents int // change events in one source transaction
}

// The default limits; PostgreSQL's own bound on a field is 1GB.
const (
	DefaultMaxLine   = 64 << 20
	DefaultMaxField  = 64 << 20
	DefaultMaxEvents = 10_000_000
)

// WithDefaults returns l with its zero fields set to the defaults.
func (l Limits) WithDefaults() Limits {
	if l.MaxLine <= 0 {
		l.MaxLine = DefaultMaxLine
	}
	if l.MaxField <= 0 {
		l.MaxField = DefaultMaxField
	}
	if l.MaxEvents <= 0 {
		l.MaxEvents = DefaultMaxEvents
	}
	return l
}

// LineTooLong is the error of a record over MaxLine bytes.
func LineTooLong(max int) *pgerr.Error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "line is too long: more than %s", formatBytes(max)).
		WithHint("raise deltaview.max_copy_line (SET deltaview.max_copy_line = '…')")
}

// FieldTooLong is the error of a field over MaxField bytes.
func FieldTooLong(max int) *pgerr.Error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "field is too long: more than %s", formatBytes(max)).
		WithHint("raise deltaview.max_copy_field (SET deltaview.max_copy_field = '…')")
}

// TooManyEvents is the error of a source transaction over MaxEvents
// events.
func TooManyEvents(max int) *pgerr.Error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "transaction has too many change events: more than %d", max).
		WithHint("raise deltaview.max_stream_events (SET deltaview.max_stream_events = …), or split the transaction")
}

// formatBytes writes n as a setting's value is written ('64MB').
func formatBytes(n int) string {
	for _, u := range []struct {
		name string
		size int
	}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", n)
}
