package expr

import "github.com/deltaview/deltaview/internal/value"

// information_schema._pg_expandarray(anyarray) lists an array's elements
// with their positions from 1 (x, n), as PostgreSQL's SQL function does:
// clients' catalog queries (JDBC's primary keys and indexes) expand
// pg_index.indkey with it. Over the first dimension's subscripts, so an
// element of a multidimensional array is NULL, as $1[s] is there.
func init() {
	srfExtra["_pg_expandarray"] = func(args []Expr) (*SRF, bool) {
		if len(args) != 1 || !args[0].Type().Kind.IsArray() {
			return nil, false
		}
		return &SRF{Name: "_pg_expandarray", Args: args,
			Cols:  []value.Type{args[0].Type().ElemType(), value.Int4Type},
			Names: []string{"x", "n"},
			Gen: func(a []value.Value, emit func(value.Row) error) error {
				if a[0].IsNull() || a[0].NDims() == 0 {
					return nil
				}
				elems, dims := a[0].Elems(), a[0].Dims()
				for i := range dims[0].Len {
					x := value.Null
					if len(dims) == 1 {
						x = elems[i]
					}
					if err := emit(value.Row{x, value.NewInt(value.Int4, int64(i+1))}); err != nil {
						return err
					}
				}
				return nil
			}}, true
	}
}
