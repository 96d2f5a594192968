package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TYPE … RENAME TO of an enum or a range type keeps the triggers'
// WHEN conditions and the policies' expressions that name it, as
// PostgreSQL's, which hold its oid: their texts are written again under
// the new name (their bound forms hold the type itself, which follows).
// The composite and range types over it are recorded again, as the
// store keeps them by their attributes' and subtypes' names.

// typeRenameTexts adds to ed the triggers, policies, composite and range
// types the rename r changes; rewrite rewrites an expression's text in
// place (false when it does not name the type) and records its error.
func (e *Engine) typeRenameTexts(r enumRename, ed *enumRenameEdits, rewrite func(x expr.Expr, text *string, what string) bool) error {
	ed.triggers, ed.policies = map[*trigger]*trigger{}, map[*policy]*policy{}
	for _, table := range sortedKeys(e.triggers) {
		for _, tr := range e.triggers[table] {
			cp := *tr
			if !rewrite(tr.when, &cp.whenSQL, "trigger "+tr.name+" on table "+table) {
				continue
			}
			// The statement's WHEN is the only place it can name a type.
			text, _, err := sql.RenameTypeInText(cp.text, false, r.key, r.newKey)
			if err != nil {
				return pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … RENAME of type %s is not supported: trigger %s on table %s names it in a way its text does not show", r.key, tr.name, table)
			}
			cp.text = text
			ed.triggers[tr] = &cp
		}
	}
	for _, table := range sortedKeys(e.rls) {
		for _, p := range e.rls[table].policies {
			cp := *p
			what := "policy " + p.Name + " on table " + table
			u := rewrite(nil, &cp.Using, what)
			c := rewrite(nil, &cp.Check, what)
			if u || c {
				ed.policies[p] = &cp
			}
		}
	}
	for _, cn := range sortedKeys(e.composites) {
		if slices.ContainsFunc(e.composites[cn].Attrs, func(a sql.ColumnDef) bool { return r.uses(a.Type) }) {
			ed.composites = append(ed.composites, cn)
		}
	}
	ed.ranges = e.rangesOver(r)
	var err error
	ed.indexes, err = e.typeRenameIndexes(r)
	return err
}

// applyTypeRenameTexts keeps what typeRenameTexts wrote, in the catalog
// and the store.
func (e *Engine) applyTypeRenameTexts(ed *enumRenameEdits) error {
	for was, now := range ed.triggers {
		// In place: a block's image copies triggers whole.
		*was = *now
		if err := e.storeTrigger(was, true); err != nil {
			return err
		}
	}
	for table, rl := range e.rls {
		changed := false
		cp := *rl
		cp.policies = slices.Clone(rl.policies)
		for i, p := range cp.policies {
			if now := ed.policies[p]; now != nil {
				cp.policies[i] = now
				changed = true
			}
		}
		if !changed {
			continue
		}
		e.rls[table] = &cp
		for _, p := range cp.policies {
			if slices.ContainsFunc(rl.policies, func(q *policy) bool { return ed.policies[q] == p }) {
				if err := e.storePolicy(p, p.storeName()); err != nil {
					return err
				}
			}
		}
	}
	if err := e.applyTypeRenameIndexes(ed.indexes); err != nil {
		return err
	}
	for _, cn := range ed.composites {
		if err := e.saveComposite(cn, e.composites[cn]); err != nil {
			return err
		}
	}
	for _, rn := range ed.ranges {
		if t, ok := e.userTypes[rn]; ok {
			if err := e.saveType(rn, t); err != nil {
				return err
			}
		}
	}
	return nil
}
