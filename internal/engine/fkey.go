package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// FOREIGN KEY constraints are enforced at the end of each statement (and
// of each typed change, and of each COPY), as PostgreSQL's non-deferrable
// constraints are: the statement's changes in the transaction's log are
// read in order; a referenced row deleted or whose key changed applies
// its constraint's ON DELETE / ON UPDATE action, whose changes join the
// log and are read in turn (cascades of any depth, self-references); then
// every referencing row the statement wrote is looked up in its parent's
// unique index, and every key that left a parent under NO ACTION or
// RESTRICT is looked up among the children. A failure undoes the whole
// statement, cascades included.
//
// Changes a subscription applies (ApplySource) are not checked and run no
// action, as PostgreSQL's apply worker runs with session_replication_role
// = replica, under which the triggers that enforce the constraints do not
// fire: the publisher checked them.
//
// A child is found by a prefix index of its first referencing column
// (prefix.go), built on the first parent change and kept up to date from
// then on, counted in the table's bytes: never a scan per row.

// fkLink is a FOREIGN KEY constraint between two tables of the engine.
type fkLink struct {
	fk     *sql.ForeignKey
	child  *table
	parent *table
	key    *uniqueIndex // the parent's index of the referenced columns
}

// fkGraph is every constraint, by child and by parent table.
type fkGraph struct {
	out, in map[*table][]*fkLink
}

// linkForeignKeys rebuilds the engine's constraint graph from the tables'
// definitions: after any table is created, altered or dropped.
func (e *Engine) linkForeignKeys() {
	for _, t := range e.tables {
		t.fkeyed = false
	}
	g := &fkGraph{out: map[*table][]*fkLink{}, in: map[*table][]*fkLink{}}
	n := 0
	// By name, so that the first constraint a message names is the
	// same at every run.
	for _, name := range sortedKeys(e.tables) {
		t := e.tables[name]
		for i := range t.def.ForeignKeys {
			fk := &t.def.ForeignKeys[i]
			p, ok := e.tables[fk.RefTable]
			if !ok {
				continue
			}
			// The parent's columns by name: ALTER TABLE may have moved
			// them (a column added or dropped before them).
			if cols, ok := colsByName(p.def, fk.RefNames); ok {
				fk.RefCols = cols
			}
			l := &fkLink{fk: fk, child: t, parent: p}
			for _, u := range p.uniques {
				if sameCols(u.cols, fk.RefCols) {
					l.key = u
					break
				}
			}
			g.out[t] = append(g.out[t], l)
			g.in[p] = append(g.in[p], l)
			t.fkeyed, p.fkeyed = true, true
			n++
		}
	}
	e.fkeys = nil
	if n > 0 {
		e.fkeys = g
	}
}

// fkGone is a key that left a parent under NO ACTION or RESTRICT, checked
// once the statement's actions have run.
type fkGone struct {
	l        *fkLink
	old      value.Row // the parent's row that held the key
	upd      value.Row // its new row, when an update changed the key
	restrict bool      // RESTRICT: the key may not come back in the statement
}

// fkCheck is a referencing row the statement wrote.
type fkCheck struct {
	l  *fkLink
	id uint64
}

// enforceForeignKeys runs the actions and the checks of the constraints
// over the changes logged since mark. On error the caller undoes them.
func (e *Engine) enforceForeignKeys(mark int) error {
	return e.enforceForeignKeysOf(mark, nil)
}

// enforceForeignKeysOf is enforceForeignKeys; with atCommit, it checks
// (without taking the referential actions again, which never wait) only
// the constraints atCommit accepts, over the changes since mark
// (fkey_deferred.go). Without it, a deferred constraint's checks are
// left for the commit.
func (e *Engine) enforceForeignKeysOf(mark int, atCommit func(*fkLink) bool) error {
	g := e.fkeys
	if g == nil || e.replicaRole() {
		return nil
	}
	skip := func(l *fkLink) bool {
		if atCommit != nil {
			return !atCommit(l)
		}
		if l.fk.Deferrable && e.fkDeferred(l) {
			e.tx.fkCheck = true
			return true
		}
		return false
	}
	var gone []fkGone
	var checks []fkCheck
	for p := mark; p < len(e.tx.log); p++ {
		c := e.tx.log[p]
		if c.w == 0 || !c.t.fkeyed {
			continue
		}
		log := e.tx.log
		if c.w > 0 {
			var old value.Row // the row an update replaced
			if p > mark && log[p-1].w < 0 && log[p-1].t == c.t && log[p-1].id == c.id {
				old = log[p-1].row
			}
			for _, l := range g.out[c.t] {
				if old != nil && sameKey(old, c.row, l.fk.Cols) || skip(l) {
					continue // PostgreSQL checks no row whose key the update kept
				}
				checks = append(checks, fkCheck{l: l, id: c.id})
			}
			continue
		}
		var upd value.Row // the new row of an update
		if p+1 < len(log) && log[p+1].w > 0 && log[p+1].t == c.t && log[p+1].id == c.id {
			upd = log[p+1].row
		}
		for _, l := range g.in[c.t] {
			if hasNull(c.row, l.fk.RefCols) || upd != nil && sameKey(c.row, upd, l.fk.RefCols) {
				continue
			}
			action := l.fk.OnDelete
			if upd != nil {
				action = l.fk.OnUpdate
			}
			if action == sql.FKNoAction || action == sql.FKRestrict {
				// RESTRICT never waits, and was checked then.
				if action == sql.FKRestrict && atCommit == nil || action == sql.FKNoAction && !skip(l) {
					gone = append(gone, fkGone{l: l, old: c.row, upd: upd, restrict: action == sql.FKRestrict})
				}
				continue
			}
			if atCommit != nil {
				continue // taken at the statement's end
			}
			if err := e.fkAct(l, action, c.row, upd); err != nil {
				return err
			}
			if action == sql.FKSetDefault {
				// A default equal to the key gone leaves the children
				// referencing it: PostgreSQL then checks as NO ACTION.
				gone = append(gone, fkGone{l: l, old: c.row, upd: upd})
			}
		}
	}
	for _, gn := range gone {
		l := gn.l
		if !gn.restrict && l.key != nil {
			// NO ACTION: a row of the parent holding the key again
			// (an update that swapped keys) keeps the children valid.
			if _, ok := l.key.lookup(gn.old); ok {
				continue
			}
		}
		if ids := e.fkChildren(l, gn.old); len(ids) > 0 {
			parent, name := e.fkGoneNames(l, gn.old, gn.upd)
			return l.child.constraintError(&pgerr.Error{Code: pgerr.ForeignKeyViolation,
				Message: fmt.Sprintf("update or delete on table %q violates foreign key constraint %q on table %q", parent, name, unqualified(l.child.name)),
				Detail:  fmt.Sprintf("Key (%s)=(%s) is still referenced from table %q.", colList(l.parent, l.fk.RefCols), valList(gn.old, l.fk.RefCols), unqualified(l.child.name))}, l.fk.Name)
		}
	}
	for _, ch := range checks {
		// The row as the statement left it, unless it deleted it.
		cur, ok := ch.l.child.rows.Get(ch.id)
		if !ok {
			continue
		}
		if err := e.fkCheckRow(ch.l, cur); err != nil {
			return err
		}
	}
	return nil
}

// fkCheckRow checks that a referencing row has its parent.
func (e *Engine) fkCheckRow(l *fkLink, row value.Row) error {
	fk := l.fk
	nulls := 0
	for _, c := range fk.Cols {
		if row[c].IsNull() {
			nulls++
		}
	}
	if nulls == len(fk.Cols) {
		return nil
	}
	if nulls > 0 {
		if !fk.MatchFull {
			return nil
		}
		return l.child.constraintError(&pgerr.Error{Code: pgerr.ForeignKeyViolation,
			Message: fmt.Sprintf("insert or update on table %q violates foreign key constraint %q", e.rowTable(l.child, row), l.child.bare(fk.Name)),
			Detail:  "MATCH FULL does not allow mixing of null and non-null values."}, fk.Name)
	}
	if l.key != nil {
		probe := make(value.Row, len(l.parent.cols))
		ok := true
		for i, c := range fk.Cols {
			v, err := castTo(row[c], l.parent.cols[fk.RefCols[i]].Type)
			if err != nil {
				ok = false
				break
			}
			probe[fk.RefCols[i]] = v
		}
		if ok {
			if _, found := l.key.lookup(probe); found {
				return nil
			}
		}
	}
	return l.child.constraintError(&pgerr.Error{Code: pgerr.ForeignKeyViolation,
		Message: fmt.Sprintf("insert or update on table %q violates foreign key constraint %q", e.rowTable(l.child, row), l.child.bare(fk.Name)),
		Detail:  fmt.Sprintf("Key (%s)=(%s) is not present in table %q.", colList(l.child, fk.Cols), valList(row, fk.Cols), unqualified(l.parent.name))}, fk.Name)
}

// fkChildren returns the ids of the child rows that reference the key of
// the parent's row old, found through the prefix index of the first
// referencing column.
func (e *Engine) fkChildren(l *fkLink, old value.Row) []uint64 {
	fk := l.fk
	key := make([]value.Value, len(fk.Cols))
	for i, c := range fk.Cols {
		v, err := castTo(old[fk.RefCols[i]], l.child.cols[c].Type)
		if err != nil {
			return nil
		}
		key[i] = v
	}
	var ids []uint64
	l.child.prefix(fk.Cols[0]).each(key[0], func(id uint64) {
		row, _ := l.child.rows.Get(id)
		for i, c := range fk.Cols[1:] {
			if row[c].IsNull() || value.Compare(row[c], key[i+1]) != 0 {
				return
			}
		}
		ids = append(ids, id)
	})
	return ids
}

// fkAct applies a CASCADE, SET NULL or SET DEFAULT action to the children
// of the parent's row old, which was deleted (upd nil) or updated to upd.
func (e *Engine) fkAct(l *fkLink, action sql.FKAction, old, upd value.Row) error {
	fk := l.fk
	ids := e.fkChildren(l, old)
	for _, id := range ids {
		cur, ok := l.child.rows.Get(id)
		if !ok {
			continue
		}
		if action == sql.FKCascade && upd == nil {
			e.deleteRow(l.child, id)
			continue
		}
		next := slices.Clone(cur)
		set := fk.Cols
		if upd == nil && fk.DeleteCols != nil {
			set = fk.DeleteCols
		}
		for _, c := range set {
			switch action {
			case sql.FKCascade:
				i := slices.Index(fk.Cols, c)
				v, err := castTo(upd[fk.RefCols[i]], l.child.cols[c].Type)
				if err != nil {
					return err
				}
				next[c] = v
			case sql.FKSetNull:
				next[c] = value.Null
			case sql.FKSetDefault:
				next[c] = value.Null
				if d := l.child.def.Cols[c].Default; d != nil {
					v, err := d.Eval(nil)
					if err != nil {
						return err
					}
					next[c] = v
				}
			}
		}
		if _, err := e.updateRow(l.child, id, cur, next); err != nil {
			return err
		}
	}
	return nil
}

// castTo converts a key value to the type of the column it is compared
// with, when the kinds differ (an integer referencing a bigint).
func castTo(v value.Value, t value.Type) (value.Value, error) {
	if v.IsNull() || v.Kind() == t.Kind {
		return v, nil
	}
	return value.Cast(v, t, false)
}

func hasNull(row value.Row, cols []int) bool {
	for _, c := range cols {
		if row[c].IsNull() {
			return true
		}
	}
	return false
}

// sameKey reports whether two rows hold equal values (NULL equal to
// NULL) in cols.
func sameKey(a, b value.Row, cols []int) bool {
	for _, c := range cols {
		if a[c].IsNull() != b[c].IsNull() || !a[c].IsNull() && value.Compare(a[c], b[c]) != 0 {
			return false
		}
	}
	return true
}

func colList(t *table, cols []int) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = t.cols[c].Name
	}
	return strings.Join(names, ", ")
}

func valList(row value.Row, cols []int) string {
	vals := make([]string, len(cols))
	for i, c := range cols {
		vals[i] = string(value.AppendText(nil, row[c]))
	}
	return strings.Join(vals, ", ")
}

// alterForeignKeys checks an ALTER TABLE of t, whose rows next holds
// under its new definition, against the constraints: a table referenced
// from another keeps its columns, its name and the keys referenced
// (0A000, 2BP01), and the rows satisfy each constraint the statement
// adds (23503).
func (e *Engine) alterForeignKeys(t, next *table, a *sql.AlterTable) error {
	if g := e.fkeys; g != nil {
		for _, l := range g.in[t] {
			if l.child == t {
				continue
			}
			refCols, ok := colsByName(a.New, l.fk.RefNames)
			if !ok || a.New.Name != t.name {
				return pgerr.New(pgerr.FeatureNotSupported, "cannot rename table %q or drop or rename its columns %s: constraint %q on table %q references them", t.name, strings.Join(l.fk.RefNames, ", "), l.fk.Name, l.child.name).
					WithHint("drop the constraint, alter the table, then add the constraint again")
			}
			kept := slices.ContainsFunc(next.uniques, func(u *uniqueIndex) bool { return sameCols(u.cols, refCols) })
			if !kept {
				name := ""
				for _, u := range t.uniques {
					if sameCols(u.cols, l.fk.RefCols) {
						name = u.name
					}
				}
				return &pgerr.Error{Code: pgerr.DependentObjects,
					Message: fmt.Sprintf("cannot drop constraint %s on table %s because other objects depend on it", name, t.name),
					Detail:  fmt.Sprintf("constraint %s on table %s depends on index %s", l.fk.Name, l.child.name, name),
					Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
			}
		}
	}
	for i := range a.New.ForeignKeys {
		fk := &a.New.ForeignKeys[i]
		// A constraint the table had is not checked again, unless
		// VALIDATE CONSTRAINT makes one added NOT VALID valid; one added
		// NOT VALID checks only the rows written from now on.
		if fk.NotValid || slices.ContainsFunc(t.def.ForeignKeys, func(o sql.ForeignKey) bool { return o.Name == fk.Name && !o.NotValid }) {
			continue
		}
		parent := next
		if fk.RefTable != a.New.Name {
			p, ok := e.tables[fk.RefTable]
			if !ok {
				return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", fk.RefTable)
			}
			parent = p
		}
		l := &fkLink{fk: fk, child: next, parent: parent}
		for _, u := range parent.uniques {
			if sameCols(u.cols, fk.RefCols) {
				l.key = u
			}
		}
		var err error
		next.scan(func(_ uint64, row value.Row) bool {
			err = e.fkCheckRow(l, row)
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// droppedForeignKeys returns the constraints of tables that stay on the
// tables in gone, which DROP … CASCADE drops; without CASCADE, any is an
// error (2BP01).
func (e *Engine) droppedForeignKeys(gone map[string]bool, cascade bool) ([]*fkLink, error) {
	if e.fkeys == nil {
		return nil, nil
	}
	var out []*fkLink
	for name := range gone {
		t, ok := e.tables[name]
		if !ok {
			continue
		}
		for _, l := range e.fkeys.in[t] {
			if gone[l.child.name] {
				continue
			}
			if !cascade {
				return nil, &pgerr.Error{Code: pgerr.DependentObjects,
					Message: fmt.Sprintf("cannot drop table %s because other objects depend on it", t.name),
					Detail:  fmt.Sprintf("constraint %s on table %s depends on table %s", l.fk.Name, l.child.name, t.name),
					Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
			}
			out = append(out, l)
		}
	}
	out, err := e.partitionFKeyDrops(gone, cascade, out)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b *fkLink) int { return strings.Compare(a.child.name+"."+a.fk.Name, b.child.name+"."+b.fk.Name) })
	return out, nil
}

// dropForeignKeys removes constraints from their tables' definitions, in
// the store too.
func (e *Engine) dropForeignKeys(ls []*fkLink) error {
	for _, l := range ls {
		t := l.child
		def := *t.def
		def.ForeignKeys = slices.DeleteFunc(slices.Clone(def.ForeignKeys), func(o sql.ForeignKey) bool { return o.Name == l.fk.Name })
		if e.store != nil {
			r := &StoredRelation{Name: def.Name, Kind: KindTable, SQL: def.SQL(), Cols: t.cols}
			if err := e.store.Alter(t.name, r, t.putAll); err != nil {
				return err
			}
		}
		t.def = &def
	}
	return nil
}

// truncateReferencing returns the tables TRUNCATE empties: ts, and with
// CASCADE every table that references one of them, transitively, each
// with a notice. Without CASCADE a table referenced from a table not in
// ts is an error (0A000), as in PostgreSQL; it names the table by names,
// which has the name given for a partition of ts (its root's rows).
func (e *Engine) truncateReferencing(ts []*table, names []string, cascade bool) ([]*table, []string, error) {
	if e.fkeys == nil {
		return ts, nil, nil
	}
	var notices []string
	for i := 0; i < len(ts); i++ {
		for _, l := range e.fkeys.in[ts[i]] {
			if slices.Contains(ts, l.child) {
				continue
			}
			if !cascade {
				name := ts[i].name
				if i < len(names) && names[i] != "" {
					name = names[i]
				}
				return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint").
					WithDetail("Table %q references %q.", l.child.name, name).
					WithHint("Truncate table %q at the same time, or use TRUNCATE ... CASCADE.", l.child.name)
			}
			if l.child.def.ChangeStream {
				continue
			}
			ts = append(ts, l.child)
			notices = append(notices, fmt.Sprintf("truncate cascades to table %q", l.child.name))
		}
	}
	return ts, notices, nil
}

// colsByName returns the positions of the named columns in def.
func colsByName(def *sql.CreateTable, names []string) ([]int, bool) {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = slices.IndexFunc(def.Cols, func(c sql.ColumnDef) bool { return c.Name == n })
		if out[i] < 0 {
			return nil, false
		}
	}
	return out, true
}
