package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// partitionAlter keeps what an ALTER TABLE of a partitioned root does to
// the partitions under it: each one's definition, bound again from its
// statement over its parent's new definition, top down. The root keeps
// every partition's rows, so the rows themselves change with the root's.
type partitionAlter struct {
	order   []*partition // parents before their partitions
	defs    map[*partition]*sql.CreateTable
	texts   map[*partition]string
	parents map[*partition]string
}

// partitionOverlay is the engine's catalog with the partitioned tables of
// a tree as an ALTER leaves them, for binding the partitions again.
type partitionOverlay struct {
	*Engine
	rels map[string]*sql.Relation
	gone string // the root's old name, when the ALTER renames it
}

func (o partitionOverlay) Relation(name string) (*sql.Relation, bool) {
	if r, ok := o.rels[name]; ok {
		return r, true
	}
	if name == o.gone {
		return nil, false
	}
	return o.Engine.Relation(name)
}

// alteredPartitions binds again the partitions under t, a partitioned
// root, as a leaves it; nil when t has none. It fails as PostgreSQL does
// for ALTER TABLE ONLY, and for a column a partitioned partition's key
// reads that a drops or retypes.
func (e *Engine) alteredPartitions(t *table, a *sql.AlterTable) (*partitionAlter, error) {
	if t.def.PartitionBy == nil || len(t.kids) == 0 {
		return nil, nil
	}
	if a.OnlyPartitioned != nil {
		return nil, a.OnlyPartitioned(t.kids[0].def.Name)
	}
	retyped := retypedColumns(t, a)
	pa := &partitionAlter{defs: map[*partition]*sql.CreateTable{}, texts: map[*partition]string{}, parents: map[*partition]string{}}
	cat := partitionOverlay{Engine: e, rels: map[string]*sql.Relation{a.New.Name: {Name: a.New.Name, Kind: sql.KindTable, Def: a.New}}}
	if a.New.Name != a.Table {
		cat.gone = a.Table
	}
	keep := recursed(t.def, a)
	var walk func(kids []*partition, parent string) error
	walk = func(kids []*partition, parent string) error {
		for _, p := range kids {
			if k := p.def.PartitionBy; k != nil {
				for _, i := range sql.PartitionKeyColumns(k) {
					col := p.def.Cols[i].Name
					if slices.Contains(a.Dropped, col) {
						return pgerr.New(pgerr.InvalidTableDef, "cannot drop column %q because it is part of the partition key of relation %q", col, p.def.Name)
					}
					if slices.Contains(retyped, col) {
						return pgerr.New(pgerr.InvalidTableDef, "cannot alter column %q because it is part of the partition key of relation %q", col, p.def.Name)
					}
				}
			}
			text, err := sql.PartitionSQL(p.def, parent, sql.PartitionOwnSQL(p.def, e.parentDef(p), keep), a.RenamedFrom, a.RenamedTo)
			if err != nil {
				return pgerr.New(pgerr.Internal, "cannot write the definition of partition %q: %v", p.def.Name, err)
			}
			st, ok := e.reparse(text)
			if !ok {
				return pgerr.New(pgerr.Internal, "cannot read the definition of partition %q again", p.def.Name)
			}
			b, err := sql.Bind(cat, st)
			if err != nil {
				return err
			}
			ct, ok := b.(*sql.CreateTable)
			if !ok || ct.PartitionOf == nil {
				return pgerr.New(pgerr.Internal, "the definition of partition %q is not CREATE TABLE … PARTITION OF", p.def.Name)
			}
			keepPartitionNumbers(p.def, ct, a.RenamedFrom, a.RenamedTo, a.Dropped)
			pa.order = append(pa.order, p)
			pa.defs[p], pa.texts[p], pa.parents[p] = ct, partitionText(text, ct), parent
			cat.rels[ct.Name] = &sql.Relation{Name: ct.Name, Kind: sql.KindTable, Def: ct, Partition: &sql.PartitionRel{Root: a.New.Name}}
			if err := walk(p.kids, ct.Name); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(t.kids, a.New.Name); err != nil {
		return nil, err
	}
	return pa, nil
}

// relations are the partitions as the views that read them are bound
// again over root, the root table as the ALTER leaves it.
func (pa *partitionAlter) relations(e *Engine, root *sql.Relation) map[string]*sql.Relation {
	if pa == nil {
		return nil
	}
	byName := map[string]*sql.CreateTable{root.Name: root.Def}
	for p, d := range pa.defs {
		byName[p.def.Name] = d
	}
	out := map[string]*sql.Relation{}
	for _, p := range pa.order {
		d := pa.defs[p]
		f := &expr.PartitionOf{Name: d.Name}
		var chain []*partition
		for q := p; q != nil; q = e.parts[q.parent] {
			chain = append(chain, q)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			q := chain[i]
			parent := pa.parents[q]
			l := expr.PartitionLevel{Key: byName[parent].PartitionBy, Bound: &pa.defs[q].PartitionOf.Bound}
			if l.Bound.Default {
				kids, _, _ := e.partitionsOf(q.parent)
				for _, s := range *kids {
					if s != q {
						l.Siblings = append(l.Siblings, &pa.defs[s].PartitionOf.Bound)
					}
				}
			}
			f.Levels = append(f.Levels, l)
		}
		out[d.Name] = &sql.Relation{Name: d.Name, Kind: sql.KindTable, Cols: root.Cols, Rows: root.Rows,
			Uniques: root.Uniques, PrimaryKey: root.PrimaryKey, Def: d,
			Partition: &sql.PartitionRel{Root: root.Name, Filter: f, Partitioned: d.PartitionBy != nil}}
	}
	return out
}

// apply gives the partitions their new definitions under root, the
// table that replaced theirs, and records each one's statement.
func (pa *partitionAlter) apply(e *Engine, old, root *table) error {
	if pa == nil {
		return nil
	}
	if root != old {
		root.kids = old.kids
	}
	for _, p := range pa.order {
		p.def, p.text, p.parent, p.root = pa.defs[p], pa.texts[p], pa.parents[p], root
		if ss, ok := e.store.(StatementStore); ok && e.store != nil {
			if err := ss.SetStatement(p.def.Name, p.text); err != nil {
				return err
			}
		}
	}
	e.read, e.waves = nil, nil
	return nil
}

// parentDef is the definition of p's parent: a partitioned partition's,
// or its root's.
func (e *Engine) parentDef(p *partition) *sql.CreateTable {
	if up, ok := e.parts[p.parent]; ok {
		return up.def
	}
	return p.root.def
}

// recursed keeps, of what the partitions under old have of their own,
// what a's ALTER of old leaves them: PostgreSQL's recursion gives every
// partition the table's new default of a column (dropping the
// partition's own) when the default changes or SET or DROP DEFAULT
// names the column, DROP NOT NULL drops every partition's NOT NULL of
// the column, and dropping a column drops the checks over it.
func recursed(old *sql.CreateTable, a *sql.AlterTable) func(cols []string, kind sql.OwnKind) bool {
	return recursedKeep(old, a.New, a.RenamedFrom, a.RenamedTo, a.Dropped, a.DroppedNotNull, a.DefaultsSet)
}

// recursedKeep is recursed for an ALTER that takes old to new, renaming
// column from to to, dropping the columns dropped and the NOT NULL of
// the columns notNullDropped, and setting or dropping the default of
// the columns defaultsSet.
func recursedKeep(old, new *sql.CreateTable, from, to string, dropped, notNullDropped, defaultsSet []string) func(cols []string, kind sql.OwnKind) bool {
	reset := map[string]bool{}
	for _, c := range defaultsSet {
		reset[c] = true
	}
	for _, c := range old.Cols {
		name := c.Name
		if name == from {
			name = to
		}
		for _, n := range new.Cols {
			if n.Name == name && n.DefaultSQL != c.DefaultSQL {
				reset[c.Name] = true
			}
		}
	}
	return func(cols []string, kind sql.OwnKind) bool {
		for _, c := range cols {
			if slices.Contains(dropped, c) {
				return false
			}
		}
		switch kind {
		case sql.OwnDefault:
			return !reset[cols[0]]
		case sql.OwnNotNull:
			return !slices.Contains(notNullDropped, cols[0])
		}
		return true
	}
}
