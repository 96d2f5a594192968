package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// sortKeyHash refuses, at its position, hashtext or hashtextextended of
// a string whose derived collation is nondeterministic: PostgreSQL
// hashes ICU's sort key of the string, bytes the collator here does not
// make (0A000, as expr refuses a value of such a collation that reaches
// the call another way).
func (b *binder) sortKeyHash(n *pg_query.Node, e expr.Expr) error {
	f, ok := e.(*expr.Func)
	if !ok || len(f.Args) == 0 || f.Def.Name != "hashtext" && f.Def.Name != "hashtextextended" {
		return nil
	}
	st := collationState(f.Args[0])
	if st.strength != collImplicit && st.strength != collExplicit {
		return nil
	}
	if c := value.CollationByID(st.id); c != nil && c.Nondeterministic {
		return b.refuse(n.GetFuncCall().GetLocation(), "nondeterministic collations are not supported for %s", f.Def.Name)
	}
	return nil
}
