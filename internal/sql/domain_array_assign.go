package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// assignColumn converts e, bound at loc (its leftmost position at), for storing into rel's column
// i (assignCast), naming the column's domain in the 42804 of a value of
// another type as PostgreSQL does (d, or d[]). A string literal written
// into a column of an array of a domain is read by array_in, which
// checks each element as it reads it, when the statement is parsed:
// PostgreSQL points an element's error at the literal.
func (b *binder) assignColumn(e expr.Expr, rel *Relation, i int, loc, at int32) (expr.Expr, error) {
	d := columnDomain(rel, i)
	tname := ""
	if d != nil {
		tname = d.Name()
		if el := d.Elem(); el != nil {
			tname = el.Name() + "[]"
		}
	}
	out, err := b.assignCastAs(e, rel.Cols[i].Type, tname, rel.Cols[i].Name, loc, at)
	if err != nil || d.Elem() == nil || e.Type().Kind != value.Unknown {
		return out, err
	}
	if _, isConst := e.(*expr.Const); isConst {
		if _, err := (&expr.DomainCheck{E: out, Domain: d}).Eval(nil); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(at))
		}
	}
	return out, nil
}
