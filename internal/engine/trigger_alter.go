package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TABLE of a table with triggers keeps them, as PostgreSQL does: a
// change of the table's name or its columns' names rewrites each
// trigger's statement (sql.RewriteTrigger) and binds it again over the
// new definition, so that its UPDATE OF and WHEN read the columns where
// they now are. A column dropped that a trigger reads is 2BP01, or, with
// CASCADE, drops the trigger; a change of the type of a column a trigger
// reads is 0A000, as in PostgreSQL.

// triggerChange is what ALTER TABLE does to a table's triggers: the
// triggers it rebuilds, and those it drops.
type triggerChange struct {
	kept, dropped []*trigger
	notices       []string
}

// alteredTriggers prepares the triggers of t for its new definition a,
// before anything changes.
func (e *Engine) alteredTriggers(t *table, a *sql.AlterTable) (*triggerChange, error) {
	ch := &triggerChange{}
	rename := map[string]string{}
	typeChanged := map[string]bool{}
	for i, o := range a.Map {
		if o < 0 {
			continue
		}
		if old, now := t.cols[o].Name, a.New.Cols[i].Name; old != now {
			rename[old] = now
		}
		if i < len(a.Cast) && a.Cast[i] != nil {
			typeChanged[t.cols[o].Name] = true
		}
	}
	next := newTable(a.New)
	cat := alterCatalog{Engine: e, name: a.New.Name, rel: &sql.Relation{Name: a.New.Name, Kind: sql.KindTable, Cols: next.cols, Def: a.New}, old: a.Table}
	for _, tr := range t.trig {
		cols, err := sql.TriggerColumns(tr.text)
		if err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(cols, func(c string) bool { return slices.Contains(a.Dropped, c) }); i >= 0 {
			if !a.Cascade {
				return nil, &pgerr.Error{Code: pgerr.DependentObjects,
					Message: fmt.Sprintf("cannot drop column %s of table %s because other objects depend on it", cols[i], a.Table),
					Detail:  fmt.Sprintf("trigger %s on table %s depends on column %s of table %s", tr.name, a.Table, cols[i], a.Table),
					Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
			}
			ch.dropped = append(ch.dropped, tr)
			ch.notices = append(ch.notices, fmt.Sprintf("drop cascades to trigger %s on table %s", tr.name, a.Table))
			continue
		}
		if i := slices.IndexFunc(cols, func(c string) bool { return typeChanged[c] }); i >= 0 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of a column used in a trigger definition").
				WithDetail("trigger %s on table %s depends on column %q", tr.name, a.Table, cols[i])
		}
		text, err := sql.RewriteTrigger(tr.text, a.New.Name, rename)
		if err != nil {
			return nil, err
		}
		st, err := sql.Parse(text)
		if err != nil {
			return nil, err
		}
		if len(e.schemas) > 0 {
			// Its function's name, qualified by a schema, to its key.
			if st, err = sql.QualifyNames(st, nameScope{e: e, path: defaultPath, restoring: true}); err != nil {
				return nil, err
			}
		}
		b, err := sql.Bind(&recorder{cat: cat, seen: map[string]bool{}}, st)
		if err != nil {
			return nil, err
		}
		ct := b.(*sql.CreateTrigger)
		nt := *tr
		nt.table, nt.cols, nt.when, nt.whenSQL, nt.text = ct.Table, ct.Cols, ct.When, ct.WhenSQL, text
		ch.kept = append(ch.kept, &nt)
	}
	return ch, nil
}

// apply takes the triggers over once the table is altered: the store
// keeps each under its table's new name.
func (ch *triggerChange) apply(e *Engine, a *sql.AlterTable) error {
	if err := e.removeTriggers(ch.dropped); err != nil {
		return err
	}
	if e.store != nil && !isTemp(a.Table) {
		var names []string
		for _, tr := range e.triggers[a.Table] {
			names = append(names, tr.storeName())
		}
		if err := e.store.Drop(names); err != nil {
			return err
		}
	}
	delete(e.triggers, a.Table)
	for _, tr := range ch.kept {
		if err := e.storeTrigger(tr, false); err != nil {
			return err
		}
	}
	if len(ch.kept) > 0 {
		e.triggers[a.New.Name] = ch.kept
	}
	e.linkTriggers()
	return nil
}

// alterCatalog is the engine's catalog with a table as ALTER TABLE makes
// it, under its new name.
type alterCatalog struct {
	*Engine
	name, old string
	rel       *sql.Relation
}

// Relation implements sql.Catalog.
func (c alterCatalog) Relation(name string) (*sql.Relation, bool) {
	switch name {
	case c.name:
		return c.rel, true
	case c.old:
		return nil, false
	}
	return c.Engine.Relation(name)
}
