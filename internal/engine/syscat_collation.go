package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// catCollation is a row of pg_collation: the collations that compare
// strings byte by byte here ("C", "POSIX", default and ucs_basic), with
// PostgreSQL 15's oids on a UTF8 database initialised with --locale=C
// (the ICU collations' rows: syscat_collation_icu.go).
type catCollation struct {
	oid            uint32
	name, provider string
	encoding       int32
	collate        any // collcollate and collctype; nil for default
}

// collations are pg_collation's rows in oid order.
var collations = []catCollation{
	{defaultCollOID, "default", "d", -1, nil},
	{950, "C", "c", -1, "C"},
	{951, "POSIX", "c", -1, "POSIX"},
	{12340, "ucs_basic", "c", 6, "C"},
}

// builtinCollations are the collations' names, in pg_collation's order.
var builtinCollations = func() []string {
	names := make([]string, len(collations))
	for i, c := range collations {
		names[i] = c.name
	}
	return names
}()

// pgCollation lists pg_collation.
func pgCollation(co *catalogObjects, r *catRows) {
	for _, c := range collations {
		r.add("oid", c.oid, "collname", c.name, "collnamespace", uint32(pgCatalogOID), "collowner", uint32(superuserOID),
			"collprovider", c.provider, "collisdeterministic", true, "collencoding", c.encoding, "collcollate", c.collate, "collctype", c.collate)
	}
	pgCollationICU(r)
	co.e.pgCollationUser(r)
}

// nameCollations lets regcollation read and print the collations: by
// name (pg_catalog's, always visible), printed quoted where needed.
func nameCollations(sc *expr.SysCatalog) {
	if sc.Names[value.RegCollation] == nil {
		sc.Names[value.RegCollation], sc.OIDs[value.RegCollation] = map[uint32]string{}, map[string]uint32{}
	}
	for _, c := range collations {
		sc.Names[value.RegCollation][c.oid] = expr.QuoteIdent(c.name)
		sc.OIDs[value.RegCollation][c.name] = c.oid
	}
	nameICUCollations(sc)
}
