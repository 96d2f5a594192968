package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

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
	if err != nil {
		return nil, err
	}
	return out, b.checkArrayLiteral(e, out, d, at)
}

// checkArrayLiteral checks out, e converted, against d when d is an
// array type of a domain and e a string literal, as array_in reads it
// when the statement is parsed: an element's error points at the
// literal, at.
func (b *binder) checkArrayLiteral(e, out expr.Expr, d *expr.Domain, at int32) error {
	if d.Elem() == nil || e.Type().Kind != value.Unknown {
		return nil
	}
	if _, isConst := e.(*expr.Const); isConst {
		if _, err := (&expr.DomainCheck{E: out, Domain: d}).Eval(nil); err != nil {
			return pgerr.Wrap(err).At(b.stmt.SQL, int(at))
		}
	}
	return nil
}

// itemDomains are the domains of the target columns of INSERT …
// SELECT's select list, as itemTypes.
func (in *insertInto) itemDomains(list []*pg_query.Node) []*expr.Domain {
	ds := make([]*expr.Domain, len(list))
	for j := range list {
		if _, sub := in.subscripted[j]; !sub && j < len(in.targets) {
			ds[j] = columnDomain(in.rel, in.targets[j])
		}
	}
	return ds
}
