package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A materialized view keeps the rows its pg_typeof calls made, which hold
// the name of the type as it was when the view was built. PostgreSQL keeps
// an oid there (a regtype) and prints the type's current name, so after
// ALTER TYPE … RENAME TO the views whose pg_typeof calls print the type's
// name are bound and built again (rebuildViews), with the views over them.

// NoteTypeof implements sql.TypeofRecorder.
func (r *recorder) NoteTypeof(name string) {
	if !slices.Contains(r.typeofs, name) {
		r.typeofs = append(r.typeofs, name)
	}
}

// NoteTypeof implements sql.TypeofRecorder.
func (v viewRecorder) NoteTypeof(name string) { v.r.NoteTypeof(name) }

// typeofReaders are the materialized views (populated or not) whose
// pg_typeof calls print the name of the type keyed key, with the views
// over them, in the order they were created; the catalog still has the
// type under key.
func (e *Engine) typeofReaders(key string) []string {
	bare := e.bareName(key)
	var names []string
	for _, name := range e.matViewNames() {
		_, text, _, ok := e.readerText(name)
		if !ok || !strings.Contains(strings.ToLower(text), "pg_typeof") {
			continue
		}
		rec := &recorder{cat: e, seen: map[string]bool{}, text: text}
		st, err := sql.Parse(text)
		if err != nil || st == nil {
			continue
		}
		if _, err := sql.Bind(rec, st); err != nil {
			continue
		}
		if slices.ContainsFunc(rec.typeofs, func(n string) bool { return printsType(n, key, bare) }) {
			names = append(names, name)
		}
	}
	return e.viewsOver(names)
}

// printsType reports whether the name pg_typeof prints is the type's
// keyed key (bare in its schema), or an array of it.
func printsType(printed, key, bare string) bool {
	n := strings.TrimSuffix(printed, "[]")
	if i := strings.LastIndexByte(n, '.'); i >= 0 && !strings.HasPrefix(n, `"`) {
		n = n[i+1:]
	}
	n = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(n, `"`), `"`), `""`, `"`)
	return n == bare || n == key
}

// matViewNames are the materialized views, populated or not.
func (e *Engine) matViewNames() []string {
	var out []string
	for name := range e.viewStmts {
		if e.views[name] != nil || e.unpopulated[name] != nil {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// refuseTypeofWatched refuses (0A000) a rename whose rebuild of names
// could not reach who watches a view: a sink, which a rebuild does not
// feed, or a subscriber inside a transaction block.
func (e *Engine) refuseTypeofWatched(key string, names []string) error {
	switch view, sink := e.watchedView(names); {
	case sink:
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s: materialized view %s, whose rows print its name, feeds a sink", key, view).
			WithHint("drop the sink, rename the type, and create the sink again")
	case view != "":
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s inside a transaction block: materialized view %s, whose rows print its name, has subscribers", key, view).
			WithHint("run the ALTER TYPE outside BEGIN … COMMIT")
	}
	return nil
}

// rebuildTypeofReaders binds again the views names (typeofs, those that
// typeofReaders named, and those calling routines keyed anew), with the
// type renamed to newKey: the populated ones are built again, the others
// keep their new plans.
func (e *Engine) rebuildTypeofReaders(newKey string, names, typeofs []string) ([]string, error) {
	var built []string
	for _, v := range names {
		if e.views[v] != nil {
			built = append(built, v)
			continue
		}
		_, text, _, _ := e.readerText(v)
		cv, err := bindReader(e, text, true)
		if err != nil {
			return nil, err
		}
		e.unpopulated[v] = cv
	}
	notices, err := e.rebuildViews(built, true, fmt.Sprintf("the renamed type %s", newKey))
	// A view built again only as it calls a routine keyed anew has the
	// rows it had: PostgreSQL's, which does not change, says nothing.
	printing := e.viewsOver(typeofs)
	notices = slices.DeleteFunc(notices, func(n string) bool {
		return slices.ContainsFunc(built, func(v string) bool {
			return !slices.Contains(printing, v) && strings.HasPrefix(n, fmt.Sprintf("materialized view %q was built again ", v))
		})
	})
	return notices, err
}
