// Temporary relations in the system catalogs keep no state of their own:
// a session's temporary tables, sequences, views and their indexes are
// listed, as PostgreSQL lists every session's, in its schema pg_temp_N
// (the engine's prefix of their keys, temp.go), persistence 't'; the
// schemas pg_temp_N and pg_toast_temp_N of every session that made a
// temporary object are pg_namespace's, as PostgreSQL makes them on first
// use and keeps them. What depends on the reading session is added to
// its statement's catalog (tempCatalog): its own temporary relations
// print unqualified as regclass and are found first by name and as
// pg_temp.name; information_schema leaves out the other sessions'.
package engine

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// temp reports whether r is a temporary relation or an index of one.
func (r *catRel) temp() bool {
	return isTemp(r.key) || r.on != nil && isTemp(r.on.key)
}

// tempSchemaNames are the temporary schemas every session that made a
// temporary object has had: pg_temp_N and its pg_toast_temp_N.
func (e *Engine) tempSchemaNames() []string {
	var out []string
	for n := uint64(1); n <= atomic.LoadUint64(&e.tempSessions); n++ {
		out = append(out, fmt.Sprintf("%s%d", tempPrefix, n), fmt.Sprintf("pg_toast_temp_%d", n))
	}
	return out
}

// tempIndexKey is the catalog's key of the index name of the table keyed
// table: a temporary table's keys' and constraints' indexes are named
// without the session's prefix, and are in its schema.
func tempIndexKey(table, name string) string {
	if !isTemp(table) || isTemp(name) {
		return name
	}
	return table[:strings.IndexByte(table, '.')+1] + name
}

// tempCatalog adds to sc what the session sees of the temporary schemas:
// which are temporary and which is its own, its own relations (and their
// row types) by name first and as pg_temp's, printed unqualified, the
// relations they shadow qualified; and its temporary tables' serial
// columns.
func (s *Session) tempCatalog(sc *expr.SysCatalog) {
	own := strings.TrimSuffix(s.tempNS, ".")
	sc.TempSchemas = map[uint32]bool{}
	for _, n := range s.e.tempSchemaNames() {
		if n != "pg_toast_temp_"+strings.TrimPrefix(own, tempPrefix) {
			sc.TempSchemas[schemaOID(n)] = true // a session's own toast schema is not another's either
		}
	}
	if own != "" {
		sc.MyTempSchema = schemaOID(own)
		before, _ := s.tempBefore()
		hidden := map[value.Kind]func(string) bool{
			value.RegClass: func(n string) bool { return s.tempHidden(before, n, s.e.userRelation) },
			value.RegType: func(n string) bool {
				return s.tempHidden(before, strings.TrimSuffix(n, "[]"), func(k string) bool {
					_, typ := s.e.userTypes[k]
					return typ || s.e.domains.byName[k] != nil || s.e.userRelation(k)
				})
			},
		}
		for _, k := range []value.Kind{value.RegClass, value.RegType} {
			tempNames(sc, k, own, hidden[k])
		}
	}
	if len(s.temps) > 0 {
		s.tempSerials(sc)
	}
}

// tempNames names the objects of kind k in the session's temporary
// schema own as the session sees them: unqualified, found by pg_temp.name
// and, since the schema is searched first, by their bare names; an
// object of the same name elsewhere that the bare name found is hidden,
// printed qualified (a public type, keyed by its bare name, is then
// found as public.name). One that a schema searched before the temporary
// schema hides (hidden) is found only qualified and prints so.
func tempNames(sc *expr.SysCatalog, k value.Kind, own string, hidden func(string) bool) {
	oids := sc.OIDs[k]
	var bare []string
	for key, oid := range oids {
		if n, ok := strings.CutPrefix(key, own+"."); ok && oid != 0 {
			bare = append(bare, n)
		}
	}
	schemas := append([]string{"pg_catalog"}, sc.SearchPath...)
	if sc.SearchPath == nil {
		schemas = append(schemas, "public")
	}
	for _, n := range bare {
		oid := oids[own+"."+n]
		quoted := expr.QuoteIdent(strings.TrimSuffix(n, "[]"))
		if k == value.RegType && strings.HasSuffix(n, "[]") {
			quoted += "[]"
		}
		oids["pg_temp."+n] = oid
		if hidden(n) {
			sc.Names[k][oid] = expr.QuoteIdent(own) + "." + quoted
			if k == value.RegClass {
				if sc.TempHidden == nil {
					sc.TempHidden = map[string]bool{}
				}
				sc.TempHidden[n] = true
			}
			continue
		}
		hide := func(o uint32, sch string) {
			if sc.Names[k][o] == quoted {
				sc.Names[k][o] = expr.QuoteIdent(sch) + "." + quoted
			}
		}
		if k == value.RegType {
			if o, ok := oids[n]; ok && o != oid {
				hide(o, "public")
				oids["public."+n] = o
			}
			oids[n] = oid
		} else {
			for _, sch := range schemas {
				if o, ok := oids[sch+"."+n]; ok && o != oid {
					hide(o, sch)
				}
			}
		}
		sc.Names[k][oid] = quoted
	}
}

// schemaText is the schema sc as PostgreSQL's definitions qualify a name
// with it: the reading session's temporary schema as pg_temp.
func (o *catalogObjects) schemaText(sc string) string {
	if sc != "" && sc == o.own {
		return "pg_temp"
	}
	return sc
}

// otherTemp reports whether r is another session's temporary relation
// (or an index of one), which information_schema's views of tables,
// columns, constraints, sequences, triggers and views leave out, as
// PostgreSQL's do (NOT pg_is_other_temp_schema): read without a session,
// every temporary relation.
func (o *catalogObjects) otherTemp(r *catRel) bool {
	return r.temp() && (o.own == "" || r.schema != o.own)
}

// readsTempCatalog reports whether the session's scan of rel reads a
// catalog relation as the session sees it: once a session has made a
// temporary object, what the catalogs show of them depends on who reads.
func (s *Session) readsTempCatalog(rel string) bool {
	if atomic.LoadUint64(&s.e.tempSessions) == 0 {
		return false
	}
	if _, ok := catalogRelations[rel]; !ok {
		return false
	}
	_, sys := systemViews[rel]
	return !sys
}
