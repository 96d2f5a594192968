package engine

import (
	"fmt"
	"io"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/source"
	"github.com/deltaview/deltaview/internal/sql"
)

// execCopyView runs COPY … FROM into a plain view: each row goes to the
// view's INSTEAD OF INSERT triggers, as an INSERT's would, between the
// view's statement triggers; the command counts the rows the triggers
// did not skip. The whole COPY is one statement of the transaction.
func (e *Engine) execCopyView(c *sql.Copy) (Result, error) {
	f, ok := copyFormats[c.Format]
	if !ok || f.events {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "COPY of change events into view %q is not supported", e.bareName(c.Table)).
			WithHint("COPY change events into a table")
	}
	fire, err := e.viewFire(c.Table, sql.TriggerInsert, "copy to")
	if err != nil {
		return Result{}, err
	}
	st := &source.Table{Name: e.bareName(c.Table), Columns: make([]source.Column, len(fire.cols))}
	for i, col := range fire.cols {
		st.Columns[i] = source.Column{Name: col.Name, Type: col.Type}
	}
	r, done, err := e.copySource(c)
	if err != nil {
		return Result{}, err
	}
	defer done()
	dec, err := f.open(decodeCopy(&copyReader{r: r, file: c.File}, e.copyEnc), st, c, e.copyLimits, e.copyZone(), e.copyStyle())
	if err != nil {
		return Result{}, err
	}
	if err := fire.beforeStatement(sql.TriggerInsert); err != nil {
		return Result{}, err
	}
	n := 0
	for {
		b, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Result{}, err
		}
		for i, row := range b.Rows {
			_, ok, err := fire.instead(sql.TriggerInsert, nil, slices.Clone(row))
			if err != nil {
				return Result{}, source.At(err, st.Name, b.Lines[i], b.LineText(i))
			}
			if ok {
				n++
			}
		}
	}
	if err := fire.end(sql.TriggerInsert); err != nil {
		return Result{}, err
	}
	return Result{Tag: fmt.Sprintf("COPY %d", n)}, nil
}
