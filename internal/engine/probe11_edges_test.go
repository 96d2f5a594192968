package engine_test

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
)

var edgeProbe = flag.String("edge-probe", "", "run TestFunctionEdges and write the calls that differ from PostgreSQL to this file")

// edgeTypes are edge samples of the supported types (NULLs, empty values,
// extremes, NaN and infinities, leap days, zones), three per pass, in the
// form of sweepTypes.
var edgeTypes = [2]map[string][]string{{
	"boolean":                     {"NULL", "true", "false"},
	"smallint":                    {"32767", "-32768", "0"},
	"integer":                     {"2147483647", "-2147483648", "0"},
	"bigint":                      {"9223372036854775807", "-9223372036854775808", "0"},
	"numeric":                     {"'NaN'", "'Infinity'", "'-Infinity'"},
	"real":                        {"'NaN'", "'Infinity'", "'-0'"},
	"double precision":            {"'NaN'", "'-Infinity'", "'-0'"},
	"text":                        {"''", "' '", "'ÄéЖ€𝄞'"},
	"character varying":           {"''", "' a '", "'ÄéЖ'"},
	"character":                   {"''", "' '", "'é'"},
	"date":                        {"'infinity'", "'-infinity'", "'4713-01-01 BC'"},
	"timestamp without time zone": {"'infinity'", "'-infinity'", "'294276-12-31 23:59:59.999999'"},
	"timestamp with time zone":    {"'infinity'", "'-infinity'", "'4713-01-01 00:00:00+00 BC'"},
	"interval":                    {"'0'", "'178000000 years'", "'-2147483648 days'"},
	"time without time zone":      {"'24:00:00'", "'00:00:00'", "'23:59:59.999999'"},
	"time with time zone":         {"'24:00:00-15:59'", "'00:00:00+15:59'", "'12:00:00.000001+00'"},
	"json":                        {"'null'", "'{}'", "'[]'"},
	"jsonb":                       {"'null'", "'{}'", "'[]'"},
	"jsonpath":                    {"'$'", "'strict $.a'", "'$[last]'"},
	"bytea":                       {`'\x'`, `'\x00'`, `'\xffffffff'`},
	"bit":                         {"'0'", "'1'", "'0'"},
	"bit varying":                 {"''", "'0'", "'1111111111111111111111111111111111111111111111111111111111111111111'"},
	"uuid":                        {"'00000000-0000-0000-0000-000000000000'", "'{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}'", "'A0EEBC999C0B4EF8BB6D6BB9BD380A11'"},
	"tsvector":                    {"''", "'a:1,2,3'", "'''with space'':16383'"},
	"tsquery":                     {"''", "'!a'", "'a <2> b'"},
	"int4range":                   {"'empty'", "'(,)'", "'[-2147483648,2147483646]'"},
	"int8range":                   {"'empty'", "'(,)'", "'[1,1]'"},
	"numrange":                    {"'empty'", "'(,)'", "'[1,1]'"},
	"daterange":                   {"'empty'", "'(,)'", "'[-infinity,infinity]'"},
	"tsrange":                     {"'empty'", "'(,)'", "'[-infinity,infinity)'"},
	"tstzrange":                   {"'empty'", "'(,)'", "'[2000-02-29,2000-02-29]'"},
	"int4multirange":              {"'{}'", "'{empty}'", "'{(,)}'"},
	"int8multirange":              {"'{}'", "'{(,)}'", "'{[1,1]}'"},
	"nummultirange":               {"'{}'", "'{(,)}'", "'{[1,1]}'"},
	"datemultirange":              {"'{}'", "'{(,)}'", "'{[-infinity,infinity]}'"},
	"tsmultirange":                {"'{}'", "'{(,)}'", "'{[-infinity,infinity)}'"},
	"tstzmultirange":              {"'{}'", "'{(,)}'", "'{empty}'"},
	"inet":                        {"'0.0.0.0/0'", "'::/0'", "'255.255.255.255'"},
	"cidr":                        {"'0.0.0.0/0'", "'::/0'", "'255.255.255.255/32'"},
	"macaddr":                     {"'ff:ff:ff:ff:ff:ff'", "'00:00:00:00:00:00'", "'ff:ff:ff:ff:ff:ff'"},
	"macaddr8":                    {"'ff:ff:ff:ff:ff:ff:ff:ff'", "'00:00:00:00:00:00:00:00'", "'08:00:2b:01:02:03'"},
	"money":                       {"'92233720368547758.07'", "'-92233720368547758.08'", "'0'"},
	"point":                       {"'(0,0)'", "'(NaN,1)'", "'(1e308,-1e308)'"},
	"lseg":                        {"'[(0,0),(0,0)]'", "'[(0,0),(0,1)]'", "'[(1e300,0),(0,1e300)]'"},
	"box":                         {"'(0,0),(0,0)'", "'(1,1),(1,1)'", "'(1e300,1e300),(-1e300,-1e300)'"},
	"path":                        {"'[(0,0)]'", "'((0,0))'", "'[(0,0),(0,0)]'"},
	"polygon":                     {"'((0,0))'", "'((0,0),(0,0))'", "'((0,0),(1,0),(1,1),(0,1))'"},
	"line":                        {"'{0,1,0}'", "'{1,0,0}'", "'{1,1,1e300}'"},
	"circle":                      {"'<(0,0),0>'", "'<(NaN,0),1>'", "'<(1,1),1e300>'"},
	"xml":                         {"''", "'<a/>'", "'<!-- c -->'"},
}, {
	"boolean":                     {"true", "NULL", "false"},
	"smallint":                    {"NULL", "1", "-1"},
	"integer":                     {"NULL", "1", "-1"},
	"bigint":                      {"NULL", "-1", "1"},
	"numeric":                     {"NULL", "'-0.000'", "'123456789012345678901234567890.123456789012345678901'"},
	"real":                        {"NULL", "'-Infinity'", "'3.4028235e38'"},
	"double precision":            {"NULL", "'Infinity'", "'1.7976931348623157e308'"},
	"text":                        {"NULL", "'a''b\\c'", "E'tab\\there\\nnl'"},
	"character varying":           {"NULL", "''", "'x'"},
	"character":                   {"NULL", "'x'", "''"},
	"date":                        {"NULL", "'2024-02-29'", "'5874897-12-31'"},
	"timestamp without time zone": {"NULL", "'2024-02-29 12:00:00'", "'4713-01-01 00:00:00 BC'"},
	"timestamp with time zone":    {"NULL", "'2024-02-29 23:30:00-11:30'", "'294276-12-31 23:59:59.999999+00'"},
	"interval":                    {"NULL", "'1 mon -1 day'", "'-00:00:00.000001'"},
	"time without time zone":      {"NULL", "'12:34:56.789'", "'00:00:00.000001'"},
	"time with time zone":         {"NULL", "'00:00:00-15:59'", "'23:59:59.999999+15:59'"},
	"json":                        {"NULL", "'{\"a\":null,\"a\":2}'", "'[[],{},\"\",0]'"},
	"jsonb":                       {"NULL", "'{\"a\":null,\"b\":{}}'", "'[[],{},\"\",0,1.0e20]'"},
	"jsonpath":                    {"NULL", "'$.a ? (@ == null)'", "'$.**'"},
	"bytea":                       {"NULL", `'\x00ff'`, `'\x'`},
	"bit":                         {"NULL", "'1'", "'0'"},
	"bit varying":                 {"NULL", "''", "'10000000000000000000000000000000000000000000000000000000000000000000000001'"},
	"uuid":                        {"NULL", "'ffffffff-ffff-ffff-ffff-ffffffffffff'", "'00000000-0000-0000-0000-000000000000'"},
	"tsvector":                    {"NULL", "''", "'a b:1A'"},
	"tsquery":                     {"NULL", "''", "'!!a'"},
	"int4range":                   {"NULL", "'empty'", "'[1,2)'"},
	"int8range":                   {"NULL", "'(-9223372036854775808,9223372036854775806]'", "'empty'"},
	"numrange":                    {"NULL", "'[NaN,NaN]'", "'(-Infinity,Infinity)'"},
	"daterange":                   {"NULL", "'empty'", "'[2000-02-29,2000-02-29]'"},
	"tsrange":                     {"NULL", "'empty'", "'(2000-02-29,2000-03-01)'"},
	"tstzrange":                   {"NULL", "'empty'", "'[-infinity,infinity]'"},
	"int4multirange":              {"NULL", "'{}'", "'{[1,2),[2,3)}'"},
	"int8multirange":              {"NULL", "'{}'", "'{empty,[1,2]}'"},
	"nummultirange":               {"NULL", "'{}'", "'{(-Infinity,Infinity)}'"},
	"datemultirange":              {"NULL", "'{}'", "'{[2000-02-29,2000-02-29]}'"},
	"tsmultirange":                {"NULL", "'{}'", "'{empty}'"},
	"tstzmultirange":              {"NULL", "'{}'", "'{(,)}'"},
	"inet":                        {"NULL", "'::ffff:1.2.3.4'", "'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128'"},
	"cidr":                        {"NULL", "'::ffff:1.2.3.4/128'", "'ffff::/16'"},
	"macaddr":                     {"NULL", "'08002b010203'", "'0800.2b01.0203'"},
	"macaddr8":                    {"NULL", "'08002b01020304ff'", "'ff:ff:ff:ff:ff:ff:ff:ff'"},
	"money":                       {"NULL", "'0.005'", "'-1'"},
	"point":                       {"NULL", "'(-0,0)'", "'(Infinity,-Infinity)'"},
	"lseg":                        {"NULL", "'[(NaN,0),(1,1)]'", "'[(0,0),(1,1)]'"},
	"box":                         {"NULL", "'(NaN,0),(1,1)'", "'(0,0),(1,1)'"},
	"path":                        {"NULL", "'[(0,0),(1e300,1e300)]'", "'((0,0),(1,1),(2,0))'"},
	"polygon":                     {"NULL", "'((0,0),(1e300,0),(0,1e300))'", "'((0,0),(1,1))'"},
	"line":                        {"NULL", "'{0,-1,0}'", "'{1,-1,0}'"},
	"circle":                      {"NULL", "'<(0,0),1>'", "'<(0,0),Infinity>'"},
	"xml":                         {"NULL", "'<a>&amp;</a>'", "''"},
}}

// edgeSkip are functions whose edge calls would run for too long or
// allocate too much in either system (series of every integer, strings
// of two billion characters).
var edgeSkip = []string{"generate_series", "generate_subscripts", "repeat", "lpad", "rpad", "array_fill", "pg_sleep", "overlay", "string_agg", "set_byte", "set_bit"}

// TestFunctionEdges calls every signature of TestFunctionSweep again with
// edge samples (edgeTypes) in PostgreSQL and in the engine, and writes
// every call whose answer differs to the file -edge-probe names. It is a
// tool to find gaps: the calls it finds become datadriven cases.
func TestFunctionEdges(t *testing.T) {
	if *edgeProbe == "" {
		t.Skip("-edge-probe FILE runs it")
	}
	saved := maps.Clone(sweepTypes)
	t.Cleanup(func() { sweepTypes = saved })
	pg := pgtest.Start(t).Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
	t.Cleanup(cancel)
	tw := newPGTwin(t, ctx, pg, engine.New())
	run := func(sql string) ([]string, string) { o := tw.run(sql); return o.rows, o.code }
	runPG := func(sql string) ([]string, string) { o := tw.runPG(sql); return o.rows, o.code }
	sameCode(t, run, runPG, "SET statement_timeout = '3s'")
	var out strings.Builder
	n, diff := 0, 0
	for _, edges := range edgeTypes {
		sweepTypes = maps.Clone(saved)
		maps.Copy(sweepTypes, edges)
		for _, s := range sweepSignatures(t, runPG) {
			if slices.ContainsFunc(edgeSkip, func(f string) bool { return strings.Contains(s.key, " "+f+"(") }) {
				continue
			}
			for _, q := range s.calls {
				n++
				want, wantErr := runPG(q)
				got, gotErr := sweepRun(run, q)
				if wantErr == gotErr && (wantErr != "" || !s.values || slices.Equal(got, want) || sweepLastDigits(got, want)) {
					continue
				}
				diff++
				fmt.Fprintf(&out, "%s\n  %s\n  deltaview %s %s\n  PostgreSQL %s %s\n", s.key, q, show(got), gotErr, show(want), wantErr)
			}
		}
	}
	t.Logf("%d calls, %d differ", n, diff)
	if err := os.WriteFile(*edgeProbe, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
