// Package deltatest parses the text forms of schemas, rows and changes that
// the tests of the partial-delta packages use. Tests only.
package deltatest

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/value"
)

// Relation is a schema with column types, for parsing test input.
type Relation struct {
	S     *delta.Schema
	Types []value.Type
}

// ParseSchema reads "name:type name:type …" with the key columns given.
func ParseSchema(name, cols string, key []string) (*Relation, error) {
	r := &Relation{}
	var names []string
	for _, f := range strings.Fields(cols) {
		n, t, ok := strings.Cut(f, ":")
		if !ok {
			return nil, fmt.Errorf("column %q has no type", f)
		}
		typ, err := value.TypeFromName(t, nil)
		if err != nil {
			return nil, err
		}
		names = append(names, n)
		r.Types = append(r.Types, typ)
	}
	var keyIdx []int
	for _, k := range key {
		i := indexOf(names, k)
		if i < 0 {
			return nil, fmt.Errorf("no key column %s", k)
		}
		keyIdx = append(keyIdx, i)
	}
	s, err := delta.NewSchema(name, names, keyIdx)
	if err != nil {
		return nil, err
	}
	r.S = s
	return r, nil
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// ParseRow reads "(a, b, -)" with types; "-" is an unknown column (NULL,
// in the returned set), NULL is NULL.
func ParseRow(text string, types []value.Type) (value.Row, delta.Cols, error) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "(") || !strings.HasSuffix(text, ")") {
		return nil, nil, fmt.Errorf("row %q is not parenthesised", text)
	}
	parts := strings.Split(text[1:len(text)-1], ",")
	if len(parts) != len(types) {
		return nil, nil, fmt.Errorf("row %q has %d values, want %d", text, len(parts), len(types))
	}
	row := make(value.Row, len(parts))
	var unknown delta.Cols
	for i, p := range parts {
		p = strings.TrimSpace(p)
		switch p {
		case "-":
			unknown = unknown.With(i)
		case "NULL":
		default:
			v, err := value.Parse(p, types[i])
			if err != nil {
				return nil, nil, err
			}
			row[i] = v
		}
	}
	return row, unknown, nil
}

func (r *Relation) KeyTypes() []value.Type {
	var ts []value.Type
	for _, k := range r.S.Key {
		ts = append(ts, r.Types[k])
	}
	return ts
}

// ParseChange reads one change as Format prints it.
func (r *Relation) ParseChange(line string) (delta.Change, error) {
	kind, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	full := func() (value.Row, error) {
		row, u, err := ParseRow(rest, r.Types)
		if err == nil && !u.Empty() {
			err = fmt.Errorf("%s cannot have unknown columns", kind)
		}
		return row, err
	}
	key := func() (value.Row, error) {
		row, _, err := ParseRow(rest, r.KeyTypes())
		return row, err
	}
	switch kind {
	case "insert":
		row, err := full()
		return delta.Insert{Row: row}, err
	case "update":
		o, n, ok := strings.Cut(rest, "->")
		if !ok {
			return nil, fmt.Errorf("update needs old -> new")
		}
		old, _, err := ParseRow(o, r.Types)
		if err != nil {
			return nil, err
		}
		nw, _, err := ParseRow(n, r.Types)
		return delta.Update{Old: old, New: nw}, err
	case "partial-update":
		row, u, err := ParseRow(rest, r.Types)
		return delta.PartialUpdate{Row: row, Unknown: u}, err
	case "upsert":
		row, err := full()
		return delta.Upsert{Row: row}, err
	case "delete":
		row, err := full()
		return delta.Delete{Row: row}, err
	case "true-partial-delete":
		k, err := key()
		return delta.TruePartialDelete{KeyVals: k}, err
	case "safe-partial-delete":
		k, err := key()
		return delta.SafePartialDelete{KeyVals: k}, err
	}
	return nil, fmt.Errorf("unknown change kind %q", kind)
}

func (r *Relation) ParseBatch(input string) (delta.Batch, error) {
	var b delta.Batch
	for _, line := range strings.Split(input, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		c, err := r.ParseChange(line)
		if err != nil {
			return nil, err
		}
		b = append(b, c)
	}
	return b, nil
}

// ParseImplicit reads "+ (row)" lines into ΔR and "- (row) flag" lines
// into ∇R.
func (r *Relation) ParseImplicit(input string) (*delta.Implicit, error) {
	d := &delta.Implicit{Schema: r.S}
	for _, line := range strings.Split(input, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		switch line[0] {
		case '+':
			row, u, err := ParseRow(line[1:], r.Types)
			if err != nil {
				return nil, err
			}
			d.Ins = append(d.Ins, delta.Tuple{Row: row, Unknown: u})
		case '-':
			i := strings.LastIndex(line, ")")
			row, u, err := ParseRow(line[1:i+1], r.Types)
			if err != nil {
				return nil, err
			}
			var f delta.Flag
			switch strings.TrimSpace(line[i+1:]) {
			case "comp":
				f = delta.Comp
			case "pval":
				f = delta.PVal
			case "ptype":
				f = delta.PType
			default:
				return nil, fmt.Errorf("bad flag in %q", line)
			}
			d.Del = append(d.Del, delta.DelTuple{Row: row, Unknown: u, Flag: f})
		default:
			return nil, fmt.Errorf("line %q starts with neither + nor -", line)
		}
	}
	d.Sort()
	return d, nil
}
