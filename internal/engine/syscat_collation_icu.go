package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// icuCollation is a pg_collation row of an ICU collation deltaview
// supports (value.LookupCollation), with the oid and colliculocale
// PostgreSQL 15's initdb gives it on Debian 12. collversion is ICU 72's,
// PostgreSQL's; the order is that of golang.org/x/text's tables, which
// agree with it on the checked repertoire (value.CollationRepertoire).
type icuCollation struct {
	oid     uint32
	locale  string
	version string
}

// icuCollations are the supported ICU collations in oid order; each is
// named locale + "-x-icu".
var icuCollations = []icuCollation{
	{12342, "und", "153.120"}, {12343, "af", "153.120.42"}, {12423, "ca", "153.120"},
	{12442, "cs", "153.120.42"}, {12453, "de", "153.120"}, {12454, "de-AT", "153.120"},
	{12456, "de-CH", "153.120"}, {12481, "en", "153.120"}, {12513, "en-GB", "153.120"},
	{12579, "en-US", "153.120"}, {12591, "es", "153.120.42"}, {12622, "eu", "153.120"},
	{12663, "fr", "153.120"}, {12714, "ga", "153.120"}, {12754, "id", "153.120"},
	{12760, "is", "153.120.42"}, {12762, "it", "153.120"}, {12881, "ms", "153.120"},
	{12904, "nl", "153.120"}, {12938, "pl", "153.120.42"}, {12943, "pt", "153.120"},
	{12945, "pt-BR", "153.120"}, {12966, "ro", "153.120.42"}, {13017, "sk", "153.120.42"},
	{13019, "sl", "153.120.42"}, {13048, "sv", "153.120.42"}, {13052, "sw", "153.120"},
	{13078, "tr", "153.120.42"}, {13146, "zu", "153.120"},
}

// pgCollationICU lists the ICU collations in pg_collation.
func pgCollationICU(r *catRows) {
	for _, c := range icuCollations {
		r.add("oid", c.oid, "collname", c.locale+"-x-icu", "collnamespace", uint32(pgCatalogOID), "collowner", uint32(superuserOID),
			"collprovider", "i", "collisdeterministic", true, "collencoding", int32(-1), "collcollate", nil, "collctype", nil,
			"colliculocale", c.locale, "collversion", c.version)
	}
}

// nameICUCollations lets regcollation read and print the ICU collations.
func nameICUCollations(sc *expr.SysCatalog) {
	for _, c := range icuCollations {
		name := c.locale + "-x-icu"
		sc.Names[value.RegCollation][c.oid] = expr.QuoteIdent(name)
		sc.OIDs[value.RegCollation][name] = c.oid
	}
}
