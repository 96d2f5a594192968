package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The casts that ALTER TYPE | DOMAIN … RENAME TO and SET SCHEMA change:
// PostgreSQL's pg_cast holds the types' and the function's oids, so its
// casts follow the rename. Here a cast is keyed by its types' names and
// names its function by signature, which prints its parameters' types: a
// cast from or to the type, or calling a routine the rename keys anew,
// is keyed anew, its statement (kept in the store under its key) written
// again with the type's new name, and the views' records of their uses
// of it follow.

// castTypeRename is one cast the rename changes: c as it is, g as it
// becomes.
type castTypeRename struct {
	c, g *sql.UserCast
	// fn is the routine the cast calls when the rename keys it anew: its
	// new signature prints the type's new name once the type has it.
	fn *routineTypeRename
}

// castTypeRenames are the casts that name the type keyed key, by their
// types or by the routines routines keys anew, written again under
// newKey; nothing is changed.
func (e *Engine) castTypeRenames(key, newKey string, routines []routineTypeRename) ([]castTypeRename, error) {
	fns := map[string]*routineTypeRename{}
	for i := range routines {
		fns[routines[i].sig] = &routines[i]
	}
	var out []castTypeRename
	for _, c := range e.sortedCasts() {
		g := *c
		if g.Source == key {
			g.Source = newKey
		}
		if g.Target == key {
			g.Target = newKey
		}
		fn := fns[c.FuncSig]
		if c.Builtin != nil {
			fn = nil
		}
		if g.Source == c.Source && g.Target == c.Target && fn == nil {
			continue
		}
		if c.Text != "" {
			text, n, err := sql.RenameTypeInText(c.Text, false, key, newKey)
			if err != nil || n == 0 {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s: %s names it in a way its statement does not show", key, c.Describe()).
					WithHint("drop the cast, rename the type, then create it again")
			}
			g.Text = text
		}
		if k := [2]string{g.Source, g.Target}; e.casts[k] != nil {
			return nil, pgerr.New(pgerr.DuplicateObject, "cast from type %s to type %s already exists", g.Source, g.Target)
		}
		out = append(out, castTypeRename{c: c, g: &g, fn: fn})
	}
	return out, nil
}

// applyCastTypeRenames keys the casts cs anew, once the type is renamed,
// in the catalog, the store and the views' records of what they use.
func (e *Engine) applyCastTypeRenames(cs []castTypeRename) error {
	moves := map[string]string{}
	for _, r := range cs {
		if r.fn != nil {
			r.g.FuncSig = r.fn.g.Signature()
		}
		oldKey, newKey := r.c.DepKey(), r.g.DepKey()
		if e.store != nil && r.g.Text != "" && !isTemp(r.c.Source) && !isTemp(r.c.Target) {
			if rr, ok := e.store.(RelationRenamer); ok {
				if err := rr.RenameRelation(oldKey, newKey, r.g.Text); err != nil {
					return err
				}
			} else {
				if err := e.store.Drop([]string{oldKey}); err != nil {
					return err
				}
				if err := e.store.Create(&StoredRelation{Name: newKey, Kind: KindCast, SQL: r.g.Text}); err != nil {
					return err
				}
			}
		}
		delete(e.casts, [2]string{r.c.Source, r.c.Target})
		if oldKey != newKey {
			moves[oldKey] = newKey
		}
	}
	for _, r := range cs {
		e.casts[[2]string{r.g.Source, r.g.Target}] = r.g
	}
	e.rekeyRoutineCalls(moves)
	return nil
}
