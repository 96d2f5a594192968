package plpgsql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// prep returns pe's SQL prepared in the current frame; the first run's
// preparation serves every later one, whose frame holds the same names.
func (c *call) prep(pe *pexpr) (*prepared, error) {
	conflict := c.conflict()
	if pe.prep != nil && pe.prep.st.VarConflict == conflict {
		return pe.prep, nil
	}
	text := pe.text
	switch pe.mode {
	case 2:
		text = "SELECT " + text
	case 3, 4, 5:
		target, rhs := splitAssign(text)
		if strings.ContainsRune(target, '[') {
			p, err := prepareAssign(target, rhs, c.fr, conflict)
			if err != nil {
				return nil, err
			}
			pe.prep = p
			return p, nil
		}
		text = "SELECT " + rhs
	}
	p, err := prepare(text, c.fr, conflict)
	if err != nil {
		return nil, err
	}
	pe.prep = p
	return p, nil
}

// splitAssign splits "target := expression" (or "target = expression").
func splitAssign(text string) (target, rhs string) {
	depth := 0
	eq := -1
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; ch {
		case '"', '\'':
			j := strings.IndexByte(text[i+1:], ch)
			if j < 0 {
				return text, ""
			}
			i += j + 1
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ':':
			if depth == 0 && i+1 < len(text) && text[i+1] == '=' {
				return text[:i], text[i+2:]
			}
		case '=':
			if depth == 0 && eq < 0 {
				eq = i
			}
		}
	}
	if eq < 0 {
		return text, ""
	}
	return text[:eq], text[eq+1:]
}

// params are the types and values of a prepared statement's parameters,
// read from the variables now.
func (c *call) params(p *prepared) ([]value.Type, []value.Value, error) {
	types := make([]value.Type, len(p.refs))
	vals := make([]value.Value, len(p.refs))
	for i, r := range p.refs {
		v := c.fr.find(r.label, r.name)
		if v == nil {
			return nil, nil, pgerr.New(pgerr.Internal, "variable %q not found", r.name)
		}
		switch {
		case r.field != "":
			rec := v.rec
			if rec == nil {
				if v.rowType == nil {
					return nil, nil, unassigned(v.name)
				}
				rec = nullRecord(v.rowType) // a NULL of a row type has NULL fields
			}
			j := -1
			for k, col := range rec.cols {
				if col.Name == r.field {
					j = k
					break
				}
			}
			if j < 0 {
				return nil, nil, pgerr.New(pgerr.UndefinedColumn, "record %q has no field %q", v.name, r.field)
			}
			types[i], vals[i] = rec.cols[j].Type, rec.vals[j]
		case v.isRec && v.rec == nil && v.rowType != nil:
			types[i], vals[i] = v.t, value.Null
		case v.isRec && v.rec == nil:
			// An unassigned record read whole is NULL, as in PostgreSQL;
			// only its fields are not there to read.
			types[i], vals[i] = value.RecordType, value.Null
		case v.isRec:
			types[i], vals[i] = recordValue(v)
		default:
			types[i], vals[i] = v.t, v.value()
		}
	}
	return types, vals, nil
}

// run runs pe with the variables' values.
func (c *call) run(pe *pexpr) (*Result, error) {
	p, err := c.prep(pe)
	if err != nil {
		return nil, err
	}
	types, args, err := c.params(p)
	if err != nil {
		// PostgreSQL resolves the variables while it parses the query.
		return nil, queryContext(err, pe)
	}
	res, err := c.rt.Run(p.st, types, args, true)
	switch {
	case err == nil:
	case pe.mode == 0:
		return nil, statementContext(err, pe.text)
	case planned(err, p, pe):
		return nil, queryContext(err, pe)
	}
	return res, err
}

// queryContext gives err the context line of the query pe as PostgreSQL
// names it while it parses, plans or runs it as a query: SQL statement,
// SQL expression or PL/pgSQL assignment "…".
func queryContext(err error, pe *pexpr) error {
	e := pgerr.Wrap(err)
	if e.Context != "" || e.Position > 0 {
		return err
	}
	switch pe.mode {
	case 0:
		return e.WithContext(`SQL statement "` + pe.text + `"`)
	case 2:
		return e.WithContext(`SQL expression "` + pe.text + `"`)
	}
	return e.WithContext(`PL/pgSQL assignment "` + pe.text + `"`)
}

// planned reports whether PostgreSQL would raise err, an expression's
// run-time error, while planning or running it as a query, where its
// context names the expression: a data exception of an expression of
// constants, which its planner folds; any error of one with a subquery,
// which is no simple expression. A simple expression runs with no
// context of its own, and an error of a routine it calls has its own
// context already.
func planned(err error, p *prepared, pe *pexpr) bool {
	e := pgerr.Wrap(err)
	if e.Context != "" || e.Position > 0 {
		return false
	}
	if hasSubquery(pe.text) {
		return true
	}
	return len(p.refs) == 0 && strings.HasPrefix(e.Code, "22")
}

// hasSubquery reports whether expression text has a SELECT outside its
// string literals.
func hasSubquery(text string) bool {
	lower := strings.ToLower(text)
	for i := 0; i < len(lower); i++ {
		switch ch := lower[i]; {
		case ch == '\'', ch == '"':
			j := strings.IndexByte(lower[i+1:], ch)
			if j < 0 {
				return false
			}
			i += j + 1
		case strings.HasPrefix(lower[i:], "select") && (i == 0 || !identByte(lower[i-1])) &&
			(i+6 == len(lower) || !identByte(lower[i+6])):
			return true
		}
	}
	return false
}

func identByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

// statementContext gives an error that running the SQL statement text
// raised the context line PostgreSQL gives it (SQL statement "…"); an
// error of its binding, which has a position, has none, as PostgreSQL
// shows the query instead. An expression's is queryContext's.
func statementContext(err error, text string) error {
	pe := pgerr.Wrap(err)
	if pe.Position > 0 {
		return err
	}
	return pe.WithContext(`SQL statement "` + text + `"`)
}

// scalar evaluates an expression: one column, at most one row (NULL for
// none).
func (c *call) scalar(pe *pexpr) (value.Value, value.Type, error) {
	res, err := c.run(pe)
	if err != nil {
		return value.Null, value.Type{}, err
	}
	if len(res.Cols) != 1 {
		return value.Null, value.Type{}, pgerr.New(pgerr.SyntaxError, "query %q returned %d columns", queryText(pe), len(res.Cols))
	}
	switch len(res.Rows) {
	case 0:
		return value.Null, res.Cols[0].Type, nil
	case 1:
		return res.Rows[0][0], res.Cols[0].Type, nil
	}
	return value.Null, value.Type{}, pgerr.New(pgerr.CardinalityViolation, "query %q returned more than one row", queryText(pe))
}

// queryText is the query PostgreSQL names in messages about pe.
func queryText(pe *pexpr) string {
	if pe.mode == 0 {
		return pe.text
	}
	if pe.mode >= 3 {
		_, rhs := splitAssign(pe.text)
		return "SELECT " + strings.TrimSpace(rhs)
	}
	return "SELECT " + pe.text
}

// boolean evaluates a condition: NULL is false.
func (c *call) boolean(pe *pexpr) (bool, error) {
	v, _, err := c.scalar(pe)
	if err != nil || v.IsNull() {
		return false, err
	}
	b, err := c.rt.Assign(v, value.BoolType)
	if err != nil {
		return false, err
	}
	return b.Bool(), nil
}

// text evaluates an expression to its type's text output; ok is false
// for NULL.
func (c *call) text(pe *pexpr) (s string, ok bool, err error) {
	v, _, err := c.scalar(pe)
	if err != nil || v.IsNull() {
		return "", false, err
	}
	return v.String(), true, nil
}
