package plpgsql

import (
	"regexp"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"github.com/pganalyze/pg_query_go/v6/parser"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// recordParam makes the input parameter v, of a composite type or of
// record, a record variable, as PostgreSQL's PL/pgSQL declares such a
// parameter: its fields are read by name (r.x), and assigned. One of a
// row type keeps its fields, NULL fields for a NULL argument; one of
// record takes its argument's (a call binds an instance per argument
// type), and a NULL of no known fields leaves it unassigned.
func recordParam(v *variable) {
	arg := v.v
	d := v.t.RecordDesc()
	if d == nil && !arg.IsNull() {
		return // fields not known: the value is read whole
	}
	v.isRec, v.v = true, value.Null
	if d == nil {
		return
	}
	cols := make([]plan.Column, len(d.Fields))
	for i, f := range d.Fields {
		cols[i] = plan.Column{Name: f.Name, Type: f.Type}
	}
	if d.Name != "" {
		v.rowType = cols
	}
	if arg.IsNull() {
		if d.Name == "" {
			v.rec = nullRecord(cols)
		}
		return
	}
	v.rec = &record{cols: cols, vals: append(value.Row(nil), arg.Fields()...)}
}

// Fields of record parameters assigned to (r.x := …): the grammar's
// library does not know the parameters' types, and refuses the target as
// no variable. For such a parameter parse declares a record variable of
// its name first in the outermost block (declareFirst), which the
// assignments then name; Compile makes it stand for the parameter.

// notKnownField is the grammar's error for an assignment to a field of a
// variable not known as a record.
var notKnownField = regexp.MustCompile(`^"([a-z_][a-z0-9_$]*)\.[^"]*" is not a known variable$`)

// recordFieldParam returns the name of the parameter, of a composite
// type or record, whose field a parse error of src refuses to assign.
func recordFieldParam(err error, src string, sig Signature) (string, bool) {
	pe, ok := err.(*parser.Error)
	if !ok {
		return "", false
	}
	m := notKnownField.FindStringSubmatch(pe.Message)
	if m == nil {
		return "", false
	}
	i := paramIndex(src, m[1])
	if i < 0 || i >= len(sig.Types) || i >= len(sig.Modes) || sig.Modes[i] != 'i' || sig.Types[i].Kind != value.Record {
		return "", false
	}
	return m[1], true
}

// paramIndex is the position of the parameter name of the CREATE
// statement src, -1 when it has none of that name.
func paramIndex(src, name string) int {
	tree, err := pg_query.Parse(src)
	if err != nil || len(tree.Stmts) != 1 {
		return -1
	}
	cf := tree.Stmts[0].Stmt.GetCreateFunctionStmt()
	for i, p := range cf.GetParameters() {
		if p.GetFunctionParameter().GetName() == name {
			return i
		}
	}
	return -1
}

// recordParams makes the variables parse declared for the record
// parameters names stand for the parameters.
func (f *Func) recordParams(names []string) {
	for _, name := range names {
		if p := slices.IndexFunc(f.datums[:f.nparams], func(d *datum) bool { return d.name == name }); p >= 0 {
			f.standFor(p, name)
		}
	}
}
