package expr

import "github.com/deltaview/deltaview/internal/value"

// ExpandComposites returns f with each column of a table's row type
// (unnest of an array of t's rows) turned into that type's fields, as a
// function in FROM returns a composite in PostgreSQL: SELECT * FROM
// unnest(array_agg(t)) has t's columns. It returns f itself when it has
// none; rowType is the composite type when it is f's only column.
func ExpandComposites(f *SRF) (out *SRF, rowType value.Type) {
	descs := make([]*value.RecordDesc, len(f.Cols))
	expand := false
	for i, t := range f.Cols {
		if d := t.RecordDesc(); t.Kind == value.Record && d != nil && d.Name != "" {
			descs[i], expand = d, true
		}
	}
	if !expand {
		return f, value.Type{}
	}
	if len(f.Cols) == 1 {
		rowType = f.Cols[0]
	}
	out = &SRF{Name: f.Name, Args: f.Args}
	for i, t := range f.Cols {
		if d := descs[i]; d != nil {
			for _, fd := range d.Fields {
				out.Cols = append(out.Cols, fd.Type)
				out.Names = append(out.Names, fd.Name)
			}
			continue
		}
		name := f.Name
		if f.Names != nil {
			name = f.Names[i]
		}
		out.Cols = append(out.Cols, t)
		out.Names = append(out.Names, name)
	}
	width := len(out.Cols)
	out.Gen = func(args []value.Value, emit func(value.Row) error) error {
		return f.Gen(args, func(r value.Row) error {
			row := make(value.Row, 0, width)
			for i, v := range r {
				d := descs[i]
				if d == nil {
					row = append(row, v)
					continue
				}
				// A NULL element is a row of NULLs.
				var fs []value.Value
				if !v.IsNull() {
					fs = v.Fields()
				}
				for j := range d.Fields {
					if j < len(fs) {
						row = append(row, fs[j])
					} else {
						row = append(row, value.Null)
					}
				}
			}
			return emit(row)
		})
	}
	return out, rowType
}
