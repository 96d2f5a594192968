package engine

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Column numbers (sql/attnum.go): a table's columns keep the numbers
// they were given when another is dropped, and each dropped column keeps
// a row of pg_attribute. The catalogs show and read them through the
// relation's catRel: num gives a column's number, colByNum the column of
// a number, attnums the numbers of columns given by position.

// num is the attnum of the relation's i-th column.
func (r *catRel) num(i int) int16 {
	if n := r.cols[i].num; n != 0 {
		return n
	}
	return int16(i + 1)
}

// colByNum is the position of the column numbered n, -1 for none.
func (r *catRel) colByNum(n int16) int {
	for i := range r.cols {
		if r.num(i) == n {
			return i
		}
	}
	return -1
}

// attnums are the numbers of the relation's columns at positions cols;
// 0 for -1, an index's expression.
func (r *catRel) attnums(cols []int) []int16 {
	out := make([]int16, len(cols))
	for i, c := range cols {
		if c >= 0 {
			out[i] = r.num(c)
		}
	}
	return out
}

// natts is pg_class.relnatts: the greatest number, a dropped column's
// too.
func (r *catRel) natts() int {
	n := len(r.cols)
	for i := range r.cols {
		n = max(n, int(r.num(i)))
	}
	for _, d := range r.dropped {
		n = max(n, int(d.Num))
	}
	return n
}

// columnAttr is what a column's pg_attribute row says of its type,
// storage and collation; def is its definition, nil for a column of a
// relation that has none (a view's).
func columnAttr(typ value.Type, def *sql.ColumnDef) sql.DroppedAttr {
	a := sql.DroppedAttr{Len: -1, Typmod: typ.Typmod(), Align: 'i', Storage: 'x'}
	b := builtinByKind[typ.Kind]
	if typ.Kind.IsArray() && !typ.Kind.IsVector() {
		b, a.Ndims = nil, 1
	}
	if b != nil {
		a.Len, a.ByVal, a.Align, a.Storage = b.Len, b.ByVal, b.Align, b.Storage
	} else if typ.Kind == value.Enum {
		a.Len, a.ByVal, a.Storage = 4, true, 'p'
	}
	a.Collation = typeCollation(typ)
	if def != nil {
		if def.Domain != nil && def.Domain.Elem() == nil {
			// A domain's column (not its array's) is of the domain,
			// whose modifier and dimensions are its own, not the column's.
			a.Typmod, a.Ndims = -1, 0
		}
		a.Collation = columnCollationOID(def, a.Collation)
		if def.Attrs.Storage != 0 {
			a.Storage = def.Attrs.Storage
		}
		a.Compression = def.Attrs.Compression
	}
	return a
}

// fillDropped gives the columns ALTER TABLE drops the pg_attribute
// fields they keep, before the definition is recorded.
func fillDropped(ct *sql.CreateTable) {
	for i := range ct.Dropped {
		if d := &ct.Dropped[i]; d.Def != nil {
			d.Attr, d.Def = columnAttr(d.Def.Type, d.Def), nil
		}
	}
}

// numberingCheck refuses the command that records the columns' numbers
// (SET (attnums = …)) outside a store's restoring session, as
// PostgreSQL refuses the parameter it does not know.
func numberingCheck(a *sql.AlterTable, restoring bool) error {
	if a.Numbering != "" && !restoring {
		return pgerr.New(pgerr.InvalidParameter, "unrecognized parameter %q", a.Numbering)
	}
	return nil
}

// pgAttributeDropped lists a table's dropped columns, as PostgreSQL's
// RemoveAttributeById leaves their rows.
func pgAttributeDropped(rel *catRel, r *catRows) {
	for _, d := range rel.dropped {
		a := d.Attr
		compression := ""
		if a.Compression != 0 {
			compression = string(rune(a.Compression))
		}
		r.add("attrelid", rel.oid, "attname", droppedName(d.Num), "atttypid", uint32(0), "attstattarget", 0, "attlen", a.Len,
			"attnum", d.Num, "attndims", a.Ndims, "attcacheoff", -1, "atttypmod", a.Typmod, "attbyval", a.ByVal,
			"attalign", string(rune(a.Align)), "attstorage", string(rune(a.Storage)), "attcompression", compression, "attnotnull", false, "atthasdef", false,
			"atthasmissing", false, "attidentity", "", "attgenerated", "", "attisdropped", true, "attislocal", true,
			"attinhcount", 0, "attcollation", a.Collation)
	}
}

// droppedName is the name PostgreSQL gives the dropped column numbered n.
func droppedName(n int16) string {
	return "........pg.dropped." + strconv.Itoa(int(n)) + "........"
}

// indexCol is the relation's i-th column as a column of an index on it,
// which numbers its own from 1.
func (r *catRel) indexCol(i int) catCol {
	c := r.cols[i]
	c.num = 0
	// An index's column has no constraint or default of its own.
	c.notNull, c.def, c.gen, c.identity = false, "", false, 0
	return c
}

// namesByNum are the names of the relation's columns by number from 1, a
// dropped column's as pg_attribute names it.
func (r *catRel) namesByNum() []string {
	out := make([]string, r.natts())
	for i, c := range r.cols {
		out[r.num(i)-1] = c.name
	}
	for _, d := range r.dropped {
		out[d.Num-1] = droppedName(d.Num)
	}
	return out
}
