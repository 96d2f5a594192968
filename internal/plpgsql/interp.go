package plpgsql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// variable is a variable of a running body: a scalar of type t, or a
// record (rec), whose fields are fixed when it is of a row type.
type variable struct {
	name             string
	t                value.Type
	v                value.Value
	isRec            bool
	rec              *record // nil until a record variable is assigned
	rowType          []plan.Column
	isConst, notNull bool
	// domain is the declared type's name when it is a domain, whose
	// constraints each assignment checks, as PostgreSQL's does.
	domain string
	// promise, when set, gives v's value at its first read (PostgreSQL's
	// promises of the trigger variables); an assignment drops it.
	promise func() value.Value
}

// value is v's scalar value, a promise kept at the first read.
func (v *variable) value() value.Value {
	if v.promise != nil {
		v.v, v.promise = v.promise(), nil
	}
	return v.v
}

// record is the value of a record variable: a row and its columns.
type record struct {
	cols []plan.Column
	vals value.Row
}

// recordValue is the value of a record variable, which must be assigned,
// and its type: the variable's row type, or an anonymous record type.
func recordValue(v *variable) (value.Type, value.Value) {
	r := v.rec
	val := value.NewRecord(append(value.Row(nil), r.vals...))
	if v.t.Kind == value.Record && v.rowType != nil {
		return v.t, val
	}
	fields := make([]value.RecordField, len(r.cols))
	for i, col := range r.cols {
		fields[i] = value.RecordField{Name: col.Name, Type: col.Type}
	}
	return value.RecordTypeOf("", fields), val
}

// frame is the scope of a block: its label and the variables it
// declares.
type frame struct {
	parent *frame
	label  string
	vars   map[string]*variable
}

func newFrame(parent *frame, label string) *frame {
	return &frame{parent: parent, label: label, vars: map[string]*variable{}}
}

// find returns the variable name of the innermost frame that has it, of
// the frame labelled label when label is set.
func (fr *frame) find(label, name string) *variable {
	for f := fr; f != nil; f = f.parent {
		if label != "" && f.label != label {
			continue
		}
		if v := f.vars[name]; v != nil {
			return v
		}
		if label != "" {
			return nil
		}
	}
	return nil
}

// resolve reads a column reference as a variable: name, label.name,
// record.field or label.record.field.
func (fr *frame) resolve(names []string) (ref, bool) {
	switch len(names) {
	case 1:
		if fr.find("", names[0]) != nil {
			return ref{name: names[0]}, true
		}
	case 2:
		if v := fr.find("", names[0]); v != nil && v.isRec {
			return ref{name: names[0], field: names[1]}, true
		}
		if fr.find(names[0], names[1]) != nil {
			return ref{label: names[0], name: names[1]}, true
		}
	case 3:
		if v := fr.find(names[0], names[1]); v != nil && v.isRec {
			return ref{label: names[0], name: names[1], field: names[2]}, true
		}
	}
	return ref{}, false
}

// call is one run of a body.
type call struct {
	f    *Func
	rt   Runtime
	vars []*variable // by datum
	fr   *frame
	// rowCount is what GET DIAGNOSTICS ROW_COUNT reads.
	rowCount int64
	// rows are those RETURN NEXT and RETURN QUERY returned so far.
	rows []value.Row
	ret  value.Value
	// retType is the type of the value RETURN gave, which a trigger's
	// row must match.
	retType value.Type
	// caught are the errors of the exception handlers running, innermost
	// last: what RAISE; raises again and GET STACKED DIAGNOSTICS reads.
	caught []*pgerr.Error
	// cursors are the open cursors, by name: the session's when shared
	// (PortalTable), else the call's own; portals counts the names given
	// to unbound ones.
	cursors *Portals
	shared  bool
	portals int
	// dynText is the string the last EXECUTE ran, which RETURN QUERY
	// EXECUTE's errors name.
	dynText string
	// placed says that the error being returned has its context line
	// of this call.
	placed bool
	// intr is rt as an Interrupter, nil when it is none; ticks counts
	// the loops' iterations between two looks at it (iterate).
	intr  Interrupter
	ticks uint32
	// cur is the statement running, for the context lines of the calls
	// it makes (GET DIAGNOSTICS PG_CONTEXT).
	cur stmt
	// conflictSetting is the plpgsql.variable_conflict setting, read
	// once (conflictRead) when the body has no #variable_conflict.
	conflictSetting sql.VarConflict
	conflictRead    bool
	// subtx counts the blocks with an EXCEPTION clause running
	// (transaction.go).
	subtx int
}

// control is how a statement ends: normally, or by EXIT, CONTINUE or
// RETURN (with the label EXIT or CONTINUE names).
type control struct {
	kind  int
	label string
}

const (
	ctlNone = iota
	ctlExit
	ctlContinue
	ctlReturn
)

// newCall is a run of f's body on rt, its cursors the session's when rt
// keeps them.
func newCall(f *Func, rt Runtime) *call {
	c := &call{f: f, rt: rt, vars: make([]*variable, len(f.datums)), fr: newFrame(nil, f.sig.Name)}
	if pt, ok := rt.(PortalTable); ok {
		c.cursors, c.shared = pt.Portals(), true
	} else {
		c.cursors = &Portals{}
	}
	return c
}

// Call runs the body with the input arguments args, of the parameters'
// types: a scalar function's result, or the rows of a set-returning one
// (or the one row of a function of OUT parameters).
func (f *Func) Call(rt Runtime, args []value.Value) (value.Value, []value.Row, error) {
	c := newCall(f, rt)
	c.intr, _ = rt.(Interrupter)
	in := 0
	for i := 0; i < f.nparams; i++ {
		d := f.datums[i]
		v := &variable{name: d.name, t: f.sig.Types[i], v: value.Null, domain: c.paramDomain(i)}
		if m := f.sig.Modes[i]; m == 'i' || m == 'b' {
			v.v = args[in]
			in++
			if m == 'i' && v.t.Kind == value.Record && v.domain == "" {
				recordParam(v)
			}
		}
		c.bind(i, v)
		c.fr.vars["$"+strconv.Itoa(i+1)] = v
	}
	for dno, param := range f.paramVars {
		c.vars[dno] = c.vars[param]
	}
	if f.found < len(f.datums) {
		c.bind(f.found, &variable{name: "found", t: value.BoolType, v: value.NewBool(false)})
	}
	if cr, ok := rt.(CursorRuntime); ok {
		defer cr.PushCursors(c)()
	}
	defer c.closeAll()
	ct, err := c.block(f.body)
	if err != nil {
		if !c.placed {
			err = c.place(err, "")
		}
		return value.Null, nil, unpositioned(err)
	}
	sig := f.sig
	switch {
	case sig.Set:
		return value.Null, c.rows, nil
	case sig.Out:
		row := c.outs()
		if len(row) == 1 {
			return row[0], []value.Row{row}, nil
		}
		// Several OUT parameters: a call in an expression is the record
		// of their values.
		if sig.NullWithoutRow && !c.found() {
			return value.Null, []value.Row{row}, nil
		}
		return value.NewRecord(row), []value.Row{row}, nil
	case len(sig.Result) == 0:
		return value.NewText(value.Text, ""), []value.Row{{value.NewText(value.Text, "")}}, nil
	case ct.kind != ctlReturn:
		return value.Null, nil, c.place(pgerr.New("2F005", "control reached end of function without RETURN"), "")
	case sig.Composite:
		if err := c.castResult(); err != nil {
			return value.Null, nil, c.place(err, " while casting return value to function's return type")
		}
		row := c.ret.Fields()
		if c.ret.IsNull() {
			row = make(value.Row, len(sig.Result))
			for i := range row {
				row[i] = value.Null
			}
		}
		return c.ret, []value.Row{row}, nil
	}
	return c.ret, []value.Row{{c.ret}}, nil
}

// place gives err the line of context of this call: the function, and
// where in it (at, "" for nowhere in particular).
func (c *call) place(err error, at string) error {
	c.placed = true
	return pgerr.Wrap(err).WithContext("PL/pgSQL function " + c.f.signatureText() + at)
}

// signatureText is the function as PostgreSQL names it in a context
// line: f(integer, text), of its input parameters' types (a domain's
// name for a parameter of one);
// inline_code_block for a DO block.
func (f *Func) signatureText() string {
	if f.sig.Name == "" {
		return "inline_code_block"
	}
	if f.sig.Text != "" {
		return f.sig.Text
	}
	var types []string
	for i, m := range f.sig.Modes {
		switch {
		case m != 'i' && m != 'b':
		case f.types[i].domain != "": // resolved by the call (paramDomain)
			types = append(types, f.types[i].domain)
		default:
			types = append(types, f.sig.Types[i].String())
		}
	}
	return f.sig.Name + "(" + strings.Join(types, ",") + ")"
}

// outs is the row of the OUT parameters' values.
func (c *call) outs() value.Row {
	var row value.Row
	for i, m := range c.f.sig.Modes {
		if m != 'i' {
			row = append(row, c.vars[i].v)
		}
	}
	return row
}

// bind makes v the variable of datum dno in the current frame.
func (c *call) bind(dno int, v *variable) {
	c.vars[dno] = v
	c.fr.vars[v.name] = v
}

// block runs a block: its declarations, its body, and, when the body
// fails, the first handler whose condition the error matches, after
// undoing the body's changes.
func (c *call) block(b *block) (control, error) {
	saved := c.fr
	c.fr = newFrame(saved, b.label)
	defer func() { c.fr = saved }()
	c.bindAliases(b, 0)
	for i, dno := range b.decls {
		if err := c.declare(dno); err != nil {
			return control{}, c.place(err, fmt.Sprintf(" line %d during statement block local variable initialization", c.f.datums[dno].line))
		}
		c.bindAliases(b, i+1)
	}
	var mark Mark
	var curMark int // the cursors opened in the body close when it fails
	if len(b.handlers) > 0 {
		mark = c.rt.Mark()
		curMark = c.cursors.seq
		c.enterSubtx()
	}
	ct, err := c.stmts(b.body)
	if len(b.handlers) > 0 {
		c.leaveSubtx()
	}
	if err != nil && len(b.handlers) > 0 {
		pe := pgerr.Wrap(err)
		for _, h := range b.handlers {
			if !matches(h.conds, pe.Code) {
				continue
			}
			c.rt.Undo(mark)
			c.cursors.closeAfter(curMark)
			c.placed = false
			hf := newFrame(c.fr, "")
			hf.vars["sqlstate"] = &variable{name: "sqlstate", t: value.TextType, v: value.NewText(value.Text, pe.Code), isConst: true}
			hf.vars["sqlerrm"] = &variable{name: "sqlerrm", t: value.TextType, v: value.NewText(value.Text, pe.Message), isConst: true}
			inner := c.fr
			c.fr = hf
			c.caught = append(c.caught, pe)
			ct, err = c.stmts(h.body)
			c.caught = c.caught[:len(c.caught)-1]
			c.fr = inner
			break
		}
	}
	if err != nil {
		return control{}, err
	}
	if ct.kind == ctlExit && b.label != "" && ct.label == b.label {
		return control{}, nil
	}
	return ct, nil
}

// matches reports whether an error of SQLSTATE code matches one of an
// exception handler's conditions: a name, a SQLSTATE, a class (its code
// ending in 000), or OTHERS, which is every error but a cancel and a
// failed assertion.
func matches(conds []string, code string) bool {
	for _, c := range conds {
		if c == "others" {
			if code != pgerr.QueryCanceled && code != "P0004" {
				return true
			}
			continue
		}
		want, ok := conditions[c]
		if !ok {
			want = c
		}
		if want == code || strings.HasSuffix(want, "000") && len(code) == 5 && want[:2] == code[:2] {
			return true
		}
	}
	return false
}

// declare makes the variable of a declaration, of its default value.
func (c *call) declare(dno int) error {
	d := c.f.datums[dno]
	dt, err := c.declType(dno)
	if err != nil {
		return err
	}
	v := &variable{name: d.name, t: dt.t, v: value.Null, isRec: dt.rec, rowType: dt.cols, isConst: d.isConst, notNull: d.notNull, domain: dt.domain}
	if d.def != nil {
		// The default is computed before the variable exists: it may
		// read a variable of the same name of an outer block.
		val, t, err := c.scalar(d.def)
		if err != nil {
			return err
		}
		c.bind(dno, v)
		if v.isRec {
			return c.setRecord(v, val, t)
		}
		return c.setVar(v, val, true)
	}
	c.bind(dno, v)
	if d.cursor != nil {
		v.v = value.NewText(value.RefCursor, d.name) // a bound cursor is named after its variable
	}
	if v.domain != "" {
		// A domain may refuse the NULL the variable starts as (NOT NULL).
		if _, err := c.checkDomain(v, value.Null); err != nil {
			return err
		}
	}
	if v.notNull && !v.isRec {
		return pgerr.New("22004", "null value cannot be assigned to variable %q declared NOT NULL", v.name)
	}
	return nil
}

// declType is the resolved type of a declared variable.
type declType struct {
	t    value.Type
	rec  bool
	cols []plan.Column // a row type's fields
	// domain is the type's name as written when it names a domain.
	domain string
}

// declType resolves a declaration's type, once per function: a type
// name, name%TYPE (of a variable or a table's column), table%ROWTYPE, a
// table's name as its row type, or record.
func (c *call) declType(dno int) (declType, error) {
	if dt, ok := c.f.types[dno]; ok {
		return dt, nil
	}
	d := c.f.datums[dno]
	var dt declType
	var err error
	lower := strings.ToLower(d.typName)
	switch {
	case strings.HasSuffix(lower, "%rowtype"):
		dt, err = c.rowType(d.typName[:len(d.typName)-len("%rowtype")])
	case d.record:
		dt.rec = true
	case lower == "refcursor" || lower == "pg_catalog.refcursor":
		dt.t = value.RefCursorType // the name of a cursor
	case strings.HasSuffix(lower, "%type"):
		dt, err = c.typeOf(d.typName[:len(d.typName)-len("%type")])
	default:
		// A domain's variable is of its base type (a NULL of a NOT NULL
		// domain is an error), its constraints checked at each assignment.
		typName := d.typName
		for base, ok := c.domainBase(typName); ok; base, ok = c.domainBase(base) {
			dt.domain, typName = d.typName, base
		}
		if dt.domain == "" && c.domainArray(typName) {
			dt.domain = typName // its values are its base type's arrays, read by the cast below
		}
		var res *Result
		if res, err = c.runText("SELECT NULL::"+typName, nil, nil); err == nil {
			dt.t = res.Cols[0].Type
		} else if rt, rerr := c.rowType(d.typName); rerr == nil {
			dt, err = rt, nil
		}
	}
	if err != nil {
		return dt, err
	}
	c.f.types[dno] = dt
	return dt, nil
}

// paramDomain is the domain parameter i is of, "" when it is of none:
// resolved at the function's first call, as a declaration's type is.
func (c *call) paramDomain(i int) string {
	if i >= len(c.f.sig.TypeNames) || c.f.sig.TypeNames[i] == "" {
		return ""
	}
	if dt, ok := c.f.types[i]; ok {
		return dt.domain
	}
	var dt declType
	// The domain's name as format_type prints it, which the context
	// lines of errors show (signatureText).
	res, err := c.runText("SELECT pg_catalog.format_type(oid, NULL) FROM pg_catalog.pg_type t WHERE oid = pg_catalog.to_regtype($1) AND "+domainOrArray,
		[]value.Type{value.TextType}, []value.Value{value.NewText(value.Text, c.f.sig.TypeNames[i])})
	if err == nil && len(res.Rows) == 1 && !res.Rows[0][0].IsNull() {
		dt.domain = res.Rows[0][0].String()
	}
	c.f.types[i] = dt
	return dt.domain
}

// domainOrArray is the condition on a row of pg_type t that it is a
// domain or an array of one (d[]), whose values a variable checks.
const domainOrArray = "(t.typtype = 'd' OR t.typelem <> 0 AND (SELECT e.typtype FROM pg_catalog.pg_type e WHERE e.oid = t.typelem) = 'd')"

// domainArray reports whether typName names an array of a domain.
func (c *call) domainArray(typName string) bool {
	res, err := c.runText("SELECT 1 FROM pg_catalog.pg_type t WHERE t.typtype = 'b' AND oid = pg_catalog.to_regtype($1) AND "+domainOrArray,
		[]value.Type{value.TextType}, []value.Value{value.NewText(value.Text, typName)})
	return err == nil && len(res.Rows) == 1
}

// domainBase returns the base type of the domain typName names, as
// format_type prints it; ok is false when typName names no domain.
func (c *call) domainBase(typName string) (base string, ok bool) {
	res, err := c.runText("SELECT pg_catalog.format_type(typbasetype, typtypmod) FROM pg_catalog.pg_type WHERE typtype = 'd' AND oid = pg_catalog.to_regtype($1)",
		[]value.Type{value.TextType}, []value.Value{value.NewText(value.Text, typName)})
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0].IsNull() {
		return "", false
	}
	return res.Rows[0][0].String(), true
}

// checkDomain casts val, of the variable's base type, to its domain,
// which checks the domain's constraints: the domain's errors, as
// PostgreSQL's assignment raises them.
func (c *call) checkDomain(v *variable, val value.Value) (value.Value, error) {
	res, err := c.runText("SELECT x::"+v.domain+" FROM (SELECT $1) AS s(x)", []value.Type{v.t}, []value.Value{val})
	if err != nil {
		return value.Null, err
	}
	return res.Rows[0][0], nil
}

// rowType is the type of a record of a table's, a view's or a composite
// type's fields; t is the row type itself when it is one.
func (c *call) rowType(rel string) (declType, error) {
	res, err := c.runText("SELECT * FROM "+rel+" LIMIT 0", nil, nil)
	if err != nil {
		var cerr error
		if res, cerr = c.runText("SELECT (NULL::"+rel+").*", nil, nil); cerr != nil {
			return declType{}, err
		}
	}
	dt := declType{rec: true, cols: res.Cols}
	if typ, err := c.runText("SELECT NULL::"+rel, nil, nil); err == nil && typ.Cols[0].Type.Kind == value.Record {
		dt.t = typ.Cols[0].Type
	}
	return dt, nil
}

// typeOf is the type of name%TYPE: a variable's, or a table's column's.
func (c *call) typeOf(name string) (declType, error) {
	if v := c.fr.find("", name); v != nil {
		return declType{t: v.t, rec: v.isRec, cols: v.rowType, domain: v.domain}, nil
	}
	// PostgreSQL reads a name%TYPE it cannot resolve as a type name,
	// which the % makes a syntax error.
	bad := pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%%\"").WithContext("invalid type name \"" + name + "%TYPE\"")
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return declType{}, bad
	}
	res, err := c.runText("SELECT "+name[i+1:]+" FROM "+name[:i]+" LIMIT 0", nil, nil)
	if err != nil {
		if code := pgerr.Wrap(err).Code; code == pgerr.UndefinedColumn || code == pgerr.UndefinedTable {
			return declType{}, bad
		}
		return declType{}, err
	}
	return declType{t: res.Cols[0].Type}, nil
}

// runText runs SQL text that names no variable.
func (c *call) runText(text string, types []value.Type, args []value.Value) (*Result, error) {
	st, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	if st == nil || st.Node == nil {
		return nil, pgerr.New(pgerr.SyntaxError, "cannot execute an empty query string")
	}
	return c.rt.Run(st, types, args, false)
}

// setVar assigns val to v, converted to its type.
func (c *call) setVar(v *variable, val value.Value, init bool) error {
	v.promise = nil
	if v.isConst && !init {
		return pgerr.New("22005", "variable %q is declared CONSTANT", v.name)
	}
	if v.isRec {
		if val.IsNull() {
			v.rec = nil
			return nil
		}
		return pgerr.New(pgerr.FeatureNotSupported, "assigning a single value to record variable %q is not supported", v.name)
	}
	if val.IsNull() {
		if v.notNull {
			return pgerr.New("22004", "null value cannot be assigned to variable %q declared NOT NULL", v.name)
		}
		if v.domain != "" {
			if _, err := c.checkDomain(v, value.Null); err != nil {
				return err
			}
		}
		v.v = value.Null
		return nil
	}
	if v.t.Kind == value.Unknown {
		v.v = val
		return nil
	}
	out, err := c.rt.Assign(val, v.t)
	if err != nil {
		return err
	}
	if v.domain != "" {
		if out, err = c.checkDomain(v, out); err != nil {
			return err
		}
	}
	v.v = out
	return nil
}

// nullRecord is a record of NULL fields.
func nullRecord(cols []plan.Column) *record {
	r := &record{cols: cols, vals: make(value.Row, len(cols))}
	for i := range r.vals {
		r.vals[i] = value.Null
	}
	return r
}

// setRecord assigns a value of type t to a record variable: a composite
// value's fields; NULL (a NULL of its row type, or unassigned for a
// record); another value read as the row type's input.
func (c *call) setRecord(v *variable, val value.Value, t value.Type) error {
	if val.IsNull() {
		v.rec = nil
		return nil
	}
	d := t.RecordDesc()
	if t.Kind != value.Record || d == nil {
		// PostgreSQL reads the value's text as the record's input.
		if v.rowType == nil || v.t.Kind != value.Record {
			return pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
		}
		rv, err := value.ParseRecord(val.String(), v.t)
		if err != nil {
			return err
		}
		return c.setRow(v, v.rowType, rv.Fields())
	}
	cols := make([]plan.Column, len(d.Fields))
	for i, f := range d.Fields {
		cols[i] = plan.Column{Name: f.Name, Type: f.Type}
	}
	return c.setRow(v, cols, val.Fields())
}

// setRow assigns a row to a record variable: its fields by position for
// one of a row type, else the row and its columns.
func (c *call) setRow(v *variable, cols []plan.Column, row value.Row) error {
	if !v.isRec {
		val := value.Null
		if len(row) > 0 {
			val = row[0]
		}
		return c.setVar(v, val, false)
	}
	if v.rowType == nil {
		if row == nil {
			// No row: the record takes the columns, with NULL fields.
			v.rec = nullRecord(cols)
			return nil
		}
		v.rec = &record{cols: cols, vals: append(value.Row(nil), row...)}
		return nil
	}
	vals := make(value.Row, len(v.rowType))
	for i, col := range v.rowType {
		vals[i] = value.Null
		if i < len(row) && !row[i].IsNull() {
			out, err := c.rt.Assign(row[i], col.Type)
			if err != nil {
				return err
			}
			vals[i] = out
		}
	}
	v.rec = &record{cols: v.rowType, vals: vals}
	return nil
}

// assignDatum assigns val to the variable or record field of datum dno.
func (c *call) assignDatum(dno int, val value.Value) error {
	if dno < 0 || dno >= len(c.f.datums) {
		return pgerr.New(pgerr.Internal, "no variable %d", dno)
	}
	d := c.f.datums[dno]
	if d.field == "" {
		v, err := c.variable(dno)
		if err != nil {
			return err
		}
		return c.setVar(v, val, false)
	}
	v, err := c.variable(d.parent)
	if err != nil {
		return err
	}
	if v.rec == nil {
		if v.rowType == nil {
			return unassigned(v.name)
		}
		v.rec = nullRecord(v.rowType)
	}
	for i, col := range v.rec.cols {
		if col.Name == d.field {
			out := val
			if !val.IsNull() {
				var err error
				if out, err = c.rt.Assign(val, col.Type); err != nil {
					return err
				}
			}
			v.rec.vals[i] = out
			return nil
		}
	}
	return pgerr.New(pgerr.UndefinedColumn, "record %q has no field %q", v.name, d.field)
}

// variable is the variable of datum dno, which its block declared.
func (c *call) variable(dno int) (*variable, error) {
	if dno < 0 || dno >= len(c.vars) || c.vars[dno] == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "variable %d is used outside the block that declares it", dno).
			WithHint("declare each block's variables on lines of their own, before its BEGIN")
	}
	return c.vars[dno], nil
}

// implicit makes the function-wide variable of datum dno (a CASE's
// value), of type t.
func (c *call) implicit(dno int, t value.Type) *variable {
	v := &variable{name: c.f.datums[dno].name, t: t}
	c.vars[dno] = v
	fn := c.fr
	for fn.parent != nil {
		fn = fn.parent
	}
	fn.vars[v.name] = v
	return v
}

// unpositioned drops the position of an error of a statement of the
// body, which is not a position in the statement that ran the code.
func unpositioned(err error) error {
	pe := pgerr.Wrap(err)
	if pe.Position == 0 {
		return err
	}
	c := *pe
	c.Position = 0
	return &c
}

func unassigned(name string) error {
	return pgerr.New(pgerr.ObjectNotInPrereqState, "record %q is not assigned yet", name).
		WithDetail("The tuple structure of a not-yet-assigned record is indeterminate.")
}
