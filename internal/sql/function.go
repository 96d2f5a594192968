package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Function is a SQL-language function (CREATE FUNCTION … LANGUAGE sql).
// It is never evaluated as a function: each call is bound as its body,
// inlined where it is called (bind_function_call.go), so that a view over
// it is maintained like the query it stands for.
type Function struct {
	Name string
	// Params are its input parameters (IN, INOUT), in order.
	Params []FuncParam
	// Cols are its result columns: one for a function of a scalar type
	// (named after the function, or its OUT parameter), several for OUT
	// parameters or RETURNS TABLE; each with the node of its type.
	Cols     []plan.Column
	ColTypes []*pg_query.TypeName
	// BaseType is set when the result is declared as a type, not by OUT
	// parameters: in FROM, an alias names its one column too.
	BaseType bool
	// RowOfFields is set when the body of a function returning a
	// composite type returns its fields, made the row of them
	// (rowOfFields): the body's subquery is the statement written.
	RowOfFields bool
	// Set is RETURNS SETOF or RETURNS TABLE: every row of the body, not
	// the first.
	Set bool
	// Cost and Rows are COST and ROWS (pg_proc.procost, prorows), 0 when
	// not given: planner estimates, which change nothing here but the
	// catalog.
	Cost, Rows float64
	// Strict is STRICT (RETURNS NULL ON NULL INPUT): a NULL argument
	// makes the call NULL (no row, for a set) without running the body.
	Strict bool
	// Body is the body's last statement, whose result the function
	// returns. Its locations point into SQL, the CREATE FUNCTION
	// statement, or are -1 when the body's text could not be found there.
	Body *pg_query.SelectStmt
	SQL  string
	// Earlier are the statements of the body before the last: queries,
	// checked at CREATE, whose results are discarded.
	Earlier []*pg_query.Node
	// Language is "" for LANGUAGE sql, LangPLpgSQL for a function the
	// engine runs (routine.go): Source is then its body's text, and Body
	// and Earlier are nil; Cols is empty for RETURNS void.
	Language string
	Source   string
	// ArgModes are the modes of all its parameters, in order, a letter
	// each: i(n), o(ut), b (inout), t (of RETURNS TABLE).
	ArgModes string
	// Compiled is the engine's compiled body, made at the first call.
	Compiled any
	// Volatility is the marking CREATE gave, lower case; "" for none
	// (volatile).
	Volatility string
	// Procedure is CREATE PROCEDURE: run by CALL, its Params are all its
	// parameters (OUT ones too, as PostgreSQL 14 counts them), its Cols
	// the INOUT and OUT ones, which CALL returns as a row (procedure.go).
	Procedure bool
	// PLSQL is, for a LANGUAGE sql procedure, the CREATE statement of
	// the PL/pgSQL procedure it runs as, whose body is Source.
	PLSQL string
	// Trigger is RETURNS trigger: a PL/pgSQL function without parameters
	// that only a trigger may run; a call of it is refused (0A000).
	Trigger bool
	// EventTrigger is RETURNS event_trigger (Trigger is set too): only an
	// event trigger may run it (event_trigger.go).
	EventTrigger bool
	// ColDomains are the domains Cols are declared of (nil entries for
	// other types), nil when none is: a call's result is cast to it.
	ColDomains []*expr.Domain
	// ColPoly are the pseudo-types of Cols (PolyNone for an actual type),
	// nil when none is polymorphic; such a column's Type is unknown.
	ColPoly []Poly
	// Generic is, for an instance of a polymorphic function (its
	// pseudo-types resolved by a call), that function; nil otherwise.
	Generic   *Function
	instances *polyInstances
	instID    string // its key in Generic's instances
	// SQLCode is set for a LANGUAGE sql function run as PL/pgSQL code
	// (function_code.go): one that changes data, returns void or calls
	// itself. code is that code, nil when it could not be made.
	SQLCode bool
	code    *codeForm
	// AnyRecord is RETURNS [SETOF] record without OUT parameters: the
	// body's row is the record, whose fields a column definition list
	// names and types in FROM (bind_any_record.go). Cols is then one
	// column of the anonymous record type.
	AnyRecord bool
	// recordList marks an instance of such a function whose columns a
	// call's column definition list gives: its result is still record.
	recordList bool
	// anyInstance marks any instance of such a function made by a call.
	anyInstance bool
	// RecordCols are the columns a call's column definition list gives
	// an instance of a PL/pgSQL function returning record: the rows it
	// returns must be of them, as of a composite type's fields
	// (bind_routine_record.go).
	RecordCols []plan.Column
	// Atomic is a body of RETURN or BEGIN ATOMIC, which PostgreSQL binds
	// at CREATE, before the function exists.
	Atomic bool
	// SecDef is SECURITY DEFINER: a call runs as Owner. Config are the
	// settings a call runs with, "name=value" as pg_proc.proconfig
	// lists them (function_security.go). Owner is the role that owns the
	// routine; "" for the built-in superuser.
	SecDef bool
	Config []string
	Owner  string
	// ACL are the roles that hold EXECUTE on the routine ("" for PUBLIC),
	// in the order pg_proc.proacl lists them, when HasACL; without it,
	// the default: PUBLIC and the owner (engine/routine_acl.go).
	ACL    []string
	HasACL bool
	// ACLOptions are the roles of ACL that hold EXECUTE's grant option.
	ACLOptions []string
}

// FuncParam is one input parameter of a Function.
type FuncParam struct {
	Name     string // "" when unnamed
	Type     value.Type
	TypeName *pg_query.TypeName
	// Default is the DEFAULT expression, nil for none; its locations are
	// the CREATE statement's.
	Default *pg_query.Node
	// Variadic is VARIADIC, on the last input parameter only, of an array
	// type: a call passes its elements one by one, or the array itself
	// after the VARIADIC keyword.
	Variadic bool
	// Poly is the parameter's pseudo-type (anyelement, …), PolyNone for an
	// actual type; Type is then unknown, and a call resolves it.
	Poly Poly
	// Domain is the domain the parameter is declared of (Type is its
	// base type), nil for another type: part of the function's identity,
	// as in PostgreSQL, and the type its argument is cast to.
	Domain *expr.Domain
}

// Signature is the function's name and input types as PostgreSQL prints
// them in messages: f(integer,text). It identifies the function among
// those of its name.
func (f *Function) Signature() string {
	parts := make([]string, len(f.Params))
	for i, p := range f.Params {
		parts[i] = p.TypeString()
	}
	return f.Name + "(" + strings.Join(parts, ",") + ")"
}

// Signature prints a function's name and input types as PostgreSQL does.
func Signature(name string, ts []value.Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return name + "(" + strings.Join(parts, ",") + ")"
}

// Result is the type a scalar call returns: the one column's, or record.
func (f *Function) Result() value.Type {
	if len(f.Cols) == 1 && !f.recordList {
		return f.Cols[0].Type
	}
	return value.RecordType
}

// paramCol is the name of parameter i as a column of the row of
// arguments a call binds its body against.
func (f *Function) paramCol(i int) string {
	if n := f.Params[i].Name; n != "" {
		return n
	}
	return "$" + strconv.Itoa(i+1)
}

// FunctionCatalog is a Catalog that holds SQL functions: Functions
// returns those of a name (case-folded), every overload.
type FunctionCatalog interface {
	Functions(name string) []*Function
}

// FunctionUser is a Catalog told of every SQL function a statement calls,
// on which a view over the statement then depends.
type FunctionUser interface {
	UseFunction(f *Function)
}

// CreateFunction is CREATE [OR REPLACE] FUNCTION … LANGUAGE sql.
type CreateFunction struct {
	Func    *Function
	Replace bool
	// Settings are its SET clauses, which the engine checks and writes
	// into Func.Config (FROM CURRENT reads the session).
	Settings []FuncSetting
}

// DropFunction is DROP FUNCTION.
type DropFunction struct {
	// Procedure is DROP PROCEDURE, Routine DROP ROUTINE (whose Funcs
	// are functions or procedures alike).
	Procedure, Routine bool
	Funcs              []FuncRef
	IfExists           bool
	Cascade            bool
}

// FuncRef names a function of DROP FUNCTION: by name alone (Args nil), or
// by name and input types.
type FuncRef struct {
	Name string
	Args []value.Type
	// AllArgs are the types of every parameter listed, OUT ones too, which
	// name a procedure as well.
	AllArgs []value.Type
	// Polys are the pseudo-types of Args (nil when none is one).
	Polys []Poly
	// Domains are the domains Args name (nil when none does).
	Domains []*expr.Domain
	// Routine is set when ALTER ROUTINE or DROP ROUTINE names it: a
	// function or a procedure alike.
	Routine bool
	// Written is how DROP wrote it, name(types), for the NOTICE of IF
	// EXISTS (drop_missing.go); Missing is that NOTICE when its schema or
	// one of its types does not exist, and the ref names nothing.
	Written, Missing string
}

// ArgsString prints the input types DROP names as PostgreSQL's messages
// do: f(integer, anyelement).
func (r FuncRef) ArgsString() string {
	parts := make([]string, len(r.Args))
	for i, t := range r.Args {
		parts[i] = t.String()
		if p := polyAt(r.Polys, i); p != PolyNone {
			parts[i] = p.String()
		}
		if d := domainAt(r.Domains, i); d != nil {
			parts[i] = d.TypeName()
		}
	}
	return r.Name + "(" + strings.Join(parts, ", ") + ")"
}

func (*CreateFunction) bound() {}
func (*DropFunction) bound()   {}

// RowFields are the fields of the composite type a function returns
// (RETURNS t or RETURNS SETOF t, t a table's or a composite type), as
// columns: in FROM, its call gives them; nil for another result.
func (f *Function) RowFields() []plan.Column {
	if !f.BaseType || len(f.Cols) != 1 || !isRowType(f.Cols[0].Type) {
		return nil
	}
	d := f.Cols[0].Type.RecordDesc()
	cols := make([]plan.Column, len(d.Fields))
	for i, fd := range d.Fields {
		cols[i] = plan.Column{Name: fd.Name, Type: fd.Type}
	}
	return cols
}
