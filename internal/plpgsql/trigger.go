package plpgsql

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// TriggerData is what a trigger function runs with: the values of
// PostgreSQL's TG_* variables, and the rows NEW and OLD.
type TriggerData struct {
	// Name is TG_NAME; When is BEFORE or AFTER; Level ROW or STATEMENT;
	// Op INSERT, UPDATE, DELETE or TRUNCATE.
	Name, When, Level, Op string
	Table, Schema         string
	RelID                 uint32
	// NameNow, when set, gives the table's name and schema as they are
	// when TG_TABLE_NAME, TG_RELNAME or TG_TABLE_SCHEMA is first read, as
	// PostgreSQL reads them from the relation then: a body that renames
	// its table before reading one reads the new name. Nil: Table and
	// Schema.
	NameNow func() (table, schema string)
	Args    []string
	// Cols are the table's columns, RowType its row type.
	Cols    []plan.Column
	RowType value.Type
	// Old and New are the rows; nil where the trigger has none, which the
	// body reads as NULL.
	Old, New value.Row
}

// CallTrigger runs a trigger function (compiled with Signature.Trigger)
// for td: the row it returns, nil for NULL. A row is converted to the
// table's columns, as PostgreSQL converts it; one of another number of
// columns is 42804.
func (f *Func) CallTrigger(rt Runtime, td *TriggerData) (value.Row, error) {
	c := newCall(f, rt)
	if f.found < len(f.datums) {
		c.bind(f.found, &variable{name: "found", t: value.BoolType, v: value.NewBool(false)})
	}
	if cr, ok := rt.(CursorRuntime); ok {
		defer cr.PushCursors(c)()
	}
	for i := f.found + 1; i < len(f.datums) && i <= f.found+2; i++ {
		d := f.datums[i]
		var row value.Row
		switch d.name {
		case "new":
			row = td.New
		case "old":
			row = td.Old
		default:
			continue
		}
		v := &variable{name: d.name, t: td.RowType, isRec: true, rowType: td.Cols}
		if row != nil {
			v.rec = &record{cols: td.Cols, vals: slices.Clone(row)}
		}
		c.bind(i, v)
	}
	text := func(name, s string) {
		c.fr.vars[name] = &variable{name: name, t: value.TextType, v: value.NewText(value.Text, s)}
	}
	text("tg_name", td.Name)
	text("tg_when", td.When)
	text("tg_level", td.Level)
	text("tg_op", td.Op)
	text("tg_relname", td.Table)
	text("tg_table_name", td.Table)
	text("tg_table_schema", td.Schema)
	if td.NameNow != nil {
		for _, name := range []string{"tg_relname", "tg_table_name", "tg_table_schema"} {
			c.fr.vars[name].promise = func() value.Value {
				t, sc := td.NameNow()
				if name == "tg_table_schema" {
					t = sc
				}
				return value.NewText(value.Text, t)
			}
		}
	}
	c.fr.vars["tg_relid"] = &variable{name: "tg_relid", t: value.OidType, v: value.NewOid(td.RelID)}
	c.fr.vars["tg_nargs"] = &variable{name: "tg_nargs", t: value.Int4Type, v: value.NewInt(value.Int4, int64(len(td.Args)))}
	argv := make([]value.Value, len(td.Args))
	for i, a := range td.Args {
		argv[i] = value.NewText(value.Text, a)
	}
	// TG_ARGV counts from 0, as in PostgreSQL.
	arr := value.NewArrayDims(value.ArrayOf(value.Text), argv, []value.Dim{{Len: len(argv), Lower: 0}})
	c.fr.vars["tg_argv"] = &variable{name: "tg_argv", t: value.Type{Kind: value.ArrayOf(value.Text), Mod: -1}, v: arr}
	ct, err := c.block(f.body)
	if err != nil {
		if !c.placed {
			err = c.place(err, "")
		}
		return nil, unpositioned(err)
	}
	if ct.kind != ctlReturn {
		return nil, c.place(pgerr.New("2F005", "control reached end of trigger procedure without RETURN"), "")
	}
	if c.ret.IsNull() {
		return nil, nil
	}
	fields := c.ret.Fields()
	mismatch := func(format string, args ...any) error {
		return c.place(pgerr.New(pgerr.DatatypeMismatch, "returned row structure does not match the structure of the triggering table").
			WithDetail(format, args...), " during function exit")
	}
	if len(fields) != len(td.Cols) {
		return nil, mismatch("Number of returned columns (%d) does not match expected column count (%d).", len(fields), len(td.Cols))
	}
	// As PostgreSQL, the returned row's columns must be of the table's
	// types, not converted to them.
	if d := c.retType.RecordDesc(); d != nil && len(d.Fields) == len(fields) {
		for i, f := range d.Fields {
			if want := td.Cols[i].Type; f.Type.Kind != want.Kind {
				return nil, mismatch("Returned type %s does not match expected type %s in column %d.", f.Type, want, i+1)
			}
		}
	}
	out := make(value.Row, len(fields))
	for i, v := range fields {
		if v.IsNull() {
			out[i] = value.Null
			continue
		}
		if out[i], err = rt.Assign(v, td.Cols[i].Type); err != nil {
			return nil, err
		}
	}
	return out, nil
}
