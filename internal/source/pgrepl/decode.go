package pgrepl

import (
	"encoding/binary"

	"github.com/jackc/pglogrepl"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// decoder turns pgoutput's messages into the changes of one upstream
// transaction. It keeps the relations the stream announced, by oid. It
// reads the messages that carry rows in place (one a row changed: the
// general parser's allocations per column would be the stream's main
// cost) and leaves the rare others to pglogrepl.
type decoder struct {
	tables map[string]*Table // by upstream qualified name
	rels   map[uint32]*relation
	tx     []engine.SourceChange
	rows   int // rows changed in tx, for the figures
	// announced holds the Relation messages not yet used: one is
	// recorded (and a change of columns applied) when a transaction not
	// applied yet changes the relation's rows. skip is set in such a
	// transaction applied already.
	announced map[uint32]*pglogrepl.RelationMessage
	skip      bool
	behind    bool // tx was committed upstream behindAfter ago or more
}

// relation is a table as the stream announced it.
type relation struct {
	t      *Table
	schema *delta.Schema // nil for a table without a primary key
}

func newDecoder(tables []*Table) *decoder {
	d := &decoder{tables: map[string]*Table{}, rels: map[uint32]*relation{}, announced: map[uint32]*pglogrepl.RelationMessage{}}
	for _, t := range tables {
		d.tables[t.Qualified()] = t
	}
	return d
}

// relation records a Relation message: the table must be one of the
// publication's, with the columns the subscription was created with.
func (d *decoder) relation(m *pglogrepl.RelationMessage) error {
	t := &Table{Schema: m.Namespace, Name: m.RelationName}
	known, ok := d.tables[t.Qualified()]
	if !ok {
		return pgerr.New(pgerr.ObjectNotInPrereqState, "table %s joined the publication after the subscription was created", t.Qualified()).
			WithHint("drop and create the subscription again to include it")
	}
	changed := len(m.Columns) != len(known.Cols)
	for i := 0; !changed && i < len(m.Columns); i++ {
		c := m.Columns[i]
		typ, err := known.columnType(c.DataType, c.TypeModifier)
		changed = c.Name != known.Cols[i].Name || err != nil || typ != known.Cols[i].Type
	}
	if changed {
		return pgerr.New(pgerr.ObjectNotInPrereqState, "the columns of table %s changed upstream", t.Qualified()).
			WithHint("the subscription stopped before the change; drop and create it again")
	}
	r := &relation{t: known}
	if known.Key != nil {
		names := make([]string, len(known.Cols))
		for i, c := range known.Cols {
			names[i] = c.Name
		}
		s, err := delta.NewSchema(known.Local, names, known.Key)
		if err != nil {
			return err
		}
		r.schema = s
	}
	d.rels[m.RelationID] = r
	return nil
}

func (d *decoder) rel(id uint32) (*relation, error) {
	r, ok := d.rels[id]
	if !ok {
		return nil, pgerr.New(pgerr.ProtocolViolation, "a change of relation %d, which the stream did not describe", id)
	}
	return r, nil
}

// wire reads the fields of a pgoutput message in place; reading past its
// end sets bad (and reads zeros) instead of failing at once.
type wire struct {
	b   []byte
	bad bool
}

func (w *wire) next(n int) []byte {
	if n < 0 || n > len(w.b) {
		w.bad, w.b = true, nil
		return nil
	}
	out := w.b[:n:n]
	w.b = w.b[n:]
	return out
}

func (w *wire) byte() byte {
	if b := w.next(1); b != nil {
		return b[0]
	}
	return 0
}

func (w *wire) uint16() int {
	if b := w.next(2); b != nil {
		return int(binary.BigEndian.Uint16(b))
	}
	return 0
}

func (w *wire) uint32() uint32 {
	if b := w.next(4); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

func (w *wire) uint64() uint64 {
	if b := w.next(8); b != nil {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

func (w *wire) lsn() pglogrepl.LSN { return pglogrepl.LSN(w.uint64()) }

func truncated(kind string) error {
	return pgerr.New(pgerr.ProtocolViolation, "a truncated pgoutput %s message", kind)
}

// row reads a tuple (TupleData); unknown holds the columns left
// unchanged (TOASTed values the stream does not repeat).
func (r *relation) row(w *wire) (value.Row, delta.Cols, error) {
	n := w.uint16()
	if w.bad || n != len(r.t.Cols) {
		return nil, nil, pgerr.New(pgerr.ProtocolViolation, "a row of table %s with the wrong number of columns", r.t.Qualified())
	}
	row := make(value.Row, n)
	var unknown delta.Cols
	for i := range row {
		switch w.byte() {
		case pglogrepl.TupleDataTypeNull:
			row[i] = value.Null
		case pglogrepl.TupleDataTypeToast:
			row[i] = value.Null
			unknown = unknown.With(i)
		case pglogrepl.TupleDataTypeText:
			b := w.next(int(int32(w.uint32())))
			if w.bad {
				return nil, nil, truncated("row")
			}
			v, err := value.ParseBytes(b, r.t.Cols[i].Type)
			if err != nil {
				pe := *pgerr.Wrap(err)
				pe.Detail = "column " + r.t.Cols[i].Name + " of table " + r.t.Qualified()
				return nil, nil, &pe
			}
			row[i] = v
		case pglogrepl.TupleDataTypeBinary:
			return nil, nil, pgerr.New(pgerr.ProtocolViolation, "a value of table %s in binary form", r.t.Qualified())
		default:
			return nil, nil, pgerr.New(pgerr.ProtocolViolation, "a row of table %s with a column of unknown kind", r.t.Qualified())
		}
	}
	return row, unknown, nil
}

func (d *decoder) add(r *relation, c delta.Change, from value.Row) {
	d.tx = append(d.tx, engine.SourceChange{Table: r.t.Local, Change: c, From: from})
	d.rows++
}

// insert maps an Insert message, w after its relation's id.
func (d *decoder) insert(id uint32, w *wire) error {
	r, err := d.rel(id)
	if err != nil {
		return err
	}
	if w.byte() != 'N' {
		return truncated("Insert")
	}
	row, _, err := r.row(w)
	if err != nil {
		return err
	}
	d.add(r, delta.Insert{Row: row}, nil)
	return nil
}

// update maps an Update message, w after its relation's id: with the old
// row (identity FULL) a complete update, or a deletion and an insertion
// when the key changed; with the old key only (the key changed under
// identity DEFAULT) a move of the row; with neither a partial update, its
// old values unknown. Columns the stream left unchanged are unknown, or
// taken from the old row.
func (d *decoder) update(id uint32, w *wire) error {
	r, err := d.rel(id)
	if err != nil {
		return err
	}
	oldKind := w.byte()
	var old value.Row
	if oldKind == 'K' || oldKind == 'O' {
		if old, _, err = r.row(w); err != nil {
			return err
		}
		if w.byte() != 'N' {
			return truncated("Update")
		}
	} else if oldKind != 'N' {
		return truncated("Update")
	}
	row, unknown, err := r.row(w)
	if err != nil {
		return err
	}
	switch oldKind {
	case 'O':
		for _, i := range unknown.Slice() {
			row[i] = old[i]
		}
		if r.schema != nil && value.CompareRows(r.schema.KeyOf(old), r.schema.KeyOf(row)) != 0 {
			d.add(r, delta.Delete{Row: old}, nil)
			d.add(r, delta.Insert{Row: row}, nil)
			return nil
		}
		d.add(r, delta.Update{Old: old, New: row}, nil)
	case 'K':
		if r.schema == nil {
			return pgerr.New(pgerr.ProtocolViolation, "an old key for table %s, which has no primary key", r.t.Qualified())
		}
		var c delta.Change = delta.Insert{Row: row}
		if !unknown.Empty() {
			c = delta.PartialUpdate{Row: row, Unknown: unknown}
		}
		d.add(r, c, r.schema.KeyOf(old))
	default:
		if r.schema == nil {
			return pgerr.New(pgerr.ObjectNotInPrereqState, "an update of table %s without its old row; the table has no key", r.t.Qualified()).
				WithHint("ALTER TABLE %s REPLICA IDENTITY FULL upstream", r.t.Qualified())
		}
		d.add(r, delta.PartialUpdate{Row: row, Unknown: unknown}, nil)
	}
	return nil
}

// delete maps a Delete message, w after its relation's id: the old row
// (FULL) is a complete deletion, the key alone (DEFAULT) a true partial
// deletion.
func (d *decoder) delete(id uint32, w *wire) error {
	r, err := d.rel(id)
	if err != nil {
		return err
	}
	kind := w.byte()
	if kind != 'K' && kind != 'O' {
		return truncated("Delete")
	}
	old, _, err := r.row(w)
	if err != nil {
		return err
	}
	if kind == 'O' {
		d.add(r, delta.Delete{Row: old}, nil)
		return nil
	}
	if r.schema == nil {
		return pgerr.New(pgerr.ProtocolViolation, "a deletion of table %s by key, which has none", r.t.Qualified())
	}
	d.add(r, delta.TruePartialDelete{KeyVals: r.schema.KeyOf(old)}, nil)
	return nil
}

// truncate maps TRUNCATE: every row of each table goes.
func (d *decoder) truncate(m *pglogrepl.TruncateMessage) error {
	for _, id := range m.RelationIDs {
		r, err := d.rel(id)
		if err != nil {
			return err
		}
		d.tx = append(d.tx, engine.SourceChange{Table: r.t.Local, Truncate: true})
	}
	return nil
}
