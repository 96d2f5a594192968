package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Aggregate is a user-defined aggregate (CREATE AGGREGATE): its
// transition function folds each group's inputs into a state, its final
// function makes the result of the last state. The functions are kept by
// name and bound at each call (bind_useragg.go), so that a call runs the
// functions as they are then, as PostgreSQL's does.
type Aggregate struct {
	Name string
	// Args are the input types; none for name(*).
	Args []FuncParam
	// SFunc and FinalFunc are the functions' names as written (FinalFunc
	// nil for none); SType the state's type.
	SFunc, FinalFunc []*pg_query.Node
	SType            FuncParam
	// InitCond is the initial state's text; HasInit is false for none
	// (a NULL initial state).
	InitCond string
	HasInit  bool
	// The moving-aggregate form and the other options, kept for
	// pg_aggregate: calls fold with SFunc alone.
	MSFunc, MInvFunc, MFinalFunc, CombineFunc []*pg_query.Node
	MSType                                    *FuncParam
	MInitCond                                 *string
	SortOp                                    string
	// Owner is the role that owns the aggregate: "" for the built-in
	// superuser (the engine gives it one at CREATE and ALTER … OWNER TO).
	Owner string
	// ACL lists the roles holding EXECUTE ("" for PUBLIC) once a GRANT
	// or REVOKE named the aggregate (HasACL), ACLOptions those of them
	// holding its grant option, as a Function's.
	ACL        []string
	HasACL     bool
	ACLOptions []string
	// Loc is the location of the CREATE statement's definition, where
	// errors binding the functions at a call point when no call is at
	// hand.
	Loc int32
}

// Signature is the aggregate's name and input types, as a function's: a
// domain by its name.
func (a *Aggregate) Signature() string { return ParamsSignature(a.Name, a.Args) }

// TransTypes are the transition function's argument types: the state's,
// then the inputs'.
func (a *Aggregate) TransTypes() []value.Type {
	ts := []value.Type{a.SType.Type}
	for _, p := range a.Args {
		ts = append(ts, p.Type)
	}
	return ts
}

// FuncName prints a function name as written: the last part of names.
func FuncName(names []*pg_query.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

// AggregateCatalog is a Catalog that holds user-defined aggregates.
type AggregateCatalog interface {
	Aggregates(name string) []*Aggregate
	// AnyAggregates reports whether there are any: statements are not
	// walked for calls of them otherwise.
	AnyAggregates() bool
}

// AggregateUser is a Catalog told of every user-defined aggregate a
// statement calls, on which a view over the statement then depends.
type AggregateUser interface {
	UseAggregate(a *Aggregate)
}

// CreateAggregate is CREATE [OR REPLACE] AGGREGATE.
type CreateAggregate struct {
	Agg     *Aggregate
	Replace bool
}

// DropAggregate is DROP AGGREGATE.
type DropAggregate struct {
	Aggs     []FuncRef
	IfExists bool
	Cascade  bool
}

func (*CreateAggregate) bound() {}
func (*DropAggregate) bound()   {}

// bindDefine binds the DEFINE statements: CREATE AGGREGATE.
func (b *binder) bindDefine(d *pg_query.DefineStmt) (Bound, error) {
	if d.Kind == pg_query.ObjectType_OBJECT_OPERATOR {
		return b.bindCreateOperator(d)
	}
	if d.Kind == pg_query.ObjectType_OBJECT_TYPE {
		return nil, refuseBaseType(d)
	}
	if d.Kind != pg_query.ObjectType_OBJECT_AGGREGATE {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "statement DEFINE is not supported")
	}
	name, err := b.functionName(d.Defnames)
	if err != nil {
		return nil, err
	}
	a := &Aggregate{Name: name, Loc: -1}
	if !d.Oldstyle {
		if len(d.Args) == 2 && d.Args[1].GetInteger().GetIval() >= 0 {
			return nil, b.refuse(-1, "ordered-set aggregates (CREATE AGGREGATE … ORDER BY …) are not supported")
		}
		if len(d.Args) > 0 {
			for _, n := range d.Args[0].GetList().GetItems() {
				p := n.GetFunctionParameter()
				if p.Mode == pg_query.FunctionParameterMode_FUNC_PARAM_VARIADIC {
					return nil, b.refuse(p.ArgType.GetLocation(), "VARIADIC aggregate arguments are not supported")
				}
				tn, t, err := b.functionType(p.ArgType)
				if err != nil {
					return nil, err
				}
				if err := refusePolymorphic(b, tn); err != nil {
					return nil, err
				}
				dom, err := b.paramDomain(tn, PolyNone)
				if err != nil {
					return nil, err
				}
				a.Args = append(a.Args, FuncParam{Name: p.Name, Type: t, TypeName: tn, Domain: dom})
			}
		}
	}
	var stype, mstype *pg_query.TypeName
	for _, n := range d.Definition {
		de := n.GetDefElem()
		if a.Loc < 0 {
			a.Loc = de.Location
		}
		switch strings.ToLower(de.Defname) {
		case "sfunc", "sfunc1":
			a.SFunc = defFuncName(de)
		case "stype", "stype1":
			stype = de.Arg.GetTypeName()
		case "finalfunc", "finalfunc1":
			a.FinalFunc = defFuncName(de)
		case "initcond", "initcond1":
			a.InitCond, a.HasInit = defText(de), true
		case "basetype":
			if !d.Oldstyle {
				continue // ignored, as PostgreSQL does
			}
			tn := de.Arg.GetTypeName()
			if tn != nil && !(len(tn.Names) == 1 && strings.EqualFold(tn.Names[0].GetString_().GetSval(), "any")) {
				tn, t, err := b.functionType(tn)
				if err != nil {
					return nil, err
				}
				dom, err := b.paramDomain(tn, PolyNone)
				if err != nil {
					return nil, err
				}
				a.Args = []FuncParam{{Type: t, TypeName: tn, Domain: dom}}
			}
		case "msfunc":
			a.MSFunc = defFuncName(de)
		case "minvfunc":
			a.MInvFunc = defFuncName(de)
		case "mfinalfunc":
			a.MFinalFunc = defFuncName(de)
		case "mstype":
			mstype = de.Arg.GetTypeName()
		case "minitcond":
			s := defText(de)
			a.MInitCond = &s
		case "combinefunc":
			a.CombineFunc = defFuncName(de)
		case "sortop":
			a.SortOp = defText(de)
		case "parallel", "serialfunc", "deserialfunc", "finalfunc_extra", "mfinalfunc_extra",
			"finalfunc_modify", "mfinalfunc_modify", "sspace", "msspace", "hypothetical":
			// Hints to PostgreSQL's executor that folding in one process,
			// in order, does without.
		default:
			// PostgreSQL warns and goes on.
		}
	}
	switch {
	case a.SFunc == nil:
		return nil, pgerr.New(CodeInvalidFunctionDef, "aggregate sfunc must be specified")
	case stype == nil:
		return nil, pgerr.New(CodeInvalidFunctionDef, "aggregate stype must be specified")
	}
	tn, t, err := b.functionType(stype)
	if err != nil {
		return nil, err
	}
	if err := refusePolymorphic(b, tn); err != nil {
		return nil, err
	}
	dom, err := b.paramDomain(tn, PolyNone)
	if err != nil {
		return nil, err
	}
	a.SType = FuncParam{Type: t, TypeName: tn, Domain: dom}
	if mstype != nil {
		tn, t, err := b.functionType(mstype)
		if err != nil {
			return nil, err
		}
		a.MSType = &FuncParam{Type: t, TypeName: tn}
	}
	if (a.MSFunc == nil) != (a.MInvFunc == nil) {
		return nil, pgerr.New(CodeInvalidFunctionDef, "aggregate msfunc and minvfunc must be specified together")
	}
	if a.MSFunc != nil && a.MSType == nil {
		return nil, pgerr.New(CodeInvalidFunctionDef, "aggregate mstype must be specified when msfunc is specified")
	}
	// Bind the functions now, for the errors PostgreSQL gives at CREATE.
	if _, err := b.userAggFold(a, a.Loc); err != nil {
		return nil, err
	}
	return &CreateAggregate{Agg: a, Replace: d.Replace}, nil
}

// refusePolymorphic refuses the pseudo-types any* as an aggregate's
// argument or state type.
func refusePolymorphic(b *binder, tn *pg_query.TypeName) error {
	switch strings.ToLower(typeNameText(tn)) {
	case "anyelement", "anyarray", "anynonarray", "anycompatible", "anycompatiblearray", "internal":
		return b.refuse(-1, "polymorphic aggregate types (%s) are not supported", typeNameText(tn))
	}
	return nil
}

// defFuncName is a function named by a definition's item (SFUNC = f).
func defFuncName(de *pg_query.DefElem) []*pg_query.Node {
	if tn := de.Arg.GetTypeName(); tn != nil {
		return tn.Names
	}
	if s := de.Arg.GetString_(); s != nil {
		return []*pg_query.Node{pg_query.MakeStrNode(s.Sval)}
	}
	return nil
}

// defText is a definition item's value as text ('0', 0, >).
func defText(de *pg_query.DefElem) string {
	switch {
	case de.Arg.GetString_() != nil:
		return de.Arg.GetString_().Sval
	case de.Arg.GetInteger() != nil:
		return strconv.Itoa(int(de.Arg.GetInteger().Ival))
	case de.Arg.GetFloat() != nil:
		return de.Arg.GetFloat().Fval
	case de.Arg.GetList() != nil:
		var parts []string
		for _, n := range de.Arg.GetList().Items {
			parts = append(parts, n.GetString_().GetSval())
		}
		return strings.Join(parts, ".")
	case de.Arg.GetTypeName() != nil:
		return typeNameText(de.Arg.GetTypeName())
	}
	return ""
}

// bindDropAggregate binds DROP AGGREGATE name(argtypes) [, …].
func (b *binder) bindDropAggregate(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropAggregate{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
objects:
	for _, o := range ds.Objects {
		ow := o.GetObjectWithArgs()
		name, err := b.functionName(ow.Objname)
		if err == nil {
			if err := b.builtinDropped(ow, "aggregate"); err != nil {
				return nil, err
			}
		}
		if err != nil && inCatalogSchema(ow.Objname) {
			ref, err := b.dropCatalogRoutine(ow, "aggregate", d.IfExists)
			if err != nil {
				return nil, err
			}
			d.Aggs = append(d.Aggs, ref)
			continue
		}
		if err != nil {
			if n, ok := skipMissing(err, ow.Objname, nil); ok && d.IfExists {
				d.Aggs = append(d.Aggs, FuncRef{Missing: n})
				continue
			}
			return nil, err
		}
		ref := FuncRef{Name: name, Args: []value.Type{}, Written: nameListString(ow.Objname) + "(" + typeNameListString(dropArgTypes(ow)) + ")"}
		for _, tn := range dropArgTypes(ow) {
			ktn, t, err := b.functionType(tn)
			if err != nil {
				if n, ok := skipMissing(err, tn.Names, tn); ok && d.IfExists {
					d.Aggs = append(d.Aggs, FuncRef{Missing: n})
					continue objects
				}
				return nil, err
			}
			ref.Args = append(ref.Args, t)
			if err := b.refDomain(&ref, ktn, PolyNone); err != nil {
				return nil, err
			}
		}
		d.Aggs = append(d.Aggs, ref)
	}
	return d, nil
}
