package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A routine's body of RETURN or BEGIN ATOMIC is bound when it is created,
// and PostgreSQL's follows a type's rename by its oid; here the body is
// kept as its text, so renaming a type (an enum, a range type, a domain)
// such a body names is refused (0A000) rather than left naming a type
// that is gone. A body given as a string names types by text in
// PostgreSQL too, and stays as written.

// refuseAtomicBodyNaming refuses renaming the type keyed key to newKey
// while a RETURN or BEGIN ATOMIC body names it.
func (e *Engine) refuseAtomicBodyNaming(key, newKey string) error {
	for _, name := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[name] {
			if !f.Atomic {
				continue
			}
			sig := f.Signature()
			text, ok := e.routineText[sig]
			if !ok {
				continue
			}
			if _, n, err := sql.RenameTypeInText(text, false, key, newKey); err != nil || n > 0 {
				return pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s: %s %s names it in its body", key, routineKind(nil, f.Procedure), sig).
					WithHint("replace the routine with a body that does not name the type, rename the type, then replace it again")
			}
		}
	}
	return nil
}
