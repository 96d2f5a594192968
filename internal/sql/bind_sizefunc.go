package sql

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The size functions report the bytes the engine accounts to each
// relation (expr.SysCatalog.Size): they read the catalog's figures when
// the statement runs, so a materialized view cannot call them.
func init() {
	int8K := value.Int8
	size := func(part func(expr.RelSize) int64) catFunc {
		return catFunc{sigs: [][]value.Kind{{value.RegClass}}, result: int8K, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			s, ok := sc.Size(a[0].OID())
			if !ok {
				return value.Null, nil
			}
			return value.NewInt(value.Int8, part(s)), nil
		}}
	}
	catFuncs["pg_relation_size"] = catFunc{sigs: [][]value.Kind{{value.RegClass}, {value.RegClass, textK}}, result: int8K, strict: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			fork := "main"
			if len(a) == 2 {
				fork = a[1].String()
			}
			switch fork {
			case "main", "fsm", "vm", "init":
			default:
				return value.Null, pgerr.New(pgerr.InvalidParameter, "invalid fork name").
					WithHint(`Valid fork names are "main", "fsm", "vm", and "init".`)
			}
			s, ok := sc.Size(a[0].OID())
			if !ok {
				return value.Null, nil
			}
			if fork != "main" {
				return value.NewInt(value.Int8, 0), nil // no free space map, visibility map or init fork
			}
			return value.NewInt(value.Int8, s.Main), nil
		}}
	catFuncs["pg_table_size"] = size(func(s expr.RelSize) int64 { return s.Main })
	catFuncs["pg_indexes_size"] = size(func(s expr.RelSize) int64 { return s.Indexes })
	catFuncs["pg_total_relation_size"] = size(func(s expr.RelSize) int64 { return s.Main + s.Indexes })
	// pg_database_size takes the database's name or its oid, read as
	// text: a number is an oid, NULL when it is not the database's.
	catFuncs["pg_database_size"] = catFunc{sigs: [][]value.Kind{{textK}}, result: int8K, strict: true, nameOrOID: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			name := a[0].String()
			if name == expr.DatabaseName || name == strconv.FormatUint(uint64(sc.DatabaseOID), 10) {
				return value.NewInt(value.Int8, sc.DatabaseSize()), nil
			}
			if _, err := strconv.ParseUint(name, 10, 32); err == nil {
				return value.Null, nil
			}
			return value.Null, pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", name)
		}}
	catFuncs["pg_tablespace_size"] = catFunc{sigs: [][]value.Kind{{textK}}, result: int8K, strict: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			switch a[0].String() {
			case "pg_default", "1663":
				return value.NewInt(value.Int8, sc.DatabaseSize()), nil
			case "pg_global", "1664":
				return value.NewInt(value.Int8, 0), nil
			}
			return value.Null, pgerr.New(pgerr.UndefinedObject, "tablespace %q does not exist", a[0].String())
		}}
}
