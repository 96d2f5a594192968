package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TYPE | DOMAIN … RENAME TO and SET SCHEMA of a type that the
// statements of aggregates and operators name (their argument types, an
// aggregate's state type): PostgreSQL's hold the type's oid. Here each is
// kept under its signature, which prints the type's name, as the
// statements the store runs again at open: those are written again with
// the new name and kept under the new signature; the views' records of
// what they use follow.

// keptTextRename is an aggregate or an operator whose kept statements
// name the renamed type: its key before the rename, its statements after
// it, and its key once renamed.
type keptTextRename struct {
	old, text string
	kind      RelKind
	key       func() string
}

// aggOpTypeRenames are the aggregates and operators whose statements
// name the type keyed key, with them written again under newKey; nothing
// is changed.
func (e *Engine) aggOpTypeRenames(key, newKey string) ([]keptTextRename, error) {
	var out []keptTextRename
	add := func(old string, kind RelKind, k func() string) error {
		text, ok := e.routineText[old]
		if !ok {
			return nil
		}
		renamed, n, err := sql.RenameTypeInText(text, false, key, newKey)
		if err != nil {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s: %s %s names it in a way its text does not show", key, kind, old)
		}
		if n > 0 {
			out = append(out, keptTextRename{old: old, text: renamed, kind: kind, key: k})
		}
		return nil
	}
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			if err := add(a.Signature(), KindAggregate, a.Signature); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range sortedKeys(e.opers) {
		for _, o := range e.opers[name] {
			if err := add(o.DepKey(), KindOperator, o.DepKey); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// applyAggOpTypeRenames keeps the aggregates and operators rs under
// their new keys, once the type is renamed, in the catalog and the store.
func (e *Engine) applyAggOpTypeRenames(rs []keptTextRename) error {
	for _, r := range rs {
		newKey := r.key()
		if e.store != nil && !isTemp(r.old) {
			if rr, ok := e.store.(RelationRenamer); ok {
				if err := rr.RenameRelation(r.old, newKey, r.text); err != nil {
					return err
				}
			} else {
				if err := e.store.Drop([]string{r.old}); err != nil {
					return err
				}
				if err := e.store.Create(&StoredRelation{Name: newKey, Kind: r.kind, SQL: r.text}); err != nil {
					return err
				}
			}
		}
		delete(e.routineText, r.old)
		e.routineText[newKey] = r.text
		if newKey == r.old {
			continue
		}
		if r.kind == KindAggregate {
			if err := e.moveObjectComments(r.old, newKey, "routine"); err != nil {
				return err
			}
		} else if err := e.moveObjectComments(strings.TrimPrefix(r.old, "operator "), strings.TrimPrefix(newKey, "operator "), "operator"); err != nil {
			return err
		}
		for v, deps := range e.deps {
			if i := slices.Index(deps, r.old); i >= 0 {
				deps = slices.Clone(deps)
				deps[i] = newKey
				slices.Sort(deps)
				e.deps[v] = deps
			}
		}
	}
	return nil
}
