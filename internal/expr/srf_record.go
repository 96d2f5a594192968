package expr

import "strings"

// SRFRecordColumns names the columns of a set-returning function that
// returns a record (json_each's key and value), nil for one that returns
// a single value. In a select list such a function yields one record per
// row, ROW(key, value), as PostgreSQL prints it: (a,1).
func SRFRecordColumns(name string) []string {
	switch name = strings.ToLower(name); name {
	case "ts_parse":
		return []string{"tokid", "token"}
	case "ts_token_type":
		return []string{"tokid", "alias", "description"}
	case "ts_debug":
		return tsDebugNames
	case "ts_stat":
		return tsStatNames
	}
	if f, ok := sysInfoSRFs[name]; ok {
		return f.names
	}
	if f := jsonSRFs[name]; f != nil && len(f.names) > 1 {
		return f.names
	}
	return nil
}
