package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// columnCollation checks a table column's COLLATE clause (nil: none) and
// returns the collation's name as pg_collation has it ("" for none): its
// type must be collatable, and the collation one deltaview knows. A byte-
// wise collation ("C", "POSIX", "default", "ucs_basic") orders as the
// column's strings do anyway; an ICU collation is kept with the column
// and applied to every reference of it (ColumnDef.ICUCollation).
func (b *binder) columnCollation(cc *pg_query.CollateClause, t value.Type) (string, error) {
	if cc == nil {
		return "", nil
	}
	if !isString(t.Kind) && !(t.Kind.IsArray() && isString(t.Kind.Elem())) {
		return "", b.stmt.errf(cc.Location, pgerr.DatatypeMismatch, "collations are not supported by type %s", t)
	}
	var names []string
	for _, n := range cc.Collname {
		names = append(names, n.GetString_().Sval)
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	if c := icuCollation(names); c != nil {
		if k := t.Kind; k != value.Text && k != value.Varchar && k != value.Char {
			return "", b.refuse(cc.Location, "collation %s on a column of type %s is not supported", QuoteIdent(c.Name), t)
		}
		return c.Name, nil
	}
	if uc := b.userCollationOf(names); uc != nil {
		return uc.Name, nil
	}
	if err := b.checkCollation(names, cc.Location); err != nil {
		return "", err
	}
	return names[0], nil
}

// CollationName is the name of the column's collation, as pg_collation
// has it: its COLLATE clause's, else its domain's, "" for its type's
// default.
func (c *ColumnDef) CollationName() string {
	if c.Collation != "" {
		return c.Collation
	}
	if c.Domain != nil {
		return c.Domain.Def().Collation
	}
	return ""
}

// domainUserColl is the collation CREATE COLLATION made that the column
// has from its domain, nil for none.
func (c *ColumnDef) domainUserColl() *expr.DomainCollation {
	if c.Collation != "" || c.Domain == nil {
		return nil
	}
	return c.Domain.Def().UserColl
}

// DomainUserColl is the collation CREATE COLLATION made that the column
// has from its domain (its COLLATE clause names none): its oid and schema
// for the catalogs.
func (c *ColumnDef) DomainUserColl() (oid uint32, schema string, ok bool) {
	if uc := c.domainUserColl(); uc != nil {
		return uc.OID, uc.Schema, true
	}
	return 0, "", false
}

// ICUCollation is the ID of the ICU collation the column's references
// carry (value.LookupCollation), 0 when it orders byte by byte.
func (c *ColumnDef) ICUCollation() uint8 {
	if c.UserColl != nil {
		return c.UserColl.ID
	}
	if uc := c.domainUserColl(); uc != nil {
		return uc.ID
	}
	if coll := value.LookupCollation(c.CollationName()); coll != nil {
		return coll.ID
	}
	return 0
}
