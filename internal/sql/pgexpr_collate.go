// COLLATE in a view's query as PostgreSQL's analysis types it and
// ruleutils prints it.
package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// builtinCollations are the collations of pg_catalog every PostgreSQL
// has, which ruleutils prints unqualified; others are not deparsed.
var builtinCollations = map[string]bool{"C": true, "POSIX": true, "default": true, "ucs_basic": true}

// collate types x COLLATE name: a string literal is read as text first;
// x must be of a collatable string type.
func (p *ptyper) collate(c *pg_query.CollateClause) (*pexpr, error) {
	var names []string
	for _, n := range c.Collname {
		names = append(names, n.GetString_().GetSval())
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	if len(names) != 1 || !builtinCollations[names[0]] {
		return nil, errNoDeparse
	}
	x, err := p.build(c.Arg)
	if err != nil {
		return nil, err
	}
	if x.k == pConst && x.t.Kind == value.Unknown {
		if x, err = p.coerce(x, value.TextType, false); err != nil {
			return nil, err
		}
	}
	switch x.t.Kind {
	case value.Text, value.Varchar, value.Char:
	default:
		return nil, errNoDeparse
	}
	return &pexpr{k: pCollate, name: expr.QuoteIdent(names[0]), t: x.t, args: []*pexpr{x}}, nil
}
