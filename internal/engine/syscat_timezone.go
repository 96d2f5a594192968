package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// The catalog views of time zones: pg_timezone_names (the zones of the
// system's tz database) and pg_timezone_abbrevs (the abbreviations the
// engine reads), each with its offset and daylight-saving flag now.

func init() {
	add := addCatalogRelation
	emit := func(r *catRows, rows []value.ZoneRow, names bool) {
		for _, z := range rows {
			off := value.NewInterval(value.Span{Micros: z.East * 1e6})
			if names {
				r.add("name", z.Name, "abbrev", z.Abbrev, "utc_offset", off, "is_dst", z.DST)
			} else {
				r.add("abbrev", z.Name, "utc_offset", off, "is_dst", z.DST)
			}
		}
	}
	add("pg_catalog.pg_timezone_names", "name:text,abbrev:text,utc_offset:interval,is_dst:boolean",
		func(_ *catalogObjects, r *catRows) { emit(r, value.ZoneNames(expr.ClockMicros()), true) })
	add("pg_catalog.pg_timezone_abbrevs", "abbrev:text,utc_offset:interval,is_dst:boolean",
		func(_ *catalogObjects, r *catRows) { emit(r, value.ZoneAbbrevs(expr.ClockMicros()), false) })
}
