package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// ALTER TABLE … RENAME COLUMN keeps the views that read the column.
// PostgreSQL's views name columns by number; these are kept as text, so
// the text is rewritten: binding the view's statement with a RefLog
// records which column each reference and each * resolves to, and
// RenameColumnRefs renames the references to the table's column, gives
// the select-list items they name the old name as an alias (the view's
// columns keep their names, as PostgreSQL's do), and spells out a * that
// covers the column. The rewritten statement, bound over the renamed
// table with a RefLog of its own, must resolve every reference to the
// same column as before (SameResolution); otherwise the rename is refused.

// RefOrigin is what one column reference or one column of a * resolved
// to: the query level (0 its own, n the n-th enclosing one), the column's
// position in that level's scope, and the table column it is, if any.
type RefOrigin struct {
	Depth, Idx int
	Outer      bool
	Table      string // "" when not a table's column
	Col        int
}

// RefLog records the resolution of a statement's column references, by
// their locations in its text and in the order binding met them.
type RefLog struct {
	Seq []RefOrigin
	// Using are the columns a JOIN … USING or NATURAL join joined on,
	// which no reference names: a rename rewrites the USING clause
	// itself.
	Using []RefOrigin
	// Whole are the relations whose whole row a reference reads
	// (SELECT t FROM t), by key.
	Whole []string
	// Rels are the relations FROM clauses name, in order of first use.
	Rels  []string
	locs  []int32 // each of Seq's locations
	byLoc map[int32][]RefOrigin
	stars map[int32][]starCol
}

// starCol is a column a * expanded to.
type starCol struct {
	qual, name string
	origin     RefOrigin
}

func (l *RefLog) add(loc int32, o RefOrigin) {
	if l.byLoc == nil {
		l.byLoc = map[int32][]RefOrigin{}
	}
	l.Seq, l.locs = append(l.Seq, o), append(l.locs, loc)
	l.byLoc[loc] = append(l.byLoc[loc], o)
}

// noteRef records that a reference at loc resolved to column idx of s.
func (b *binder) noteRef(s *scope, idx int, loc int32, outer bool) {
	l := b.stmt.Refs
	if l == nil {
		return
	}
	depth := 0
	if i := slices.Index(b.outers, s); i >= 0 {
		depth = i + 1
	}
	c := s.cols[idx]
	l.add(loc, RefOrigin{Depth: depth, Idx: idx, Outer: outer, Table: c.origin, Col: c.originCol})
}

// noteUsing records that a USING or NATURAL join joined on column idx
// of s.
func (b *binder) noteUsing(s *scope, idx int) {
	if l := b.stmt.Refs; l != nil {
		c := s.cols[idx]
		l.Using = append(l.Using, RefOrigin{Idx: idx, Table: c.origin, Col: c.originCol})
	}
}

// noteStar records the columns of s that a * at loc expanded to.
func (b *binder) noteStar(s *scope, idxs []int, loc int32) {
	l := b.stmt.Refs
	if l == nil {
		return
	}
	if l.stars == nil {
		l.stars = map[int32][]starCol{}
	}
	for _, i := range idxs {
		c := s.cols[i]
		o := RefOrigin{Idx: i, Table: c.origin, Col: c.originCol}
		l.Seq, l.locs = append(l.Seq, o), append(l.locs, -1)
		l.stars[loc] = append(l.stars[loc], starCol{qual: c.qual, name: c.name, origin: o})
	}
}

// SameResolution reports whether two logs of the statements a and b
// resolved the same references to the same columns, in the same order.
// The ORDER BY items that name a select-list item name (orderOutputRefs)
// are left out: they sort by that item, whatever the binder looked up.
func SameResolution(a, b *RefLog, sa, sb *Stmt, name string) bool {
	pick := func(l *RefLog, st *Stmt) []RefOrigin {
		skip := orderOutputRefs(st.Node, name)
		var out []RefOrigin
		for i, o := range l.Seq {
			if !skip[l.locs[i]] {
				out = append(out, o)
			}
		}
		return out
	}
	return slices.Equal(pick(a, sa), pick(b, sb))
}

// orderOutputRefs are the locations of the ORDER BY items of node's
// SELECTs that are a bare name, name, of one of their select-list items.
func orderOutputRefs(node *pg_query.Node, name string) map[int32]bool {
	keep := map[int32]bool{}
	if node == nil {
		return keep
	}
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		sel, isSel := m.Interface().(*pg_query.SelectStmt)
		if !isSel {
			return
		}
		outputs := map[string]bool{}
		for _, t := range sel.TargetList {
			if rt := t.GetResTarget(); rt != nil {
				n := rt.Name
				if n == "" && rt.Val.GetColumnRef() != nil {
					n = figureName(rt.Val)
				}
				outputs[n] = true
			}
		}
		for _, o := range sel.SortClause {
			cr := o.GetSortBy().GetNode().GetColumnRef()
			if cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_().GetSval() == name && outputs[name] {
				keep[cr.Location] = true
			}
		}
	})
	return keep
}

// RenameColumnRefs returns st with the references that log resolved to
// column col of table renamed to newName (st's column was oldName), or
// ok false when it names none; st itself is left as it is. A reference
// bound twice to different columns, or a * over the column that cannot be
// spelled out, is refused (0A000).
func RenameColumnRefs(st *Stmt, log *RefLog, table string, col int, oldName, newName string) (out *Stmt, ok bool, err error) {
	hit := func(os []RefOrigin) (bool, error) {
		n := 0
		for _, o := range os {
			if o.Table == table && o.Col == col {
				n++
			}
		}
		if n > 0 && n < len(os) {
			return false, pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q of table %q: a view's reference to it is read in two ways", oldName, table)
		}
		return n > 0, nil
	}
	node := proto.Clone(st.Node).(*pg_query.Node)
	renamed := false
	var werr error
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		if werr != nil {
			return
		}
		sel, isSel := m.Interface().(*pg_query.SelectStmt)
		if !isSel {
			return
		}
		var list []*pg_query.Node
		for _, t := range sel.TargetList {
			rt := t.GetResTarget()
			cr := rt.GetVal().GetColumnRef()
			if cr == nil {
				list = append(list, t)
				continue
			}
			if last := cr.Fields[len(cr.Fields)-1]; last.GetAStar() != nil {
				cols := log.stars[cr.Location]
				covers := slices.ContainsFunc(cols, func(c starCol) bool { return c.origin.Table == table && c.origin.Col == col })
				if !covers {
					list = append(list, t)
					continue
				}
				// Spelled out as PostgreSQL prints the view: t.k AS a.
				for _, c := range cols {
					if c.qual == "" {
						werr = pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q of table %q: a view selects it through * over a join's merged column", oldName, table)
						return
					}
					name, alias := c.name, ""
					if c.origin.Table == table && c.origin.Col == col {
						name, alias = newName, c.name
					}
					ref := pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(c.qual), pg_query.MakeStrNode(name)}, cr.Location)
					list = append(list, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Name: alias, Val: ref, Location: rt.Location}}})
				}
				renamed = true
				continue
			}
			if h, err := hit(log.byLoc[cr.Location]); err != nil {
				werr = err
				return
			} else if h && rt.Name == "" {
				rt.Name = oldName // the item keeps its name
			}
			list = append(list, t)
		}
		sel.TargetList = list
	})
	if werr != nil {
		return nil, false, werr
	}
	// ORDER BY name finds an output column of that name first: the item
	// that named the column keeps its name, so the name is kept.
	keep := orderOutputRefs(node, oldName)
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		cr, isRef := m.Interface().(*pg_query.ColumnRef)
		if !isRef || werr != nil || keep[cr.Location] {
			return
		}
		h, err := hit(log.byLoc[cr.Location])
		if err != nil {
			werr = err
			return
		}
		if last := cr.Fields[len(cr.Fields)-1].GetString_(); h && last != nil && last.Sval == oldName {
			last.Sval = newName
			renamed = true
		}
	})
	if werr != nil {
		return nil, false, werr
	}
	if !renamed {
		return st, false, nil
	}
	o := *st
	o.Node, o.Refs = node, nil
	return &o, true, nil
}

// RenameViewColumn is ALTER VIEW … RENAME COLUMN (or ALTER MATERIALIZED
// VIEW, or ALTER TABLE of a view): the view's column Col is named New.
type RenameViewColumn struct {
	View     string
	Col      int
	Old, New string
	// Tag is the statement's command tag.
	Tag string
}

func (*RenameViewColumn) bound() {}

// bindRenameViewColumn binds RENAME COLUMN of a view's column; ok false
// when rs renames no view's column.
func (b *binder) bindRenameViewColumn(rs *pg_query.RenameStmt) (Bound, bool, error) {
	if rs.RenameType != pg_query.ObjectType_OBJECT_COLUMN || rs.Relation == nil {
		return nil, false, nil
	}
	rel, ok := b.cat.Relation(rs.Relation.Relname)
	if !ok || rel.Kind != KindView && rel.Kind != KindMatView || rel.System {
		return nil, false, nil
	}
	tag := map[pg_query.ObjectType]string{pg_query.ObjectType_OBJECT_VIEW: "ALTER VIEW",
		pg_query.ObjectType_OBJECT_MATVIEW: "ALTER MATERIALIZED VIEW", pg_query.ObjectType_OBJECT_TABLE: "ALTER TABLE"}[rs.RelationType]
	if tag == "" {
		return nil, false, nil
	}
	col := slices.IndexFunc(rel.Cols, func(c plan.Column) bool { return c.Name == rs.Subname })
	if col < 0 {
		return nil, true, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", rs.Subname)
	}
	if slices.ContainsFunc(rel.Cols, func(c plan.Column) bool { return c.Name == rs.Newname }) {
		return nil, true, pgerr.New(pgerr.DuplicateColumn, "column %q of relation %q already exists", rs.Newname, rs.Relation.Relname)
	}
	return &RenameViewColumn{View: rel.Name, Col: col, Old: rs.Subname, New: rs.Newname, Tag: tag}, true, nil
}

// RenameAlterViewColumn returns an ALTER VIEW statement with its commands
// on column old made on column new.
func RenameAlterViewColumn(text, old, new string) (string, error) {
	tree, err := pg_query.Parse(text)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetAlterTableStmt() == nil {
		return "", pgerr.New(pgerr.Internal, "not an ALTER VIEW statement: %s", text)
	}
	for _, c := range tree.Stmts[0].Stmt.GetAlterTableStmt().Cmds {
		if cmd := c.GetAlterTableCmd(); cmd != nil && cmd.Name == old {
			cmd.Name = new
		}
	}
	return pg_query.Deparse(tree)
}

// WithColumnNames returns a CREATE MATERIALIZED VIEW statement with the
// column list names; st is left as it is.
func WithColumnNames(st *Stmt, names []string) (*Stmt, error) {
	node := proto.Clone(st.Node).(*pg_query.Node)
	ct := node.GetCreateTableAsStmt()
	if ct == nil || ct.Into == nil {
		return nil, pgerr.New(pgerr.Internal, "not a CREATE MATERIALIZED VIEW statement")
	}
	ct.Into.ColNames = nil
	for _, n := range names {
		ct.Into.ColNames = append(ct.Into.ColNames, pg_query.MakeStrNode(n))
	}
	o := *st
	o.Node, o.Refs = node, nil
	return &o, nil
}
