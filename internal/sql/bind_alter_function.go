package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// AlterFunction is ALTER FUNCTION, ALTER PROCEDURE or ALTER AGGREGATE of
// one routine: RENAME TO, OWNER TO, or a list of options (functions and
// procedures). A field left zero is not changed.
type AlterFunction struct {
	Ref FuncRef
	// Kind is "function", "procedure" or "aggregate", as the statement
	// names it.
	Kind string
	// Rename is the new name; Owner the new owner (OWNER TO), its
	// position OwnerLoc.
	Rename string
	Owner  string
	// Move is set by SET SCHEMA, Rename then the key in the new schema.
	Move     bool
	OwnerLoc int32
	// NewOwner is set by OWNER TO (Owner "" for CURRENT_USER and its
	// kin: the session's role).
	NewOwner bool
	// SecDef is set by SECURITY DEFINER (true) and INVOKER (false);
	// Settings are the SET and RESET clauses, in order
	// (function_security.go).
	SecDef   *bool
	Settings []FuncSetting
	// Strict is set by STRICT (true) and CALLED ON NULL INPUT (false),
	// Leakproof by [NOT] LEAKPROOF; Volatility is immutable, stable or
	// volatile; Cost and Rows are positive when given; Parallel is safe,
	// restricted or unsafe.
	Strict, Leakproof *bool
	Volatility        string
	Cost, Rows        float64
	Parallel          string
	// RowsLoc is the position of ROWS, which only a set-returning
	// function takes.
	RowsLoc int32
	// Invalid is the error of an option, which PostgreSQL reports once
	// it has found the routine; ProcInvalid, for ALTER ROUTINE, that of
	// an option a procedure does not take, reported when the routine
	// found is one.
	Invalid, ProcInvalid error
}

func (*AlterFunction) bound() {}

// Tag is the statement's command tag.
func (a *AlterFunction) Tag() string {
	if a.Ref.Routine {
		return "ALTER ROUTINE"
	}
	return "ALTER " + strings.ToUpper(a.Kind)
}

// bindAlterFunction binds ALTER FUNCTION | PROCEDURE | ROUTINE
// name[(types)] action …: the options of CREATE FUNCTION that change a
// routine's properties. SET and RESET of settings and SECURITY DEFINER |
// INVOKER change how calls run (function_security.go).
func (b *binder) bindAlterFunction(af *pg_query.AlterFunctionStmt) (Bound, error) {
	kind := "function"
	if af.Objtype == pg_query.ObjectType_OBJECT_PROCEDURE {
		kind = "procedure"
	}
	routine := af.Objtype == pg_query.ObjectType_OBJECT_ROUTINE
	ref, err := b.routineRef(af.Func, kind == "procedure" || routine)
	if err != nil {
		return nil, err
	}
	ref.Routine = routine
	a := &AlterFunction{Ref: ref, Kind: kind, RowsLoc: -1}
	for _, n := range af.Actions {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		if routine && a.ProcInvalid == nil && !procedureOption(d) {
			a.ProcInvalid = b.stmt.errf(d.Location, CodeInvalidFunctionDef, "invalid attribute in procedure definition")
		}
		if a.Invalid, err = b.alterOption(a, d); a.Invalid != nil || err != nil {
			return a, err
		}
	}
	return a, nil
}

// procedureOption reports whether ALTER PROCEDURE takes option d.
func procedureOption(d *pg_query.DefElem) bool { return d.Defname == "security" || d.Defname == "set" }

// alterOption reads one option of ALTER FUNCTION | PROCEDURE into a;
// invalid is its error, for after the routine is found.
func (b *binder) alterOption(a *AlterFunction, d *pg_query.DefElem) (invalid, err error) {
	if a.Kind == "procedure" && !procedureOption(d) {
		return b.stmt.errf(d.Location, CodeInvalidFunctionDef, "invalid attribute in procedure definition"), nil
	}
	switch d.Defname {
	case "strict":
		v := defBool(d)
		a.Strict = &v
	case "leakproof":
		v := defBool(d)
		a.Leakproof = &v
	case "volatility":
		a.Volatility = strings.ToLower(d.Arg.GetString_().GetSval())
	case "security":
		v := defBool(d)
		a.SecDef = &v
	case "cost", "rows":
		f, ok := defNumber(d)
		if !ok || f <= 0 {
			return pgerr.New(pgerr.InvalidParameter, "%s must be positive", strings.ToUpper(d.Defname)), nil
		}
		if d.Defname == "cost" {
			a.Cost = f
		} else {
			a.Rows, a.RowsLoc = f, d.Location
		}
	case "parallel":
		p := strings.ToLower(d.Arg.GetString_().GetSval())
		if p != "safe" && p != "restricted" && p != "unsafe" {
			return pgerr.New(pgerr.SyntaxError, "parameter \"parallel\" must be SAFE, RESTRICTED, or UNSAFE"), nil
		}
		a.Parallel = p
	case "set":
		fs, err := b.funcSetting(d)
		if err != nil {
			return err, nil
		}
		a.Settings = append(a.Settings, fs)
	default:
		return nil, b.refuse(d.Location, "ALTER %s option %s is not supported", strings.ToUpper(a.Kind), strings.ToUpper(d.Defname))
	}
	return nil, nil
}

// defNumber reads a numeric option's value.
func defNumber(d *pg_query.DefElem) (float64, bool) {
	switch {
	case d.Arg.GetInteger() != nil:
		return float64(d.Arg.GetInteger().Ival), true
	case d.Arg.GetFloat() != nil:
		f, err := strconv.ParseFloat(d.Arg.GetFloat().Fval, 64)
		return f, err == nil
	}
	return 0, false
}

// alterRoutineKind is the kind of routine an ALTER … RENAME or OWNER TO
// names; ok is false for another object.
func alterRoutineKind(t pg_query.ObjectType) (string, bool) {
	switch t {
	case pg_query.ObjectType_OBJECT_FUNCTION:
		return "function", true
	case pg_query.ObjectType_OBJECT_PROCEDURE:
		return "procedure", true
	case pg_query.ObjectType_OBJECT_AGGREGATE:
		return "aggregate", true
	case pg_query.ObjectType_OBJECT_ROUTINE:
		return "routine", true
	}
	return "", false
}

// routineKindRef reads the routine of kind (as alterRoutineKind gives
// it) an ALTER names: ALTER ROUTINE's is a function or a procedure, of
// kind "function" until the engine finds which.
func (b *binder) routineKindRef(kind string, ow *pg_query.ObjectWithArgs) (string, FuncRef, error) {
	routine := kind == "routine"
	ref, err := b.routineRef(ow, kind == "procedure" || routine)
	if routine {
		kind, ref.Routine = "function", true
	}
	return kind, ref, err
}

// bindRenameRoutine binds ALTER FUNCTION | PROCEDURE | AGGREGATE |
// ROUTINE … RENAME TO name.
func (b *binder) bindRenameRoutine(kind string, rs *pg_query.RenameStmt) (Bound, error) {
	kind, ref, err := b.routineKindRef(kind, rs.Object.GetObjectWithArgs())
	if err != nil {
		return nil, err
	}
	return &AlterFunction{Ref: ref, Kind: kind, Rename: rs.Newname, RowsLoc: -1}, nil
}

// bindAlterOwner binds ALTER FUNCTION | PROCEDURE | AGGREGATE … OWNER TO
// role; ok is false for another object.
func (b *binder) bindAlterOwner(ao *pg_query.AlterOwnerStmt) (Bound, bool, error) {
	if ao.ObjectType == pg_query.ObjectType_OBJECT_TYPE || ao.ObjectType == pg_query.ObjectType_OBJECT_DOMAIN {
		a, err := b.bindAlterTypeOwner(ao)
		return a, true, err
	}
	if ao.ObjectType == pg_query.ObjectType_OBJECT_SCHEMA {
		a, err := b.bindAlterSchemaOwner(ao)
		return a, true, err
	}
	kind, ok := alterRoutineKind(ao.ObjectType)
	if !ok {
		return nil, false, nil
	}
	kind, ref, err := b.routineKindRef(kind, ao.Object.GetObjectWithArgs())
	if err != nil {
		return nil, true, err
	}
	a := &AlterFunction{Ref: ref, Kind: kind, RowsLoc: -1, OwnerLoc: -1, NewOwner: true}
	if a.Owner, err = b.newOwner(ao.Newowner); err != nil {
		return nil, true, err
	}
	if a.Owner != "" {
		a.OwnerLoc = ao.Newowner.Location
	}
	return a, true, nil
}

// routineRef reads the routine an ALTER names: by name alone, or with
// its argument types (all its parameters', OUT ones too, for a
// procedure, as DROP PROCEDURE reads them).
func (b *binder) routineRef(ow *pg_query.ObjectWithArgs, proc bool) (FuncRef, error) {
	if ow == nil {
		return FuncRef{}, pgerr.New(pgerr.SyntaxError, "a routine is needed")
	}
	name, err := b.functionName(ow.Objname)
	if err != nil {
		return FuncRef{}, err
	}
	ref := FuncRef{Name: name}
	if ow.ArgsUnspecified {
		return ref, nil
	}
	ref.Args = []value.Type{}
	for _, tn := range dropArgTypes(ow) {
		if tn == nil {
			continue // ALTER AGGREGATE f(*)
		}
		_, t, poly, err := b.paramType(tn)
		if err != nil {
			return FuncRef{}, err
		}
		if poly != PolyNone && ref.Polys == nil {
			ref.Polys = make([]Poly, len(ref.Args), len(dropArgTypes(ow)))
		}
		if ref.Polys != nil {
			ref.Polys = append(ref.Polys, poly)
		}
		ref.Args = append(ref.Args, t)
		if err := b.refDomain(&ref, tn, poly); err != nil {
			return FuncRef{}, err
		}
	}
	if proc {
		for _, a := range ow.Objfuncargs {
			_, t, _, err := b.paramType(a.GetFunctionParameter().ArgType)
			if err != nil {
				return FuncRef{}, err
			}
			ref.AllArgs = append(ref.AllArgs, t)
		}
	}
	return ref, nil
}

// bindAlterRoutine binds ALTER FUNCTION | PROCEDURE … options and ALTER
// … OWNER TO of a routine; ok is false for other statements.
func (b *binder) bindAlterRoutine(n *pg_query.Node) (Bound, bool, error) {
	switch {
	case n.GetAlterFunctionStmt() != nil:
		a, err := b.bindAlterFunction(n.GetAlterFunctionStmt())
		return a, true, err
	case n.GetAlterOwnerStmt() != nil:
		return b.bindAlterOwner(n.GetAlterOwnerStmt())
	}
	return nil, false, nil
}
