package engine

import (
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// The catalog relations list the built-in functions, aggregates,
// operators and pseudo-types as PostgreSQL 15's catalog has them
// (expr.BuiltinCatalog, read once), after the user's objects: pg_proc,
// pg_aggregate, pg_operator and pg_type keep no state, their rows are
// made when a statement reads them.

// catAgg is what pg_aggregate shows of a user-defined aggregate.
type catAgg struct {
	trans, final, combine, mtrans, minv, mfinal string // the functions' names, "" for none
	transType, mTransType                       uint32
	initVal, mInitVal                           any
}

// catOper is a user-defined operator, as pg_operator lists it.
type catOper struct {
	oid                 uint32
	name                string
	left, right, result uint32
	code                string
	com, negate         string
	sig                 string // as regoperator prints it
	nsp                 uint32 // its schema's oid, 0 for public
	schema              string // its schema, "" for public
}

// catalogOperators lists the operators CREATE OPERATOR made, then those
// of the installed extensions.
func (e *Engine) catalogOperators() []catOper {
	var out []catOper
	for _, name := range sortedKeys(e.opers) {
		for _, o := range e.opers[name] {
			c := catOper{oid: objectOID("operator", o.Signature()), name: o.Name, right: e.typeOID(o.Right.Type, o.Right.Domain),
				code: sql.FuncName(o.Func), com: o.Commutator, negate: o.Negator, sig: o.Signature()}
			if o.Schema != "" {
				c.nsp, c.schema = schemaOID(o.Schema), o.Schema
			}
			if len(o.Func) == 2 && sql.FuncName(o.Func[:1]) != "public" {
				c.code = sql.FuncName(o.Func[:1]) + "." + c.code // the key of a function of a schema
			}
			var args []value.Kind
			if o.Left != nil {
				c.left = e.typeOID(o.Left.Type, o.Left.Domain)
				args = append(args, o.Left.Type.Kind)
			}
			args = append(args, o.Right.Type.Kind)
			for _, f := range e.funcs[c.code] {
				if len(f.Params) != len(args) || len(f.Cols) != 1 || !f.BaseType {
					continue
				}
				match := true
				for i, p := range f.Params {
					match = match && p.Type.Kind == args[i]
				}
				if match {
					c.result = e.typeOID(f.Cols[0].Type, nil)
				}
			}
			out = append(out, c)
		}
	}
	return append(out, e.extCatalogOperators()...)
}

// pgProcBuiltins lists the built-in functions in pg_proc.
func pgProcBuiltins(r *catRows) {
	none := value.NewReg(value.RegProc, 0, "")
	for _, p := range expr.BuiltinCatalog().Procs {
		var names any
		if len(p.ArgNames) > 0 {
			names = p.ArgNames
		}
		r.add("oid", p.OID, "proname", p.Name, "pronamespace", uint32(pgCatalogOID), "proowner", uint32(superuserOID),
			"prolang", p.Lang, "procost", p.Cost, "prorows", p.Rows, "provariadic", p.Variadic, "prosupport", none,
			"prokind", p.Kind, "prosecdef", false, "proleakproof", p.LeakProof, "proisstrict", p.Strict, "proretset", p.RetSet,
			"provolatile", p.Volatile, "proparallel", p.Parallel, "pronargs", p.NArgs, "pronargdefaults", p.NArgDefaults,
			"prorettype", p.RetType, "proargtypes", p.ArgTypes, "proargnames", names, "prosrc", p.Src)
	}
}

func regproc(ref expr.RegRef) value.Value {
	return value.NewReg(value.RegProc, ref.OID, ref.Name)
}

// pgAggregate lists the user-defined aggregates, then the built-in ones.
func pgAggregate(o *catalogObjects, r *catRows) {
	byName := map[string]catProc{}
	for _, p := range o.procs {
		if p.kind == "" {
			if _, dup := byName[p.name]; !dup {
				byName[p.name] = p
			}
		}
	}
	fn := func(name string) value.Value {
		if name == "" {
			return value.NewReg(value.RegProc, 0, "")
		}
		text := expr.QuoteIdent(name)
		if sc, n, ok := strings.Cut(name, "."); ok && o.e.schemas[sc] != nil {
			text = expr.QuoteIdent(sc) + "." + expr.QuoteIdent(n) // a function of another schema's key
		}
		return value.NewReg(value.RegProc, byName[name].oid, text)
	}
	for _, p := range o.procs {
		a := p.agg
		if a == nil {
			continue
		}
		var mtype any = uint32(0)
		if a.mTransType != 0 {
			mtype = a.mTransType
		}
		r.add("aggfnoid", value.NewReg(value.RegProc, p.oid, expr.QuoteIdent(p.name)), "aggkind", "n", "aggnumdirectargs", 0,
			"aggtransfn", fn(a.trans), "aggfinalfn", fn(a.final), "aggcombinefn", fn(a.combine), "aggserialfn", fn(""),
			"aggdeserialfn", fn(""), "aggmtransfn", fn(a.mtrans), "aggminvtransfn", fn(a.minv), "aggmfinalfn", fn(a.mfinal),
			"aggfinalextra", false, "aggmfinalextra", false, "aggfinalmodify", "r", "aggmfinalmodify", "r", "aggsortop", uint32(0),
			"aggtranstype", a.transType, "aggtransspace", 0, "aggmtranstype", mtype, "aggmtransspace", 0,
			"agginitval", a.initVal, "aggminitval", a.mInitVal)
	}
	for _, p := range expr.BuiltinCatalog().Procs {
		a := p.Agg
		if a == nil {
			continue
		}
		var init, minit any
		if a.InitVal != nil {
			init = *a.InitVal
		}
		if a.MInitVal != nil {
			minit = *a.MInitVal
		}
		r.add("aggfnoid", value.NewReg(value.RegProc, p.OID, p.RegProc), "aggkind", a.Kind, "aggnumdirectargs", a.NumDirect,
			"aggtransfn", regproc(a.TransFn), "aggfinalfn", regproc(a.FinalFn), "aggcombinefn", regproc(a.CombineFn),
			"aggserialfn", regproc(a.SerialFn), "aggdeserialfn", regproc(a.DeserialFn), "aggmtransfn", regproc(a.MTransFn),
			"aggminvtransfn", regproc(a.MInvTransFn), "aggmfinalfn", regproc(a.MFinalFn), "aggfinalextra", a.FinalExtra,
			"aggmfinalextra", a.MFinalExtra, "aggfinalmodify", a.FinalModify, "aggmfinalmodify", a.MFinalModify,
			"aggsortop", a.SortOp, "aggtranstype", a.TransType, "aggtransspace", a.TransSpace, "aggmtranstype", a.MTransType,
			"aggmtransspace", a.MTransSpace, "agginitval", init, "aggminitval", minit)
	}
}

// pgOperator lists the user-defined operators, then the built-in ones.
func pgOperator(o *catalogObjects, r *catRows) {
	byName := map[string]uint32{}
	for _, p := range o.procs {
		if _, dup := byName[p.name]; !dup && p.kind == "" {
			byName[p.name] = p.oid
		}
	}
	bySig := map[string]uint32{}
	for _, op := range o.opers {
		bySig[op.name+"/"+strconv.FormatUint(uint64(op.left), 10)+"/"+strconv.FormatUint(uint64(op.right), 10)] = op.oid
	}
	// other is the oid of a commutator or negator: the operator of that
	// name over the same types (swapped for a commutator), 0 for none.
	other := func(op catOper, name string, swap bool) uint32 {
		if name == "" {
			return 0
		}
		l, rt := op.left, op.right
		if swap {
			l, rt = rt, l
		}
		return bySig[name+"/"+strconv.FormatUint(uint64(l), 10)+"/"+strconv.FormatUint(uint64(rt), 10)]
	}
	none := value.NewReg(value.RegProc, 0, "")
	for _, op := range o.opers {
		kind := "b"
		if op.left == 0 {
			kind = "l"
		}
		nsp := op.nsp
		if nsp == 0 {
			nsp = publicOID
		}
		r.add("oid", op.oid, "oprname", op.name, "oprnamespace", nsp, "oprowner", uint32(superuserOID),
			"oprkind", kind, "oprcanmerge", false, "oprcanhash", false, "oprleft", op.left, "oprright", op.right,
			"oprresult", op.result, "oprcom", other(op, op.com, true), "oprnegate", other(op, op.negate, false),
			"oprcode", value.NewReg(value.RegProc, byName[op.code], expr.QuoteIdent(op.code[strings.LastIndexByte(op.code, '.')+1:])), "oprrest", none, "oprjoin", none)
	}
	for _, op := range expr.BuiltinCatalog().Operators {
		r.add("oid", op.OID, "oprname", op.Name, "oprnamespace", uint32(pgCatalogOID), "oprowner", uint32(superuserOID),
			"oprkind", op.Kind, "oprcanmerge", op.CanMerge, "oprcanhash", op.CanHash, "oprleft", op.Left, "oprright", op.Right,
			"oprresult", op.Result, "oprcom", op.Com, "oprnegate", op.Negate, "oprcode", regproc(op.Code),
			"oprrest", regproc(op.Rest), "oprjoin", regproc(op.Join))
	}
}

// pgTypeBuiltins lists the pseudo-types in pg_type, with the privileges
// a superuser's GRANT gave on them (typacl).
func pgTypeBuiltins(e *Engine, r *catRows) {
	none := value.NewReg(value.RegProc, 0, "")
	listed := map[uint32]bool{} // the built-in types' arrays, listed with them (_record)
	for _, b := range value.BuiltinTypes {
		listed[b.OID], listed[b.ArrayOID] = true, true
	}
	for _, t := range expr.BuiltinCatalog().Types {
		if listed[t.OID] {
			continue
		}
		io := pseudoIORegs(t.Name) // syscat_pseudo_io.go
		r.add("oid", t.OID, "typname", t.Name, "typnamespace", uint32(pgCatalogOID), "typowner", uint32(superuserOID), "typlen", t.Len,
			"typbyval", t.ByVal, "typtype", t.Type, "typcategory", t.Category, "typispreferred", false,
			"typisdefined", true, "typdelim", ",", "typrelid", uint32(0), "typsubscript", none, "typelem", uint32(0),
			"typarray", t.Array, "typinput", io[0], "typoutput", io[1], "typreceive", io[2], "typsend", io[3], "typmodin", none,
			"typmodout", none, "typanalyze", none, "typalign", t.Align, "typstorage", t.Storage, "typnotnull", false,
			"typbasetype", uint32(0), "typtypmod", -1, "typndims", 0, "typcollation", uint32(0), "typacl", e.typeACLText(t.Name))
	}
}

// operatorText is how regoperator prints op under the search path path:
// bare when the path finds it (its schema is on the path, and no schema
// before it has an operator of the name and types), qualified otherwise.
func operatorText(opers []catOper, op catOper, path []string) string {
	schema := op.schema
	if schema == "" {
		schema = "public"
	}
	bare := strings.TrimPrefix(op.sig, op.schema+".")
	at := slices.Index(path, schema)
	visible := at >= 0
	for _, other := range opers {
		if visible && other.oid != op.oid && other.name == op.name && other.left == op.left && other.right == op.right {
			s := other.schema
			if s == "" {
				s = "public"
			}
			if i := slices.Index(path, s); i >= 0 && i < at {
				visible = false
			}
		}
	}
	if visible {
		return bare
	}
	return schema + "." + bare
}
