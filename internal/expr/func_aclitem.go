package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// aclitem's functions that need no catalog: aclcontains (the operator
// aclitem[] @> aclitem), and aclinsert and aclremove, which PostgreSQL 15
// keeps only to say they are gone. acldefault, makeaclitem and aclexplode
// name roles by oid, and are the binder's (internal/sql).
func init() {
	acl, acls := value.ACLItem, value.ArrayOf(value.ACLItem)
	strict("aclcontains", kinds(acls, acl), value.BoolType, func(a []value.Value) (value.Value, error) {
		ok, err := value.ACLContains(a[0], a[1])
		return value.NewBool(ok), err
	})
	for _, name := range []string{"aclinsert", "aclremove"} {
		strict(name, kinds(acls, acl), value.ArrayType(acl), func(a []value.Value) (value.Value, error) {
			return value.Null, pgerr.New(pgerr.FeatureNotSupported, "%s is no longer supported", name)
		})
	}
}
