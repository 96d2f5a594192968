package engine

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// User-defined casts (CREATE CAST, sql.UserCast) by source and target.
// A view that applies one depends on it (funcDeps, under its DepKey), as
// it does on the function the cast calls; a cast depends on its
// function, so that DROP FUNCTION refuses (2BP01) or, with CASCADE, drops
// the cast and the views that apply it. The store keeps a cast as its
// statement.

// KindCast is the kind of a stored cast, recorded under its DepKey.
const KindCast RelKind = "cast"

// castState is the engine's user casts.
type castState struct {
	casts map[[2]string]*sql.UserCast
}

// UserCast implements sql.CastCatalog.
func (e *Engine) UserCast(source, target string) (*sql.UserCast, bool) {
	c, ok := e.casts[[2]string{source, target}]
	return c, ok
}

// HasUserCasts implements sql.CastCatalog.
func (e *Engine) HasUserCasts() bool { return len(e.casts) > 0 }

// HasCastTo implements sql.CastCatalog.
func (e *Engine) HasCastTo(target string) bool {
	for k, c := range e.casts {
		if k[1] == target && !c.Ignored {
			return true
		}
	}
	return false
}

// ImplicitCastFrom implements sql.CastCatalog.
func (e *Engine) ImplicitCastFrom(source string) *sql.UserCast {
	for _, c := range e.sortedCasts() {
		if c.Source == source && c.Context == 'i' && !c.Ignored {
			return c
		}
	}
	return nil
}

// sortedCasts are the user casts by source and target.
func (e *Engine) sortedCasts() []*sql.UserCast {
	out := make([]*sql.UserCast, 0, len(e.casts))
	for _, c := range e.casts {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Source < out[j].Source || out[i].Source == out[j].Source && out[i].Target < out[j].Target
	})
	return out
}

func (r *recorder) castCatalog() sql.CastCatalog {
	cc, _ := r.cat.(sql.CastCatalog)
	return cc
}

// UserCast implements sql.CastCatalog.
func (r *recorder) UserCast(source, target string) (*sql.UserCast, bool) {
	if cc := r.castCatalog(); cc != nil {
		return cc.UserCast(source, target)
	}
	return nil, false
}

// HasUserCasts implements sql.CastCatalog.
func (r *recorder) HasUserCasts() bool {
	cc := r.castCatalog()
	return cc != nil && cc.HasUserCasts()
}

// HasCastTo implements sql.CastCatalog.
func (r *recorder) HasCastTo(target string) bool {
	cc := r.castCatalog()
	return cc != nil && cc.HasCastTo(target)
}

// ImplicitCastFrom implements sql.CastCatalog.
func (r *recorder) ImplicitCastFrom(source string) *sql.UserCast {
	if cc := r.castCatalog(); cc != nil {
		return cc.ImplicitCastFrom(source)
	}
	return nil
}

// UseCast implements sql.CastUser.
func (r *recorder) UseCast(c *sql.UserCast) { r.use(c.DepKey()) }

// UserCast implements sql.CastCatalog.
func (v viewRecorder) UserCast(source, target string) (*sql.UserCast, bool) {
	return v.r.UserCast(source, target)
}

// HasUserCasts implements sql.CastCatalog.
func (v viewRecorder) HasUserCasts() bool { return v.r.HasUserCasts() }

// HasCastTo implements sql.CastCatalog.
func (v viewRecorder) HasCastTo(target string) bool { return v.r.HasCastTo(target) }

// ImplicitCastFrom implements sql.CastCatalog.
func (v viewRecorder) ImplicitCastFrom(source string) *sql.UserCast {
	return v.r.ImplicitCastFrom(source)
}

// UseCast implements sql.CastUser.
func (v viewRecorder) UseCast(c *sql.UserCast) { v.r.UseCast(c) }

func (e *Engine) createCast(cc *sql.CreateCast, text string) (Result, error) {
	c := cc.Cast
	key := [2]string{c.Source, c.Target}
	if e.casts[key] != nil {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "cast from type %s to type %s already exists", c.Source, c.Target)
	}
	if err := e.storeCreate(c.DepKey(), KindCast, text); err != nil {
		return Result{}, err
	}
	if e.casts == nil {
		e.casts = map[[2]string]*sql.UserCast{}
	}
	c.Text = text
	e.casts[key] = c
	res := Result{Tag: "CREATE CAST"}
	if cc.Warning != "" {
		res.Notices, res.NoticeLevels = []string{cc.Warning}, map[int]string{0: "WARNING"}
	}
	return res, nil
}

func (e *Engine) dropCast(d *sql.DropCast) (Result, error) {
	if d.Missing != "" {
		return Result{Tag: "DROP CAST", Notices: []string{d.Missing}}, nil
	}
	c := e.casts[[2]string{d.Source, d.Target}]
	if c == nil {
		if d.Builtin {
			return Result{}, pgerr.New(pgerr.DependentObjects, "cannot drop cast from %s to %s because it is required by the database system", d.Source, d.Target)
		}
		if d.IfExists {
			return Result{Tag: "DROP CAST", Notices: []string{fmt.Sprintf("cast from type %s to type %s does not exist, skipping", cmp.Or(d.Written[0], d.Source), cmp.Or(d.Written[1], d.Target))}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedObject, "cast from type %s to type %s does not exist", d.Source, d.Target)
	}
	if vs := e.callers(c.DepKey()); len(vs) > 0 {
		// PostgreSQL's view depends on the cast's function or on the
		// types, not on the cast: its DROP CAST drops nothing else and
		// the view goes on converting. Here the view's statement names
		// the cast, which it could not be read again without.
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP CAST of %s, which %s %s applies, is not supported", c.Describe(), e.kindName(vs[0]), vs[0]).
			WithHint("drop the views that apply the cast, drop it, then create them again")
	}
	notices, err := e.dropCasts([]*sql.UserCast{c}, d.Cascade, nil)
	if err != nil {
		return Result{}, err
	}
	return Result{Tag: "DROP CAST", Notices: notices}, nil
}

// dropCasts drops casts, with the views that apply them when cascade,
// refusing (2BP01) otherwise.
func (e *Engine) dropCasts(cs []*sql.UserCast, cascade bool, notices []string) ([]string, error) {
	var lines, views []string
	for _, c := range cs {
		for _, v := range e.callers(c.DepKey()) {
			lines = append(lines, fmt.Sprintf("%s %s depends on %s", e.kindName(v), v, c.Describe()))
			if !slices.Contains(views, v) {
				views = append(views, v)
			}
		}
	}
	if len(views) > 0 && !cascade {
		return nil, &pgerr.Error{Code: pgerr.DependentObjects,
			Message: fmt.Sprintf("cannot drop %s because other objects depend on it", cs[0].Describe()),
			Detail:  strings.Join(lines, "\n"),
			Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	notices, err := e.dropCascaded(notices, views)
	if err != nil {
		return nil, err
	}
	if e.store != nil {
		keys := make([]string, len(cs))
		for i, c := range cs {
			keys[i] = c.DepKey()
		}
		if err := e.store.Drop(keys); err != nil {
			return nil, err
		}
	}
	for _, c := range cs {
		delete(e.casts, [2]string{c.Source, c.Target})
	}
	return notices, nil
}

// castsCalling are the user casts whose function has signature sig.
func (e *Engine) castsCalling(sig string) []*sql.UserCast {
	var out []*sql.UserCast
	for _, c := range e.sortedCasts() {
		if c.Builtin == nil && c.FuncSig == sig {
			out = append(out, c)
		}
	}
	return out
}

// dropFunctionCasts handles the casts that call functions DROP FUNCTION
// drops: 2BP01 without CASCADE, dropped with it.
func (e *Engine) dropFunctionCasts(sigs []string, cascade bool, notices []string) ([]string, error) {
	var cs []*sql.UserCast
	for _, sig := range sigs {
		for _, c := range e.castsCalling(sig) {
			if !cascade {
				return nil, &pgerr.Error{Code: pgerr.DependentObjects,
					Message: fmt.Sprintf("cannot drop function %s because other objects depend on it", sig),
					Detail:  fmt.Sprintf("%s depends on function %s", c.Describe(), sig),
					Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
			}
			notices = append(notices, "drop cascades to "+c.Describe())
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return notices, nil
	}
	return e.dropCasts(cs, true, notices)
}
