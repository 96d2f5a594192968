package engine

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ALTER TYPE | DOMAIN … RENAME TO and SET SCHEMA of a type that routines'
// parameters or results name: PostgreSQL's routines hold the type's oid,
// so \df shows the new name and calls resolve as before. Here a routine
// is keyed by its signature, which prints its parameters' types: the
// routine's statements (its CREATE and the ALTERs, GRANTs after it, kept
// in the store under its signature) are written again with the type's new
// name, and the routine is keyed anew. A body given as a string is kept
// as written, as PostgreSQL keeps it: one naming the old type fails when
// called, as there. The calls that views, defaults and checks make of it
// follow (routine_type_rename_calls.go), and so do the casts that call
// it (cast_type_rename.go).

// routineTypeRename is one routine whose statements name the renamed
// type: its signature before the rename and its statements after it.
type routineTypeRename struct {
	f    *sql.Function
	sig  string
	text string
	// g is f with its CREATE statement (which a PL/pgSQL routine is
	// compiled from) written again, put in f's place.
	g *sql.Function
	// atomic marks a BEGIN ATOMIC or RETURN body that names the type: it
	// is bound again from text once the type has its new name.
	atomic bool
}

// routineTypeRenames are the routines that name, in a parameter or a
// result, the type keyed key that names tells, with their statements
// written again under newKey; nothing is changed.
func (e *Engine) routineTypeRenames(key, newKey string, names func(p sql.FuncParam) bool, result func(f *sql.Function, i int) bool) ([]routineTypeRename, error) {
	var out []routineTypeRename
	for _, name := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[name] {
			named := slices.ContainsFunc(f.Params, names)
			for i := range f.Cols {
				named = named || result(f, i)
			}
			sig := f.Signature()
			// A result of the type's fields (RETURNS SETOF it) names it in
			// its result's type names, which are written again below.
			named = named || slices.ContainsFunc(f.ColTypes, func(tn *pg_query.TypeName) bool { return namesKey(tn, key) })
			// A body bound at CREATE holds the type, as PostgreSQL's holds
			// its oid: the body is bound again under the new name.
			atomic := false
			if text, ok := e.routineText[sig]; ok && atomicBody(f, text) {
				_, n, err := sql.RenameTypeInText(text, false, key, newKey)
				atomic = err != nil || n > 0
			}
			named = named || atomic
			if !named {
				continue
			}
			g := *f
			g.Compiled = nil
			for _, src := range []*string{&g.SQL, &g.PLSQL} {
				if *src == "" {
					continue
				}
				renamed, _, err := sql.RenameTypeInText(*src, false, key, newKey)
				if err != nil {
					return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s: %s %s names it in a way its text does not show", key, routineKind(nil, f.Procedure), sig)
				}
				*src = renamed
			}
			// A call casts its arguments to the parameters' type names,
			// and its result to the result's.
			g.Params, g.ColTypes = slices.Clone(f.Params), slices.Clone(f.ColTypes)
			for i, p := range g.Params {
				if names(p) && p.TypeName != nil {
					g.Params[i].TypeName = renamedTypeName(p.TypeName, newKey)
				}
			}
			for i, tn := range g.ColTypes {
				if namesKey(tn, key) {
					g.ColTypes[i] = renamedTypeName(tn, newKey)
				}
			}
			if g.RowOfFields && g.Body != nil && len(g.Body.TargetList) > 0 && len(g.ColTypes) > 0 {
				// The body's fields are made the row by a cast to the
				// result's type name (rowOfFields), which follows it.
				body := proto.Clone(g.Body).(*pg_query.SelectStmt)
				if tc := body.TargetList[0].GetResTarget().GetVal().GetTypeCast(); tc != nil {
					tc.TypeName = g.ColTypes[0]
				}
				g.Body = body
			}
			r := routineTypeRename{f: f, sig: sig, g: &g, atomic: atomic}
			if text, ok := e.routineText[sig]; ok {
				renamed, n, err := sql.RenameTypeInText(text, false, key, newKey)
				if err != nil || n == 0 {
					return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s: %s %s names it in a way its text does not show", key, routineKind(nil, f.Procedure), sig)
				}
				r.text = renamed
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// putRoutineTypeRenames puts the routines rs, written again, in their
// places, so that what binds while the type is renamed calls them with
// the type's new name; the returned func puts back those they replaced.
func (e *Engine) putRoutineTypeRenames(rs []routineTypeRename) (undo func()) {
	before := map[string][]*sql.Function{}
	for _, r := range rs {
		fns := e.funcs[r.f.Name]
		if _, ok := before[r.f.Name]; !ok {
			before[r.f.Name] = fns
		}
		// A copy: a transaction block's image keeps the routine it had.
		fns = slices.Clone(fns)
		if i := slices.Index(fns, r.f); i >= 0 {
			fns[i] = r.g
			e.funcs[r.f.Name] = fns
		}
	}
	return func() {
		for name, fns := range before {
			e.funcs[name] = fns
		}
	}
}

// applyRoutineTypeRenames keys the routines rs anew once the type is
// renamed, and keeps their statements, in the catalog and the store.
func (e *Engine) applyRoutineTypeRenames(rs []routineTypeRename) error {
	moves := map[string]string{}
	for _, r := range rs {
		if newSig := r.g.Signature(); newSig != r.sig {
			moves[r.sig] = newSig
		}
	}
	e.rekeyRoutineCalls(moves)
	e.putRoutineTypeRenames(rs)
	for _, r := range rs {
		if r.atomic {
			if err := e.rebindAtomicBody(r); err != nil {
				return err
			}
		}
	}
	for _, r := range rs {
		newSig := r.g.Signature()
		if r.text == "" {
			continue // not kept (a session's temporary routine)
		}
		if e.store != nil && !isTemp(r.sig) {
			if rr, ok := e.store.(RelationRenamer); ok {
				if err := rr.RenameRelation(r.sig, newSig, r.text); err != nil {
					return err
				}
			} else {
				if err := e.store.Drop([]string{r.sig}); err != nil {
					return err
				}
				if err := e.store.Create(&StoredRelation{Name: newSig, Kind: KindFunction, SQL: r.text}); err != nil {
					return err
				}
			}
		}
		delete(e.routineText, r.sig)
		e.routineText[newSig] = r.text
		if newSig != r.sig {
			if err := e.moveObjectComments(r.sig, newSig, "routine"); err != nil {
				return err
			}
		}
	}
	return nil
}

// renamedTypeName is tn naming the type keyed key ("schema.name" or
// "name") instead, with its array bounds and modifiers.
func renamedTypeName(tn *pg_query.TypeName, key string) *pg_query.TypeName {
	out := proto.Clone(tn).(*pg_query.TypeName)
	out.Names = nil
	for _, part := range strings.Split(key, ".") {
		out.Names = append(out.Names, pg_query.MakeStrNode(part))
	}
	return out
}

// namesKey reports whether tn names the type keyed key.
func namesKey(tn *pg_query.TypeName, key string) bool {
	if tn == nil {
		return false
	}
	var parts []string
	for _, n := range tn.Names {
		parts = append(parts, n.GetString_().GetSval())
	}
	name := strings.Join(parts, ".")
	return name == key || name == "public."+key
}

// typeParam reports whether p is of the type t, or of an array of it.
func typeParam(t value.Type) func(p sql.FuncParam) bool {
	return func(p sql.FuncParam) bool {
		return p.Domain == nil && p.Poly == sql.PolyNone && sameUserType(p.Type, t)
	}
}

// typeResult reports whether f's result column i is of the type t, or of
// an array of it.
func typeResult(t value.Type) func(f *sql.Function, i int) bool {
	return func(f *sql.Function, i int) bool {
		c := f.Cols[i]
		return (i >= len(f.ColDomains) || f.ColDomains[i] == nil) && sameUserType(c.Type, t)
	}
}

// sameUserType reports whether ct is the user type t (an enum, a range
// type or a composite type) or an array of it.
func sameUserType(ct, t value.Type) bool {
	return ct.Mod == t.Mod && (ct.Kind == t.Kind || ct.Kind == value.ArrayOf(t.Kind))
}

// rebindAtomicBody binds r's CREATE statement, written again with the
// type's new name, and gives r's routine its body.
func (e *Engine) rebindAtomicBody(r routineTypeRename) error {
	refuse := func() error {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename type: %s %s names it in its body in a way its text does not show", routineKind(nil, r.f.Procedure), r.sig).
			WithHint("replace the routine with a body that does not name the type, rename the type, then replace it again")
	}
	if r.text == "" {
		return refuse()
	}
	sts, err := sql.ParseScript(r.text)
	if err != nil || len(sts) == 0 {
		return refuse()
	}
	rec := &recorder{cat: e, seen: map[string]bool{}, text: sts[0].SQL}
	b, err := sql.Bind(rec, sts[0])
	if err != nil {
		return err
	}
	cf, ok := b.(*sql.CreateFunction)
	if !ok {
		return refuse()
	}
	r.g.TakeBody(cf.Func)
	return nil
}

// atomicBody reports whether f, created by the statements text, has a
// body of RETURN or BEGIN ATOMIC (a procedure's is not marked Atomic).
func atomicBody(f *sql.Function, text string) bool {
	if f.Atomic {
		return true
	}
	if !f.Procedure {
		return false
	}
	sts, err := sql.ParseScript(text)
	return err == nil && len(sts) > 0 && sts[0].Node.GetCreateFunctionStmt().GetSqlBody() != nil
}
