package exec

import (
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// tableFunc runs set-returning functions in FROM, over each input row
// when there is an input (LATERAL), else once.
func tableFunc(n *plan.TableFunc, src Source) ([]value.Row, error) {
	b := budgetOf(src)
	if n.Input == nil {
		return tableFuncRows(n, nil, b, nil)
	}
	in, err := Run(n.Input, src)
	if err != nil {
		return nil, err
	}
	var out []value.Row
	for _, r := range in {
		if out, err = tableFuncRows(n, r, b, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tableFuncRows appends the rows of n's functions over row to out, each
// after row's columns: the functions zipped, padded with NULLs, then the
// ordinal.
func tableFuncRows(n *plan.TableFunc, row value.Row, b *Budget, out []value.Row) ([]value.Row, error) {
	width := len(row) + len(n.Cols)
	first := len(out)
	col := len(row)
	for _, f := range n.Funcs {
		i := first
		err := f.Run(row, func(r value.Row) error {
			if i == len(out) {
				if err := b.charge(rowBytes(width)); err != nil {
					return err
				}
				nr := make(value.Row, width)
				copy(nr, row)
				out = append(out, nr)
			}
			copy(out[i][col:], r)
			i++
			return nil
		})
		if err != nil {
			return nil, err
		}
		col += len(f.Cols)
	}
	if n.Ordinality {
		for i := first; i < len(out); i++ {
			out[i][width-1] = value.NewInt(value.Int8, int64(i-first+1))
		}
	}
	return out, nil
}
