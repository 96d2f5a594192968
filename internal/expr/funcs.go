package expr

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// FuncDef is one signature of a catalog function. Eval receives the
// argument values already cast to Params; for a Strict function it is
// never called with a NULL argument.
type FuncDef struct {
	Name     string
	Volatile bool
	Strict   bool
	Eval     func(args []value.Value) (value.Value, error)

	// Params are the argument kinds; value.Unknown stands for PostgreSQL's
	// "any", an argument that keeps its own type.
	Params []value.Kind
	// Variadic functions take the last parameter once or more.
	Variadic bool
	// Result is the result type.
	Result value.Type
	// NoParens marks SQL's parameterless keywords (current_date, …), printed
	// without parentheses.
	NoParens bool
	// Print renders a call written as an operator or a special form
	// (ARRAY[…], a[i], x = ANY (a)); nil renders name(args).
	Print func(args []Expr) string
	// Ext is the extension whose function this is (extension.go), ""
	// for a built-in function.
	Ext string
	// Session, when set, evaluates a function that reads or sets the
	// session's settings (SessionFuncCall); such a call is refused in a
	// view.
	Session func(s Settings, args []value.Value) (value.Value, error)
	// Stable marks an extension's function that PostgreSQL declares
	// stable although its result here depends on its arguments alone
	// (unaccent, whose rules are fixed): pg_proc says so, and a view may
	// call it.
	Stable bool
	// Rows, set for an extension's set-returning function, generates its
	// rows from the evaluated arguments (ExtensionSRF); Eval is unused.
	// A row has one column of type Result, or RowTypes' columns named
	// RowNames (each's key and value).
	// Reads names the setting a Session function reads (pg_trgm's
	// thresholds), which a materialized view over it captures when it is
	// created (FixedSettingCall).
	Reads    string
	Rows     func(args []value.Value, emit func(value.Row) error) error
	RowTypes []value.Type
	RowNames []string
	// EvalZone, when set, is Eval with the timestamptz among the
	// arguments written in the session's zone (the json functions); the
	// binder calls it through ZoneFunc when an argument may hold one.
	EvalZone func(args []value.Value, z value.Zone) (value.Value, error)
	// EvalStyle, when set, is EvalZone with floats and geometric values
	// among the arguments written under the session's
	// extra_float_digits as well (the json functions); the binder calls
	// it through ZoneFunc in an ad-hoc statement when an argument may
	// hold one.
	EvalStyle func(args []value.Value, z value.Zone, st value.TextStyle) (value.Value, error)
}

// catalog maps a function name to its signatures.
var catalog = map[string][]*FuncDef{}

// register adds d under its name and the aliases.
func register(d *FuncDef, aliases ...string) {
	catalog[d.Name] = append(catalog[d.Name], d)
	for _, a := range aliases {
		c := *d
		c.Name = a
		catalog[a] = append(catalog[a], &c)
	}
}

// strictZone registers a strict function whose result depends on the
// session's zone through its timestamptz arguments (FuncDef.EvalZone).
func strictZone(name string, params []value.Kind, result value.Type, eval func([]value.Value, value.Zone) (value.Value, error)) {
	register(&FuncDef{Name: name, Strict: true, Params: params, Result: result, EvalZone: eval,
		Eval: func(a []value.Value) (value.Value, error) { return eval(a, value.UTC) }})
}

// strict registers a strict, stable function.
func strict(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error), aliases ...string) {
	register(&FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval}, aliases...)
}

// kinds is a shorthand for a parameter list.
func kinds(ks ...value.Kind) []value.Kind { return ks }

// params returns d's parameter kinds for a call with n arguments.
func (d *FuncDef) params(n int) ([]value.Kind, bool) {
	if !d.Variadic {
		return d.Params, n == len(d.Params)
	}
	if n < len(d.Params) {
		return nil, false
	}
	ps := make([]value.Kind, n)
	copy(ps, d.Params)
	for i := len(d.Params); i < n; i++ {
		ps[i] = d.Params[len(d.Params)-1]
	}
	return ps, true
}

type candidate struct {
	def    *FuncDef
	params []value.Kind
	// dom marks the parameters of a domain (nil: none): their kind is
	// the base type's, but as PostgreSQL's domain type they are never an
	// exact match nor a preferred type.
	dom []bool
}

// plain reports whether parameter i is of its kind's own type, not a
// domain over it.
func (c candidate) plain(i int) bool { return i >= len(c.dom) || !c.dom[i] }

// ResolveFunc finds the signature of name that a call with arguments of
// types args resolves to, by PostgreSQL's rules (an exact match, else the
// candidates the arguments convert to implicitly, narrowed by most exact
// matches, most preferred types, and the categories of untyped literals:
// abs('1') is abs(double precision), length('abc') length(text)). params
// are the types to cast each argument to (the argument's own type when its
// kind fits), result the call's type. No match is 42883 "function foo(integer)
// does not exist"; several equally good ones 42725.
func ResolveFunc(name string, args []value.Type) (def *FuncDef, params []value.Type, result value.Type, err error) {
	name = strings.ToLower(name)
	if def, params, result, err = resolvePoly(name, args); def != nil || err != nil {
		return def, params, result, err
	}
	if err := checkHashRecordArg(name, args); err != nil {
		return nil, nil, value.Type{}, err
	}
	if rt, ok := userRangeArg(args); ok {
		return resolveUserRange(name, rt, args, slices.Concat(catalog[name], userRangeFuncs(rt, name)))
	}
	return resolveAmong(name, catalog[name], args)
}

// ResolveVariadicFunc is ResolveFunc for f(…, VARIADIC arr) among the
// variadic signatures alone, args holding arr's element type last: the
// VARIADIC argument stands for a variadic parameter only.
func ResolveVariadicFunc(name string, args []value.Type) (def *FuncDef, params []value.Type, result value.Type, err error) {
	name = strings.ToLower(name)
	var defs []*FuncDef
	for _, d := range catalog[name] {
		if d.Variadic {
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 || len(defs) == len(catalog[name]) {
		// The caller tells a function that is not variadic.
		return ResolveFunc(name, args)
	}
	return resolveAmong(name, defs, args)
}

// preferNonVariadic drops the variadic candidates whose expanded
// parameters are those of a non-variadic one, as PostgreSQL does
// (jsonb_delete(j, 'k') is jsonb_delete(jsonb, text), not its VARIADIC
// text[] form).
func preferNonVariadic(cands []candidate) []candidate {
	out := cands[:0:0]
	for _, c := range cands {
		shadowed := false
		if c.def.Variadic {
			for _, o := range cands {
				if !o.def.Variadic && slices.Equal(o.params, c.params) {
					shadowed = true
				}
			}
		}
		if !shadowed {
			out = append(out, c)
		}
	}
	return out
}

// resolveAmong is ResolveFunc among the signatures defs.
func resolveAmong(name string, defs []*FuncDef, args []value.Type) (def *FuncDef, params []value.Type, result value.Type, err error) {
	var cands []candidate
	for _, d := range defs {
		ps, ok := d.params(len(args))
		if !ok || !accepts(ps, args) {
			continue
		}
		cands = append(cands, candidate{def: d, params: ps})
	}
	if len(cands) > 1 {
		cands = narrow(cands, args)
	}
	if len(cands) > 1 {
		cands = preferNonVariadic(cands)
	}
	switch {
	case len(cands) == 0:
		return nil, nil, result, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(name, args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	case len(cands) > 1:
		return nil, nil, result, (&pgerr.Error{Code: codeAmbiguous, Message: "function " + signature(name, args) + " is not unique"}).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	c := cands[0]
	params = make([]value.Type, len(args))
	for i, a := range args {
		switch p := c.params[i]; {
		case p != value.Unknown:
			params[i] = keep(a, p)
		case a.Kind == value.Unknown:
			params[i] = value.TextType
		default:
			params[i] = a
		}
	}
	return c.def, params, c.def.Result, nil
}

func signature(name string, args []value.Type) string {
	var b strings.Builder
	b.WriteString(name + "(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(typeNameOf(a))
	}
	b.WriteString(")")
	return b.String()
}

// accepts reports whether every argument converts implicitly to its
// parameter.
func accepts(ps []value.Kind, args []value.Type) bool {
	for i, a := range args {
		if ps[i] != value.Unknown && !implicit(a.Kind, ps[i]) {
			return false
		}
	}
	return true
}

// narrow applies PostgreSQL's func_select_candidate heuristics.
func narrow(cands []candidate, args []value.Type) []candidate {
	// Keep the candidates with the most exact matches among typed arguments.
	cands = keepMax(cands, func(c candidate) int {
		n := 0
		for i, a := range args {
			if a.Kind != value.Unknown && a.Kind == c.params[i] && c.plain(i) {
				n++
			}
		}
		return n
	})
	// Then those taking preferred types where a conversion is needed.
	cands = keepMax(cands, func(c candidate) int {
		n := 0
		for i, a := range args {
			if a.Kind != value.Unknown && a.Kind != c.params[i] && preferred(c.params[i]) && c.plain(i) {
				n++
			}
		}
		return n
	})
	if len(cands) <= 1 {
		return cands
	}
	// Untyped literals: the string category if any candidate takes it there,
	// else the one category all candidates take; then preferred types.
	for i, a := range args {
		if a.Kind != value.Unknown {
			continue
		}
		first := categoryOf(cands[0].params[i])
		hasString, same := false, true
		for _, c := range cands {
			cc := categoryOf(c.params[i])
			hasString = hasString || cc == catString
			same = same && cc == first
		}
		cat := first
		switch {
		case hasString:
			cat = catString
		case !same:
			continue
		}
		var next []candidate
		anyPreferred := false
		for _, c := range cands {
			if categoryOf(c.params[i]) == cat {
				next = append(next, c)
				anyPreferred = anyPreferred || preferred(c.params[i]) && c.plain(i)
			}
		}
		if anyPreferred {
			next = keepMax(next, func(c candidate) int {
				if preferred(c.params[i]) && c.plain(i) {
					return 1
				}
				return 0
			})
		}
		if len(next) > 0 {
			cands = next
		}
	}
	if len(cands) <= 1 {
		return cands
	}
	// Unknowns and typed arguments all of one type: assume the unknowns
	// have it too.
	known := value.Unknown
	for _, a := range args {
		switch {
		case a.Kind == value.Unknown:
		case known == value.Unknown:
			known = a.Kind
		case known != a.Kind:
			return cands
		}
	}
	if known == value.Unknown {
		return cands
	}
	var next []candidate
	for _, c := range cands {
		ok := true
		for i, a := range args {
			if a.Kind == value.Unknown && c.params[i] != value.Unknown && !implicit(known, c.params[i]) {
				ok = false
			}
		}
		if ok {
			next = append(next, c)
		}
	}
	if len(next) == 1 {
		return next
	}
	return cands
}

func keepMax(cands []candidate, score func(candidate) int) []candidate {
	best := -1
	var out []candidate
	for _, c := range cands {
		switch s := score(c); {
		case s > best:
			best, out = s, []candidate{c}
		case s == best:
			out = append(out, c)
		}
	}
	return out
}
