package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// A domain's array type is a Domain of its own, made once per domain
// (ArrayOf) and kept with it, so that a column, a parameter or a cast of
// d[] holds a pointer as one of d does: its values are arrays of the base
// type, and Check checks each element against d. Its definition follows
// d's (renames, ALTER DOMAIN) and carries no constraint of its own.

// arrayDefCache is an array type's definition derived from one
// definition of its element domain.
type arrayDefCache struct {
	from *DomainDef
	def  DomainDef
}

// ArrayOf returns the array type of d. A domain over an array type has
// none here (nil): its arrays would be arrays of arrays.
func (d *Domain) ArrayOf() *Domain {
	if d.elem != nil || d.Def().Base.Kind.IsArray() {
		return nil
	}
	if a := d.arr.Load(); a != nil {
		return a
	}
	a := &Domain{elem: d}
	if d.arr.CompareAndSwap(nil, a) {
		return a
	}
	return d.arr.Load()
}

// Elem returns the element domain of an array type, nil for a domain
// and for no domain (a nil d).
func (d *Domain) Elem() *Domain {
	if d == nil {
		return nil
	}
	return d.elem
}

// arrayDef is the definition of the array type d, derived from its
// element domain's current definition and kept until that changes.
func (d *Domain) arrayDef() *DomainDef {
	ed := d.elem.Def()
	if c := d.cache.Load(); c != nil && c.from == ed {
		return &c.def
	}
	c := &arrayDefCache{from: ed, def: DomainDef{Name: ArrayTypeName(ed.Name), Base: value.ArrayTypeOf(ed.Base),
		Collation: ed.Collation, UserColl: ed.UserColl}}
	d.cache.Store(c)
	return &c.def
}

// ArrayTypeName is the name pg_type gives the array type of the type
// keyed name ("d" or "schema.d"): an underscore before the bare name.
func ArrayTypeName(name string) string {
	if s, n, ok := strings.Cut(name, "."); ok {
		return s + "._" + n
	}
	return "_" + name
}
