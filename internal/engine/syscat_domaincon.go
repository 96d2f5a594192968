package engine

import (
	"regexp"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// catDomainCon is a domain's CHECK constraint as pg_constraint lists it:
// contypid the domain, conrelid 0, and its text as pg_get_constraintdef
// prints it.
type catDomainCon struct {
	oid, typ, nsp  uint32
	name           string
	notValid       bool
	def, pretty    string // CHECK (…) [NOT VALID]
	check          string // conbin's text: the expression
	schema, domain string
}

// infoSchemaDomainCons are the checks of information_schema's domains,
// with PostgreSQL 15's oids and texts.
var infoSchemaDomainCons = []catDomainCon{
	{oid: 13222, typ: 13221, nsp: infoSchemaOID, name: "cardinal_number_domain_check", check: "(VALUE >= 0)",
		def: "CHECK ((VALUE >= 0))", pretty: "CHECK (VALUE >= 0)", schema: "information_schema", domain: "cardinal_number"},
	{oid: 13235, typ: 13234, nsp: infoSchemaOID, name: "yes_or_no_check",
		check:  "((VALUE)::text = ANY ((ARRAY['YES'::character varying, 'NO'::character varying])::text[]))",
		def:    "CHECK (((VALUE)::text = ANY ((ARRAY['YES'::character varying, 'NO'::character varying])::text[])))",
		pretty: "CHECK (VALUE::text = ANY (ARRAY['YES'::character varying, 'NO'::character varying]::text[]))",
		schema: "information_schema", domain: "yes_or_no"},
}

// valueRef is the domain's value as the printer prints a column named
// value: PostgreSQL prints the keyword VALUE.
var valueRef = regexp.MustCompile(`\bvalue\b`)

// valueKeyword prints the domain's value as VALUE in s, outside its
// string literals and quoted names.
func valueKeyword(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexAny(s, `'"`)
		if i < 0 {
			b.WriteString(valueRef.ReplaceAllString(s, "VALUE"))
			break
		}
		b.WriteString(valueRef.ReplaceAllString(s[:i], "VALUE"))
		// A quoted part ends at the next quote of its kind; a doubled
		// one is a quote inside and reads as two parts.
		j := strings.IndexByte(s[i+1:], s[i])
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j+2])
		s = s[i+j+2:]
	}
	return b.String()
}

// domainCons lists the domains' CHECK constraints: information_schema's,
// then the user's, by domain and by name.
func (o *catalogObjects) domainCons() []catDomainCon {
	out := append([]catDomainCon(nil), infoSchemaDomainCons...)
	for i := range o.types {
		t := &o.types[i]
		if t.typtype != 'd' || t.nsp == infoSchemaOID {
			continue
		}
		dom := o.e.domains.byName[t.name]
		if dom == nil {
			continue
		}
		def := dom.Def()
		schema, bare := o.e.splitKey(def.Name)
		texts := newExprTexts([]sql.ColumnDef{{Name: "value", Type: def.Base}}, o.e)
		for _, ch := range def.Checks {
			c := catDomainCon{oid: objectOID("domain constraint", t.name+"."+ch.Name), typ: t.oid, nsp: t.nsp, name: ch.Name,
				notValid: ch.NotValid, schema: schema, domain: bare}
			text, pretty := texts.check(ch.SQL)
			if pretty == "" { // a form the printer does not know: as written
				text, pretty = "("+ch.SQL+")", ch.SQL
			} else {
				text, pretty = valueKeyword(text), valueKeyword(pretty)
			}
			c.check, c.def, c.pretty = text, "CHECK ("+text+")", "CHECK ("+pretty+")"
			if ch.NotValid {
				c.def += " NOT VALID"
				c.pretty += " NOT VALID"
			}
			out = append(out, c)
		}
	}
	return out
}

// pgDomainConstraints adds the domains' CHECK constraints to pg_constraint.
func pgDomainConstraints(o *catalogObjects, r *catRows) {
	for _, c := range o.domainCons() {
		r.add("oid", c.oid, "conname", c.name, "connamespace", c.nsp, "contype", "c",
			"condeferrable", false, "condeferred", false, "convalidated", !c.notValid, "conrelid", uint32(0), "contypid", c.typ,
			"conindid", uint32(0), "conparentid", uint32(0), "confrelid", uint32(0), "confupdtype", " ", "confdeltype", " ",
			"confmatchtype", " ", "conislocal", true, "coninhcount", 0, "connoinherit", false, "conbin", c.check)
	}
}

// nameDomainConstraints gives pg_get_constraintdef the domains' CHECK
// constraints' texts.
func (o *catalogObjects) nameDomainConstraints(sc *expr.SysCatalog) {
	for _, c := range o.domainCons() {
		sc.ConstraintDefs[c.oid] = c.def
		if sc.ConstraintPrettyDefs == nil {
			sc.ConstraintPrettyDefs = map[uint32]string{}
		}
		sc.ConstraintPrettyDefs[c.oid] = c.pretty
	}
}
