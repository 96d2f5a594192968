package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TYPE … RENAME VALUE of a label that a row-level security policy's
// expressions or an index's expressions and predicate write: PostgreSQL
// keeps them as trees holding the label's oid, so pg_policies and
// pg_indexes show the new label. Here a policy keeps its expressions'
// texts only, bound at each statement: the constants that read as the
// label are told, before the rename, by binding the expression with one
// constant written as a text no label has (as enumLabelViews does for
// views). An index's bound expressions hold the label itself and follow;
// its texts are written again. A text whose string constants of that
// spelling are not all the label's, or all texts, is refused (0A000).

// labelPolicies are, for RENAME VALUE r, the policies whose texts name
// the label, with those texts written again (in a copy of the policy).
// It binds the policies' expressions, so it runs before the rename.
func (e *Engine) labelPolicies(r enumRename) (map[*policy]*policy, error) {
	if !r.value() {
		return nil, nil
	}
	out := map[*policy]*policy{}
	d := r.t.Enum()
	probe := r.from + "\x01"
	want := pgerr.New(pgerr.InvalidTextRep, "invalid input value for enum %s: %q", d.Name, probe).Message
	for _, table := range sortedKeys(e.rls) {
		for _, p := range e.rls[table].policies {
			cp := *p
			changed := false
			for _, text := range []*string{&cp.Using, &cp.Check} {
				if *text == "" {
					continue
				}
				st, err := sql.Parse("SELECT FROM " + quoteKey(table) + " WHERE " + *text)
				if err != nil {
					return nil, e.refuseLabelText(r, "policy "+p.Name+" on table "+table)
				}
				_, n := sql.RenameStringConsts(st, r.from, r.to, nil)
				labels := 0
				for i := range n {
					probed, _ := sql.RenameStringConsts(st, r.from, probe, func(j int) bool { return j == i })
					_, err := sql.BindQuery(&recorder{cat: e, seen: map[string]bool{}}, probed, false)
					if pgerr.Code(err) == pgerr.InvalidTextRep && pgerr.Wrap(err).Message == want {
						labels++
					}
				}
				if labels == 0 {
					continue
				}
				out, m, err := sql.RenameStringInText(*text, true, r.from, r.to)
				if err != nil || labels != n || m != n {
					return nil, e.refuseLabelText(r, "policy "+p.Name+" on table "+table)
				}
				*text, changed = out, true
			}
			if changed {
				out[p] = &cp
			}
		}
	}
	return out, nil
}

// labelIndexes writes again the indexes of tables and materialized views
// whose expressions or predicate hold the label RENAME VALUE r renamed;
// it runs after the rename, when their bound constants read as the new
// label.
func (e *Engine) labelIndexes(r enumRename) ([]typeRenamedIndex, error) {
	var out []typeRenamedIndex
	err := e.eachIndex(func(x typeRenamedIndex) error {
		refuse := e.refuseLabelText(r, "index "+x.name())
		_, total, err := sql.RenameStringInText(x.text, false, r.from, r.to)
		switch {
		case err != nil || x.def == nil && total > 0:
			return refuse
		case total == 0:
			return nil
		}
		def := *x.def
		def.KeySQL, def.WhereConj = slices.Clone(def.KeySQL), slices.Clone(def.WhereConj)
		labels := 0
		// rewrite writes a text again when its constants of that
		// spelling are all the label's bound constants in its
		// expression, consts of them, and none is an array's.
		rewrite := func(text *string, consts, arrays int) bool {
			if *text == "" {
				return true
			}
			s, n, err := sql.RenameStringInText(*text, true, r.from, r.to)
			switch {
			case err != nil || arrays > 0 || n != consts && consts > 0:
				return false
			case consts > 0:
				*text = s
			}
			return true
		}
		if def.Where != nil {
			k := countLabelConsts(def.Where, r.t, r.to)
			labels += k
			if !rewrite(&def.WhereSQL, k, countLabelArrays(def.Where, r.t, r.to)) {
				return refuse
			}
			for i := range def.WhereConj {
				if k > 0 { // the predicate's constants are all the label's
					def.WhereConj[i], _, _ = sql.RenameStringInText(def.WhereConj[i], true, r.from, r.to)
				}
			}
		}
		for i, xe := range def.Exprs {
			if xe == nil || i >= len(def.KeySQL) {
				continue
			}
			k := countLabelConsts(xe, r.t, r.to)
			labels += k
			if !rewrite(&def.KeySQL[i], k, countLabelArrays(xe, r.t, r.to)) {
				return refuse
			}
		}
		if labels == 0 {
			return nil
		}
		text, n, _ := sql.RenameStringInText(x.text, false, r.from, r.to)
		if n != labels {
			return refuse
		}
		x.text, x.def = text, &def
		out = append(out, x)
		return nil
	})
	return out, err
}

func (e *Engine) refuseLabelText(r enumRename, what string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … RENAME VALUE of type %s is not supported: %s names the label in a way its text does not show", r.key, what).
		WithHint("drop it, rename the label, and create it again")
}
