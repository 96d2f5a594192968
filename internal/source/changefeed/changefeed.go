// Package changefeed reads change events, one JSON document a line, as
// the seven kinds of delta.Change of a keyed table: Debezium's change
// events (with or without the schema/payload envelope) and the records of
// an upsert topic ({"key": …, "value": … | null}).
//
// Events are grouped into source transactions by the envelope's
// transaction id (transaction.id, else source.txId): each maximal run of
// events with the same id is one transaction, and without ids the whole
// input is one. A decoder yields one batch per transaction; it reads the
// first event of the next transaction before yielding one, so a malformed
// line voids the transaction it would have ended.
package changefeed

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/source"
	"github.com/deltaview/deltaview/internal/value"
)

// unavailable is Debezium's placeholder for an unchanged column it did not
// send (a TOASTed value): an unknown column, never stored.
const unavailable = "__debezium_unavailable_value"

// Format is the kind of events a decoder reads.
type Format int

const (
	// Debezium change events: op c, r, u or d, with before and after.
	Debezium Format = iota
	// Upsert topic records: a value upserts the whole row, a null value
	// (a tombstone) deletes the key if present.
	Upsert
)

// Decoder reads events; see the package comment.
type Decoder struct {
	f    Format
	t    *source.Table
	s    *delta.Schema
	br   *bufio.Reader
	line int64
	eof  bool
	// next is the first event of the next transaction, read ahead.
	next     []delta.Change
	nextID   string
	nextLine int64
	b        source.Batch
	lim      source.Limits
	buf      []byte // the current line when it spans buffer reads
}

var _ source.Decoder = (*Decoder)(nil)

// NewDecoder returns a decoder of r's events of format f as changes of t,
// which must have a primary key.
func NewDecoder(r io.Reader, t *source.Table, f Format) (*Decoder, error) {
	s, err := t.Schema()
	if err != nil {
		return nil, err
	}
	return &Decoder{f: f, t: t, s: s, br: bufio.NewReaderSize(r, 1<<16), lim: source.Limits{}.WithDefaults()}, nil
}

// SetLimits bounds the length of an event's line and the events of one
// transaction; zero fields keep the defaults.
func (d *Decoder) SetLimits(l source.Limits) { d.lim = l.WithDefaults() }

// readLine returns the next line, valid until the next call, and io.EOF
// with the last one. A line over the limit is an error as soon as it is;
// one holding a NUL ends just after it, being invalid text whatever
// follows, so that input without line ends is refused at once.
func (d *Decoder) readLine() ([]byte, error) {
	d.buf = d.buf[:0]
	for {
		line, err := d.br.ReadSlice('\n')
		if len(d.buf)+len(line) > d.lim.MaxLine+2 { // +2: the line end
			return nil, source.LineTooLong(d.lim.MaxLine)
		}
		if err == bufio.ErrBufferFull {
			if nul := bytes.IndexByte(line, 0); nul >= 0 {
				return append(d.buf, line[:nul+1]...), nil
			}
			d.buf = append(d.buf, line...)
			continue
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		if len(d.buf) > 0 {
			d.buf = append(d.buf, line...)
			line = d.buf
		}
		return line, err
	}
}

// Next returns the changes of the next source transaction, in order, each
// with its line; More is always false.
func (d *Decoder) Next() (*source.Batch, error) {
	b := &d.b
	b.Changes, b.Lines = b.Changes[:0], b.Lines[:0]
	id := d.nextID
	for _, c := range d.next {
		b.Changes = append(b.Changes, c)
		b.Lines = append(b.Lines, d.nextLine)
	}
	d.next = nil
	for !d.eof {
		raw, rerr := d.readLine()
		d.line++
		if rerr != nil && rerr != io.EOF {
			if pe, ok := rerr.(*pgerr.Error); ok {
				return nil, source.At(pe, d.t.Name, d.line, "")
			}
			return nil, rerr
		}
		d.eof = rerr == io.EOF
		raw = bytes.TrimSpace(raw)
		// The JSON decoder would replace invalid UTF-8 silently.
		if !utf8.Valid(raw) || bytes.IndexByte(raw, 0) >= 0 {
			s := string(raw)
			return nil, source.At(value.InvalidTextError(s, value.InvalidTextAt(s)), d.t.Name, d.line, "")
		}
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		evs, evID, err := d.parse(raw)
		if err != nil {
			return nil, source.At(err, d.t.Name, d.line, "")
		}
		if evs == nil {
			continue
		}
		if len(b.Changes) > 0 && evID != id {
			d.next, d.nextID, d.nextLine = evs, evID, d.line
			return b, nil
		}
		id = evID
		if len(b.Changes)+len(evs) > d.lim.MaxEvents {
			return nil, source.At(source.TooManyEvents(d.lim.MaxEvents), d.t.Name, d.line, "")
		}
		for _, c := range evs {
			b.Changes = append(b.Changes, c)
			b.Lines = append(b.Lines, d.line)
		}
	}
	if len(b.Changes) == 0 {
		return nil, io.EOF
	}
	return b, nil
}

// parse reads one line of input.
func (d *Decoder) parse(line []byte) ([]delta.Change, string, error) {
	if d.f == Upsert {
		evs, err := parseUpsert(d.s, d.t, line)
		return evs, "", err
	}
	return parseDebezium(d.s, d.t, line)
}

// notObject says why a JSON text is not an object, in PostgreSQL's words
// rather than the decoder's.
func notObject(what string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return malformed("%s is a JSON %s, not an object", what, te.Value)
	}
	return malformed("invalid input syntax for type json: %s is not valid JSON", what)
}

func malformed(format string, args ...any) error {
	return pgerr.New(pgerr.InvalidTextRep, format, args...)
}

// jsonRow is a JSON object's fields as table t's columns: the row (NULL
// where absent or unavailable), which columns were present, and which held
// the unavailable-value placeholder.
type jsonRow struct {
	row         value.Row
	present     []bool
	unavailable delta.Cols
}

func parseRow(t *source.Table, raw json.RawMessage, what string) (*jsonRow, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, notObject(what, err)
	}
	r := &jsonRow{row: make(value.Row, len(t.Columns)), present: make([]bool, len(t.Columns))}
	idx := map[string]int{}
	for i, c := range t.Columns {
		idx[c.Name] = i
		r.row[i] = value.Null
	}
	for name, v := range fields {
		i, ok := idx[name]
		if !ok {
			return nil, malformed("%s has field %q, which table %s does not have", what, name, t.Name)
		}
		r.present[i] = true
		var s string
		if json.Unmarshal(v, &s) == nil && s == unavailable {
			r.unavailable = r.unavailable.With(i)
			continue
		}
		val, err := jsonValue(v, t.Columns[i].Type)
		if err != nil {
			pe := pgerr.Wrap(err)
			return nil, &pgerr.Error{Code: pe.Code, Message: fmt.Sprintf("%s, column %s: %s", what, name, pe.Message)}
		}
		r.row[i] = val
	}
	return r, nil
}

// jsonValue converts a JSON scalar to a value of type typ: strings,
// numbers and booleans are read as PostgreSQL reads their text; an object
// or array is the value of a json or jsonb column.
func jsonValue(raw json.RawMessage, typ value.Type) (value.Value, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0:
		return value.Null, malformed("empty value")
	case string(raw) == "null":
		return value.Null, nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return value.Null, malformed("invalid input syntax for type json")
		}
		if err := value.CheckText(s); err != nil { // \u0000
			return value.Null, err
		}
		return value.Parse(s, typ)
	case (raw[0] == '{' || raw[0] == '[') && typ.Kind.IsJSON():
		return value.Parse(string(raw), typ) // the document itself; a string holds a document's text
	case raw[0] == '{' || raw[0] == '[':
		return value.Null, malformed("a JSON object or array is not a column value")
	}
	return value.Parse(string(raw), typ)
}

// complete reports whether r holds every column, none unavailable.
func (r *jsonRow) complete() bool {
	for _, p := range r.present {
		if !p {
			return false
		}
	}
	return r.unavailable.Empty()
}

// keyOnly reports whether r says nothing but its key: every other column
// absent, NULL or unavailable.
func (r *jsonRow) keyOnly(s *delta.Schema) bool {
	for i := range r.row {
		if !s.IsKey(i) && r.present[i] && !r.unavailable.Has(i) && !r.row[i].IsNull() {
			return false
		}
	}
	return true
}

func (r *jsonRow) key(s *delta.Schema, what string) (value.Row, error) {
	for _, k := range s.Key {
		if !r.present[k] || r.unavailable.Has(k) || r.row[k].IsNull() {
			return nil, malformed("%s lacks key column %s", what, s.Columns[k])
		}
	}
	return s.KeyOf(r.row), nil
}

// parseDebezium reads one Debezium change event, with or without the
// schema/payload envelope, into changes of t, and its transaction id ("" if
// none). A tombstone (a null payload) gives no change.
func parseDebezium(s *delta.Schema, t *source.Table, line []byte) ([]delta.Change, string, error) {
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(line, &ev); err != nil {
		return nil, "", notObject("the event", err)
	}
	if p, ok := ev["payload"]; ok {
		if string(bytes.TrimSpace(p)) == "null" {
			return nil, "", nil
		}
		ev = nil
		if err := json.Unmarshal(p, &ev); err != nil {
			return nil, "", notObject("payload", err)
		}
	}
	var op string
	if err := json.Unmarshal(ev["op"], &op); err != nil {
		return nil, "", malformed("the event has no op")
	}
	id := TxID(ev)
	side := func(name string) (*jsonRow, error) {
		raw, ok := ev[name]
		if !ok || string(bytes.TrimSpace(raw)) == "null" {
			return nil, nil
		}
		return parseRow(t, raw, name)
	}
	before, err := side("before")
	if err != nil {
		return nil, "", err
	}
	after, err := side("after")
	if err != nil {
		return nil, "", err
	}
	needAfter := func() error {
		if after == nil {
			return malformed("op %q has no after", op)
		}
		if _, err := after.key(s, "after"); err != nil {
			return err
		}
		return nil
	}
	insert := func() (delta.Change, error) {
		if err := needAfter(); err != nil {
			return nil, err
		}
		if !after.complete() {
			return nil, malformed("op %q: after must hold every column of %s, with no unavailable value", op, t.Name)
		}
		return delta.Insert{Row: after.row}, nil
	}
	switch op {
	case "c", "r":
		c, err := insert()
		return []delta.Change{c}, id, err
	case "u":
		if err := needAfter(); err != nil {
			return nil, "", err
		}
		for i, p := range after.present {
			if !p {
				return nil, "", malformed("op \"u\": after lacks column %s (send the unavailable-value placeholder for an unchanged one)", t.Columns[i].Name)
			}
		}
		newKey := s.KeyOf(after.row)
		if before != nil {
			oldKey, err := before.key(s, "before")
			if err != nil {
				return nil, "", err
			}
			if value.CompareRows(oldKey, newKey) != 0 { // the key changed
				del := delta.Change(delta.TruePartialDelete{KeyVals: oldKey})
				if before.complete() {
					del = delta.Delete{Row: before.row}
				}
				ins, err := insert()
				return []delta.Change{del, ins}, id, err
			}
			if before.complete() && !before.keyOnly(s) {
				n := append(value.Row(nil), after.row...)
				for _, i := range after.unavailable.Slice() {
					n[i] = before.row[i]
				}
				return []delta.Change{delta.Update{Old: before.row, New: n}}, id, nil
			}
		}
		return []delta.Change{delta.PartialUpdate{Row: after.row, Unknown: after.unavailable}}, id, nil
	case "d":
		if before == nil {
			return nil, "", malformed("op \"d\" has no before: the key of the deleted row is unknown")
		}
		key, err := before.key(s, "before")
		if err != nil {
			return nil, "", err
		}
		if before.complete() && !before.keyOnly(s) {
			return []delta.Change{delta.Delete{Row: before.row}}, id, nil
		}
		return []delta.Change{delta.TruePartialDelete{KeyVals: key}}, id, nil
	}
	return nil, "", malformed("op %q is not one of c, r, u, d", op)
}

// TxID returns a Debezium event's transaction id: transaction.id, else
// source.txId, else "". Events with one id form one source transaction.
func TxID(ev map[string]json.RawMessage) string {
	var tr struct {
		ID json.RawMessage `json:"id"`
	}
	if raw, ok := ev["transaction"]; ok && json.Unmarshal(raw, &tr) == nil && len(tr.ID) > 0 && string(tr.ID) != "null" {
		return string(tr.ID)
	}
	var src struct {
		TxID json.RawMessage `json:"txId"`
	}
	if raw, ok := ev["source"]; ok && json.Unmarshal(raw, &src) == nil && len(src.TxID) > 0 && string(src.TxID) != "null" {
		return string(src.TxID)
	}
	return ""
}

// parseUpsert reads one line {"key": …, "value": …} of an upsert topic: a
// value is an upsert of the whole row, a null value (a tombstone) a safe
// deletion of the key. A key of one column may be given as a bare value.
func parseUpsert(s *delta.Schema, t *source.Table, line []byte) ([]delta.Change, error) {
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(line, &ev); err != nil {
		return nil, notObject("the event", err)
	}
	rawKey, ok := ev["key"]
	if !ok {
		return nil, malformed("the event has no key")
	}
	var key value.Row
	if k := bytes.TrimSpace(rawKey); len(k) > 0 && k[0] != '{' {
		if len(s.Key) != 1 {
			return nil, malformed("the key of %s has %d columns: give it as an object", t.Name, len(s.Key))
		}
		v, err := jsonValue(k, t.Columns[s.Key[0]].Type)
		if err != nil {
			return nil, err
		}
		if v.IsNull() {
			return nil, malformed("the key is null")
		}
		key = value.Row{v}
	} else {
		kr, err := parseRow(t, rawKey, "key")
		if err != nil {
			return nil, err
		}
		if key, err = kr.key(s, "key"); err != nil {
			return nil, err
		}
		for i, p := range kr.present {
			if p && !s.IsKey(i) {
				return nil, malformed("key has field %q, which is not a key column of %s", t.Columns[i].Name, t.Name)
			}
		}
	}
	rawVal, ok := ev["value"]
	if !ok || string(bytes.TrimSpace(rawVal)) == "null" {
		return []delta.Change{delta.SafePartialDelete{KeyVals: key}}, nil
	}
	vr, err := parseRow(t, rawVal, "value")
	if err != nil {
		return nil, err
	}
	if !vr.unavailable.Empty() {
		return nil, malformed("value holds the unavailable-value placeholder: an upsert must carry the whole row")
	}
	for ki, k := range s.Key {
		if vr.present[k] && value.Compare(vr.row[k], key[ki]) != 0 {
			return nil, malformed("value's %s is %s, the key's %s", t.Columns[k].Name, vr.row[k], key[ki])
		}
		vr.row[k], vr.present[k] = key[ki], true
	}
	for i, p := range vr.present {
		if !p {
			return nil, malformed("value lacks column %s: an upsert must carry the whole row", t.Columns[i].Name)
		}
	}
	return []delta.Change{delta.Upsert{Row: vr.row}}, nil
}
