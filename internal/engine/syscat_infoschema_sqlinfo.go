package engine

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// information_schema's tables of the SQL standard's features, parts,
// sizing limits and implementation facts: fixed data, PostgreSQL 15's
// rows as its information_schema.sql holds them (infoschema_sql_info.tsv,
// a line per row: the table's name, then its columns as COPY writes
// them), but for DBMS VERSION, which is the server's version.

//go:embed infoschema_sql_info.tsv
var sqlInfoData string

func init() {
	tables := map[string][][]string{}
	for _, line := range strings.Split(strings.TrimSuffix(sqlInfoData, "\n"), "\n") {
		f := strings.Split(line, "\t")
		tables[f[0]] = append(tables[f[0]], f[1:])
	}
	for _, t := range []struct{ name, cols string }{
		{"sql_features", "feature_id:character_data,feature_name:character_data,sub_feature_id:character_data,sub_feature_name:character_data," +
			"is_supported:yes_or_no,is_verified_by:character_data,comments:character_data"},
		{"sql_implementation_info", "implementation_info_id:character_data,implementation_info_name:character_data," +
			"integer_value:cardinal_number,character_value:character_data,comments:character_data"},
		{"sql_parts", "feature_id:character_data,feature_name:character_data,is_supported:yes_or_no,is_verified_by:character_data,comments:character_data"},
		{"sql_sizing", "sizing_id:cardinal_number,sizing_name:character_data,supported_value:cardinal_number,comments:character_data"},
	} {
		rows := tables[t.name]
		if len(rows) == 0 {
			panic("engine: no rows for information_schema." + t.name)
		}
		addCatalogRelation("information_schema."+t.name, t.cols, func(o *catalogObjects, r *catRows) {
			for _, row := range rows {
				pairs := make([]any, 0, 2*len(row))
				for i, s := range row {
					var v any = s
					switch {
					case s == `\N`:
						v = nil
					case r.cols[i].Type.Kind.IsInteger():
						n, err := strconv.Atoi(s)
						if err != nil {
							panic("engine: information_schema." + t.name + " " + s)
						}
						v = n
					case t.name == "sql_implementation_info" && i == 3 && row[1] == "DBMS VERSION":
						v = dbmsVersion(expr.ServerVersion)
					}
					pairs = append(pairs, r.cols[i].Name, v)
				}
				r.add(pairs...)
			}
		})
	}
}

// dbmsVersion is the DBMS VERSION of sql_implementation_info, as initdb
// writes it from the server's version: "15.0 (…)" is "15.00.0000".
func dbmsVersion(v string) string {
	v, _, _ = strings.Cut(v, " ")
	parts := strings.Split(v, ".")
	num := func(i int) int {
		if i >= len(parts) {
			return 0
		}
		n, _ := strconv.Atoi(parts[i])
		return n
	}
	return fmt.Sprintf("%02d.%02d.%04d", num(0), num(1), num(2))
}
