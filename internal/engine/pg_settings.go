package engine

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// pg_settings lists the settings SHOW ALL shows, with the session's
// values: the binder reads it through the session that runs the
// statement (Session.SettingRows); read without one (catalogRowFuncs),
// every setting has its default.

// pgSettings adds a row per setting of SHOW ALL to r, with the value get
// returns for its lower-case name.
func pgSettings(r *catRows, get func(name string) string) {
	for _, d := range gucList {
		if d.session {
			continue
		}
		info := gucCatalogInfo[strings.ToLower(d.name)]
		cur := get(strings.ToLower(d.name))
		source := "default"
		if cur != d.boot {
			source = "session"
		}
		var unit, minVal, maxVal, enumvals, extra any
		if d.unit != "" {
			unit = d.unit
		}
		if info.extra != "" {
			extra = info.extra
		}
		switch d.kind {
		case gucInt:
			minVal, maxVal = strconv.FormatFloat(d.min, 'f', -1, 64), strconv.FormatFloat(d.max, 'f', -1, 64)
		case gucReal:
			minVal, maxVal = formatSettingBound(d.min), formatSettingBound(d.max)
		case gucEnum:
			enumvals = d.enum
		}
		r.add("name", d.name, "setting", d.settingText(cur), "unit", unit, "category", info.category, "short_desc", d.desc,
			"extra_desc", extra, "context", info.context, "vartype", gucVarTypes[d.kind], "source", source, "min_val", minVal,
			"max_val", maxVal, "enumvals", enumvals, "boot_val", d.settingText(d.boot), "reset_val", d.settingText(d.boot),
			"pending_restart", false)
	}
}

// gucVarTypes are pg_settings.vartype by kind.
var gucVarTypes = map[gucKind]string{gucString: "string", gucBool: "bool", gucInt: "integer", gucReal: "real", gucEnum: "enum"}

// settingText is a value as pg_settings.setting shows it: an integer
// with a unit as a number of its unit (work_mem's 4MB is 4096, in kB).
func (d *gucDef) settingText(v string) string {
	if d.kind == gucInt && d.unit != "" {
		if n, err := d.parseInt(v); err == nil {
			return strconv.FormatInt(n, 10)
		}
	}
	return v
}

// formatSettingBound prints a real's min_val and max_val as PostgreSQL
// does, as %g (1.79769e+308).
func formatSettingBound(f float64) string {
	s := strconv.FormatFloat(f, 'g', 6, 64)
	if i := strings.Index(s, "e+"); i >= 0 && len(s) == i+4 {
		return s // e+308
	}
	return strings.Replace(s, "e+0", "e+", 1)
}

// SettingRows implements expr.SettingsTable: pg_settings' rows with the
// session's values.
func (s *Session) SettingRows() []value.Row {
	cr := catalogRelations["pg_catalog.pg_settings"]
	r := &catRows{cols: cr.cols, idx: map[string]int{}}
	for i, c := range cr.cols {
		r.idx[c.Name] = i
	}
	pgSettings(r, func(name string) string {
		v, _ := s.setting(name)
		return v
	})
	return r.rows
}
