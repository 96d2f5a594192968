package engine

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// User-defined operators (CREATE OPERATOR) live in the catalog by name,
// overloads together. A use binds as a call of the operator's function
// (sql.Operator), so a view over it is maintained as the function is; the
// view depends on the operator (funcDeps, under its DepKey) and on the
// function, and DROP OPERATOR refuses to drop one a view uses (2BP01)
// unless CASCADE drops the view too. The store keeps an operator as its
// statement.

// KindOperator is the kind of a stored user-defined operator.
const KindOperator RelKind = "operator"

// Operators implements sql.OperatorCatalog.
func (e *Engine) Operators(name string) []*sql.Operator {
	if x := e.extOperators(name); len(x) > 0 {
		return slices.Concat(e.opers[name], x)
	}
	return e.opers[name]
}

// Operators implements sql.OperatorCatalog.
func (r *recorder) Operators(name string) []*sql.Operator {
	if oc, ok := r.cat.(sql.OperatorCatalog); ok {
		return oc.Operators(name)
	}
	return nil
}

// UseOperator implements sql.OperatorUser.
func (r *recorder) UseOperator(o *sql.Operator) { r.use(o.DepKey()) }

// Operators implements sql.OperatorCatalog.
func (v viewRecorder) Operators(name string) []*sql.Operator { return v.r.Operators(name) }

// UseOperator implements sql.OperatorUser.
func (v viewRecorder) UseOperator(o *sql.Operator) { v.r.UseOperator(o) }

// operator returns the operator ref names, by its schema ("" for
// public) and argument types.
func (e *Engine) operator(ref sql.OperRef) *sql.Operator {
	for _, o := range e.opers[ref.Name] {
		if o.Schema == ref.Schema && ref.Names(o) {
			return o
		}
	}
	return nil
}

// createOperator runs CREATE OPERATOR.
func (e *Engine) createOperator(c *sql.CreateOperator, rec *recorder) (Result, error) {
	o := c.Op
	var left *value.Type
	if o.Left != nil {
		left = &o.Left.Type
	}
	ref := o.Ref()
	if x, _ := e.extOperatorOf(o.Name, left, &o.Right.Type); o.Schema == "" && x != "" && ref.LeftDomain == nil && ref.RightDomain == nil || e.operator(ref) != nil {
		return Result{}, pgerr.New(sql.CodeDuplicateFunction, "operator %s already exists", o.Name)
	}
	if e.store != nil {
		if err := e.store.Create(&StoredRelation{Name: o.DepKey(), Kind: KindOperator, SQL: rec.text}); err != nil {
			return Result{}, err
		}
	}
	if e.opers == nil {
		e.opers = map[string][]*sql.Operator{}
	}
	e.opers[o.Name] = append(e.opers[o.Name], o)
	e.recordRoutine(o.DepKey(), rec.text) // its function's rename rewrites it
	return Result{Tag: "CREATE OPERATOR"}, nil
}

// dropOperators runs DROP OPERATOR.
func (e *Engine) dropOperators(d *sql.DropOperator) (Result, error) {
	var notices []string
	var gone []*sql.Operator
	for _, ref := range d.Ops {
		if ref.Missing != "" {
			notices = append(notices, ref.Missing)
			continue
		}
		o := e.operator(ref)
		if x, sig := e.extOperatorOf(ref.Name, ref.Left, ref.Right); o == nil && ref.Schema == "" && x != "" && ref.LeftDomain == nil && ref.RightDomain == nil {
			return Result{}, pgerr.New(pgerr.DependentObjects, "cannot drop operator %s because extension %s requires it", sig, x).
				WithHint("You can drop extension %s instead.", x)
		}
		if o == nil {
			if d.IfExists {
				notices = append(notices, fmt.Sprintf("operator %s does not exist, skipping", cmp.Or(ref.Written, ref.Name)))
				continue
			}
			return Result{}, e.noOperator(ref)
		}
		gone = append(gone, o)
	}
	notices, err := e.dropOperatorObjs(gone, d.Cascade, notices)
	if err != nil {
		return Result{}, err
	}
	return Result{Tag: "DROP OPERATOR", Notices: notices}, nil
}

// noOperator is PostgreSQL's 42883 for an operator ref names that does
// not exist.
func (e *Engine) noOperator(ref sql.OperRef) error {
	l, r := "NONE", "NONE"
	if ref.Left != nil {
		l = (&sql.FuncParam{Type: *ref.Left, Domain: ref.LeftDomain}).TypeString()
	}
	if ref.Right != nil {
		r = (&sql.FuncParam{Type: *ref.Right, Domain: ref.RightDomain}).TypeString()
	}
	if ref.Left == nil {
		return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s", ref.Name, r)
	}
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l, ref.Name, r)
}

// dropOperatorObjs drops the operators gone (with cascade, the views
// using them), after notices; it returns the notices with its own.
func (e *Engine) dropOperatorObjs(gone []*sql.Operator, cascade bool, notices []string) ([]string, error) {
	keys, sigs := make([]string, len(gone)), make([]string, len(gone))
	for i, o := range gone {
		keys[i], sigs[i] = o.DepKey(), o.Signature()
	}
	notices, err := e.dropWithDependents("operator", keys, sigs, cascade, notices)
	if err != nil {
		return nil, err
	}
	for _, o := range gone {
		e.forgetRoutine(o.DepKey())
		e.opers[o.Name] = slices.DeleteFunc(e.opers[o.Name], func(p *sql.Operator) bool { return p == o })
		if len(e.opers[o.Name]) == 0 {
			delete(e.opers, o.Name)
		}
	}
	return notices, nil
}

// operatorsUsing are the signatures of the operators whose function is
// the SQL function f, sorted.
func (e *Engine) operatorsUsing(f *sql.Function) []string {
	var out []string
	for _, o := range e.operatorObjsUsing(f) {
		out = append(out, o.Signature())
	}
	return out
}

// operatorObjsUsing are the operators whose function is the SQL function
// f, by name.
func (e *Engine) operatorObjsUsing(f *sql.Function) []*sql.Operator {
	var out []*sql.Operator
	for _, name := range sortedKeys(e.opers) {
		for _, o := range e.opers[name] {
			// The function takes the operator's types exactly, domains
			// as declared (sql.bindOperatorCall).
			var ps []sql.FuncParam
			if o.Left != nil {
				ps = append(ps, *o.Left)
			}
			ps = append(ps, *o.Right)
			if sql.FuncName(o.Func) == f.Name && sql.ParamsSignature(f.Name, ps) == f.Signature() {
				out = append(out, o)
			}
		}
	}
	return out
}
