package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// procArgs are the pg_proc columns of a routine's parameters of every
// mode: proallargtypes, proargmodes and proargnames, which PostgreSQL
// fills only when a parameter is not IN, and the types of its output
// parameters (OUT, INOUT, RETURNS TABLE's columns).
type procArgs struct {
	types []uint32
	modes []string
	names []string
	outs  []value.Type
	// outDoms are the domains of outs (nil entries for other types).
	outDoms []*expr.Domain
}

// routineArgs reads f's parameters in declared order, as
// information_schema.parameters does; the zero procArgs when every one is
// IN.
func (e *Engine) routineArgs(f *sql.Function) procArgs {
	modes := f.Modes()
	var a procArgs
	allIn := true
	in, out := 0, 0
	for pos := 0; pos < len(modes); pos++ {
		m := modes[pos]
		var p sql.FuncParam
		switch {
		case f.Procedure && pos < len(f.Params):
			p = f.Params[pos]
		case (m == 'i' || m == 'b') && in < len(f.Params):
			p = f.Params[in]
			in++
		case (m == 'o' || m == 't') && out < len(f.Cols):
			p = sql.FuncParam{Name: f.Cols[out].Name, Type: f.Cols[out].Type, Domain: f.ColDomain(out)}
			out++
		default:
			return procArgs{}
		}
		if m != 'i' {
			allIn = false
			a.outs = append(a.outs, p.Type)
			a.outDoms = append(a.outDoms, p.Domain)
		}
		a.types = append(a.types, e.typeOID(p.Type, p.Domain))
		a.modes = append(a.modes, string(m))
		a.names = append(a.names, p.Name)
	}
	if allIn {
		return procArgs{}
	}
	return a
}

// outTypeString is an output parameter's type as format_type prints it:
// its domain's name when it is of one.
func outTypeString(t value.Type, d *expr.Domain) string {
	if d != nil {
		return d.TypeName()
	}
	return t.String()
}
