package engine

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ReplaceRows is Replace of each of rows in turn, in one call: what a
// call of the typed API costs beyond its row (the engine's lock, the
// session's and the privilege's checks, the transaction's bookkeeping) is
// paid once for the batch, not once a row. It stops at the first row that
// fails and takes back the rows of this call replaced before it, as a
// failed Replace takes back its own; the transaction's earlier changes
// stay. The engine keeps none of rows' slices: the caller may reuse them
// once it returns.
func (s *Session) ReplaceRows(tableName string, rows [][]value.Value) error {
	return s.typedChangeKeep(tableName, sql.PrivUpdate, true, func(e *Engine) error {
		kept := len(e.tx.pending)
		var err error
		if t := e.tables[tableName]; t != nil && !e.eachRow && castsOnce(t) {
			err = e.replaceRowsKept(tableName, t, rows)
		} else {
			for _, row := range rows {
				if err = e.replaceTyped(tableName, value.Row(row)); err != nil {
					break
				}
			}
		}
		if err != nil {
			// The rows this call kept in the transaction; rows
			// written at once (a table that keeps none) are taken
			// back by typedChangeKeep, from the log.
			clear(e.tx.pending[kept:])
			e.tx.pending = e.tx.pending[:kept]
		}
		return err
	})
}

// colCast is what ReplaceRows needs of a column to cast and check a
// row's value, worked out once a call: the column's type, whether it is
// unbounded text (text given for it is checked, not converted), and
// whether it is NOT NULL.
type colCast struct {
	typ     value.Type
	text    bool
	notNull bool
}

// castsOnce reports whether ReplaceRows takes t's rows by replaceRowsKept:
// t keeps its replacements in the transaction (pending.go) and is neither
// a change stream nor partitioned, so that every row goes the same way
// and only its casts and constraints can fail it.
func castsOnce(t *table) bool {
	return !t.def.ChangeStream && t.def.PartitionBy == nil && t.buffers() && !t.hasGenerated()
}

// replaceRowsKept is ReplaceRows's loop for a table that castsOnce: the
// table, its columns' plan and whether a row needs the constraints'
// general check are looked up once for the call, not once a row; each
// row is cast, its key's row found (02000), its constraints checked and
// a copy of it kept, as replaceTyped and replacePending do one at a time,
// failing with the same error on the same row. A row's NOT NULL columns
// are tested as it is cast; t.check runs only on a row that fails one, or
// when t has domains or CHECK constraints. A row of flat values is cast
// into the image of the copy kept (keptImage), copied once.
func (e *Engine) replaceRowsKept(tableName string, t *table, rows [][]value.Value) error {
	plan, verify := e.castPlan(t)
	kc := t.uniques[0].cols[0]
	for _, row := range rows {
		if len(row) != len(plan) {
			return pgerr.New(pgerr.SyntaxError, "table %q has %d columns, the row has %d", tableName, len(t.cols), len(row))
		}
		out, nulls, flat, err := e.castImage(plan, row)
		if err == nil && !flat {
			out, nulls, err = e.castPlain(plan, row)
		}
		if err != nil {
			return err
		}
		k := out[kc]
		if k.IsNull() || !e.keyFound(t, k.Int()) {
			return noRowWithKey(t, out)
		}
		if nulls || verify {
			if err := t.check(out); err != nil {
				return err
			}
		}
		var kept value.Row
		if flat {
			kept = e.image.keep()
		} else {
			kept = append(make(value.Row, 0, len(out)), out...)
		}
		e.tx.pending = append(e.tx.pending, pendingRow{t: t, row: kept, key: k.Int()})
	}
	return nil
}

// castFor says which table's plan rowsCast holds, and when it was made.
type castFor struct {
	t      *table
	def    *sql.CreateTable
	cols   *plan.Column
	gen    uint64
	verify bool
}

// castPlan returns t's columns' plan and whether its rows need the
// constraints' general check (CHECK constraints, domains, generated
// columns): made once, and again only for another
// table or after a catalog change, so that a batch made a Replace a call
// (Session.Replace) works it out once, as ReplaceRows does a call. The
// table's definition and columns are compared too, should a change reach
// them without a new generation.
func (e *Engine) castPlan(t *table) ([]colCast, bool) {
	if c := e.castFor; c.t == t && c.gen == e.catalogGen && c.def == t.def && len(e.rowsCast) == len(t.cols) &&
		c.cols == unsafe.SliceData(t.cols) {
		return e.rowsCast, c.verify
	}
	plan := e.rowsCast[:0]
	verify := len(t.def.Checks) > 0
	for i := range t.cols {
		ct := t.cols[i].Type
		plan = append(plan, colCast{typ: ct, text: ct.Kind == value.Text && ct.Mod < 0, notNull: t.def.Cols[i].NotNull})
		verify = verify || t.def.Cols[i].Domain != nil || t.def.Cols[i].Generated != nil
	}
	e.rowsCast = plan
	e.castFor = castFor{t: t, def: t.def, cols: unsafe.SliceData(t.cols), gen: e.catalogGen, verify: verify}
	return plan, verify
}

// castImage casts row by plan into the engine's keptImage, and reports
// whether a NOT NULL column is NULL; flat is false, the image unfinished,
// when a value cast is not flat.
func (e *Engine) castImage(plan []colCast, row []value.Value) (out value.Row, nulls, flat bool, err error) {
	m := &e.image
	m.start(len(row))
	dst := m.row()
	for i, v := range row {
		c := &plan[i]
		if v.Kind().IsInteger() && fitsInt(c.typ.Kind, v.Int()) {
			// c.cast's first case, inline: the commonest value, held in
			// the Value, never NULL.
			dst[i] = value.NewInt(c.typ.Kind, v.Int())
			continue
		}
		if v, err = c.cast(v); err != nil {
			return nil, false, false, err
		}
		nulls = nulls || c.notNull && v.IsNull()
		nb, ok := v.FlatBytes()
		if !ok {
			return nil, false, false, nil
		}
		m.put(i, v, nb)
		dst = m.row() // put may have moved the image
	}
	return dst, nulls, true, nil
}

// castPlain is castImage into the engine's castRow, for a row whose
// values are not all flat.
func (e *Engine) castPlain(plan []colCast, row []value.Value) (out value.Row, nulls bool, err error) {
	out = e.castRow[:0]
	if cap(out) < len(row) {
		out = make(value.Row, 0, len(row))
	}
	for i, v := range row {
		c := &plan[i]
		if v, err = c.cast(v); err != nil {
			e.castRow = out[:0]
			return nil, false, err
		}
		nulls = nulls || c.notNull && v.IsNull()
		out = append(out, v)
	}
	e.castRow = out[:0]
	return out, nulls, nil
}

// cast converts v to the column's type as typedRowInto does.
func (c *colCast) cast(v value.Value) (value.Value, error) {
	switch {
	case v.Kind().IsInteger() && fitsInt(c.typ.Kind, v.Int()):
		return value.NewInt(c.typ.Kind, v.Int()), nil
	case c.text && v.Kind() == value.Text:
		// As assignValue takes text into text.
		return v, value.CheckText(v.Str())
	}
	return assignValue(v, c.typ)
}
