package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// DomainSQL returns the statements that create the domain def describes:
// CREATE DOMAIN with its default, NOT NULL and checked constraints, then
// an ALTER DOMAIN … NOT VALID for each constraint added unchecked, which
// CREATE DOMAIN cannot declare.
func DomainSQL(def *expr.DomainDef) string {
	var b strings.Builder
	b.WriteString("CREATE DOMAIN " + QuoteIdent(def.Name) + " AS ")
	if def.Parent != nil {
		b.WriteString(QuoteIdent(def.Parent.Name()))
	} else {
		b.WriteString(def.Base.String())
	}
	if def.UserColl != nil {
		b.WriteString(" COLLATE " + def.UserColl.SQL)
	} else if def.Collation != "" {
		b.WriteString(" COLLATE " + QuoteIdent(def.Collation))
	}
	if def.Default != nil {
		b.WriteString(" DEFAULT " + def.DefaultSQL)
	}
	if def.NotNull {
		b.WriteString(" NOT NULL")
	}
	var later []string
	for _, c := range def.Checks {
		con := " CONSTRAINT " + QuoteIdent(c.Name) + " CHECK (" + c.SQL + ")"
		if c.NotValid {
			later = append(later, "ALTER DOMAIN "+QuoteIdent(def.Name)+" ADD"+con+" NOT VALID")
			continue
		}
		b.WriteString(con)
	}
	for _, l := range later {
		b.WriteString(";\n" + l)
	}
	return b.String()
}
