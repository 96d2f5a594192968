package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// renameTrigger runs ALTER TRIGGER … ON table RENAME TO: the trigger is
// renamed in place (a transaction block's image keeps a copy of it), its
// statement in the store and its comment follow, and its table's
// triggers fire in the order of their new names, as PostgreSQL's do.
func (e *Engine) renameTrigger(a *sql.RenameTrigger) (Result, error) {
	list := e.triggers[a.Table]
	i := triggerIndex(list, a.Name)
	if i < 0 {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "trigger %q for table %q does not exist", a.Name, e.bareName(a.Table))
	}
	if triggerIndex(list, a.NewName) >= 0 {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "trigger %q for relation %q already exists", a.NewName, e.bareName(a.Table))
	}
	if e.parts[a.Table] != nil || e.tables[a.Table] != nil && e.tables[a.Table].def.PartitionBy != nil {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER TRIGGER … RENAME TO of a trigger of a partitioned table or a partition is not supported").
			WithHint("drop the trigger and create it again under its new name")
	}
	tr := list[i]
	text, err := sql.RenamedTrigger(tr.text, a.NewName)
	if err != nil {
		return Result{}, err
	}
	if e.store != nil && !isTemp(tr.table) {
		if err := e.store.Drop([]string{tr.storeName()}); err != nil {
			return Result{}, err
		}
	}
	tr.name, tr.text = a.NewName, text
	if err := e.storeTrigger(tr, false); err != nil {
		return Result{}, err
	}
	key := commentKey("trigger", a.Table)
	if c, ok := e.comments[key][a.Name]; ok {
		m := maps.Clone(e.comments[key])
		delete(m, a.Name)
		m[a.NewName] = c
		if err := e.setComments(key, m); err != nil {
			return Result{}, err
		}
	}
	l := slices.Clone(list)
	slices.SortFunc(l, func(a, b *trigger) int { return strings.Compare(a.name, b.name) })
	e.triggers[a.Table] = l
	e.linkTriggers()
	return Result{Tag: "ALTER TRIGGER"}, nil
}
