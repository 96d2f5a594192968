package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The functions of aclitem that name roles by oid, which an aclitem here
// holds by name (value/aclitem.go): acldefault and makeaclitem, and the
// set-returning aclexplode. They read the roles of the statement's
// catalog, and a materialized view cannot call them.

func init() {
	catFuncs["acldefault"] = catFunc{sigs: [][]value.Kind{{value.InternalChar, oidK}}, result: value.ArrayOf(value.ACLItem), strict: true, eval: aclDefault}
	catFuncs["makeaclitem"] = catFunc{sigs: [][]value.Kind{{oidK, oidK, textK, boolK}}, result: value.ACLItem, strict: true, eval: makeACLItem}
}

// aclDefaults are acldefault's privileges by object type: PUBLIC's, then
// the owner's, as letters of value.ACLRights.
var aclDefaults = map[byte][2]string{
	'c': {"", ""}, 'r': {"", "arwdDxt"}, 's': {"", "rwU"}, 'd': {"Tc", "CTc"}, 'f': {"X", "X"},
	'l': {"U", "U"}, 'L': {"", "rw"}, 'n': {"", "UC"}, 't': {"", "C"}, 'F': {"", "U"}, 'S': {"", "U"},
	'T': {"U", "U"}, 'p': {"", "sA"},
}

// aclDefault is acldefault(objtype, owner): the privileges an object of
// the type has until a GRANT or REVOKE names it.
func aclDefault(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
	c := a[0].CharByte()
	d, ok := aclDefaults[c]
	if !ok {
		return value.Null, pgerr.New(pgerr.Internal, "unrecognized objtype abbreviation: %c", c)
	}
	owner := aclRoleName(sc, a[1].OID())
	var items []value.Value
	if d[0] != "" {
		items = append(items, value.NewACLItem(value.ACL{Grantor: owner, Privs: aclBits(d[0])}))
	}
	if d[1] != "" {
		items = append(items, value.NewACLItem(value.ACL{Grantee: owner, Grantor: owner, Privs: aclBits(d[1])}))
	}
	return value.NewArray(value.ArrayOf(value.ACLItem), items), nil
}

// aclBits are the privileges of letters.
func aclBits(letters string) uint16 {
	var p uint16
	for i := 0; i < len(letters); i++ {
		p |= 1 << strings.IndexByte(value.ACLRights, letters[i])
	}
	return p
}

// makeACLItem is makeaclitem(grantee, grantor, privilege, grantable):
// PostgreSQL 15 takes one privilege's name, in any case (RULE, an old
// one, grants nothing).
func makeACLItem(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
	name := a[2].String()
	var p uint16
	found := strings.EqualFold(name, "RULE")
	for i, n := range value.ACLPrivNames {
		if strings.EqualFold(name, n) || i == 10 && strings.EqualFold(name, "TEMP") {
			p, found = 1<<i, true
		}
	}
	if !found {
		return value.Null, pgerr.New(pgerr.InvalidParameter, "unrecognized privilege type: %q", name)
	}
	item := value.ACL{Privs: p, Grantor: aclRoleName(sc, a[1].OID())}
	if g := a[0].OID(); g != 0 {
		item.Grantee = aclRoleName(sc, g)
	}
	if a[3].Bool() {
		item.Options = p
	}
	return value.NewACLItem(item), nil
}

// aclRoleName is the name an aclitem gives the role oid: its number when
// there is no such role, as PostgreSQL prints it.
func aclRoleName(sc *expr.SysCatalog, oid uint32) string {
	for name, o := range sc.OIDs[value.RegRole] {
		if o == oid {
			return name
		}
	}
	return strconv.FormatUint(uint64(oid), 10)
}

// aclRoleOID is the oid of the role an aclitem names: 0 for PUBLIC (""),
// and a number for a role that was dropped.
func aclRoleOID(sc *expr.SysCatalog, name string) uint32 {
	if o, ok := sc.OIDs[value.RegRole][name]; ok {
		return o
	}
	n, _ := strconv.ParseUint(name, 10, 32)
	return uint32(n)
}

// aclexplodeSRF binds aclexplode(aclitem[]): a row per privilege of each
// item, in the order of the items and of value.ACLRights. ok is false
// for other functions.
func (b *binder) aclexplodeSRF(f *pg_query.FuncCall) (_ *expr.SRF, ok bool, _ error) {
	name := opName(f.Funcname)
	sc := b.sysCatalog()
	if name != "aclexplode" || sc == nil {
		return nil, false, nil
	}
	arg, err := b.catalogSRFArg(f, name)
	if err != nil {
		return nil, true, err
	}
	if arg, err = b.coerce(arg, value.ArrayType(value.ACLItem), nodeLoc(f.Args[0], f.Location)); err != nil {
		return nil, true, err
	}
	gen := func(a []value.Value, emit func(value.Row) error) error {
		if a[0].IsNull() {
			return nil
		}
		if err := value.CheckACL(a[0]); err != nil {
			return err
		}
		for _, e := range a[0].Elems() {
			item := e.ACLItemOf()
			grantor, grantee := value.NewOid(aclRoleOID(sc, item.Grantor)), value.NewOid(aclRoleOID(sc, item.Grantee))
			for i, n := range value.ACLPrivNames {
				if item.Privs&(1<<i) == 0 {
					continue
				}
				if err := emit(value.Row{grantor, grantee, value.NewText(value.Text, n), value.NewBool(item.Options&(1<<i) != 0)}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return &expr.SRF{Name: name, Args: []expr.Expr{arg}, Cols: []value.Type{value.OidType, value.OidType, value.TextType, value.BoolType},
		Names: []string{"grantor", "grantee", "privilege_type", "is_grantable"}, Gen: gen}, true, nil
}

// aclRolesChecked is out, the cast of e to aclitem or aclitem[], with the
// roles its items name looked up as aclitemin looks them up: a role that
// does not exist is 42704. A constant is checked now, a computed text
// when the statement runs.
func (b *binder) aclRolesChecked(out, e expr.Expr, t value.Type, loc int32) (expr.Expr, error) {
	sc := b.sysCatalog()
	from := e.Type().Kind
	if sc == nil || t.Kind != value.ACLItem && t.Kind != value.ArrayOf(value.ACLItem) || from != value.Unknown && !isString(from) {
		return out, nil
	}
	check := func(v value.Value) error {
		items := []value.Value{v}
		if v.Kind().IsArray() {
			items = v.Elems()
		}
		for _, it := range items {
			if it.IsNull() {
				continue
			}
			a := it.ACLItemOf()
			for _, r := range []string{a.Grantee, a.Grantor} {
				if _, ok := sc.OIDs[value.RegRole][r]; !ok && r != "" {
					return pgerr.New(pgerr.UndefinedObject, "role %q does not exist", r)
				}
			}
		}
		return nil
	}
	if c, ok := out.(*expr.Const); ok {
		if err := check(c.V); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		return out, nil
	}
	def := &expr.FuncDef{Name: t.String(), Strict: true, Params: []value.Kind{t.Kind}, Result: t,
		Eval: func(a []value.Value) (value.Value, error) { return a[0], check(a[0]) }}
	return &expr.Func{Def: def, Args: []expr.Expr{out}, T: t}, nil
}
