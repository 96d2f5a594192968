package sql

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Column numbers. PostgreSQL numbers a table's columns from 1 in the
// order they were added (pg_attribute.attnum) and never renumbers them: a
// column DROP COLUMN drops keeps its number and its row of pg_attribute
// (attisdropped, named ........pg.dropped.N........), and ADD COLUMN takes
// the number after the greatest. Drivers read these numbers (JDBC's
// ORDINAL_POSITION, pg_index.indkey, pg_constraint.conkey). A table none
// of whose columns was ever dropped numbers them by position (Attnum 0);
// once one was, each column carries its number and CreateTable.Dropped
// the dropped ones. ALTER TABLE carries them through its edits
// (alterWork). The database file keeps them in the ALTER TABLE ONLY …
// that follows the table's CREATE TABLE (attrsSQL), as SET (attnums =
// '1 3', dropped_attributes = '…'): a statement only a store's restoring
// session runs, 22023 elsewhere as PostgreSQL's unknown parameters.

// DroppedColumn is a column DROP COLUMN dropped.
type DroppedColumn struct {
	Num int16
	// Def is the column's definition when the statement being bound
	// dropped it, from which the engine derives Attr; nil once it has.
	Def *ColumnDef
	// Attr are the fields of its pg_attribute row that PostgreSQL keeps
	// from the column it was.
	Attr DroppedAttr
}

// DroppedAttr are the fields a dropped column's pg_attribute row keeps:
// its type's attlen, atttypmod, attbyval, attalign, its attstorage,
// attcompression, attcollation and attndims (atttypid is 0).
type DroppedAttr struct {
	Len                         int16
	Typmod                      int32
	ByVal                       bool
	Align, Storage, Compression byte
	Collation                   uint32
	Ndims                       int
}

// Attnum is the pg_attribute.attnum of the table's i-th column.
func (ct *CreateTable) Attnum(i int) int16 {
	if n := ct.Cols[i].Attnum; n != 0 {
		return n
	}
	return int16(i + 1)
}

// Natts is pg_class.relnatts: the greatest column number, of a dropped
// column too.
func (ct *CreateTable) Natts() int16 {
	n := int16(len(ct.Cols))
	for i := range ct.Cols {
		n = max(n, ct.Attnum(i))
	}
	for _, d := range ct.Dropped {
		n = max(n, d.Num)
	}
	return n
}

// ColumnOf is the position of the column numbered num, -1 for none (a
// dropped one).
func (ct *CreateTable) ColumnOf(num int16) int {
	for i := range ct.Cols {
		if ct.Attnum(i) == num {
			return i
		}
	}
	return -1
}

// numberingSQL is the command of attrsSQL that records the columns'
// numbers, "" while none was dropped.
func (ct *CreateTable) numberingSQL() string {
	if len(ct.Dropped) == 0 {
		return ""
	}
	nums := make([]string, len(ct.Cols))
	for i := range ct.Cols {
		nums[i] = strconv.Itoa(int(ct.Attnum(i)))
	}
	dropped := make([]string, len(ct.Dropped))
	for i, d := range ct.Dropped {
		a := d.Attr
		comp := ""
		if a.Compression != 0 {
			comp = string(rune(a.Compression))
		}
		dropped[i] = fmt.Sprintf("%d,%d,%d,%t,%c,%c,%s,%d,%d", d.Num, a.Len, a.Typmod, a.ByVal, a.Align, a.Storage, comp, a.Collation, a.Ndims)
	}
	return "SET (attnums = '" + strings.Join(nums, " ") + "', dropped_attributes = '" + strings.Join(dropped, " ") + "')"
}

// parseDropped reads dropped_attributes' text.
func parseDropped(text string) ([]DroppedColumn, error) {
	var out []DroppedColumn
	for _, f := range strings.Fields(text) {
		p := strings.Split(f, ",")
		if len(p) != 9 || len(p[4]) != 1 || len(p[5]) != 1 || len(p[6]) > 1 {
			return nil, fmt.Errorf("bad dropped attribute %q", f)
		}
		var n [6]int64
		for i, j := range []int{0, 1, 2, 7, 8} {
			v, err := strconv.ParseInt(p[j], 10, 64)
			if err != nil {
				return nil, err
			}
			n[i] = v
		}
		byval, err := strconv.ParseBool(p[3])
		if err != nil {
			return nil, err
		}
		a := DroppedAttr{Len: int16(n[1]), Typmod: int32(n[2]), ByVal: byval, Align: p[4][0], Storage: p[5][0], Collation: uint32(n[3]), Ndims: int(n[4])}
		if p[6] != "" {
			a.Compression = p[6][0]
		}
		out = append(out, DroppedColumn{Num: int16(n[0]), Attr: a})
	}
	return out, nil
}

// numberingCmd applies SET (attnums = …, dropped_attributes = …), the
// command a database file records the columns' numbers with; done is
// false for another command. The engine runs it only when it restores a
// file (AlterTable.Numbering); the binder refuses a malformed one as
// PostgreSQL refuses either parameter.
func (w *alterWork) numberingCmd(at *AlterTable, cmd *pg_query.AlterTableCmd) (bool, error) {
	if cmd.Subtype != pg_query.AlterTableType_AT_SetRelOptions {
		return false, nil
	}
	items := cmd.Def.GetList().GetItems()
	i := slices.IndexFunc(items, func(n *pg_query.Node) bool {
		name := n.GetDefElem().GetDefname()
		return name == "attnums" || name == "dropped_attributes"
	})
	if i < 0 {
		return false, nil
	}
	at.Numbering = items[i].GetDefElem().GetDefname()
	// Whatever is wrong with it is the parameter PostgreSQL does not know.
	unknown := pgerr.New(pgerr.InvalidParameter, "unrecognized parameter %q", at.Numbering)
	for _, n := range items {
		d := n.GetDefElem()
		text := d.GetArg().GetString_().GetSval()
		switch d.Defname {
		case "attnums":
			f := strings.Fields(text)
			cols := w.cols()
			if len(f) != len(cols) {
				return true, unknown
			}
			for i, s := range f {
				v, err := strconv.ParseInt(s, 10, 16)
				if err != nil || v < 1 {
					return true, unknown
				}
				w.nums[cols[i]] = int16(v)
				w.natts = max(w.natts, int16(v))
			}
		case "dropped_attributes":
			ds, err := parseDropped(text)
			if err != nil {
				return true, unknown
			}
			w.dropped = ds
			for _, d := range ds {
				w.natts = max(w.natts, d.Num)
			}
		default:
			return true, unknown
		}
	}
	return true, nil
}

// startNumbers keeps the numbers of the table's columns beside the
// CREATE TABLE tree that ALTER TABLE edits.
func (w *alterWork) startNumbers(def *CreateTable) {
	w.nums = map[*pg_query.ColumnDef]int16{}
	for i, cd := range w.cols() {
		w.nums[cd] = def.Attnum(i)
	}
	w.natts = def.Natts()
	w.dropped = slices.Clone(def.Dropped)
}

// num is the number of column cd, the next one for a column the
// statement adds.
func (w *alterWork) num(cd *pg_query.ColumnDef) int16 {
	n, ok := w.nums[cd]
	if !ok {
		w.natts++
		n = w.natts
		w.nums[cd] = n
	}
	return n
}

// dropNumber records the dropping of column cd, the i-th: its number
// stays taken.
func (w *alterWork) dropNumber(cd *pg_query.ColumnDef, i int) {
	c := w.old.Cols[w.origin[i]] // not a column the statement adds: 42703
	if a := w.colAttrs[cd]; a != nil {
		c.Attrs = *a
	}
	w.dropped = append(w.dropped, DroppedColumn{Num: w.num(cd), Def: &c})
}

// endNumbers gives the columns of the table bound from the edited tree
// their numbers, once one was dropped.
func (w *alterWork) endNumbers(ct *CreateTable) {
	if len(w.dropped) == 0 {
		return
	}
	for i, cd := range w.cols() {
		ct.Cols[i].Attnum = w.num(cd)
	}
	ct.Dropped = slices.SortedFunc(slices.Values(w.dropped), func(a, b DroppedColumn) int { return cmp.Compare(a.Num, b.Num) })
}

// NumberingStmt is ALTER TABLE ONLY name SET (attnums = …, …), the
// statement that gives a table CREATE TABLE made its columns' numbers
// once one was dropped; "" while none was.
func (ct *CreateTable) NumberingStmt() string {
	n := ct.numberingSQL()
	if n == "" {
		return ""
	}
	return "ALTER TABLE ONLY " + QuoteIdent(ct.Name) + " " + n
}

// partitionNumbering binds SET (attnums = …, dropped_attributes = …) of
// partition rel: its definition with those numbers; ok is false for
// another command.
func partitionNumbering(rel *Relation, cmd *pg_query.AlterTableCmd) (*AlterPartition, bool, error) {
	def := *rel.Def
	def.Cols = slices.Clone(def.Cols)
	w := &alterWork{cs: &pg_query.CreateStmt{}, nums: map[*pg_query.ColumnDef]int16{}}
	cds := make([]*pg_query.ColumnDef, len(def.Cols))
	for i, c := range def.Cols {
		cds[i] = &pg_query.ColumnDef{Colname: c.Name}
		w.cs.TableElts = append(w.cs.TableElts, &pg_query.Node{Node: &pg_query.Node_ColumnDef{ColumnDef: cds[i]}})
	}
	ap := &AlterPartition{Name: rel.Name}
	at := &AlterTable{}
	done, err := w.numberingCmd(at, cmd)
	if !done || err != nil {
		return nil, done, err
	}
	for i, cd := range cds {
		def.Cols[i].Attnum = w.nums[cd]
	}
	def.Dropped = w.dropped
	ap.New, ap.Numbering = &def, at.Numbering
	return ap, true, nil
}
