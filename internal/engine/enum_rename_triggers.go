package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TYPE … RENAME VALUE of a label a trigger's WHEN holds: its bound
// condition holds the label itself and follows; its texts (the condition
// and the CREATE TRIGGER statement) are written again with the new label
// when the statement's string constants of that spelling are exactly the
// condition's that read as the label, and the rename is refused (0A000)
// otherwise.

// labelRenameTriggers adds to ed the triggers whose WHEN holds the label
// r renames; rewrite rewrites a condition's text in place.
func (e *Engine) labelRenameTriggers(r enumRename, ed *enumRenameEdits, rewrite func(x expr.Expr, text *string, what string) bool) error {
	if ed.triggers == nil {
		ed.triggers = map[*trigger]*trigger{}
	}
	for _, table := range sortedKeys(e.triggers) {
		for _, tr := range e.triggers[table] {
			cp := *tr
			what := "trigger " + tr.name + " on table " + table
			if tr.when == nil || !rewrite(tr.when, &cp.whenSQL, what) {
				continue
			}
			_, want, _ := sql.RenameStringInText(tr.whenSQL, true, r.from, r.to)
			text, n, err := sql.RenameStringInText(cp.text, false, r.from, r.to)
			if err != nil || n != want {
				return pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … RENAME VALUE of type %s is not supported: %s names the label in a way its text does not show", r.key, what).
					WithHint("drop the trigger, rename the label, and create it again")
			}
			cp.text = text
			ed.triggers[tr] = &cp
		}
	}
	return nil
}
