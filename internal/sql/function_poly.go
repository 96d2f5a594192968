package sql

import (
	"strconv"
	"strings"
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Polymorphic functions keep no state of their own: each call resolves
// the pseudo-types of the function's parameters and result from its
// arguments' types, as PostgreSQL's check_generic_type_consistency and
// enforce_generic_type_consistency do, and is bound as an instance of the
// function whose pseudo-types are those actual types. An instance is an
// ordinary function: a SQL one is inlined, a PL/pgSQL one compiled for
// its types.

// Poly is a polymorphic pseudo-type, or PolyNone for an actual type.
type Poly uint8

// The pseudo-types a function's parameters and result may have.
const (
	PolyNone Poly = iota
	PolyAnyElement
	PolyAnyArray
	PolyAnyNonArray
	PolyAnyEnum
	PolyAnyRange
	PolyAnyMultirange
	PolyAnyCompatible
	PolyAnyCompatibleArray
	PolyAnyCompatibleNonArray
	PolyAnyCompatibleRange
	PolyAnyCompatibleMultirange
	// PolyRecord is record as an input parameter's type: any composite
	// value, each of a call's arguments of its own type (polyBinding.recs).
	PolyRecord
)

var polyNames = [...]string{"", "anyelement", "anyarray", "anynonarray", "anyenum", "anyrange", "anymultirange",
	"anycompatible", "anycompatiblearray", "anycompatiblenonarray", "anycompatiblerange", "anycompatiblemultirange", "record"}

func (p Poly) String() string { return polyNames[p] }

// compatible reports whether p is of the anycompatible family, whose
// arguments are converted to a common type, rather than the anyelement
// one, whose arguments must have the same type.
func (p Poly) compatible() bool { return p >= PolyAnyCompatible && p <= PolyAnyCompatibleMultirange }

// polyOf returns the pseudo-type a type name names, PolyNone for another.
func polyOf(tn *pg_query.TypeName) Poly {
	if tn == nil || len(tn.ArrayBounds) > 0 {
		return PolyNone
	}
	name := strings.ToLower(typeNameText(tn))
	if len(tn.Names) == 2 && tn.Names[0].GetString_().GetSval() != "pg_catalog" {
		return PolyNone
	}
	for i, n := range polyNames {
		if i > 0 && n == name {
			return Poly(i)
		}
	}
	return PolyNone
}

// TypeString is the parameter's type as PostgreSQL prints it.
func (p FuncParam) TypeString() string {
	if p.Poly != PolyNone {
		return p.Poly.String()
	}
	if p.Domain != nil {
		return p.Domain.TypeName()
	}
	return p.Type.String()
}

// ColTypeString is the type of result column i as PostgreSQL prints it.
func (f *Function) ColTypeString(i int) string {
	if i < len(f.ColPoly) && f.ColPoly[i] != PolyNone {
		return f.ColPoly[i].String()
	}
	if d := f.ColDomain(i); d != nil {
		return d.TypeName()
	}
	return f.Cols[i].Type.String()
}

// Polymorphic reports whether a parameter or a result column of f has a
// pseudo-type.
func (f *Function) Polymorphic() bool {
	for _, p := range f.Params {
		if p.Poly != PolyNone {
			return true
		}
	}
	for _, p := range f.ColPoly {
		if p != PolyNone {
			return true
		}
	}
	return false
}

// SameParams reports whether f takes the input types ts (of the
// pseudo-types polys and the domains doms, either nil when none is one).
func (f *Function) SameParams(ts []value.Type, polys []Poly, doms []*expr.Domain) bool {
	if len(f.Params) != len(ts) {
		return false
	}
	for i, p := range f.Params {
		if p.Type != ts[i] || p.Poly != polyAt(polys, i) || p.Domain != domainAt(doms, i) {
			return false
		}
	}
	return true
}

func domainAt(ds []*expr.Domain, i int) *expr.Domain {
	if i < len(ds) {
		return ds[i]
	}
	return nil
}

// ColDomain is the domain result column i is declared of, nil for none.
func (f *Function) ColDomain(i int) *expr.Domain {
	return domainAt(f.ColDomains, i)
}

func polyAt(ps []Poly, i int) Poly {
	if i < len(ps) {
		return ps[i]
	}
	return PolyNone
}

// checkPolyResult refuses, as PostgreSQL does at CREATE, a polymorphic
// result that no argument can determine.
func checkPolyResult(f *Function) error {
	has := func(ps ...Poly) bool {
		for _, p := range f.Params {
			for _, q := range ps {
				if p.Poly == q {
					return true
				}
			}
		}
		return false
	}
	for _, r := range f.ColPoly {
		var detail string
		switch r {
		case PolyNone:
			continue
		case PolyAnyRange, PolyAnyMultirange:
			if !has(PolyAnyRange, PolyAnyMultirange) {
				detail = "A result of type %s requires at least one input of type anyrange or anymultirange."
			}
		case PolyAnyCompatibleRange, PolyAnyCompatibleMultirange:
			if !has(PolyAnyCompatibleRange, PolyAnyCompatibleMultirange) {
				detail = "A result of type %s requires at least one input of type anycompatiblerange or anycompatiblemultirange."
			}
		case PolyAnyCompatible, PolyAnyCompatibleArray, PolyAnyCompatibleNonArray:
			if !has(PolyAnyCompatible, PolyAnyCompatibleArray, PolyAnyCompatibleNonArray, PolyAnyCompatibleRange, PolyAnyCompatibleMultirange) {
				detail = "A result of type %s requires at least one input of type anycompatible, anycompatiblearray, anycompatiblenonarray, anycompatiblerange, or anycompatiblemultirange."
			}
		default:
			if !has(PolyAnyElement, PolyAnyArray, PolyAnyNonArray, PolyAnyEnum, PolyAnyRange, PolyAnyMultirange) {
				detail = "A result of type %s requires at least one input of type anyelement, anyarray, anynonarray, anyenum, anyrange, or anymultirange."
			}
		}
		if detail != "" {
			return pgerr.New(CodeInvalidFunctionDef, "cannot determine result data type").WithDetail(detail, r)
		}
	}
	return nil
}

// polyBinding is what a call's arguments make of a function's
// pseudo-types: the element type of the anyelement family (with its
// array, range and multirange types when an argument gives them), and
// the common type of the anycompatible family.
type polyBinding struct {
	elem, arr, rng, mrng    value.Type
	hasElem, hasArr, hasRng bool
	hasMrng                 bool
	common, crng            value.Type
	hasCommon, hasCrng      bool
	needElem, needCommon    bool
	unknownElem             bool
	// recs are the types of the arguments of record parameters, by
	// parameter: each its own (a NULL of no type is record).
	recs map[int]value.Type
}

// plainType is t without its modifier: the type a polymorphic parameter
// takes (varchar for varchar(5)).
func plainType(t value.Type) value.Type {
	if t.Enum() != nil || t.UserRange() != nil || t.Kind == value.Record || t.Kind == value.ArrayOf(value.Record) {
		return t
	}
	return value.Type{Kind: t.Kind, Mod: -1}
}

func isRange(t value.Type) bool {
	return t.Kind.IsRange() && (t.Kind != value.UserRange || t.UserRange() != nil)
}

func isMultirange(t value.Type) bool {
	return t.Kind.IsMultirange() && (t.Kind != value.UserMultirange || t.UserRange() != nil)
}

// bindPoly resolves the pseudo-types of params (one per argument: the
// parameter each goes to) from the arguments' types; ok is false when
// the arguments do not fit them, as then the function does not take the
// call.
func bindPoly(params []Poly, args []value.Type) (pb polyBinding, ok bool) {
	setSame := func(have *bool, cur *value.Type, t value.Type) bool {
		t = plainType(t)
		if *have {
			return *cur == t
		}
		*have, *cur = true, t
		return true
	}
	var comps []value.Type
	for i, p := range params {
		a := args[i]
		switch p {
		case PolyNone:
			continue
		case PolyRecord:
			if a.Kind != value.Record && a.Kind != value.Unknown {
				return pb, false
			}
			continue
		case PolyAnyElement, PolyAnyNonArray, PolyAnyEnum, PolyAnyArray, PolyAnyRange, PolyAnyMultirange:
			pb.needElem = true
		default:
			pb.needCommon = true
		}
		if a.Kind == value.Unknown {
			continue
		}
		switch p {
		case PolyAnyElement, PolyAnyNonArray, PolyAnyEnum:
			if !setSame(&pb.hasElem, &pb.elem, a) {
				return pb, false
			}
		case PolyAnyArray:
			if !a.Kind.IsArray() || !setSame(&pb.hasArr, &pb.arr, a) {
				return pb, false
			}
		case PolyAnyRange:
			if !isRange(a) || !setSame(&pb.hasRng, &pb.rng, a) {
				return pb, false
			}
		case PolyAnyMultirange:
			if !isMultirange(a) || !setSame(&pb.hasMrng, &pb.mrng, a) {
				return pb, false
			}
		case PolyAnyCompatible, PolyAnyCompatibleNonArray:
			comps = append(comps, plainType(a))
		case PolyAnyCompatibleArray:
			if !a.Kind.IsArray() {
				return pb, false
			}
			comps = append(comps, plainType(a.ElemType()))
		case PolyAnyCompatibleRange, PolyAnyCompatibleMultirange:
			if p == PolyAnyCompatibleRange && !isRange(a) || p == PolyAnyCompatibleMultirange && !isMultirange(a) {
				return pb, false
			}
			if !setSame(&pb.hasCrng, &pb.crng, a.RangeType()) {
				return pb, false
			}
		}
	}
	// The anyelement family: every argument must say the same element.
	sameElem := func(t value.Type) bool {
		t = plainType(t)
		if pb.hasElem {
			return pb.elem == t
		}
		pb.hasElem, pb.elem = true, t
		return true
	}
	if pb.hasMrng {
		r := pb.mrng.RangeType()
		if pb.hasRng && pb.rng != r {
			return pb, false
		}
		pb.hasRng, pb.rng = true, r
	}
	if pb.hasRng && !sameElem(pb.rng.RangeSubtype()) {
		return pb, false
	}
	if pb.hasArr && !sameElem(pb.arr.ElemType()) {
		return pb, false
	}
	for _, p := range params {
		switch {
		case p == PolyAnyNonArray && pb.hasElem && pb.elem.Kind.IsArray():
			return pb, false
		case p == PolyAnyEnum && pb.hasElem && pb.elem.Enum() == nil:
			return pb, false
		}
	}
	pb.unknownElem = pb.needElem && !pb.hasElem
	// The anycompatible family: a common type all arguments convert to
	// implicitly, the range's subtype when there is a range.
	if pb.hasCrng {
		sub := plainType(pb.crng.RangeSubtype())
		for _, t := range comps {
			if t != sub && !value.CanCast(t.Kind, sub.Kind, false) {
				return pb, false
			}
		}
		pb.common, pb.hasCommon = sub, true
	} else if len(comps) > 0 {
		t, err := expr.CommonType(comps, "")
		if err != nil {
			return pb, false
		}
		for _, c := range comps {
			if c != t && !value.CanCast(c.Kind, t.Kind, false) {
				return pb, false
			}
		}
		pb.common, pb.hasCommon = plainType(t), true
	}
	for _, p := range params {
		if p == PolyAnyCompatibleNonArray && pb.hasCommon && pb.common.Kind.IsArray() {
			return pb, false
		}
	}
	if pb.needCommon && !pb.hasCommon {
		pb.common, pb.hasCommon = value.TextType, true // untyped literals alone, as UNION's
	}
	return pb, true
}

// recordArgs keeps the types of the arguments of record parameters:
// declared and slot are, by argument, its pseudo-type and its parameter.
func (pb *polyBinding) recordArgs(declared []Poly, slot []int, args []value.Type) {
	for i, p := range declared {
		if p != PolyRecord || args[i].Kind != value.Record {
			continue
		}
		if pb.recs == nil {
			pb.recs = map[int]value.Type{}
		}
		pb.recs[slot[i]] = args[i]
	}
}

// elemPoly is the pseudo-type of the elements of a VARIADIC parameter
// of pseudo-type p.
func elemPoly(p Poly) Poly {
	if p == PolyAnyCompatibleArray {
		return PolyAnyCompatible
	}
	return PolyAnyElement
}

// typeOf is the actual type pseudo-type p stands for in a call.
func (pb *polyBinding) typeOf(p Poly) (value.Type, error) {
	noArray := func(t value.Type) (value.Type, error) {
		if t.Kind.IsArray() {
			return value.Type{}, pgerr.New(pgerr.UndefinedObject, "could not find array type for data type %s", t)
		}
		return value.ArrayTypeOf(t.Unmodified()), nil // a function's result has no modifier
	}
	switch p {
	case PolyRecord:
		return value.RecordType, nil
	case PolyAnyElement, PolyAnyNonArray, PolyAnyEnum:
		return pb.elem, nil
	case PolyAnyArray:
		if pb.hasArr {
			return pb.arr, nil
		}
		return noArray(pb.elem)
	case PolyAnyRange:
		if pb.hasRng {
			return pb.rng, nil
		}
		return value.Type{}, pgerr.New(pgerr.UndefinedObject, "could not find range type for data type %s", pb.elem)
	case PolyAnyMultirange:
		if pb.hasRng {
			return pb.rng.MultirangeType(), nil
		}
		return value.Type{}, pgerr.New(pgerr.UndefinedObject, "could not find multirange type for data type %s", pb.elem)
	case PolyAnyCompatible, PolyAnyCompatibleNonArray:
		return pb.common, nil
	case PolyAnyCompatibleArray:
		return noArray(pb.common)
	case PolyAnyCompatibleRange:
		if pb.hasCrng {
			return pb.crng, nil
		}
		return value.Type{}, pgerr.New(pgerr.UndefinedObject, "could not find range type for data type %s", pb.common)
	case PolyAnyCompatibleMultirange:
		if pb.hasCrng {
			return pb.crng.MultirangeType(), nil
		}
		return value.Type{}, pgerr.New(pgerr.UndefinedObject, "could not find multirange type for data type %s", pb.common)
	}
	return value.Type{}, nil
}

// polyInstances are the instances of a polymorphic function its calls
// made, by their signature, so that the engine finds the one a call of a
// PL/pgSQL function was bound to.
type polyInstances struct {
	mu   sync.Mutex
	byID map[string]*Function
}

// instance returns fn with its pseudo-types replaced by the types pb
// gives them: an ordinary function, kept in fn's instances. Generic is fn.
func (f *Function) instance(pb *polyBinding) (*Function, error) {
	fn := f
	if pb.unknownElem {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
	}
	inst := *fn
	inst.Generic, inst.instances, inst.Compiled, inst.ColPoly = fn, nil, nil, nil
	inst.Params = append([]FuncParam(nil), fn.Params...)
	for i, p := range inst.Params {
		if p.Poly == PolyNone {
			continue
		}
		t, err := pb.typeOf(p.Poly)
		if err != nil {
			return nil, err
		}
		if r, ok := pb.recs[i]; ok && p.Poly == PolyRecord {
			t = r
		}
		inst.Params[i].Type, inst.Params[i].TypeName, inst.Params[i].Poly = t, polyTypeName(t), PolyNone
	}
	inst.Cols = append([]plan.Column(nil), fn.Cols...)
	inst.ColTypes = append([]*pg_query.TypeName(nil), fn.ColTypes...)
	for i, p := range fn.ColPoly {
		if p == PolyNone {
			continue
		}
		t, err := pb.typeOf(p)
		if err != nil {
			return nil, err
		}
		inst.Cols[i].Type, inst.ColTypes[i] = t, polyTypeName(t)
	}
	inst.concretizeCode()
	id := inst.instanceKey()
	if fn.instances == nil {
		return &inst, nil
	}
	fn.instances.mu.Lock()
	defer fn.instances.mu.Unlock()
	if old := fn.instances.byID[id]; old != nil && sameCols(old.Cols, inst.Cols) {
		return old, nil // its compiled body, for a PL/pgSQL function
	}
	if fn.instances.byID == nil {
		fn.instances.byID = map[string]*Function{}
	}
	inst.instID = id
	fn.instances.byID[id] = &inst
	return &inst, nil
}

// codeInstance returns f, a SQL function inlined where it is called, as
// the PL/pgSQL function it runs as when it cannot be inlined (function_
// code.go): for a call that runs beside others in lockstep (ROWS FROM),
// which a query over its body cannot. Nil when there is no such form.
func (f *Function) codeInstance() *Function {
	g := f.Generic
	if g == nil {
		g = f
	}
	if f.code == nil || f.Language == LangPLpgSQL || g.instances == nil {
		return nil
	}
	id := "code " + f.Signature()
	g.instances.mu.Lock()
	defer g.instances.mu.Unlock()
	if c := g.instances.byID[id]; c != nil {
		return c
	}
	c := *f
	code := *f.code
	c.Generic, c.instances, c.Compiled, c.ColPoly, c.code, c.instID = g, nil, nil, nil, &code, id
	if c.AnyRecord && !c.Set || !c.runAsCode("is called beside other set-returning functions") {
		return nil
	}
	c.concretizeCode()
	if g.instances.byID == nil {
		g.instances.byID = map[string]*Function{}
	}
	g.instances.byID[id] = &c
	return &c
}

func sameCols(a, b []plan.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Instance returns the instance of f of signature id a call was bound to
// (RoutineSig), nil when there is none.
func (f *Function) Instance(id string) *Function {
	if f.instances == nil {
		return nil
	}
	f.instances.mu.Lock()
	defer f.instances.mu.Unlock()
	return f.instances.byID[id]
}

// RoutineSig is the name a call of a PL/pgSQL function gives the engine:
// its signature, followed for an instance of a polymorphic function by
// the instance's (SplitRoutineSig).
func (f *Function) RoutineSig() string {
	if f.Generic != nil {
		return f.Generic.Signature() + "\x00" + f.instID
	}
	return f.Signature()
}

// SplitRoutineSig splits RoutineSig's name into the function's signature
// and its instance's ("" for none).
func SplitRoutineSig(sig string) (fn, inst string) {
	fn, inst, _ = strings.Cut(sig, "\x00")
	return fn, inst
}

// polyTypeName is a type name that binds as t whatever t is: a call's
// casts to an instance's types, which need not have names (an anonymous
// record's).
func polyTypeName(t value.Type) *pg_query.TypeName {
	return &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode(polyTypeMark),
		pg_query.MakeStrNode(strconv.Itoa(int(t.Kind))), pg_query.MakeStrNode(strconv.Itoa(int(t.Mod)))}, Typemod: -1, Location: -1}
}

// polyTypeMark starts the names of polyTypeName, which no type has.
const polyTypeMark = "$type"

// polyTypeFromName reads a polyTypeName; ok is false for another name.
func polyTypeFromName(tn *pg_query.TypeName) (value.Type, bool) {
	if len(tn.Names) != 3 || tn.Names[0].GetString_().GetSval() != polyTypeMark {
		return value.Type{}, false
	}
	k, err1 := strconv.Atoi(tn.Names[1].GetString_().GetSval())
	m, err2 := strconv.Atoi(tn.Names[2].GetString_().GetSval())
	if err1 != nil || err2 != nil {
		return value.Type{}, false
	}
	return value.Type{Kind: value.Kind(k), Mod: int32(m)}, true
}

// ValidatorInstance is the instance a polymorphic PL/pgSQL function's
// body is checked with at CREATE, as PostgreSQL's validator does: integer
// for the element, integer[] and int4range for arrays and ranges.
func (f *Function) ValidatorInstance() *Function {
	pb := &polyBinding{elem: value.Int4Type, hasElem: true, arr: value.ArrayType(value.Int4), hasArr: true,
		rng: value.Type{Kind: value.Int4Range, Mod: -1}, hasRng: true, common: value.Int4Type, hasCommon: true,
		crng: value.Type{Kind: value.Int4Range, Mod: -1}, hasCrng: true}
	inst := *f
	inst.Generic, inst.instances, inst.Compiled, inst.ColPoly = f, nil, nil, nil
	inst.Params = append([]FuncParam(nil), f.Params...)
	for i, p := range inst.Params {
		if p.Poly != PolyNone {
			t, _ := pb.typeOf(p.Poly)
			inst.Params[i].Type, inst.Params[i].TypeName, inst.Params[i].Poly = t, polyTypeName(t), PolyNone
		}
	}
	inst.Cols = append([]plan.Column(nil), f.Cols...)
	for i, p := range f.ColPoly {
		if p != PolyNone {
			inst.Cols[i].Type, _ = pb.typeOf(p)
		}
	}
	inst.concretizeCode()
	return &inst
}

// refuseRecordOut refuses an OUT or INOUT parameter of type record, whose
// value's fields a call could not know before it runs.
func refuseRecordOut(b *binder, p *pg_query.FunctionParameter) error {
	return b.refuse(p.ArgType.GetLocation(), "an OUT or INOUT parameter of type record is not supported")
}

// instanceKey identifies an instance among its function's: its
// signature, and the record types of its parameters, whose names
// (record, or a type's) do not tell their fields apart.
func (f *Function) instanceKey() string {
	key := f.Signature()
	for _, p := range f.Params {
		if p.Type.Kind == value.Record || p.Type.Kind == value.ArrayOf(value.Record) {
			key += " #" + strconv.Itoa(int(p.Type.Mod))
		}
	}
	return key
}
