package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// addColumnPrivs adds to g the privilege p names on its columns
// (SELECT (a, b), ALL (c)), as PostgreSQL's grammar reads a privilege
// with a column list: SELECT, INSERT, UPDATE and REFERENCES have one, ALL
// is those four; another is 0LP01.
func (g *Grant) addColumnPrivs(p *pg_query.AccessPriv, seqOrAll bool) error {
	if seqOrAll {
		return pgerr.New(pgerr.FeatureNotSupported, "column privileges are supported on tables and views only").
			WithHint("GRANT SELECT (a, b) ON [TABLE] t TO role")
	}
	var priv Privilege
	switch p.PrivName {
	case "":
		priv = PrivColumn
	case "select":
		priv = PrivSelect
	case "insert":
		priv = PrivInsert
	case "update":
		priv = PrivUpdate
	case "references":
		priv = PrivReferences
	default:
		return pgerr.New("0LP01", "invalid privilege type %s for column", strings.ToUpper(p.PrivName))
	}
	for _, c := range p.Cols {
		name := c.GetString_().GetSval()
		if i := slices.IndexFunc(g.Columns, func(cp ColumnPriv) bool { return cp.Name == name }); i >= 0 {
			g.Columns[i].Privs |= priv
			continue
		}
		g.Columns = append(g.Columns, ColumnPriv{Name: name, Privs: priv})
	}
	return nil
}

// checkGrantColumns reports the first column g names that one of its
// relations does not have (42703), as PostgreSQL checks them.
func (b *binder) checkGrantColumns(g *Grant) error {
	if len(g.Columns) == 0 {
		return nil
	}
	for _, name := range g.Relations {
		rel, ok := b.cat.Relation(name)
		if !ok {
			continue
		}
		for _, c := range g.Columns {
			if !slices.ContainsFunc(rel.Cols, func(col plan.Column) bool { return col.Name == c.Name }) {
				bare := rel.Name[strings.LastIndexByte(rel.Name, '.')+1:]
				return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", c.Name, bare)
			}
		}
	}
	return nil
}
