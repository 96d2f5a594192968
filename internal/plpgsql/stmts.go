package plpgsql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

func (c *call) stmts(ss []stmt) (control, error) {
	for _, s := range ss {
		ct, err := c.stmt(s)
		if err != nil || ct.kind != ctlNone {
			return ct, err
		}
	}
	return control{}, nil
}

// stmt runs a statement; its error, when no statement inside it placed
// it, says where it arose (PL/pgSQL function f(integer) line 3 at RAISE).
func (c *call) stmt(s stmt) (control, error) {
	saved := c.cur
	c.cur = s
	ct, err := c.exec(s)
	c.cur = saved
	if err != nil && !c.placed {
		err = c.place(err, fmt.Sprintf(" line %d at %s", c.f.lines[s], stmtKind(s)))
	}
	return ct, err
}

func (c *call) exec(s stmt) (control, error) {
	switch s := s.(type) {
	case *block:
		return c.block(s)
	case *assign:
		v, t, err := c.scalar(s.e)
		if err != nil {
			return control{}, err
		}
		if d := c.f.datums[s.target]; d.field == "" {
			if rv, err := c.variable(s.target); err == nil && rv.isRec {
				return control{}, c.setRecord(rv, v, t)
			}
		}
		return control{}, c.assignDatum(s.target, v)
	case *ifStmt:
		for i, cond := range s.conds {
			ok, err := c.boolean(cond)
			if err != nil {
				return control{}, err
			}
			if ok {
				return c.stmts(s.bodies[i])
			}
		}
		return c.stmts(s.els)
	case *caseStmt:
		return c.caseStmt(s)
	case *loop:
		return c.loop(s)
	case *forInt:
		return c.forInt(s)
	case *forQuery:
		return c.forQuery(s)
	case *foreach:
		return c.foreach(s)
	case *exitStmt:
		if s.cond != nil {
			ok, err := c.boolean(s.cond)
			if err != nil || !ok {
				return control{}, err
			}
		}
		if s.exit {
			return control{kind: ctlExit, label: s.label}, nil
		}
		return control{kind: ctlContinue, label: s.label}, nil
	case *returnStmt:
		return c.returnStmt(s)
	case *returnNext:
		return control{}, c.returnNext(s)
	case *returnQuery:
		return control{}, c.returnQuery(s)
	case *raise:
		return control{}, c.raise(s)
	case *assertStmt:
		return control{}, c.assert(s)
	case *execSQL:
		return control{}, c.execSQL(s)
	case *dynExecute:
		return control{}, c.dynExecute(s)
	case *perform:
		res, err := c.run(s.e)
		if err != nil {
			return control{}, err
		}
		c.rowCount = res.Count
		c.setFound(res.Count > 0)
		return control{}, nil
	case *getDiag:
		return control{}, c.getDiag(s)
	case *openStmt:
		return control{}, c.open(s)
	case *fetchStmt:
		return control{}, c.fetch(s)
	case *closeStmt:
		return control{}, c.closeCursor(s)
	case *forCursor:
		return c.forCursor(s)
	case *nullStmt:
		return control{}, nil
	case *txEnd:
		return control{}, c.endTransaction(s)
	case *callStmt:
		return control{}, c.callProc(s)
	}
	return control{}, pgerr.New(pgerr.Internal, "unhandled PL/pgSQL statement %T", s)
}

func (c *call) setFound(b bool) {
	if v := c.vars[c.f.found]; v != nil {
		v.v = value.NewBool(b)
	}
}

// found is FOUND's value.
func (c *call) found() bool {
	if c.f.found >= len(c.vars) {
		return false
	}
	v := c.vars[c.f.found]
	return v != nil && v.v.Kind() == value.Bool && v.v.Bool()
}

func (c *call) caseStmt(s *caseStmt) (control, error) {
	if s.test != nil {
		v, t, err := c.scalar(s.test)
		if err != nil {
			return control{}, err
		}
		c.implicit(s.testVar, t).v = v
	}
	for i, w := range s.whens {
		ok, err := c.boolean(w)
		if err != nil {
			return control{}, err
		}
		if ok {
			return c.stmts(s.bodies[i])
		}
	}
	if !s.hasElse {
		return control{}, pgerr.New("20000", "case not found").WithHint("CASE statement is missing ELSE part.")
	}
	return c.stmts(s.els)
}

// iterate runs a loop's body once: stop says the loop ends, with ct to
// pass on (a RETURN, or an EXIT or CONTINUE of an outer label).
func (c *call) iterate(label string, body []stmt) (stop bool, ct control, err error) {
	if c.intr != nil {
		// A cancellation point: a loop that runs no statement would
		// otherwise never see a cancel.
		if c.ticks++; c.ticks%interruptEvery == 0 {
			if err := c.intr.Interrupted(); err != nil {
				return true, control{}, err
			}
		}
	}
	ct, err = c.stmts(body)
	if err != nil {
		return true, ct, err
	}
	switch ct.kind {
	case ctlExit:
		if ct.label == "" || ct.label == label {
			return true, control{}, nil
		}
		return true, ct, nil
	case ctlContinue:
		if ct.label == "" || ct.label == label {
			return false, control{}, nil
		}
		return true, ct, nil
	case ctlReturn:
		return true, ct, nil
	}
	return false, control{}, nil
}

// interruptEvery is how many iterations of loops pass between two looks
// at the runtime's interrupt (Interrupter).
const interruptEvery = 64

func (c *call) loop(s *loop) (control, error) {
	for {
		if s.cond != nil {
			ok, err := c.boolean(s.cond)
			if err != nil || !ok {
				return control{}, err
			}
		}
		if stop, ct, err := c.iterate(s.label, s.body); stop {
			return ct, err
		}
	}
}

// bound evaluates a bound of an integer FOR loop.
func (c *call) bound(pe *pexpr, what string) (int64, error) {
	v, _, err := c.scalar(pe)
	if err != nil {
		return 0, err
	}
	if v.IsNull() {
		return 0, pgerr.New("22004", "%s of FOR loop cannot be null", what)
	}
	n, err := c.rt.Assign(v, value.Int4Type)
	if err != nil {
		return 0, err
	}
	return n.Int(), nil
}

func (c *call) forInt(s *forInt) (control, error) {
	lo, err := c.bound(s.lower, "lower bound")
	if err != nil {
		return control{}, err
	}
	hi, err := c.bound(s.upper, "upper bound")
	if err != nil {
		return control{}, err
	}
	step := int64(1)
	if s.step != nil {
		if step, err = c.bound(s.step, "BY value"); err != nil {
			return control{}, err
		}
		if step <= 0 {
			return control{}, pgerr.New(pgerr.InvalidParameter, "BY value of FOR loop must be greater than zero")
		}
	}
	saved := c.fr
	c.fr = newFrame(saved, s.label)
	defer func() { c.fr = saved }()
	v := &variable{name: s.name, t: value.Int4Type}
	c.fr.vars[s.name] = v
	if s.dno >= 0 {
		c.vars[s.dno] = v
	}
	found := false
	for i := lo; s.reverse && i >= hi || !s.reverse && i <= hi; {
		found = true
		v.v = value.NewInt(value.Int4, i)
		stop, ct, err := c.iterate(s.label, s.body)
		if stop {
			c.setFound(true)
			return ct, err
		}
		if s.reverse {
			i -= step
		} else {
			i += step
		}
		if i > math.MaxInt32 || i < math.MinInt32 {
			break
		}
	}
	c.setFound(found)
	return control{}, nil
}

func (c *call) forQuery(s *forQuery) (control, error) {
	var res *Result
	var err error
	if s.dyn {
		res, _, err = c.dynamic(s.query, s.params)
	} else {
		res, err = c.run(s.query)
	}
	if err != nil {
		return control{}, err
	}
	c.nextPortal() // PostgreSQL reads the rows through a portal
	if h, ok := c.rt.(Holder); ok {
		defer h.HoldLast()()
	}
	saved := c.fr
	c.fr = newFrame(saved, s.label)
	defer func() { c.fr = saved }()
	for _, row := range res.Rows {
		if err := c.into(s.target, res, row); err != nil {
			return control{}, err
		}
		if stop, ct, err := c.iterate(s.label, s.body); stop {
			c.setFound(true)
			return ct, err
		}
	}
	if len(res.Rows) == 0 {
		// As PostgreSQL's, a loop over no rows sets its target to NULL:
		// a record takes the query's columns with NULL fields.
		if err := c.into(s.target, res, nil); err != nil {
			return control{}, err
		}
	}
	c.setFound(len(res.Rows) > 0)
	return control{}, nil
}

// assignElement assigns an element of FOREACH's array, of type t, to
// its target: a record variable takes a composite element whole, a list
// of variables its fields in order (NULLs for a NULL element), another
// variable the element (a sub-array under SLICE).
func (c *call) assignElement(dno int, e value.Value, t value.Type, slice bool) error {
	d := c.f.datums[dno]
	if !slice && len(d.fields) > 0 && d.cursor == nil {
		var fields []value.Value
		if !e.IsNull() {
			if e.Kind() != value.Record {
				return pgerr.New(pgerr.DatatypeMismatch, "cannot assign non-composite value to a row variable")
			}
			fields = e.Fields()
		}
		for i, f := range d.fields {
			v := value.Null
			if i < len(fields) {
				v = fields[i]
			}
			if err := c.assignDatum(f, v); err != nil {
				return err
			}
		}
		return nil
	}
	if !slice && d.field == "" {
		if rv, err := c.variable(dno); err == nil && rv.isRec {
			return c.setRecord(rv, e, t)
		}
	}
	return c.assignDatum(dno, e)
}

func (c *call) foreach(s *foreach) (control, error) {
	arr, t, err := c.scalar(s.e)
	if err != nil {
		return control{}, err
	}
	if arr.IsNull() {
		return control{}, pgerr.New("22004", "FOREACH expression must not be null")
	}
	if !t.Kind.IsArray() {
		return control{}, pgerr.New(pgerr.DatatypeMismatch, "FOREACH expression must yield an array, not type %s", t)
	}
	items := arr.Elems()
	if s.slice > 0 {
		if items, err = c.slices(s, arr); err != nil {
			return control{}, err
		}
	}
	saved := c.fr
	c.fr = newFrame(saved, s.label)
	defer func() { c.fr = saved }()
	for _, e := range items {
		if err := c.assignElement(s.target, e, t.ElemType(), s.slice > 0); err != nil {
			return control{}, err
		}
		if stop, ct, err := c.iterate(s.label, s.body); stop {
			c.setFound(true)
			return ct, err
		}
	}
	c.setFound(len(items) > 0)
	return control{}, nil
}

// slices are the sub-arrays FOREACH … SLICE n walks: those of the array's
// last n dimensions, in order, each keeping their bounds.
func (c *call) slices(s *foreach, arr value.Value) ([]value.Value, error) {
	v, err := c.variable(s.target)
	if err != nil {
		return nil, err
	}
	if !v.t.Kind.IsArray() {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "FOREACH ... SLICE loop variable must be of an array type")
	}
	dims := arr.Dims()
	if s.slice > len(dims) {
		return nil, pgerr.New("2202E", "slice dimension (%d) is out of the valid range 0..%d", s.slice, len(dims))
	}
	inner := dims[len(dims)-s.slice:]
	size := 1
	for _, d := range inner {
		size *= d.Len
	}
	elems := arr.Elems()
	var out []value.Value
	for i := 0; i+size <= len(elems); i += size {
		part := append([]value.Value(nil), elems[i:i+size]...)
		out = append(out, value.NewArrayDims(arr.Kind(), part, append([]value.Dim(nil), inner...)))
	}
	return out, nil
}

// into puts a row of res into a target.
func (c *call) into(t target, res *Result, row value.Row) error {
	if t.rec >= 0 {
		v, err := c.variable(t.rec)
		if err != nil {
			return err
		}
		return c.setRow(v, res.Cols, row)
	}
	if len(t.fields) == 1 {
		if v := c.vars[t.fields[0]]; v != nil && v.isRec {
			return c.setRow(v, res.Cols, row)
		}
	}
	for i, dno := range t.fields {
		val := value.Null
		if i < len(row) {
			val = row[i]
		}
		if err := c.assignDatum(dno, val); err != nil {
			return err
		}
	}
	return nil
}

// intoResult puts the one row of a statement's result into a target:
// STRICT wants exactly one; a data change's RETURNING at most one.
// params names the statement's parameters for the DETAIL of a STRICT
// error under print_strict_params; dynamic says that the statement is
// EXECUTE's, whose error has no HINT.
func (c *call) intoResult(t target, res *Result, strict, change, dynamic bool, params func() string) error {
	var err *pgerr.Error
	switch n := len(res.Rows); {
	case n == 0 && strict:
		err = pgerr.New("P0002", "query returned no rows")
	case n > 1 && (strict || change):
		err = pgerr.New("P0003", "query returned more than one row")
		if !dynamic {
			err = err.WithHint("Make sure the query returns a single row, or use LIMIT 1.")
		}
	case n == 0:
		return c.into(t, res, nil)
	default:
		return c.into(t, res, res.Rows[0])
	}
	if strict && c.printStrictParams() {
		if p := params(); p != "" {
			err = err.WithDetail("parameters: %s", p)
		}
	}
	return err
}

// strictParams is the DETAIL's list of a STRICT statement's parameters,
// name = 'value' (NULL unquoted), as PostgreSQL prints them.
func strictParamList(names []string, vals []value.Value) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(names[i] + " = ")
		if v.IsNull() {
			b.WriteString("NULL")
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(v.String(), "'", "''") + "'")
	}
	return b.String()
}

// staticParams lists the variables a statement reads, with their values.
func (c *call) staticParams(p *prepared) string {
	_, vals, err := c.params(p)
	if err != nil {
		return ""
	}
	names := make([]string, len(p.refs))
	for i, r := range p.refs {
		names[i] = r.name
		if r.field != "" {
			names[i] = r.name + "." + r.field
		}
	}
	return strictParamList(names, vals)
}

func (c *call) execSQL(s *execSQL) error {
	if s.final {
		defer c.finalRun()()
	}
	res, err := c.run(s.sql)
	if err != nil {
		return err
	}
	p := s.sql.prep
	if !s.into {
		if err := noDestination(p.st, res); err != nil {
			return err
		}
	}
	c.rowCount = res.Count
	if s.into && p.st.Node.GetSelectStmt() != nil {
		// PostgreSQL stops a query INTO at the row it needs: the first,
		// or the second that STRICT refuses.
		limit := int64(1)
		if s.strict {
			limit = 2
		}
		c.rowCount = min(c.rowCount, limit)
	}
	if s.into {
		params := func() string { return c.staticParams(p) }
		if err := c.intoResult(s.target, res, s.strict, p.st.Node.GetSelectStmt() == nil, false, params); err != nil {
			return err
		}
	}
	c.setFound(res.Count > 0)
	return nil
}

// noDestination is PostgreSQL's error for a statement of the body that
// returned rows without INTO to put them in: a query, a data change's
// RETURNING, a utility statement's rows (SHOW, EXPLAIN). CALL puts its
// rows into its arguments.
func noDestination(st *sql.Stmt, res *Result) error {
	if st.Node.GetCallStmt() != nil {
		return nil
	}
	if st.Node.GetSelectStmt() != nil {
		return pgerr.New(pgerr.SyntaxError, "query has no destination for result data").
			WithHint("If you want to discard the results of a SELECT, use PERFORM instead.")
	}
	if len(res.Cols) > 0 {
		return pgerr.New(pgerr.SyntaxError, "query has no destination for result data")
	}
	return nil
}

// dynamic runs EXECUTE's query string with USING's values as $1…$n.
func (c *call) dynamic(query *pexpr, params []*pexpr) (*Result, []value.Value, error) {
	q, ok, err := c.text(query)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, pgerr.New("22004", "query string argument of EXECUTE is null")
	}
	types := make([]value.Type, len(params))
	args := make([]value.Value, len(params))
	for i, p := range params {
		if args[i], types[i], err = c.scalar(p); err != nil {
			return nil, nil, err
		}
	}
	st, err := sql.Parse(q)
	if err != nil {
		return nil, nil, err
	}
	if st == nil || st.Node == nil {
		return nil, nil, pgerr.New(pgerr.SyntaxError, "cannot execute an empty query string")
	}
	res, err := c.rt.Run(st, types, args, false)
	if err != nil {
		return nil, nil, statementContext(err, q)
	}
	c.dynText = q
	return res, args, nil
}

func (c *call) dynExecute(s *dynExecute) error {
	if s.final {
		defer c.finalRun()()
	}
	res, args, err := c.dynamic(s.query, s.params)
	if err != nil {
		return err
	}
	c.rowCount = res.Count
	if s.into {
		params := func() string {
			names := make([]string, len(args))
			for i := range args {
				names[i] = "$" + strconv.Itoa(i+1)
			}
			return strictParamList(names, args)
		}
		return c.intoResult(s.target, res, s.strict, false, true, params)
	}
	return nil
}

func (c *call) returnStmt(s *returnStmt) (control, error) {
	if s.e != nil && !c.f.sig.Set {
		v, t, err := c.scalar(s.e)
		if err != nil {
			return control{}, err
		}
		switch {
		case c.f.sig.Composite:
			// Cast to the result type when the body ends (castResult).
		case len(c.f.sig.Result) == 1 && !v.IsNull():
			if v, err = c.rt.Assign(v, c.f.sig.Result[0].Type); err != nil {
				return control{}, err
			}
		case c.f.sig.Trigger && !v.IsNull() && v.Kind() != value.Record:
			return control{}, pgerr.New(pgerr.DatatypeMismatch, "cannot return non-composite value from function returning composite type")
		}
		c.ret, c.retType = v, t
	}
	return control{kind: ctlReturn}, nil
}

func (c *call) returnNext(s *returnNext) error {
	cols := c.f.sig.Result
	if s.e == nil {
		c.rows = append(c.rows, c.outs())
		return nil
	}
	if s.e.mode == 2 {
		if v := c.fr.find("", s.e.text); v != nil && v.isRec {
			if v.rec == nil && v.rowType != nil {
				return c.addRow(nullRecord(v.rowType).vals)
			}
			if v.rec == nil {
				return unassigned(v.name)
			}
			if c.f.sig.Composite {
				types := make([]value.Type, len(v.rec.cols))
				for i, col := range v.rec.cols {
					types[i] = col.Type
				}
				if err := c.checkRecord(types, "wrong record type supplied in RETURN NEXT"); err != nil {
					return err
				}
			}
			return c.addRow(v.rec.vals)
		}
	}
	v, t, err := c.scalar(s.e)
	if err != nil {
		return err
	}
	if c.f.sig.Composite && (t.Kind == value.Record || v.IsNull()) {
		row := v.Fields()
		if err := c.checkRecord(fieldTypes(t), "returned record type does not match expected record type"); err != nil && !v.IsNull() {
			return err
		}
		if v.IsNull() {
			row = make(value.Row, len(cols))
			for i := range row {
				row[i] = value.Null
			}
		}
		return c.addRow(row)
	}
	if len(cols) != 1 {
		return pgerr.New(pgerr.DatatypeMismatch, "wrong record type supplied in RETURN NEXT")
	}
	return c.addRow(value.Row{v})
}

// castResult casts the record RETURN gave to the function's composite
// result type, as PostgreSQL does once the body has returned.
func (c *call) castResult() error {
	if c.ret.IsNull() {
		return nil
	}
	if err := c.checkRecord(fieldTypes(c.retType), "returned record type does not match expected record type"); err != nil {
		return err
	}
	row, err := c.resultRow(c.ret.Fields())
	if err != nil {
		return err
	}
	c.ret = value.NewRecord(row)
	return nil
}

// checkRecord checks that a record of fields of these types is of the
// function's row type, as PostgreSQL converts a record to it: the same
// number of fields, of the same types (no cast); msg is the error's. A
// record whose fields are not known (nil) is not checked.
func (c *call) checkRecord(types []value.Type, msg string) error {
	if types == nil {
		return nil
	}
	want := c.f.sig.Result
	if len(types) != len(want) {
		return pgerr.New(pgerr.DatatypeMismatch, "%s", msg).
			WithDetail("Number of returned columns (%d) does not match expected column count (%d).", len(types), len(want))
	}
	for i, t := range types {
		if t.Kind != want[i].Type.Kind {
			return pgerr.New(pgerr.DatatypeMismatch, "%s", msg).
				WithDetail("Returned type %s does not match expected type %s in column %d.", t, want[i].Type, i+1)
		}
	}
	return nil
}

// fieldTypes are the types of the fields of a record type; nil when
// they are not known.
func fieldTypes(t value.Type) []value.Type {
	if t.Kind != value.Record {
		return nil
	}
	d := t.RecordDesc()
	if d == nil {
		return nil
	}
	out := make([]value.Type, len(d.Fields))
	for i, f := range d.Fields {
		out[i] = f.Type
	}
	return out
}

// addRow adds a row to a set-returning function's result, each value
// converted to its column's type.
func (c *call) addRow(row value.Row) error {
	out, err := c.resultRow(row)
	if err != nil {
		return err
	}
	c.rows = append(c.rows, out)
	return nil
}

// resultRow converts a row to the function's result columns.
func (c *call) resultRow(row value.Row) (value.Row, error) {
	cols := c.f.sig.Result
	if len(row) != len(cols) {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "structure of query does not match function result type").
			WithDetail("Number of returned columns (%d) does not match expected column count (%d).", len(row), len(cols))
	}
	out := make(value.Row, len(row))
	for i, v := range row {
		out[i] = value.Null
		if !v.IsNull() {
			var err error
			if out[i], err = c.rt.Assign(v, cols[i].Type); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// sameColumns checks that RETURN QUERY's columns are the function's, of
// the same types, as PostgreSQL wants them (no cast).
func (c *call) sameColumns(cols []plan.Column) error {
	want := c.f.sig.Result
	if len(cols) != len(want) {
		return pgerr.New(pgerr.DatatypeMismatch, "structure of query does not match function result type").
			WithDetail("Number of returned columns (%d) does not match expected column count (%d).", len(cols), len(want))
	}
	for i, col := range cols {
		if k := col.Type.Kind; k != want[i].Type.Kind && k != value.Unknown {
			return pgerr.New(pgerr.DatatypeMismatch, "structure of query does not match function result type").
				WithDetail("Returned type %s does not match expected type %s in column %d.", col.Type, want[i].Type, i+1)
		}
	}
	return nil
}

func (c *call) returnQuery(s *returnQuery) error {
	var res *Result
	var err error
	if s.dyn != nil {
		res, _, err = c.dynamic(s.dyn, s.params)
	} else {
		res, err = c.run(s.query)
	}
	if err != nil {
		return err
	}
	if err := c.sameColumns(res.Cols); err != nil {
		// PostgreSQL checks the rows as the query runs.
		text := c.dynText
		if s.dyn == nil {
			text = s.query.text
		}
		return pgerr.Wrap(err).WithContext(`SQL statement "` + text + `"`)
	}
	for _, row := range res.Rows {
		if err := c.addRow(row); err != nil {
			return err
		}
	}
	c.rowCount = int64(len(res.Rows))
	c.setFound(len(res.Rows) > 0)
	return nil
}

func (c *call) getDiag(s *getDiag) error {
	var caught *pgerr.Error
	if s.stacked {
		if len(c.caught) == 0 {
			return pgerr.New("0Z002", "GET STACKED DIAGNOSTICS cannot be used outside an exception handler")
		}
		caught = c.caught[len(c.caught)-1]
	}
	for _, it := range s.items {
		var v value.Value
		switch it.kind {
		case "ROW_COUNT":
			v = value.NewInt(value.Int8, c.rowCount)
		case "RETURNED_SQLSTATE":
			v = value.NewText(value.Text, caught.Code)
		case "MESSAGE_TEXT":
			v = value.NewText(value.Text, caught.Message)
		case "PG_EXCEPTION_DETAIL":
			v = value.NewText(value.Text, caught.Detail)
		case "PG_EXCEPTION_HINT":
			v = value.NewText(value.Text, caught.Hint)
		case "PG_EXCEPTION_CONTEXT":
			v = value.NewText(value.Text, caught.Context)
		case "PG_CONTEXT":
			v = value.NewText(value.Text, c.pgContext(s))
		case "COLUMN_NAME":
			v = value.NewText(value.Text, caught.Column)
		case "CONSTRAINT_NAME":
			v = value.NewText(value.Text, caught.Constraint)
		case "PG_DATATYPE_NAME":
			v = value.NewText(value.Text, caught.DataType)
		case "TABLE_NAME":
			v = value.NewText(value.Text, caught.Table)
		case "SCHEMA_NAME":
			v = value.NewText(value.Text, caught.Schema)
		default:
			return pgerr.New(pgerr.FeatureNotSupported, "GET DIAGNOSTICS %s is not supported", it.kind)
		}
		if err := c.assignDatum(it.target, v); err != nil {
			return err
		}
	}
	return nil
}
