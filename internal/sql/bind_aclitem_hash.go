package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// hash_aclitem and hash_aclitem_extended, the hash support of aclitem:
// PostgreSQL 15's is no real hash but the sum of the item's privilege
// bits (grant options in the upper half) and its roles' oids, which the
// statement's catalog gives.

func init() {
	catFuncs["hash_aclitem"] = catFunc{sigs: [][]value.Kind{{value.ACLItem}}, result: int4K, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int4, int64(int32(aclItemSum(sc, a[0])))), nil
	}}
	catFuncs["hash_aclitem_extended"] = catFunc{sigs: [][]value.Kind{{value.ACLItem, value.Int8}}, result: value.Int8, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		sum, seed := aclItemSum(sc, a[0]), uint64(a[1].Int())
		if seed == 0 {
			return value.NewInt(value.Int8, int64(sum)), nil
		}
		return value.NewInt(value.Int8, int64(expr.HashUint32Extended(sum, seed))), nil
	}}
}

// aclItemSum is ai_privs + ai_grantee + ai_grantor of an aclitem, in
// 32 bits as PostgreSQL 15 adds them.
func aclItemSum(sc *expr.SysCatalog, v value.Value) uint32 {
	a := v.ACLItemOf()
	privs := uint32(a.Privs) | uint32(a.Options)<<16
	grantee := uint32(0) // PUBLIC
	if a.Grantee != "" {
		grantee = aclRoleOID(sc, a.Grantee)
	}
	return privs + grantee + aclRoleOID(sc, a.Grantor)
}
