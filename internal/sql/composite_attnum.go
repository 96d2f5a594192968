package sql

import (
	"cmp"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// Attribute numbers of composite types: as a table's columns, a composite
// type's attributes keep their numbers when DROP ATTRIBUTE drops one
// (ColumnDef.Attnum, 0 while no attribute was dropped), and the dropped
// one keeps its number (CompositeType.Dropped) and a row of pg_attribute;
// ADD ATTRIBUTE then takes the number after the greatest. A store records
// such a type as CREATE TYPE with a stand-in attribute at each dropped
// number, followed by the ALTER TYPE that drops them.

// compositeAttnum is the number of the i-th of attrs.
func compositeAttnum(attrs []ColumnDef, i int) int16 {
	if n := attrs[i].Attnum; n != 0 {
		return n
	}
	return int16(i + 1)
}

// nextAttnum is the number ADD ATTRIBUTE gives: the one after the
// greatest, a dropped attribute's too.
func nextAttnum(attrs []ColumnDef, dropped []DroppedColumn) int16 {
	n := int16(len(attrs))
	for i := range attrs {
		n = max(n, compositeAttnum(attrs, i))
	}
	for _, d := range dropped {
		n = max(n, d.Num)
	}
	return n + 1
}

// dropAttr drops the i-th attribute, the others keeping their numbers.
func (ac *AlterComposite) dropAttr(i int) {
	for j := range ac.Attrs {
		ac.Attrs[j].Attnum = compositeAttnum(ac.Attrs, j)
	}
	d := ac.Attrs[i]
	ac.Dropped = append(ac.Dropped, DroppedColumn{Num: d.Attnum, Def: &d})
	slices.SortFunc(ac.Dropped, func(a, b DroppedColumn) int { return cmp.Compare(a.Num, b.Num) })
	ac.Attrs = slices.Delete(ac.Attrs, i, i+1)
}

// compositeNumberedSQL is CREATE TYPE with the attributes at their
// numbers and a stand-in of the dropped ones', then ALTER TYPE … DROP
// ATTRIBUTE of the stand-ins.
func compositeNumberedSQL(name string, attrs []ColumnDef, dropped []DroppedColumn) string {
	all := slices.Clone(attrs)
	for i := range all {
		all[i].Attnum = compositeAttnum(attrs, i)
	}
	var drops []string
	for _, d := range dropped {
		stand := "........pg.dropped." + itoa(int(d.Num)) + "........"
		all = append(all, ColumnDef{Name: stand, Type: standInType(d), Attnum: d.Num})
		drops = append(drops, "DROP ATTRIBUTE "+QuoteIdent(stand))
	}
	slices.SortFunc(all, func(a, b ColumnDef) int { return cmp.Compare(a.Attnum, b.Attnum) })
	return compositeCreateSQL(name, all) + ";\nALTER TYPE " + QuoteIdent(name) + " " + strings.Join(drops, ", ")
}

// standInType is the type of the stand-in of a dropped attribute: its own
// when built in, which outlives it; else a built-in type of its storage.
func standInType(d DroppedColumn) value.Type {
	if d.Def == nil {
		return value.Type{Kind: value.Int4, Mod: -1}
	}
	t := d.Def.Type
	user := func(t value.Type) bool {
		return t.Kind == value.Enum || t.Kind == value.Record || t.Kind == value.UserRange
	}
	switch {
	case t.Kind == value.Enum:
		return value.Type{Kind: value.Int4, Mod: -1}
	case user(t):
		return value.Type{Kind: value.Bytea, Mod: -1}
	case t.Kind.IsArray() && user(t.ElemType()):
		return value.Type{Kind: value.ArrayOf(value.Int4), Mod: -1}
	}
	return t
}
