package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Privileges on built-in types: a superuser's GRANT and REVOKE … ON TYPE
// of a built-in base, range or multirange type (int4, text, int4range)
// keep its ACL as a user type's, under its pg_type name, since the
// superuser owns it; pg_type.typacl shows it and a role that is no
// superuser needs its USAGE for the columns it adds. The pseudo-types'
// (anyelement, record) are kept so too, for pg_type.typacl: no column is
// of one. The catalogs' row types (pg_class) are kept so too, under their
// names (syscat_catalog_rowtype.go).

// builtinTypeNamed returns the built-in type whose pg_type name is name,
// nil when name is no built-in element type.
func builtinTypeNamed(name string) *value.BuiltinType {
	for i := range value.BuiltinTypes {
		if b := &value.BuiltinTypes[i]; b.Name == name && !b.Kind.IsArray() {
			return b
		}
	}
	return nil
}

// builtinTypeACLKey is the key of the ACL of the built-in type t (its
// element type's for an array), "" when no GRANT or REVOKE named it.
func (e *Engine) builtinTypeACLKey(t value.Type) string {
	if t.Kind.IsArray() && !t.Kind.IsVector() {
		t = t.ElemType()
	}
	if t.Enum() != nil || t.UserRange() != nil {
		return ""
	}
	b := builtinByKind[t.Kind]
	if b == nil {
		return ""
	}
	if _, ok := e.typeACLs[b.Name]; !ok {
		return ""
	}
	return b.Name
}

// typeACLErrorName is how a permission error names the type key: a
// built-in type as format_type prints it (bigint), as PostgreSQL does.
func (e *Engine) typeACLErrorName(key string) string {
	if b := builtinTypeNamed(key); b != nil {
		return value.Type{Kind: b.Kind, Mod: -1}.String()
	}
	return e.bareName(key)
}

// pseudoTypeNamed reports whether name is a pseudo-type's (anyelement,
// record, …), which pg_type lists with the built-in types; array is true
// for an array type's (_record).
func pseudoTypeNamed(name string) (ok, array bool) {
	for _, t := range expr.BuiltinCatalog().Types {
		if t.Name == name {
			return true, strings.HasSuffix(t.Out, "[]")
		}
	}
	return false, false
}

// pseudoTypeOID is the object number of the pseudo-type name
// (anyelement, record, …), 0 when name is none.
func pseudoTypeOID(name string) uint32 {
	for _, t := range expr.BuiltinCatalog().Types {
		if t.Name == name {
			return t.OID
		}
	}
	for _, b := range value.BuiltinTypes { // record, a type of values too
		if b.Name == name {
			return b.OID
		}
	}
	return 0
}

// checkGrantablePseudo checks a GRANT on name when it is a pseudo-type's
// (handled true): the superuser's as a built-in type, its array type
// 0LP01 as any array type.
func (e *Engine) checkGrantablePseudo(name string, domain bool) (handled, builtin bool, err error) {
	pseudo, array := pseudoTypeNamed(name)
	if _, rel := e.kindOf(name); !pseudo || rel {
		return false, false, nil
	}
	switch {
	case array:
		return true, false, pgerr.New("0LP01", "cannot set privileges of array types").WithHint("Set the privileges of the element type instead.")
	case domain:
		return true, false, pgerr.New(pgerr.WrongObjectType, "%q is not a domain", name)
	}
	return true, true, nil
}
