package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// alterTable runs ALTER TABLE: the table's rows are checked against its
// new definition (NOT NULL, CHECK, keys: 23502, 23514, 23505) before
// anything changes, then recorded in the store, then taken over.
//
// A change of constraints or defaults alters the table in place: its rows
// do not change, and the views that read it are untouched. A change of
// its columns or its name (ADD, DROP, RENAME, TYPE) builds the table
// anew, and the materialized views that read it are built again after it
// when they do not read what changed (alter_views.go), and its indexes
// are made again (alter_index.go); DROP COLUMN …
// CASCADE drops the views that read the column first. The table's
// triggers follow it (trigger_alter.go).
func (e *Engine) alterTable(a *sql.AlterTable) (Result, error) {
	res := Result{Tag: "ALTER TABLE", Notices: a.Notices}
	if a.Tag != "" {
		res.Tag = a.Tag
	}
	if a.Table == "" {
		return res, nil
	}
	t, ok := e.tables[a.Table]
	if !ok && e.parts[a.Table] != nil {
		// What the binder lets through of a partition's ALTER leaves it
		// as it is (sql.checkPartitionAlter).
		return res, nil
	}
	if !ok {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "cannot alter system view %q", a.Table)
	}
	if t.temp && a.New != nil && !isTemp(a.New.Name) {
		// A temporary table's definition names it by the session's
		// name; the engine keys it in the session's schema, where a
		// RENAME TO keeps it (alterTemp).
		alt, nd := *a, *a.New
		nd.Name, alt.New = a.Table, &nd
		a = &alt
	}
	if e.renamesMember(a) {
		return e.alterRenamedMember(a)
	}
	parts, err := e.alteredPartitions(t, a)
	if err != nil {
		return Result{}, err
	}
	inhNotices, err := e.inheritAlter(a)
	if err != nil {
		return Result{Notices: inhNotices}, err
	}
	res.Notices = append(res.Notices, inhNotices...)
	var cascade []string  // views DROP COLUMN … CASCADE drops, once the rows pass
	var dropRules []*rule // and rules (rule_alter.go)
	var readers *alterReaders
	if a.Columns {
		var err error
		if readers, err = e.alteredReaders(t, a); err != nil {
			return Result{}, err
		}
		if readers != nil {
			cascade = readers.cascade
		}
		var ruleNotes []string
		var ok bool
		if dropRules, ruleNotes, ok, err = e.ruleAlter(t, a); err != nil {
			return Result{}, err
		}
		if !ok {
			if err := e.refuseRuleAlter(a.Table); err != nil {
				return Result{}, err
			}
		}
		res.Notices = append(res.Notices, ruleNotes...)
		if e.hasRowSecurity(a.Table) {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot change the columns or the name of table %q: it has row-level security", a.Table).
				WithHint("DROP POLICY and ALTER TABLE … DISABLE ROW LEVEL SECURITY, alter the table, then set them again")
		}
	}
	var trig *triggerChange // the triggers, which follow the table
	if t.trig != nil && a.Columns {
		var err error
		if trig, err = e.alteredTriggers(t, a); err != nil {
			return Result{}, err
		}
	}
	if !a.Columns {
		if lost := lostKey(t, a.New); lost != "" {
			if deps := e.dependentsIndex()[a.Table]; len(deps) > 0 {
				// A view's plan may rest on the key (a GROUP BY over it
				// reads the table's other columns), as in PostgreSQL.
				return Result{}, &pgerr.Error{Code: pgerr.DependentObjects,
					Message: fmt.Sprintf("cannot drop constraint %s on table %s because other objects depend on it", lost, a.Table),
					Detail:  fmt.Sprintf("%s %s depends on table %s", e.kindName(deps[0]), deps[0], a.Table),
					Hint:    "drop the views that read the table first"}
			}
		}
	}
	if err := e.clusterOnCheck(t, a); err != nil {
		return Result{}, err
	}
	moved, err := e.moveOwned(a)
	if err != nil {
		return Result{}, err
	}
	owned, err := e.alterOwned(t, a)
	if err != nil {
		moved.undo(e)
		return Result{}, err
	}
	res, err = e.alterRows(t, a, res, cascade)
	if err != nil {
		owned.undo(e)
		moved.undo(e)
		return Result{}, err
	}
	if err := parts.apply(e, t, e.tables[a.New.Name]); err != nil {
		return Result{}, err
	}
	if err := e.removeRules(dropRules); err != nil {
		return Result{}, err
	}
	if a.Cluster != nil {
		e.tables[a.New.Name].clustered = *a.Cluster
	}
	if trig != nil {
		res.Notices = append(res.Notices, trig.notices...)
		if err := trig.apply(e, a); err != nil {
			return Result{}, err
		}
	}
	if a.Columns {
		if err := e.statsAfterAlter(t, a); err != nil {
			return res, err
		}
	}
	if err := e.applyMoved(readers, a.Table, a.New.Name); err != nil {
		return res, err
	}
	if err := e.applyRenamed(readers); err != nil {
		return res, err
	}
	if e.inheritRecursing {
		readers = nil // the ALTER of the descendants' ancestor builds them once (inherit_alter.go)
	}
	notices, err := e.rebuildReaders(readers, a.New.Name)
	res.Notices = append(res.Notices, notices...)
	if err != nil {
		return res, err
	}
	if a.Columns && len(e.inherits) > 0 && !e.inheritRecursing {
		// The views over the table's parents read its rows, now wider.
		notices, err := e.rebuildInheritReaders(e.parentsOf(a.New.Name))
		res.Notices = append(res.Notices, notices...)
		if err != nil {
			return res, err
		}
	}
	if err := moved.done(e); err != nil {
		return res, err
	}
	return res, owned.done(e)
}

// alterRows builds the table's rows under its new definition, checks
// them, records them in the store and takes the new table over.
func (e *Engine) alterRows(t *table, a *sql.AlterTable, res Result, cascade []string) (Result, error) {
	fillDropped(a.New)
	next := newTable(a.New)
	next.temp = t.temp
	var err error
	t.scan(func(id uint64, row value.Row) bool {
		nr := row
		if a.Columns {
			nr = make(value.Row, len(a.Map))
			for i, o := range a.Map {
				switch {
				case o >= 0 && a.Cast[i] != nil:
					if nr[i], err = a.Cast[i].Eval(row); err != nil {
						return false
					}
				case o >= 0:
					nr[i] = row[o]
				case a.Fill[i] != nil:
					if nr[i], err = a.Fill[i].Eval(nil); err != nil {
						return false
					}
				default:
					nr[i] = value.Null
				}
			}
			// A column added GENERATED, or one read by an expression
			// whose type changed, is computed over the new row.
			if err = next.generate(nr); err != nil {
				return false
			}
		}
		if err = alterDomainCheck(t, next, a, nr); err != nil {
			return false
		}
		if err = alterCheck(t, next, nr); err != nil {
			return false
		}
		if err = alterExclusions(next, nr); err != nil {
			return false
		}
		next.put(id, nr)
		return true
	})
	if err == nil {
		err = next.duplicatedKey()
	}
	if err != nil {
		return Result{}, err
	}
	if err := e.alterForeignKeys(t, next, a); err != nil {
		return Result{}, err
	}
	var indexes *indexRebuild
	if a.Columns {
		if indexes, err = e.alteredIndexes(t, next, a); err != nil {
			return Result{}, err
		}
	}
	notices, err := e.dropCascaded(res.Notices, cascade)
	if err != nil {
		return Result{}, err
	}
	res.Notices = notices
	e.pruneGrants()
	if err := indexes.forget(e); err != nil {
		return Result{}, err
	}
	if e.store != nil && !t.temp {
		r := &StoredRelation{Name: a.New.Name, Kind: KindTable, SQL: a.New.SQL(), Cols: next.cols}
		if err := e.store.Alter(a.Table, r, next.putAll); err != nil {
			return Result{}, err
		}
	}
	if !a.Columns {
		// In place: the views keep the table they read.
		t.def = a.New
		uniques := make([]*uniqueIndex, 0, len(next.uniques))
		for _, u := range next.uniques {
			fresh := newUniqueIndex(u.name, u.cols, u.primary, a.New)
			if u.x != nil {
				fresh.extend(u.x)
			}
			fresh.deferLike(u)
			var arr [64]byte
			t.scan(func(id uint64, row value.Row) bool {
				if k, ok := fresh.key(row, arr[:0]); ok {
					fresh.set(k, id, row)
				}
				return true
			})
			uniques = append(uniques, fresh)
		}
		for _, ix := range t.indexes {
			if ix.unique != nil {
				uniques = append(uniques, ix.unique)
			}
		}
		t.uniques = uniques
		t.dkeys = next.dkeys[:0:0]
		for _, u := range uniques {
			if u.deferrable {
				t.dkeys = append(t.dkeys, u)
			}
		}
		e.noteDeferrable(t)
		t.excl = next.excl                 // built under the same ids
		t.prefixes, t.keyOrders = nil, nil // rebuilt on their next use
		e.linkForeignKeys()
		return res, nil
	}
	next.nextID = max(next.nextID, t.nextID)
	delete(e.tables, a.Table)
	e.tables[a.New.Name] = next
	e.noteDeferrable(next)
	next.trig = t.trig
	t.succ = next
	if err := e.renameComments(t, a); err != nil {
		return Result{}, err
	}
	if err := e.moveOwner(a.Table, a.New.Name); err != nil {
		return Result{}, err
	}
	if err := e.alterColumnGrants(t, a); err != nil {
		return Result{}, err
	}
	if a.New.Name != a.Table {
		e.renameGrants(a.Table, a.New.Name)
		if err := e.moveRowTypeACL(a.Table, a.New.Name); err != nil {
			return Result{}, err
		}
	}
	e.read, e.waves = nil, nil
	e.linkForeignKeys()
	return res, indexes.register(e, next)
}

// alterCheck checks a row of a table being altered against its new
// definition, with PostgreSQL's messages for ALTER TABLE. A check of
// old's that calls a user function and is kept as it was is not checked
// again, as PostgreSQL checks only new constraints: the function may
// have been replaced since.
func alterCheck(old, t *table, row value.Row) error {
	for i, c := range t.def.Cols {
		if c.NotNull && row[i].IsNull() {
			return pgerr.New(pgerr.NotNullViolation, "column %q of relation %q contains null values", c.Name, t.name)
		}
	}
	for _, ch := range t.def.Checks {
		if ch.NotValid || keptTableCallCheck(old, ch) { // the rows there are stay unchecked until VALIDATE CONSTRAINT
			continue
		}
		v, err := ch.Expr.Eval(row)
		if err != nil {
			return err
		}
		if !v.IsNull() && !v.Bool() {
			return pgerr.New(pgerr.CheckViolation, "check constraint %q of relation %q is violated by some row", ch.Name, t.name)
		}
	}
	if u, _, dup := t.conflict(row); dup {
		names := make([]string, len(u.cols))
		vals := make([]string, len(u.cols))
		for i, c := range u.cols {
			names[i] = t.def.Cols[c].Name
			vals[i] = row[c].String()
		}
		return &pgerr.Error{Code: pgerr.UniqueViolation, Message: fmt.Sprintf("could not create unique index %q", u.name),
			Detail: fmt.Sprintf("Key (%s)=(%s) is duplicated.", strings.Join(names, ", "), strings.Join(vals, ", "))}
	}
	return nil
}

// kindName names the kind of relation name is, as DROP's messages do.
func (e *Engine) kindName(name string) string {
	k, _ := e.kindOf(name)
	return e.kindNameOf(k)
}

func (e *Engine) kindNameOf(k sql.DropKind) string {
	return map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}[k]
}

// lostKey names a primary key or UNIQUE constraint of t that def no
// longer has, or returns "".
func lostKey(t *table, def *sql.CreateTable) string {
	if t.def.PrimaryKey != nil && !slices.Equal(t.def.PrimaryKey, def.PrimaryKey) {
		return t.def.KeyName(-1)
	}
	for i, u := range t.def.Uniques {
		if !slices.ContainsFunc(def.Uniques, func(v []int) bool { return slices.Equal(u, v) }) {
			return t.def.KeyName(i)
		}
	}
	return ""
}
