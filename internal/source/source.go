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
	c := *pgerr.Wrap(err)
	where := fmt.Sprintf("COPY %s, line %d%s", table, line, col)
	if c.Detail != "" {
		c.Detail += "\n" + where
	} else {
		c.Detail = where
	}
	return &c
}
