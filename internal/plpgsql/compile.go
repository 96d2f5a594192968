package plpgsql

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"github.com/pganalyze/pg_query_go/v6/parser"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Signature is what a body is compiled for: a function's parameters and
// result, or nothing for a DO block.
type Signature struct {
	Name string
	// Modes are the modes of every parameter in order, a letter each
	// (i, o, b for INOUT, t for a column of RETURNS TABLE), Types their
	// types.
	Modes string
	Types []value.Type
	// TypeNames are the parameters' types as written, in Types' order,
	// "" for one that cannot be a domain (an array, a pseudo-type): a
	// parameter of a domain has its constraints checked at each
	// assignment, as a variable of one does. Nil when none may be.
	TypeNames []string
	// Result are the result's columns: none for void, one for a scalar
	// type, one per OUT parameter.
	Result []plan.Column
	Set    bool
	// Composite says that the result is a composite type, whose fields
	// are Result: a row returned is one value, a record.
	Composite bool
	// RowType reports whether a type name is a table's, a view's or a
	// composite type's: a variable declared of it is a record of its
	// fields, as one of name%ROWTYPE. Nil when there are none.
	RowType func(name string) bool
	// Out says that the result columns are OUT parameters (or RETURNS
	// TABLE), which RETURN without a value returns.
	Out bool
	// NullWithoutRow says that the record of several OUT parameters is
	// NULL when FOUND is false at the end: a SQL function run as code,
	// whose last statement's first row fills them, and which returns
	// NULL without one, as PostgreSQL's SQL functions do.
	NullWithoutRow bool
	// Text is the function's signature in errors' context when it is not
	// Name and Types' (a polymorphic function's declared types).
	Text string
	// Trigger says that the function returns trigger: it runs by
	// CallTrigger, with NEW, OLD and the TG_* variables.
	Trigger bool
	// EventTrigger says that the function returns event_trigger (Trigger
	// is set too): it returns nothing, as a void function.
	EventTrigger bool
	// Procedure says that the body is a procedure's.
	Procedure bool
}

// Func is a compiled body. It is read-only once compiled, but for the
// caches of its expressions, filled under the engine's lock.
type Func struct {
	sig     Signature
	datums  []*datum
	nparams int
	found   int
	body    *block
	// types are the resolved types of declared variables, by datum.
	types map[int]declType
	// conflict is the body's #variable_conflict, when conflictSet.
	conflict    sql.VarConflict
	conflictSet bool
	// strictParams is the body's #print_strict_params: 1 on, -1 off, 0
	// not given.
	strictParams int
	// lines are the statements' lines in the body, for errors' context.
	lines map[stmt]int
	// paramVars are the variables that stand for refcursor parameters
	// (refcursor.go), by datum, with the parameter's datum.
	paramVars map[int]int
}

// Compile reads a function's CREATE FUNCTION statement, or a DO
// statement, src, with PostgreSQL's PL/pgSQL grammar; body is the code's
// text. Its errors are PostgreSQL's compile errors (42601 for syntax).
func Compile(src, body string, sig Signature) (*Func, error) {
	origSrc, origBody := src, body
	js, body, rowtypes, defaults, cursorParams, recParams, err := parse(src, body, sig)
	if err != nil {
		var pe *parser.Error
		if errors.As(err, &pe) {
			return nil, positioned(compileError(pe.Message), origSrc, origBody, sig)
		}
		return nil, pgerr.New(pgerr.SyntaxError, "%s", err.Error())
	}
	var top []map[string]any
	if err := json.Unmarshal([]byte(js), &top); err != nil || len(top) != 1 {
		return nil, pgerr.New(pgerr.Internal, "reading the PL/pgSQL tree: %v", err)
	}
	fn := obj(top[0], "PLpgSQL_function")
	f := &Func{sig: sig, nparams: len(sig.Modes), types: map[int]declType{}, lines: map[stmt]int{}, strictParams: strictParams(body)}
	f.conflict, f.conflictSet = variableConflict(body)
	for _, d := range list(fn, "datums") {
		dt := readDatum(d)
		if rel, ok := rowtypes[dt.name]; ok && dt.record {
			dt.typName = rel + "%ROWTYPE"
		}
		if dt.record && dt.field == "" && len(defaults[dt.name]) > 0 {
			if def := defaults[dt.name][0]; def != "" {
				dt.def = &pexpr{text: def, mode: 2}
			}
			defaults[dt.name] = defaults[dt.name][1:]
		}
		f.datums = append(f.datums, dt)
	}
	f.found = f.nparams
	if sig.Trigger {
		// The grammar declares NEW and OLD after FOUND; CallTrigger
		// binds them, no block declares them.
		for i := f.found + 1; i < len(f.datums) && i <= f.found+2; i++ {
			if d := f.datums[i]; d.record && (d.name == "new" || d.name == "old") {
				d.implicit = true
			}
		}
	}
	if err := f.cursorParams(cursorParams); err != nil {
		return nil, err
	}
	f.recordParams(recParams)
	for _, d := range f.datums {
		if d.cursor != nil && d.cursor.argRow >= 0 && d.cursor.argRow < len(f.datums) {
			// A bound cursor's arguments are variables of its OPEN only.
			for _, a := range f.datums[d.cursor.argRow].fields {
				f.datums[a].implicit = true
			}
		}
	}
	c := &compiler{f: f, nextVars: returnNextVars(body)}
	kind, act := node(fn["action"])
	if kind != "PLpgSQL_stmt_block" {
		return nil, pgerr.New(pgerr.Internal, "unexpected PL/pgSQL body %s", kind)
	}
	f.body = c.block(act)
	if c.err != nil {
		return nil, c.err
	}
	if c.unsupported != "" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "PL/pgSQL statement %s is not supported", c.unsupported).
			WithHint("PL/pgSQL runs blocks, assignments, IF, CASE, loops, RETURN [NEXT|QUERY], RAISE, ASSERT, PERFORM, EXECUTE, GET DIAGNOSTICS, cursors (OPEN, FETCH, MOVE, CLOSE) SQL statements, CALL, COMMIT and ROLLBACK")
	}
	c.scope(body)
	if sig.Name == "" {
		markFinal(f.body.body, true)
	}
	return f, nil
}

// parse reads src with PostgreSQL's PL/pgSQL grammar, once its
// declarations of row types are declared record (rowTypeDecls,
// recordDecls); it returns the grammar's tree, the body so rewritten, the
// table of each row type's variable, the defaults of the records, and
// the refcursor parameters it declared variables for (refcursor.go).
func parse(src, body string, sig Signature) (js, newBody string, rowtypes map[string]string, defaults map[string][]string, cursorParams, recParams []string, err error) {
	src, rowtypes = rowTypeDecls(src)
	body, _ = rowTypeDecls(body)
	bodyAt := strings.Index(src, body)
	src, defaults = recordDecls(src, body, sig.RowType, rowtypes)
	js, err = pg_query.ParsePlPgSqlToJSON(src)
	for tries := 0; err != nil && tries < len(sig.Types) && bodyAt >= 0; tries++ {
		if name, ok := refcursorParam(err, src, sig); ok {
			src = declareFirst(src, bodyAt, name, "refcursor")
			cursorParams = append(cursorParams, name)
		} else if name, ok := recordFieldParam(err, src, sig); ok {
			src = declareFirst(src, bodyAt, name, "record")
			recParams = append(recParams, name)
		} else {
			break
		}
		js, err = pg_query.ParsePlPgSqlToJSON(src)
	}
	return js, body, rowtypes, defaults, cursorParams, recParams, err
}

// directives are the compiler options at the start of a body
// (#variable_conflict use_column, #print_strict_params on), which the
// grammar's tree does not keep.
var directives = regexp.MustCompile(`^(?:\s+|--[^\n]*(?:\n|$)|/\*(?s:.*?)\*/|#[a-zA-Z_]+[ \t]+[a-zA-Z_]+)*`)

var directiveItem = regexp.MustCompile(`#([a-zA-Z_]+)[ \t]+([a-zA-Z_]+)`)

// directive is the value of the compiler option name of a body, "" when
// it has none.
func directive(body, name string) string {
	head := directives.FindString(body)
	v := ""
	for _, m := range directiveItem.FindAllStringSubmatch(head, -1) {
		if strings.EqualFold(m[1], name) {
			v = strings.ToLower(m[2])
		}
	}
	return v
}

// variableConflict reads the #variable_conflict of a body: what a name
// both a variable and a column in scope stands for; set is false when
// the body has none (the plpgsql.variable_conflict setting decides).
func variableConflict(body string) (c sql.VarConflict, set bool) {
	switch directive(body, "variable_conflict") {
	case "use_variable":
		return sql.VarConflictUseVariable, true
	case "use_column":
		return sql.VarConflictUseColumn, true
	case "error":
		return sql.VarConflictError, true
	}
	return sql.VarConflictError, false
}

// strictParams reads the #print_strict_params of a body: 1 on, -1 off, 0
// none (the plpgsql.print_strict_params setting decides).
func strictParams(body string) int {
	switch directive(body, "print_strict_params") {
	case "on":
		return 1
	case "off":
		return -1
	}
	return 0
}

// rowTypeDecl is a declaration of a variable of a table's row type.
var rowTypeDecl = regexp.MustCompile(`(?i)\b([a-z_][a-z0-9_$]*)(\s+(?:constant\s+)?)([a-z_][a-z0-9_$.]*)%rowtype\b`)

// rowTypeDecls declares the variables of a row type (v t%ROWTYPE)
// record: the grammar, without a catalog, would take them for scalars and
// refuse v.field := …. It returns the table of each such variable.
func rowTypeDecls(stmt string) (string, map[string]string) {
	rels := map[string]string{}
	out := rowTypeDecl.ReplaceAllStringFunc(stmt, func(m string) string {
		g := rowTypeDecl.FindStringSubmatch(m)
		rels[strings.ToLower(g[1])] = g[3]
		return g[1] + g[2] + "record"
	})
	return out, rels
}

// recordDecls reads the declarations of records in the DECLARE sections
// of body (as it appears in src): it declares record the variables of a
// row type named without %ROWTYPE (v t, when rowType says t is one),
// adding their types to rels, and returns the default expressions of
// every record's declaration by name, in order ("" for none), which the
// grammar's tree does not keep.
func recordDecls(src, body string, rowType func(string) bool, rels map[string]string) (string, map[string][]string) {
	defaults := map[string][]string{}
	off := strings.Index(src, body)
	sections, ok := declSections(body)
	if off < 0 || !ok {
		return src, defaults
	}
	var b strings.Builder
	last := 0
	for _, sec := range sections {
		start, end := off+sec.start, off+sec.end
		b.WriteString(src[last:start])
		for i, decl := range strings.Split(src[start:end], ";") {
			if i > 0 {
				b.WriteByte(';')
			}
			g := recordDecl.FindStringSubmatchIndex(decl)
			if g == nil {
				b.WriteString(decl)
				continue
			}
			name, typ := strings.ToLower(decl[g[2]:g[3]]), decl[g[6]:g[7]]
			switch {
			case rowType != nil && rowType(strings.ToLower(typ)):
				rels[name] = typ
				decl = decl[:g[6]] + "record" + decl[g[7]:]
			case !strings.EqualFold(typ, "record"):
				b.WriteString(decl)
				continue
			}
			def := ""
			if m := declDefault.FindStringSubmatch(decl[g[6]:]); m != nil {
				def = strings.TrimSpace(m[1])
			}
			defaults[name] = append(defaults[name], def)
			b.WriteString(decl)
		}
		last = end
	}
	b.WriteString(src[last:])
	return b.String(), defaults
}

// recordDecl is a declaration name [CONSTANT] type, the type a single
// name (perhaps a row type's, or record).
var recordDecl = regexp.MustCompile(`(?i)^\s*([a-z_][a-z0-9_$]*)(\s+(?:constant\s+)?)([a-z_][a-z0-9_$.]*)\s*(?::=|=|default\b|not\s+null\b|$)`)

// declDefault is the default expression of a declaration, after its type.
var declDefault = regexp.MustCompile(`(?is)^[a-z_][a-z0-9_$.]*\s*(?:not\s+null\s*)?(?::=|=|default\b)(.*)$`)

// placeholders counts the % of a RAISE format that take a parameter.
func placeholders(format string) int {
	n := 0
	for i := 0; i < len(format); i++ {
		if format[i] == '%' {
			if i+1 < len(format) && format[i+1] == '%' {
				i++
				continue
			}
			n++
		}
	}
	return n
}

// returnValueError is PostgreSQL's compile error for RETURN with a value
// in a body whose result it cannot be, nil when it can.
func (sig Signature) returnValueError() error {
	switch {
	case sig.EventTrigger:
		return pgerr.New(pgerr.DatatypeMismatch, "RETURN cannot have a parameter in function returning void")
	case sig.Trigger:
		return nil
	case sig.Set:
		return pgerr.New(pgerr.DatatypeMismatch, "RETURN cannot have a parameter in function returning set").
			WithHint("Use RETURN NEXT or RETURN QUERY.")
	case sig.Procedure && !strings.ContainsAny(sig.Modes, "ob"):
		return pgerr.New(pgerr.SyntaxError, "RETURN cannot have a parameter in a procedure")
	case sig.Out || sig.Procedure:
		return pgerr.New(pgerr.DatatypeMismatch, "RETURN cannot have a parameter in function with OUT parameters")
	case len(sig.Result) == 0:
		return pgerr.New(pgerr.DatatypeMismatch, "RETURN cannot have a parameter in function returning void")
	}
	return nil
}

// compileError is a compile error of PostgreSQL's PL/pgSQL grammar.
func compileError(msg string) *pgerr.Error {
	code := pgerr.SyntaxError
	switch {
	case strings.Contains(msg, "RETURN NEXT") || strings.Contains(msg, "RETURN QUERY") ||
		strings.Contains(msg, "RETURN cannot have a parameter"), mustBeCursor.MatchString(msg):
		code = pgerr.DatatypeMismatch
	case strings.Contains(msg, "unrecognized exception condition"),
		strings.HasPrefix(msg, "variable \"") && strings.HasSuffix(msg, "\" does not exist"): // ALIAS FOR an unknown name
		code = pgerr.UndefinedObject
	case strings.Contains(msg, "is declared CONSTANT"):
		code = "22005"
	}
	return pgerr.New(code, "%s", msg)
}

type compiler struct {
	f      *Func
	blocks []*block // in the order they open
	// unsupported is the first statement the interpreter does not run.
	unsupported string
	// err is the first error PostgreSQL's compiler reports that the
	// grammar does not.
	err error
	// nextVars are the variables of RETURN NEXT var, by line, in order.
	nextVars map[int][]string
}

var returnNextVar = regexp.MustCompile(`(?i)\breturn\s+next\s+([a-z_][a-z0-9_$]*)\s*;`)

// returnNextVars finds the variables RETURN NEXT names, which the
// grammar's tree does not keep, by line of the body.
func returnNextVars(body string) map[int][]string {
	out := map[int][]string{}
	for _, m := range returnNextVar.FindAllStringSubmatchIndex(body, -1) {
		line := 1 + strings.Count(body[:m[0]], "\n")
		out[line] = append(out[line], body[m[2]:m[3]])
	}
	return out
}

type jm = map[string]any

func node(v any) (string, jm) {
	m, _ := v.(jm)
	for k, b := range m {
		bm, _ := b.(jm)
		return k, bm
	}
	return "", nil
}

func obj(m jm, k string) jm { v, _ := m[k].(jm); return v }

func str(m jm, k string) string { s, _ := m[k].(string); return s }
func num(m jm, k string) int    { n, _ := m[k].(float64); return int(n) }
func flag(m jm, k string) bool  { b, _ := m[k].(bool); return b }
func list(m jm, k string) []any { l, _ := m[k].([]any); return l }

// expr reads the PLpgSQL_expr at m[k]; nil when there is none.
func expr(m jm, k string) *pexpr {
	_, e := node(m[k])
	if e == nil {
		return nil
	}
	return &pexpr{text: str(e, "query"), mode: num(e, "parseMode")}
}

func exprs(m jm, k string) []*pexpr {
	var out []*pexpr
	for _, v := range list(m, k) {
		out = append(out, expr(jm{"e": v}, "e"))
	}
	return out
}

func readDatum(v any) *datum {
	kind, m := node(v)
	d := &datum{name: str(m, "refname"), line: num(m, "lineno"), isConst: flag(m, "isconst"), notNull: flag(m, "notnull"),
		def: expr(m, "default_val")}
	switch kind {
	case "PLpgSQL_var":
		_, t := node(m["datatype"])
		d.typName = strings.TrimSpace(str(t, "typname"))
	case "PLpgSQL_rec":
		d.record = true
	case "PLpgSQL_recfield":
		d.field, d.parent, d.implicit = str(m, "fieldname"), num(m, "recparentno"), true
	case "PLpgSQL_row":
		d.implicit = true
		for _, fv := range list(m, "fields") {
			fm, _ := fv.(jm)
			d.fields = append(d.fields, num(fm, "varno"))
		}
	default:
		d.implicit = true
	}
	if q := expr(m, "cursor_explicit_expr"); q != nil {
		d.cursor = &cursorDecl{query: q, argRow: num(m, "cursor_explicit_argrow"), options: num(m, "cursor_options")}
	}
	if strings.HasPrefix(d.name, "__Case__Variable_") {
		d.implicit = true
	}
	return d
}

func (c *compiler) stmts(l []any) []stmt {
	var out []stmt
	for _, v := range l {
		if s := c.stmt(v); s != nil {
			_, m := node(v)
			c.f.lines[s] = num(m, "lineno")
			out = append(out, s)
		}
	}
	return out
}

func (c *compiler) block(m jm) *block {
	b := &block{label: str(m, "label"), line: num(m, "lineno")}
	c.blocks = append(c.blocks, b)
	b.body = c.stmts(list(m, "body"))
	_, ex := node(m["exceptions"])
	for _, h := range list(ex, "exc_list") {
		_, hm := node(h)
		var hd handler
		for _, cv := range list(hm, "conditions") {
			_, cm := node(cv)
			hd.conds = append(hd.conds, str(cm, "condname"))
		}
		hd.body = c.stmts(list(hm, "action"))
		b.handlers = append(b.handlers, hd)
	}
	return b
}

func readTarget(m jm) target {
	kind, t := node(m["target"])
	if kind == "PLpgSQL_rec" {
		return target{rec: num(t, "dno")}
	}
	tg := target{rec: -1}
	for _, fv := range list(t, "fields") {
		fm, _ := fv.(jm)
		tg.fields = append(tg.fields, num(fm, "varno"))
	}
	return tg
}

func (c *compiler) stmt(v any) stmt {
	kind, m := node(v)
	switch kind {
	case "PLpgSQL_stmt_block":
		return c.block(m)
	case "PLpgSQL_stmt_assign":
		return &assign{target: num(m, "varno"), e: expr(m, "expr")}
	case "PLpgSQL_stmt_if":
		s := &ifStmt{conds: []*pexpr{expr(m, "cond")}, bodies: [][]stmt{c.stmts(list(m, "then_body"))}, els: c.stmts(list(m, "else_body"))}
		for _, ev := range list(m, "elsif_list") {
			_, em := node(ev)
			s.conds = append(s.conds, expr(em, "cond"))
			s.bodies = append(s.bodies, c.stmts(list(em, "stmts")))
		}
		return s
	case "PLpgSQL_stmt_case":
		s := &caseStmt{test: expr(m, "t_expr"), testVar: num(m, "t_varno"), hasElse: flag(m, "have_else"), els: c.stmts(list(m, "else_stmts"))}
		for _, wv := range list(m, "case_when_list") {
			_, wm := node(wv)
			s.whens = append(s.whens, expr(wm, "expr"))
			s.bodies = append(s.bodies, c.stmts(list(wm, "stmts")))
		}
		return s
	case "PLpgSQL_stmt_loop":
		return &loop{label: str(m, "label"), body: c.stmts(list(m, "body"))}
	case "PLpgSQL_stmt_while":
		return &loop{label: str(m, "label"), cond: expr(m, "cond"), body: c.stmts(list(m, "body"))}
	case "PLpgSQL_stmt_fori":
		_, vm := node(m["var"])
		s := &forInt{label: str(m, "label"), name: str(vm, "refname"), lower: expr(m, "lower"), upper: expr(m, "upper"),
			step: expr(m, "step"), reverse: flag(m, "reverse"), dno: -1}
		for i, d := range c.f.datums {
			if !d.implicit && !d.record && d.name == s.name && d.line == num(vm, "lineno") && d.typName == `pg_catalog."integer"` {
				s.dno, d.implicit = i, true
				break
			}
		}
		s.body = c.stmts(list(m, "body"))
		return s
	case "PLpgSQL_stmt_fors":
		t := target{rec: -1}
		if k, vm := node(m["var"]); k == "PLpgSQL_rec" {
			t.rec = num(vm, "dno")
		} else {
			t = readTarget(jm{"target": m["var"]})
		}
		return &forQuery{label: str(m, "label"), target: t, query: expr(m, "query"), body: c.stmts(list(m, "body"))}
	case "PLpgSQL_stmt_dynfors":
		t := target{rec: -1}
		if k, vm := node(m["var"]); k == "PLpgSQL_rec" {
			t.rec = num(vm, "dno")
		} else {
			t = readTarget(jm{"target": m["var"]})
		}
		return &forQuery{label: str(m, "label"), target: t, query: expr(m, "query"), dyn: true, params: exprs(m, "params"),
			body: c.stmts(list(m, "body"))}
	case "PLpgSQL_stmt_foreach_a":
		return &foreach{label: str(m, "label"), target: num(m, "varno"), slice: num(m, "slice"), e: expr(m, "expr"), body: c.stmts(list(m, "body"))}
	case "PLpgSQL_stmt_exit":
		return &exitStmt{exit: flag(m, "is_exit"), label: str(m, "label"), cond: expr(m, "cond")}
	case "PLpgSQL_stmt_return":
		if num(m, "lineno") == 0 {
			return nil // the grammar's own, at the end of every body
		}
		s := &returnStmt{e: expr(m, "expr")}
		if c.err == nil && s.e != nil {
			c.err = c.f.sig.returnValueError()
		}
		if c.err == nil && s.e == nil && c.f.sig.returnValueError() == nil && c.f.sig.Name != "" {
			c.err = pgerr.New(pgerr.SyntaxError, "missing expression at or near \";\"")
		}
		return s
	case "PLpgSQL_stmt_return_next":
		s := &returnNext{e: expr(m, "expr")}
		line := num(m, "lineno")
		if s.e == nil && !c.f.sig.Out && len(c.nextVars[line]) > 0 {
			s.e = &pexpr{text: c.nextVars[line][0], mode: 2}
			c.nextVars[line] = c.nextVars[line][1:]
		}
		return s
	case "PLpgSQL_stmt_return_query":
		return &returnQuery{query: expr(m, "query"), dyn: expr(m, "dynquery"), params: exprs(m, "params")}
	case "PLpgSQL_stmt_raise":
		s := &raise{level: num(m, "elog_level"), condname: str(m, "condname"), message: str(m, "message"), params: exprs(m, "params"), line: num(m, "lineno")}
		for _, ov := range list(m, "options") {
			_, om := node(ov)
			s.options = append(s.options, raiseOption{kind: num(om, "opt_type"), e: expr(om, "expr")})
		}
		if n := placeholders(s.message); n != len(s.params) && c.err == nil {
			what := "few"
			if n < len(s.params) {
				what = "many"
			}
			c.err = pgerr.New(pgerr.SyntaxError, "too %s parameters specified for RAISE", what)
		}
		return s
	case "PLpgSQL_stmt_assert":
		return &assertStmt{cond: expr(m, "cond"), message: expr(m, "message")}
	case "PLpgSQL_stmt_execsql":
		return &execSQL{sql: expr(m, "sqlstmt"), into: flag(m, "into"), strict: flag(m, "strict"), target: readTarget(m)}
	case "PLpgSQL_stmt_dynexecute":
		return &dynExecute{query: expr(m, "query"), into: flag(m, "into"), strict: flag(m, "strict"), target: readTarget(m), params: exprs(m, "params")}
	case "PLpgSQL_stmt_perform":
		return &perform{e: expr(m, "expr")}
	case "PLpgSQL_stmt_getdiag":
		s := &getDiag{stacked: flag(m, "is_stacked")}
		for _, iv := range list(m, "diag_items") {
			_, im := node(iv)
			s.items = append(s.items, diagItem{kind: str(im, "kind"), target: num(im, "target")})
		}
		return s
	case "PLpgSQL_stmt_open":
		return &openStmt{curvar: num(m, "curvar"), options: num(m, "cursor_options"), query: expr(m, "query"), dyn: expr(m, "dynquery"),
			params: exprs(m, "params"), args: expr(m, "argquery")}
	case "PLpgSQL_stmt_fetch":
		s := &fetchStmt{curvar: num(m, "curvar"), direction: num(m, "direction"), count: expr(m, "expr"), move: flag(m, "is_move"), target: readTarget(m)}
		s.howMany = int64(num(m, "how_many"))
		if n, _ := m["how_many"].(float64); n >= fetchAll {
			s.howMany = fetchAll
		}
		return s
	case "PLpgSQL_stmt_close":
		return &closeStmt{curvar: num(m, "curvar")}
	case "PLpgSQL_stmt_forc":
		t := target{rec: -1}
		if k, vm := node(m["var"]); k == "PLpgSQL_rec" {
			t.rec = num(vm, "dno")
		} else {
			t = readTarget(jm{"target": m["var"]})
		}
		return &forCursor{label: str(m, "label"), curvar: num(m, "curvar"), args: expr(m, "argquery"), target: t, body: c.stmts(list(m, "body"))}
	case "PLpgSQL_stmt_null":
		return &nullStmt{}
	case "PLpgSQL_stmt_commit":
		return &txEnd{chain: flag(m, "chain")}
	case "PLpgSQL_stmt_rollback":
		return &txEnd{rollback: true, chain: flag(m, "chain")}
	case "PLpgSQL_stmt_call":
		return &callStmt{e: expr(m, "expr")}
	case "":
		return nil
	}
	if c.unsupported == "" {
		c.unsupported = strings.ToUpper(strings.TrimPrefix(kind, "PLpgSQL_stmt_"))
	}
	return nil
}

// scope gives each declared variable to the block that declares it. The
// grammar's tree does not say which: the body's text does, read by
// declSections (the k-th BEGIN opens the k-th block, in the order blocks
// open); when the text cannot be read so, a declaration goes to the
// first block that begins at or after its line. The parameters, FOUND
// and the implicit variables belong to the function.
func (c *compiler) scope(body string) {
	f := c.f
	var decls []int
	for i, d := range f.datums {
		if i <= f.found || d.implicit || (d.name == "sqlstate" || d.name == "sqlerrm") && d.isConst {
			continue
		}
		decls = append(decls, i)
	}
	// A body whose block has a label or an EXCEPTION clause is wrapped by
	// the grammar in a block of its own, which has no BEGIN in the text.
	blocks := c.blocks
	if top := blocks[0]; top.label == "" && len(top.handlers) == 0 && len(top.body) == 1 && len(blocks) > 1 && top.body[0] == blocks[1] &&
		(blocks[1].label != "" || len(blocks[1].handlers) > 0) {
		blocks = blocks[1:]
	}
	sections, ok := declSections(body)
	total := 0
	for _, sec := range sections {
		total += sec.count
		ok = ok && sec.block < len(blocks)
	}
	if ok && total == len(decls) {
		for _, sec := range sections {
			b := blocks[sec.block]
			for _, a := range sec.aliases {
				a.after += len(b.decls)
				b.aliases = append(b.aliases, a)
			}
			b.decls, decls = append(b.decls, decls[:sec.count]...), decls[sec.count:]
		}
		return
	}
	for _, i := range decls {
		owner := c.blocks[0]
		for _, b := range c.blocks {
			if b.line >= f.datums[i].line {
				owner = b
				break
			}
		}
		owner.decls = append(owner.decls, i)
	}
}

// declSection is a DECLARE section of a body: the number of the block it
// belongs to, in the order blocks open, and how many declarations it has.
type declSection struct {
	block, count int
	// start and end are the section's text in the body: after DECLARE,
	// up to BEGIN.
	start, end int
	// aliases are its ALIAS FOR declarations, which count for nothing
	// in count (they have no datum).
	aliases []alias
}

// declSections reads the DECLARE sections of a body's text, skipping
// quoted text and comments; ok is false when the text is not as
// expected.
func declSections(body string) (out []declSection, ok bool) {
	begins, open, depth, declStart := 0, -1, 0, 0
	for i := 0; i < len(body); i++ {
		ch := body[i]
		switch {
		case ch == '\'' || ch == '"':
			j := strings.IndexByte(body[i+1:], ch)
			if j < 0 {
				return nil, false
			}
			i += j + 1
		case ch == '-' && strings.HasPrefix(body[i:], "--"):
			j := strings.IndexByte(body[i:], '\n')
			if j < 0 {
				return out, open < 0
			}
			i += j
		case ch == '/' && strings.HasPrefix(body[i:], "/*"):
			j := strings.Index(body[i:], "*/")
			if j < 0 {
				return nil, false
			}
			i += j + 1
		case ch == '$' && (i+1 >= len(body) || body[i+1] < '0' || body[i+1] > '9'):
			return nil, false // a dollar quote: not read here
		case ch == '(' || ch == '[':
			depth++
		case ch == ')' || ch == ']':
			depth--
		case ch == ';' && open >= 0 && depth == 0:
			if a, ok := readAlias(body[declStart:i]); ok {
				a.after = out[open].count
				out[open].aliases = append(out[open].aliases, a)
			} else {
				out[open].count++
			}
			declStart = i + 1
		case isWordStart(ch) && (i == 0 || !isWordChar(body[i-1])):
			j := i
			for j < len(body) && isWordChar(body[j]) {
				j++
			}
			switch strings.ToLower(body[i:j]) {
			case "declare":
				if open < 0 {
					out = append(out, declSection{block: begins, start: j})
					open = len(out) - 1
					declStart = j
				}
			case "begin":
				if open >= 0 {
					out[open].block, out[open].end = begins, i
					open = -1
				}
				begins++
			}
			i = j - 1
		}
	}
	return out, open < 0
}

func isWordStart(ch byte) bool {
	return ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= 0x80
}

func isWordChar(ch byte) bool { return isWordStart(ch) || ch == '$' || ch >= '0' && ch <= '9' }
