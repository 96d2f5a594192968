package expr

import (
	"math/rand/v2"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The tablefunc extension: normal_rand, a volatile set-returning function,
// and the crosstab functions, which read the rows of a query given as text
// (the binder binds the text and passes its rows: CrosstabSRF), and
// connectby, which reads a table through the names of its columns
// (ConnectbySRF); these run in ad-hoc statements only.
func init() {
	T, I4, F8 := value.Text, value.Int4, value.Float8
	// The crosstab and connectby functions' definitions: listed for
	// pg_proc and resolution as set-returning; the binder binds their
	// calls (bindCrosstab, bindConnectby).
	crosstab := func(name string, params ...value.Kind) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: params, Result: value.RecordType,
			Rows: func([]value.Value, func(value.Row) error) error {
				return pgerr.New(pgerr.Internal, "%s is bound by its query text", name)
			}}
	}
	registerExtension(&Extension{
		Name: "tablefunc", Version: "1.0", Relocatable: true,
		Comment: "functions that manipulate whole tables, including crosstab",
		Funcs: []*FuncDef{
			{Name: "normal_rand", Strict: true, Volatile: true, Params: kinds(I4, F8, F8), Result: value.Float8Type,
				Rows: func(a []value.Value, emit func(value.Row) error) error {
					n, mean, sd := a[0].Int(), a[1].Float(), a[2].Float()
					for i := int64(0); i < n; i++ {
						if err := emit(value.Row{value.NewFloat(value.Float8, mean+sd*rand.NormFloat64())}); err != nil {
							return err
						}
					}
					return nil
				}},
			crosstab("crosstab", T),
			crosstab("crosstab", T, I4),
			crosstab("crosstab", T, T),
			crosstab("crosstab2", T),
			crosstab("crosstab3", T),
			crosstab("crosstab4", T),
			crosstab("connectby", T, T, T, T, I4),
			crosstab("connectby", T, T, T, T, I4, T),
			crosstab("connectby", T, T, T, T, T, I4),
			crosstab("connectby", T, T, T, T, T, I4, T),
		},
	})
}

// CrosstabSRF is crosstab over src, the array of the source query's rows
// (records of row name, the extra columns, category and value): the rows
// of cols, a row per run of rows of one row name (compared as text, NULLs
// equal). Without cats (crosstab(text)) the values fill the value
// columns in order, those past the last skipped; with cats, the array of
// the categories query's values, each goes to its category's column, a
// row of another category skipped, and the extra columns come from the
// run's first row. Values travel as text and are read by the columns'
// types' input, as PostgreSQL's do.
func CrosstabSRF(name string, src, cats Expr, cols []value.Type, names []string, clock *StmtClock) *SRF {
	args := []Expr{src}
	if cats != nil {
		args = append(args, cats)
	}
	gen := func(a []value.Value, emit func(value.Row) error) error {
		st := clock.inputStyle()
		str := func(v value.Value) *string {
			if v.IsNull() {
				return nil
			}
			s := v.String()
			return &s
		}
		same := func(x, y *string) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
		out := func(vals []*string) error {
			row := make(value.Row, len(cols))
			for i, s := range vals {
				if s == nil {
					continue
				}
				v, err := value.ParseIntervalIn(*s, cols[i], st)
				if err != nil {
					return err
				}
				row[i] = v
			}
			return emit(row)
		}
		rows := a[0].Elems()
		if cats == nil {
			return crosstabSeq(rows, len(cols)-1, str, same, out)
		}
		catVals := a[1].Elems()
		extras := 0
		if len(rows) > 0 {
			extras = len(rows[0].Fields()) - 3
		}
		if len(catVals) == 0 {
			return pgerr.New(pgerr.SyntaxError, "provided \"categories\" SQL must return 1 column of at least one row")
		}
		index := map[string]int{}
		for _, c := range catVals {
			s := str(c)
			if s == nil {
				return pgerr.New(pgerr.SyntaxError, "provided \"categories\" SQL must not return NULL values")
			}
			if _, dup := index[*s]; dup {
				return pgerr.New(pgerr.DuplicateObject, "duplicate category name")
			}
			index[*s] = len(index)
		}
		if n := 1 + extras + len(catVals); len(rows) > 0 && n != len(cols) {
			return pgerr.New(pgerr.SyntaxError, "invalid return type").
				WithDetail("Query-specified return tuple has %d columns but crosstab returns %d.", len(cols), n)
		}
		var vals []*string
		for _, r := range rows {
			f := r.Fields()
			rowid := str(f[0])
			if vals == nil || !same(vals[0], rowid) {
				if vals != nil {
					if err := out(vals); err != nil {
						return err
					}
				}
				vals = make([]*string, len(cols))
				vals[0] = rowid
				for i := 1; i <= extras; i++ {
					vals[i] = str(f[i])
				}
			}
			if cat := str(f[extras+1]); cat != nil {
				if k, ok := index[*cat]; ok {
					vals[1+extras+k] = str(f[extras+2])
				}
			}
		}
		if vals != nil {
			return out(vals)
		}
		return nil
	}
	return &SRF{Name: name, Args: args, Cols: cols, Names: names, Gen: gen}
}

// crosstabSeq is crosstab(text)'s loop, as PostgreSQL's: n values per
// output row, in the order of the source's rows.
func crosstabSeq(rows []value.Value, n int, str func(value.Value) *string, same func(x, y *string) bool, out func([]*string) error) error {
	var last *string
	first := true
	for c := 0; c < len(rows); c++ {
		vals := make([]*string, 1+n)
		skip := false
		for i := 0; i < n && c < len(rows); i++ {
			f := rows[c].Fields()
			rowid := str(f[0])
			if i == 0 {
				vals[0] = rowid
				if !first && same(last, rowid) {
					skip = true // a value past the last column
					break
				}
			}
			if !same(rowid, vals[0]) {
				c-- // the row starts the next output row
				break
			}
			vals[1+i] = str(f[2])
			if i < n-1 {
				c++
			}
		}
		if !skip {
			if err := out(vals); err != nil {
				return err
			}
		}
		last, first = vals[0], false
	}
	return nil
}
