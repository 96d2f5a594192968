package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
)

var builtinRewrite = flag.Bool("builtin-rewrite", false,
	"rewrite internal/expr/builtin_catalog.jsonl from PostgreSQL's catalog and what the engine binds")

const builtinFile = "../expr/builtin_catalog.jsonl"

// TestBuiltinCatalog checks that every function and operator that the
// built-in catalog (pg_proc, pg_operator) lists binds in the engine: a
// call of it with NULL arguments of its types is not 42883. With
// -builtin-rewrite it writes the list afresh from PostgreSQL's catalog,
// keeping what the engine binds: the signatures TestFunctionSweep finds
// the engine answering, and the others that bind with typed NULLs.
func TestBuiltinCatalog(t *testing.T) {
	if *builtinRewrite {
		writeBuiltins(t)
		return
	}
	b := expr.BuiltinCatalog()
	if len(b.Procs) < 800 || len(b.Operators) < 300 || len(b.Types) < 10 {
		t.Fatalf("only %d functions, %d operators and %d types listed", len(b.Procs), len(b.Operators), len(b.Types))
	}
	s := engine.New().NewSession()
	defer s.Close()
	types := map[uint32]string{}
	for _, ty := range b.Types {
		types[ty.OID] = ty.Out
	}
	checked := 0
	for _, p := range b.Procs {
		args, ok := procArgs(p.RegProcedure, types)
		if !ok || p.Variadic != 0 {
			continue
		}
		if code := bindCode(s, builtinCall(p, args)); !bindsKnown(code) {
			t.Errorf("%s listed, but the engine does not bind it (%s)", p.RegProcedure, code)
		}
		checked++
	}
	for _, o := range b.Operators {
		args, ok := procArgs(o.RegOperator, types)
		if !ok {
			continue
		}
		if code := bindCode(s, operatorCall(o.Name, args)); !bindsKnown(code) {
			t.Errorf("%s listed, but the engine does not bind it (%s)", o.RegOperator, code)
		}
		checked++
	}
	if checked < 800 {
		t.Fatalf("only %d signatures checked", checked)
	}
}

// procArgs are the argument types of a regprocedure or regoperator text;
// ok is false when one is a pseudo-type (types) or the text is not read.
func procArgs(sig string, types map[uint32]string) (args []string, ok bool) {
	open := strings.LastIndex(sig, "(")
	if open < 0 || !strings.HasSuffix(sig, ")") {
		return nil, false
	}
	inner := sig[open+1 : len(sig)-1]
	if inner == "" {
		return nil, true
	}
	pseudo := map[string]bool{}
	for _, t := range types {
		pseudo[t] = true
	}
	for _, a := range strings.Split(inner, ",") {
		if pseudo[a] {
			return nil, false
		}
		args = append(args, a)
	}
	return args, true
}

func nulls(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "NULL::" + a
	}
	return out
}

// builtinCall is a statement calling p with NULL arguments of args.
func builtinCall(p *expr.BuiltinProc, args []string) string {
	call := p.RegProc + "(" + strings.Join(nulls(args), ", ") + ")"
	switch {
	case p.Kind == "a" && len(args) == 0:
		call = p.RegProc + "(*)"
	case p.RetSet:
		return "SELECT * FROM " + call
	case p.Kind == "w":
		call += " OVER ()"
	case p.Agg != nil && p.Agg.Kind != "n":
		direct := nulls(args[:p.Agg.NumDirect])
		call = p.RegProc + "(" + strings.Join(direct, ", ") + ") WITHIN GROUP (ORDER BY " + strings.Join(nulls(args[p.Agg.NumDirect:]), ", ") + ")"
	}
	return "SELECT " + call
}

// operatorCall is a statement applying the operator to NULLs of args
// (NONE for a prefix operator's left).
func operatorCall(name string, args []string) string {
	if args[0] == "NONE" {
		return "SELECT " + name + " NULL::" + args[1]
	}
	return "SELECT NULL::" + args[0] + " " + name + " NULL::" + args[1]
}

// bindCode prepares stmt in the engine and returns its SQLSTATE, "" when
// it binds.
func bindCode(s *engine.Session, stmt string) string {
	err := s.ExecScript("PREPARE builtin_check AS "+stmt, func(engine.Result) error { return nil })
	if err != nil {
		return pgerr.Code(err)
	}
	_ = s.ExecScript("DEALLOCATE builtin_check", func(engine.Result) error { return nil })
	return ""
}

// bindsKnown reports whether a bind that ended with code found the
// function: only a missing one, an unknown type, a refusal or a syntax
// error say it did not.
func bindsKnown(code string) bool {
	switch code {
	case pgerr.UndefinedFunction, pgerr.UndefinedObject, pgerr.FeatureNotSupported, pgerr.SyntaxError:
		return false
	}
	return true
}

// writeBuiltins writes builtinFile from PostgreSQL's catalog.
func writeBuiltins(t *testing.T) {
	if _, err := pgtest.FindBinDir(); err != nil {
		t.Skip("PostgreSQL is not installed")
	}
	pg := pgtest.Start(t).Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	sweep := readSweep(t)
	s := engine.New().NewSession()
	defer s.Close()
	if err := s.ExecScript("CREATE TYPE "+builtinEnum+" AS ENUM ('a', 'b')", func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	rows := func(q string) []string {
		rs, err := pg.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for rs.Next() {
			var line string
			if err := rs.Scan(&line); err != nil {
				t.Fatal(err)
			}
			var c bytes.Buffer
			if err := json.Compact(&c, []byte(line)); err != nil {
				t.Fatal(err)
			}
			out = append(out, c.String())
		}
		if rs.Err() != nil {
			t.Fatal(rs.Err())
		}
		return out
	}
	var b strings.Builder
	b.WriteString("# PostgreSQL 15's catalog rows of the functions, aggregates, window functions and operators that the engine\n")
	b.WriteString("# binds, and of the pseudo-types. Written by go test ./internal/engine -run TestBuiltinCatalog -builtin-rewrite.\n")
	pseudo := map[string]bool{}
	for _, line := range rows(builtinTypesQuery) {
		var ty expr.BuiltinType
		if err := json.Unmarshal([]byte(line), &ty); err != nil {
			t.Fatal(err)
		}
		pseudo[ty.Out] = true
		fmt.Fprintf(&b, "{\"type\":%s}\n", line)
	}
	procs, ops := 0, 0
	for _, line := range rows(builtinProcsQuery) {
		var p expr.BuiltinProc
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		key := map[string]string{"f": "func ", "a": "agg ", "w": "window "}[p.Kind] + p.RegProcedure
		st, swept := sweep[key]
		if swept && !strings.HasPrefix(st, "same") && !strings.HasPrefix(st, "different") && !strings.HasPrefix(st, "error") {
			continue
		}
		args, ok := procArgs(p.RegProcedure, nil)
		for _, a := range args {
			ok = ok && !pseudo[a]
		}
		switch {
		case ok && p.Variadic == 0:
			// Checked as TestBuiltinCatalog checks it.
			if !bindsKnown(bindCode(s, builtinCall(&p, args))) {
				continue
			}
		case !swept && !supportOverArrays(args):
			continue
		case !swept && !bindsKnown(bindCode(s, builtinCallOf(&p, pseudo))):
			continue
		case strings.HasPrefix(st, "error") && !bindsKnown(bindCode(s, builtinCallOf(&p, pseudo))):
			continue
		}
		fmt.Fprintf(&b, "{\"proc\":%s}\n", line)
		procs++
	}
	for _, line := range rows(builtinOpsQuery) {
		var o struct {
			expr.BuiltinOperator
			Key string `json:"key"`
		}
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		st, swept := sweep[o.Key]
		if swept && !strings.HasPrefix(st, "same") && !strings.HasPrefix(st, "different") {
			continue
		}
		args, ok := procArgs(o.RegOperator, nil)
		for _, a := range args {
			ok = ok && !pseudo[a]
		}
		if !ok && !swept {
			// Over anyenum, which the sweep does not reach: checked
			// over an enum type.
			enums, over := enumArgs(args)
			if !over || !bindsKnown(bindCode(s, operatorCall(o.Name, enums))) {
				continue
			}
		} else if ok && !bindsKnown(bindCode(s, operatorCall(o.Name, args))) {
			continue
		}
		line, err := json.Marshal(o.BuiltinOperator)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "{\"op\":%s}\n", line)
		ops++
	}
	t.Logf("%d functions, %d operators, %d pseudo-types", procs, ops, len(pseudo))
	if err := os.WriteFile(builtinFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// supportOverArrays reports whether args are those of an index support
// function over arrays, ranges, multiranges or enums (btarraycmp(anyarray,
// anyarray), hash_array, hash_range, enum_cmp), which the sweep leaves
// out: the catalog lists it when it binds over integer[], int4range,
// int4multirange or builtinEnum.
func supportOverArrays(args []string) bool {
	for _, a := range args {
		if a != "anyarray" && a != "anyrange" && a != "anymultirange" && a != "anyenum" && a != "bigint" {
			return false
		}
	}
	return len(args) > 0
}

// builtinEnum is the enum type operators over anyenum are checked over.
const builtinEnum = "builtin_check_enum"

// enumArgs are args with anyenum made builtinEnum; over is false when
// another pseudo-type is among them, or none is anyenum.
func enumArgs(args []string) (out []string, over bool) {
	for _, a := range args {
		switch a {
		case "anyenum":
			out, over = append(out, builtinEnum), true
		case "NONE", "integer", "text", "boolean":
			out = append(out, a)
		default:
			return nil, false
		}
	}
	return out, over
}

// builtinCallOf is builtinCall with the pseudo-types of p's arguments
// made integer (anyarray integer[]).
func builtinCallOf(p *expr.BuiltinProc, pseudo map[string]bool) string {
	args, _ := procArgs(p.RegProcedure, nil)
	for i, a := range args {
		switch {
		case strings.Contains(a, "array"):
			args[i] = "integer[]"
		case strings.Contains(a, "multirange"):
			args[i] = "int4multirange"
		case strings.Contains(a, "range"):
			args[i] = "int4range"
		case a == "anyenum":
			args[i] = builtinEnum
		case pseudo[a]:
			args[i] = "integer"
		}
	}
	return builtinCall(p, args)
}

const builtinTypesQuery = `
SELECT json_build_object('oid', t.oid::int8, 'typname', t.typname, 'out', format_type(t.oid, NULL), 'typtype', t.typtype,
  'typcategory', t.typcategory, 'typlen', t.typlen, 'typbyval', t.typbyval, 'typalign', t.typalign,
  'typstorage', t.typstorage, 'typarray', t.typarray::int8)::text
FROM pg_type t WHERE t.typtype = 'p' AND t.typname <> 'record' ORDER BY t.oid`

const builtinProcsQuery = `
SELECT json_build_object('oid', p.oid::int8, 'proname', p.proname, 'prokind', p.prokind, 'proisstrict', p.proisstrict,
  'proretset', p.proretset, 'provolatile', p.provolatile, 'proparallel', p.proparallel, 'proleakproof', p.proleakproof,
  'pronargs', p.pronargs, 'pronargdefaults', p.pronargdefaults, 'prorettype', p.prorettype::int8,
  'proargtypes', p.proargtypes::oid[]::int8[], 'provariadic', p.provariadic::int8, 'procost', p.procost, 'prorows', p.prorows,
  'prolang', p.prolang::int8, 'prosrc', p.prosrc, 'proargnames', p.proargnames,
  'regproc', p.oid::regproc::text, 'regprocedure', p.oid::regprocedure::text,
  'args', pg_get_function_arguments(p.oid), 'identargs', pg_get_function_identity_arguments(p.oid),
  'result', pg_get_function_result(p.oid),
  'agg', CASE WHEN a.aggfnoid IS NOT NULL THEN json_build_object('aggkind', a.aggkind,
    'aggnumdirectargs', a.aggnumdirectargs,
    'aggtransfn', json_build_object('oid', a.aggtransfn::oid::int8, 'name', nullif(a.aggtransfn::text, '-')),
    'aggfinalfn', json_build_object('oid', a.aggfinalfn::oid::int8, 'name', nullif(a.aggfinalfn::text, '-')),
    'aggcombinefn', json_build_object('oid', a.aggcombinefn::oid::int8, 'name', nullif(a.aggcombinefn::text, '-')),
    'aggserialfn', json_build_object('oid', a.aggserialfn::oid::int8, 'name', nullif(a.aggserialfn::text, '-')),
    'aggdeserialfn', json_build_object('oid', a.aggdeserialfn::oid::int8, 'name', nullif(a.aggdeserialfn::text, '-')),
    'aggmtransfn', json_build_object('oid', a.aggmtransfn::oid::int8, 'name', nullif(a.aggmtransfn::text, '-')),
    'aggminvtransfn', json_build_object('oid', a.aggminvtransfn::oid::int8, 'name', nullif(a.aggminvtransfn::text, '-')),
    'aggmfinalfn', json_build_object('oid', a.aggmfinalfn::oid::int8, 'name', nullif(a.aggmfinalfn::text, '-')),
    'aggfinalextra', a.aggfinalextra, 'aggmfinalextra', a.aggmfinalextra, 'aggfinalmodify', a.aggfinalmodify,
    'aggmfinalmodify', a.aggmfinalmodify, 'aggsortop', a.aggsortop::int8, 'aggtranstype', a.aggtranstype::int8,
    'aggtransspace', a.aggtransspace, 'aggmtranstype', a.aggmtranstype::int8, 'aggmtransspace', a.aggmtransspace,
    'agginitval', a.agginitval, 'aggminitval', a.aggminitval) END)::text
FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind IN ('f', 'a', 'w')
  AND NOT EXISTS (SELECT FROM pg_type y WHERE p.oid IN (y.typinput, y.typoutput, y.typreceive, y.typsend, y.typmodin, y.typmodout, y.typanalyze, y.typsubscript))
  AND p.prorettype NOT IN ('internal'::regtype, 'cstring'::regtype, 'language_handler'::regtype, 'fdw_handler'::regtype,
    'index_am_handler'::regtype, 'table_am_handler'::regtype, 'tsm_handler'::regtype)
  AND NOT 'internal'::regtype = ANY (p.proargtypes::oid[])
ORDER BY p.oid`

const builtinOpsQuery = `
SELECT json_build_object('oid', o.oid::int8, 'oprname', o.oprname, 'oprkind', o.oprkind, 'oprcanmerge', o.oprcanmerge,
  'oprcanhash', o.oprcanhash, 'oprleft', o.oprleft::int8, 'oprright', o.oprright::int8, 'oprresult', o.oprresult::int8,
  'oprcom', o.oprcom::int8, 'oprnegate', o.oprnegate::int8,
  'oprcode', json_build_object('oid', o.oprcode::oid::int8, 'name', nullif(o.oprcode::text, '-')),
  'oprrest', json_build_object('oid', o.oprrest::oid::int8, 'name', nullif(o.oprrest::text, '-')),
  'oprjoin', json_build_object('oid', o.oprjoin::oid::int8, 'name', nullif(o.oprjoin::text, '-')),
  'regoper', o.oid::regoper::text, 'regoperator', o.oid::regoperator::text,
  'key', 'op ' || CASE WHEN o.oprleft = 0 THEN '' ELSE format_type(o.oprleft, NULL) || ' ' END || o.oprname || ' ' || format_type(o.oprright, NULL))::text
FROM pg_operator o WHERE o.oprnamespace = 'pg_catalog'::regnamespace ORDER BY o.oid`
