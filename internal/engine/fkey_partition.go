package engine

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Foreign keys of partitioned tables keep no state of their own: the root
// of each partition tree is the table the constraint graph links
// (fkey.go), so every partition's rows are checked, and reached by the
// actions, through it, and a row that an UPDATE moves between partitions
// is an update of the root's row, as PostgreSQL 15 treats it. What this
// file adds is how PostgreSQL names what failed (the partition that holds
// the row, the constraint each partition of a referenced table has, in
// pg_constraint too) and the checks of the commands that take a partition
// away from a referenced table (DETACH, DROP).

// rowTable is the name PostgreSQL's messages give the table of t that
// holds row: the leaf partition it belongs to when t is partitioned.
func (e *Engine) rowTable(t *table, row value.Row) string {
	if t.def.PartitionBy != nil {
		// t may be an ALTER's new table, which has no partitions yet.
		if cur := e.tables[t.name]; cur != nil && cur.def.PartitionBy != nil {
			if leaf, err := routeLeaf(cur, row); err == nil && leaf != nil {
				return unqualified(leaf.def.Name)
			}
		}
	}
	return unqualified(t.name)
}

// fkGoneNames are the table and constraint that PostgreSQL's message
// names for a key that left the parent of l: the parent's row old was
// deleted, or updated to upd. The constraint of a partitioned parent's
// leaf that held the row, unless an UPDATE moved the row to another
// partition, which PostgreSQL checks as an update of the root.
func (e *Engine) fkGoneNames(l *fkLink, old, upd value.Row) (string, string) {
	p := l.parent
	if p.def.PartitionBy == nil {
		return unqualified(p.name), l.child.bare(l.fk.Name)
	}
	from, err := routeLeaf(p, old)
	if err != nil || from == nil {
		return unqualified(p.name), l.child.bare(l.fk.Name)
	}
	if upd != nil {
		if to, err := routeLeaf(p, upd); err != nil || to != from {
			return unqualified(p.name), l.child.bare(l.fk.Name)
		}
	}
	return unqualified(from.def.Name), l.child.bare(e.fkPartitionNames()[l][from])
}

// fkPartitionNames are, per constraint whose referenced table is
// partitioned, the names of the constraint PostgreSQL makes on each of
// that table's partitions: the referencing table's name, its columns and
// "fkey", numbered past the constraint names already taken, the
// partitions in the order they were made, each before its own.
// Computed when asked (a message, the catalog), never kept.
func (e *Engine) fkPartitionNames() map[*fkLink]map[*partition]string {
	g := e.fkeys
	if g == nil {
		return nil
	}
	var links []*fkLink
	used := map[string]bool{}
	for _, name := range sortedKeys(e.tables) {
		t := e.tables[name]
		for _, u := range t.uniques {
			used[u.name] = true
		}
		for _, c := range t.def.Checks {
			used[c.Name] = true
		}
		for _, f := range t.def.ForeignKeys {
			used[f.Name] = true
		}
		for _, l := range g.out[t] {
			if len(l.parent.kids) > 0 {
				links = append(links, l)
			}
		}
	}
	out := make(map[*fkLink]map[*partition]string, len(links))
	for _, l := range links {
		names := map[*partition]string{}
		cols := make([]string, len(l.fk.Cols))
		for i, c := range l.fk.Cols {
			cols[i] = l.child.cols[c].Name
		}
		base := unqualified(l.child.name) + "_" + strings.Join(cols, "_") + "_fkey"
		var walk func([]*partition)
		walk = func(kids []*partition) {
			for _, k := range kids {
				name := base
				for n := 1; used[name]; n++ {
					name = base + strconv.Itoa(n)
				}
				used[name] = true
				names[k] = name
				walk(k.kids)
			}
		}
		walk(l.parent.kids)
		out[l] = names
	}
	return out
}

// madeConstraint is sql.Relation.MadeConstraint of table t: the names
// of its constraints on the partitions of the tables it references,
// computed only when a statement asks.
func (e *Engine) madeConstraint(t *table) func(string) bool {
	return func(name string) bool {
		for l, names := range e.fkPartitionNames() {
			if l.child == t && slices.Contains(slices.Collect(maps.Values(names)), name) {
				return true
			}
		}
		return false
	}
}

// detachReferenced fails when a row of partition p, which DETACH takes
// from its root, is referenced through a constraint on the root, with
// PostgreSQL's error: the rows leave the root without any action.
func (e *Engine) detachReferenced(p *partition, rows []value.Row) error {
	if e.fkeys == nil {
		return nil
	}
	for _, l := range e.fkeys.in[p.root] {
		for _, row := range rows {
			if hasNull(row, l.fk.RefCols) || len(e.fkChildren(l, row)) == 0 {
				continue
			}
			return l.child.constraintError(&pgerr.Error{Code: pgerr.ForeignKeyViolation,
				Message: fmt.Sprintf("removing partition %q violates foreign key constraint %q", unqualified(p.def.Name), l.child.bare(e.fkPartitionNames()[l][p])),
				Detail:  fmt.Sprintf("Key (%s)=(%s) is still referenced from table %q.", colList(l.parent, l.fk.RefCols), valList(row, l.fk.RefCols), unqualified(l.child.name))}, l.fk.Name)
		}
	}
	return nil
}

// partitionFKeyDrops adds to droppedForeignKeys the constraints on the
// root of a partition that DROP removes without its root: PostgreSQL's
// constraint depends on each partition of the table it references, so
// without CASCADE the drop fails, and with it the constraint goes.
func (e *Engine) partitionFKeyDrops(gone map[string]bool, cascade bool, out []*fkLink) ([]*fkLink, error) {
	var lines []string
	first := ""
	for _, name := range sortedKeys(gone) {
		p, ok := e.parts[name]
		if !ok || gone[p.root.name] {
			continue
		}
		for _, l := range e.fkeys.in[p.root] {
			if gone[l.child.name] || l.child == p.root || slices.Contains(out, l) {
				continue
			}
			if cascade {
				out = append(out, l)
				continue
			}
			if first == "" {
				first = name
			}
			lines = append(lines, fmt.Sprintf("constraint %s on table %s depends on table %s", l.fk.Name, l.child.name, name))
		}
	}
	if len(lines) > 0 {
		return nil, &pgerr.Error{Code: pgerr.DependentObjects,
			Message: fmt.Sprintf("cannot drop table %s because other objects depend on it", first),
			Detail:  strings.Join(lines, "\n"),
			Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	return out, nil
}

// withoutLinks runs fn with the constraints ls left out of the graph:
// the rows of the partitions a DROP … CASCADE removes leave their root
// without the actions of the constraints the drop removes with them.
func (e *Engine) withoutLinks(ls []*fkLink, fn func() error) error {
	g := e.fkeys
	if g == nil || len(ls) == 0 {
		return fn()
	}
	h := &fkGraph{out: map[*table][]*fkLink{}, in: map[*table][]*fkLink{}}
	for t, out := range g.out {
		h.out[t] = slices.DeleteFunc(slices.Clone(out), func(l *fkLink) bool { return slices.Contains(ls, l) })
	}
	for t, in := range g.in {
		h.in[t] = slices.DeleteFunc(slices.Clone(in), func(l *fkLink) bool { return slices.Contains(ls, l) })
	}
	e.fkeys = h
	defer func() { e.fkeys = g }()
	return fn()
}
