package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// The views that use a domain ALTER DOMAIN … RENAME TO renames: one that
// reaches it only through a routine it calls (whose signature names the
// domain, and which the rename keys anew) keeps its text, which does not
// name the domain, and follows, as PostgreSQL's; one whose text names
// it is refused, as its text would have to be written again.

// domainTextViews are the views using the domain keyed key whose texts
// name it (or might: a text the rename cannot read is counted), sorted.
func (e *Engine) domainTextViews(key, newKey string) []string {
	var out []string
	for _, v := range e.domainViews(key) {
		_, text, _, ok := e.readerText(v)
		if !ok {
			out = append(out, v)
			continue
		}
		if _, n, err := sql.RenameTypeInText(text, false, key, newKey); err != nil || n > 0 {
			out = append(out, v)
		}
	}
	return out
}

// renameDomainViews records the views' uses of the domain keyed key
// under newKey, each in a new slice (a transaction block's image keeps
// the one it had).
func (e *Engine) renameDomainViews(key, newKey string) {
	for v, ds := range e.domains.views {
		if i := slices.Index(ds, key); i >= 0 {
			ds = slices.Clone(ds)
			ds[i] = newKey
			e.domains.views[v] = ds
		}
	}
}
