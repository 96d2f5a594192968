package expr

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The hstore extension's functions over records, bound apart from its
// other functions as their types depend on the record's (the binder's
// hstoreRecordCall): populate_record(base, h) and base #= h, and
// hstore(record).

// HStorePopulateRecord is populate_record(base, h): a record of base's
// row type rowType whose fields named by h's keys take their values,
// read by the fields' types' input, the others base's (NULL for a NULL
// base); a NULL h gives base itself, as PostgreSQL's. clock gives the
// interval style of the input (nil in a view: the default).
func HStorePopulateRecord(def *FuncDef, base, h Expr, rowType value.Type, clock *StmtClock) Expr {
	desc := rowType.RecordDesc()
	eval := func(a []value.Value) (value.Value, error) {
		rec, hs := a[0], a[1]
		if hs.IsNull() {
			return rec, nil
		}
		var fields []value.Value
		if !rec.IsNull() {
			fields = rec.Fields()
		}
		out := make(value.Row, len(desc.Fields))
		for i, f := range desc.Fields {
			if i < len(fields) {
				out[i] = fields[i]
			}
			p, ok := hstoreGet(hs, f.Name)
			switch {
			case !ok:
			case p.Null:
				out[i] = value.Null
			default:
				v, err := hstoreFieldInput(p.Val, f.Type, clock.inputStyle())
				if err != nil {
					return value.Null, err
				}
				out[i] = v
			}
		}
		return value.NewRecord(out), nil
	}
	d := &FuncDef{Name: def.Name, Result: rowType, Eval: eval, Ext: def.Ext, Params: def.Params}
	return &Func{Def: d, Args: []Expr{base, h}, T: rowType}
}

// hstoreFieldInput reads a field's value from its text as the type's
// input does.
func hstoreFieldInput(s string, t value.Type, st value.TextStyle) (value.Value, error) {
	if t.IsAnonymousRecord() {
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
	}
	return value.ParseIntervalIn(s, t, st)
}

// HStoreFromRecord is hstore(r): a pair per field of r, its name (f1, f2,
// … for an anonymous record) and its value's text, NULL for a NULL
// field; a NULL r has every field NULL, as PostgreSQL's.
func HStoreFromRecord(def *FuncDef, r Expr) Expr {
	t := r.Type()
	var names []string
	if desc := t.RecordDesc(); desc != nil {
		for _, f := range desc.Fields {
			names = append(names, f.Name)
		}
	}
	eval := func(a []value.Value) (value.Value, error) {
		var fields []value.Value
		n := len(names)
		if !a[0].IsNull() {
			fields = a[0].Fields()
			n = len(fields)
		}
		pairs := make([]value.HPair, n)
		for i := range pairs {
			name := "f" + strconv.Itoa(i+1)
			if i < len(names) {
				name = names[i]
			}
			pairs[i] = value.HPair{Key: name, Null: true}
			if i < len(fields) && !fields[i].IsNull() {
				pairs[i] = value.HPair{Key: name, Val: fields[i].String()}
			}
		}
		return value.NewHStore(pairs), nil
	}
	d := &FuncDef{Name: def.Name, Result: value.HStoreType, Eval: eval, Ext: def.Ext, Params: def.Params}
	return &Func{Def: d, Args: []Expr{r}, T: value.HStoreType}
}
