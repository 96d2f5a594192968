package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Function security: SECURITY DEFINER and the settings a routine sets
// for its calls (CREATE or ALTER FUNCTION … SET name = value | FROM
// CURRENT, RESET name | ALL), as pg_proc.prosecdef and proconfig keep
// them. The engine applies both around each call (routine_security.go).
// As PostgreSQL never inlines such a SQL function, neither does
// deltaview: it runs as code, its statements one by one.

// FuncSetting is one SET or RESET clause of CREATE or ALTER FUNCTION:
// name = Value, name FROM CURRENT (the session's value when the
// statement runs), RESET name (Reset), RESET ALL (Reset and All).
type FuncSetting struct {
	Name, Value string
	FromCurrent bool
	Reset, All  bool
}

// funcSetting reads the SET or RESET clause d of CREATE or ALTER
// FUNCTION | PROCEDURE.
func (b *binder) funcSetting(d *pg_query.DefElem) (FuncSetting, error) {
	vs := d.Arg.GetVariableSetStmt()
	if vs == nil {
		return FuncSetting{}, b.refuse(d.Location, "this form of SET is not supported")
	}
	if vs.Kind == pg_query.VariableSetKind_VAR_SET_CURRENT {
		return FuncSetting{Name: strings.ToLower(vs.Name), FromCurrent: true}, nil
	}
	bs, err := b.bindVariableSet(vs)
	if err != nil {
		return FuncSetting{}, err
	}
	s, ok := bs.(*Set)
	if !ok || len(s.Multi) > 0 {
		return FuncSetting{}, b.refuse(d.Location, "SET %s is not supported on a routine", strings.ToUpper(vs.Name))
	}
	return FuncSetting{Name: s.Name, Value: s.Value, Reset: s.Default, All: s.All}, nil
}

// securityWhy says why f, a SQL function, runs as code rather than
// inline because of its security: "" when it may be inlined.
func (f *Function) securityWhy() string {
	switch {
	case f.SecDef:
		return "is SECURITY DEFINER"
	case len(f.Config) > 0:
		return "has SET clauses"
	}
	return ""
}

// SecurityChanged makes f, a SQL function whose SECURITY DEFINER or
// settings changed (ALTER FUNCTION), run as code when it now has either,
// inline again when it has neither and ran as code for them alone. It is
// false when f cannot run so (a function returning record without OUT
// parameters).
func (f *Function) SecurityChanged() bool {
	if f.code == nil || f.Procedure {
		return true // PL/pgSQL, or a procedure: run as code already
	}
	why := f.securityWhy()
	switch {
	case why != "" && !f.SQLCode:
		f.code.inline = &inlineForm{lang: f.Language, source: f.Source, plsql: f.PLSQL, modes: f.ArgModes, body: f.Body, earlier: f.Earlier}
		c := *f.code
		f.code = &c
		return f.RunAsCode(why)
	case why != "" && f.code.inline != nil:
		f.code.why = why
	case why == "" && f.code.inline != nil:
		in := f.code.inline
		f.Language, f.Source, f.PLSQL, f.ArgModes, f.Body, f.Earlier = in.lang, in.source, in.plsql, in.modes, in.body, in.earlier
		f.SQLCode = false
		c := *f.code
		c.inline, c.why = nil, ""
		f.code = &c
	}
	return true
}

// inlineForm is a SQL function as it was inlined before its security
// made it run as code, to inline it again when that goes.
type inlineForm struct {
	lang, source, plsql, modes string
	body                       *pg_query.SelectStmt
	earlier                    []*pg_query.Node
}

// RunsAsCodeForSecurity reports whether f is a SQL function that would
// be inlined but for its SECURITY DEFINER or settings.
func (f *Function) RunsAsCodeForSecurity() bool {
	return f.code != nil && f.code.inline != nil
}
