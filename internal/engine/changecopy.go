package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// COPY t FROM … WITH (FORMAT debezium | upsert) reads change events, one
// JSON document a line, and applies them as the seven kinds of
// delta.Change (applyChange). Events are grouped into transactions by the
// envelope's transaction id (transaction.id, else source.txId): each
// maximal run of events with the same id is one transaction, and without
// ids the whole COPY is one. Outside a transaction block each group is
// committed on its own, as one step of every view; inside one, the whole
// COPY joins the open transaction. A malformed event (22P02) or one that
// contradicts the state fails its transaction, naming the line; groups
// committed before it stay committed.

// unavailable is Debezium's placeholder for an unchanged column it did not
// send (a TOASTed value): an unknown column, never stored.
const unavailable = "__debezium_unavailable_value"

// copyEvent is one parsed change with where it came from.
type copyEvent struct {
	c    delta.Change
	line int64
}

// copyHook dispatches COPY by format: change events go to
// execChangeCopy; csv and text into a change-stream table are refused.
func (e *Engine) copyHook(c *sql.Copy) (Result, bool, error) {
	if c.Format == sql.CopyDebezium || c.Format == sql.CopyUpsert {
		res, err := e.execChangeCopy(c)
		return res, true, err
	}
	if t, ok := e.tables[c.Table]; ok && t.def.ChangeStream {
		return Result{}, true, changeStreamDML(t, "COPY rows into")
	}
	return Result{}, false, nil
}

func (e *Engine) execChangeCopy(c *sql.Copy) (Result, error) {
	t, ok := e.tables[c.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "cannot copy to system view %q", c.Table)
	}
	s, err := t.deltaSchema()
	if err != nil {
		return Result{}, err
	}
	r, done, err := e.copySource(c)
	if err != nil {
		return Result{}, err
	}
	defer done()
	explicit := e.tx != nil && e.tx.explicit
	mark := 0
	if explicit {
		mark = len(e.tx.log)
	}
	var n int64
	var group []copyEvent
	groupID, started := "", false
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		defer func() { group = group[:0] }()
		tx := e.begin()
		m := len(tx.log)
		for _, ev := range group {
			if err := e.applyChange(t, ev.c); err != nil {
				e.undoTo(m)
				if !explicit {
					e.tx = nil
				}
				return copyContext(pgerr.Wrap(err), t.name, ev.line, "")
			}
		}
		if !explicit {
			if err := e.commit(); err != nil {
				pe := *pgerr.Wrap(err)
				pe.Detail += fmt.Sprintf("\nCOPY %s, the transaction of lines %d to %d", t.name, group[0].line, group[len(group)-1].line)
				return &pe
			}
		}
		n += int64(len(group))
		return nil
	}
	fail := func(err error) (Result, error) {
		if explicit {
			e.undoTo(mark)
		}
		if n > 0 && !explicit {
			pe := *pgerr.Wrap(err)
			pe.Hint = fmt.Sprintf("the %d events before this transaction were committed", n)
			err = &pe
		}
		return Result{}, err
	}
	br := bufio.NewReaderSize(r, 1<<16)
	for lineNo := int64(1); ; lineNo++ {
		line, rerr := br.ReadBytes('\n')
		if rerr != nil && rerr != io.EOF {
			return fail(rerr)
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 && !bytes.Equal(line, []byte("null")) {
			var evs []delta.Change
			var id string
			var err error
			if c.Format == sql.CopyDebezium {
				evs, id, err = parseDebezium(s, t, line)
			} else {
				evs, err = parseUpsert(s, t, line)
			}
			if err != nil {
				return fail(copyContext(pgerr.Wrap(err), t.name, lineNo, ""))
			}
			if evs != nil {
				if started && id != groupID {
					if err := flush(); err != nil {
						return fail(err)
					}
				}
				groupID, started = id, true
				for _, ev := range evs {
					group = append(group, copyEvent{c: ev, line: lineNo})
				}
			}
		}
		if rerr == io.EOF {
			break
		}
	}
	if err := flush(); err != nil {
		return fail(err)
	}
	return Result{Tag: fmt.Sprintf("COPY %d", n)}, nil
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

func parseRow(t *table, raw json.RawMessage, what string) (*jsonRow, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, malformed("%s is not a JSON object: %v", what, err)
	}
	r := &jsonRow{row: make(value.Row, len(t.cols)), present: make([]bool, len(t.cols))}
	idx := map[string]int{}
	for i, c := range t.cols {
		idx[c.Name] = i
		r.row[i] = value.Null
	}
	for name, v := range fields {
		i, ok := idx[name]
		if !ok {
			return nil, malformed("%s has field %q, which table %s does not have", what, name, t.name)
		}
		r.present[i] = true
		var s string
		if json.Unmarshal(v, &s) == nil && s == unavailable {
			r.unavailable = r.unavailable.With(i)
			continue
		}
		val, err := jsonValue(v, t.cols[i].Type)
		if err != nil {
			pe := pgerr.Wrap(err)
			return nil, &pgerr.Error{Code: pe.Code, Message: fmt.Sprintf("%s, column %s: %s", what, name, pe.Message)}
		}
		r.row[i] = val
	}
	return r, nil
}

// jsonValue converts a JSON scalar to a value of type typ: strings,
// numbers and booleans are read as PostgreSQL reads their text.
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
			return value.Null, malformed("bad string: %v", err)
		}
		return value.Parse(s, typ)
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
func parseDebezium(s *delta.Schema, t *table, line []byte) ([]delta.Change, string, error) {
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(line, &ev); err != nil {
		return nil, "", malformed("not a JSON object: %v", err)
	}
	if p, ok := ev["payload"]; ok {
		if string(bytes.TrimSpace(p)) == "null" {
			return nil, "", nil
		}
		ev = nil
		if err := json.Unmarshal(p, &ev); err != nil {
			return nil, "", malformed("payload is not a JSON object: %v", err)
		}
	}
	var op string
	if err := json.Unmarshal(ev["op"], &op); err != nil {
		return nil, "", malformed("the event has no op")
	}
	id := txID(ev)
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
			return nil, malformed("op %q: after must hold every column of %s, with no unavailable value", op, t.name)
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
				return nil, "", malformed("op \"u\": after lacks column %s (send the unavailable-value placeholder for an unchanged one)", t.cols[i].Name)
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

// txID returns an event's transaction id: transaction.id, else
// source.txId, else "".
func txID(ev map[string]json.RawMessage) string {
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
func parseUpsert(s *delta.Schema, t *table, line []byte) ([]delta.Change, error) {
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(line, &ev); err != nil {
		return nil, malformed("not a JSON object: %v", err)
	}
	rawKey, ok := ev["key"]
	if !ok {
		return nil, malformed("the event has no key")
	}
	var key value.Row
	if k := bytes.TrimSpace(rawKey); len(k) > 0 && k[0] != '{' {
		if len(s.Key) != 1 {
			return nil, malformed("the key of %s has %d columns: give it as an object", t.name, len(s.Key))
		}
		v, err := jsonValue(k, t.cols[s.Key[0]].Type)
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
				return nil, malformed("key has field %q, which is not a key column of %s", t.cols[i].Name, t.name)
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
			return nil, malformed("value's %s is %s, the key's %s", t.cols[k].Name, vr.row[k], key[ki])
		}
		vr.row[k], vr.present[k] = key[ki], true
	}
	for i, p := range vr.present {
		if !p {
			return nil, malformed("value lacks column %s: an upsert must carry the whole row", t.cols[i].Name)
		}
	}
	return []delta.Change{delta.Upsert{Row: vr.row}}, nil
}
