package value

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The oracle tests run the same conversions and operators through a real
// PostgreSQL with psql and compare outputs and SQLSTATEs. They run only
// when DELTAVIEW_TEST_PSQL holds psql connection arguments, e.g.
// "-h /tmp/pg -p 5432 -U postgres".

type oracleCase struct {
	sql  string                // the PostgreSQL expression
	eval func() (Value, error) // the same computation here
}

// psqlEvalAll runs every expression in one psql session and returns each
// one's text output, or "ERROR <code>".
func psqlEvalAll(t *testing.T, args string, exprs []string) []string {
	var in strings.Builder
	for i, e := range exprs {
		// Two lines per case: the marker is line 2i+1, the query 2i+2.
		fmt.Fprintf(&in, "\\echo @@%d\nselect %s;\n", i, strings.ReplaceAll(e, "\n", " "))
	}
	cmd := exec.Command("psql", append(strings.Fields(args), "-X", "-At", "-v", "VERBOSITY=verbose", "-f", "-")...)
	cmd.Stdin = strings.NewReader(in.String())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("psql: %v: %s", err, stderr.String())
	}
	out := make([]string, len(exprs))
	cur := -1
	for _, line := range strings.Split(stdout.String(), "\n") {
		if n, ok := strings.CutPrefix(line, "@@"); ok {
			fmt.Sscan(n, &cur)
			continue
		}
		if cur >= 0 && line != "" {
			if out[cur] != "" {
				out[cur] += "\n"
			}
			out[cur] += line
		}
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		var ln int
		if _, err := fmt.Sscanf(line, "psql:<stdin>:%d:", &ln); err != nil {
			continue
		}
		if i := strings.Index(line, "ERROR:  "); i >= 0 && ln >= 2 && len(line) >= i+13 {
			out[(ln-2)/2] = "ERROR " + line[i+8:i+13]
		}
	}
	return out
}

func goEval(c oracleCase) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("PANIC %v", r)
		}
	}()
	v, err := c.eval()
	if err != nil {
		return "ERROR " + pgerr.Code(err)
	}
	if v.IsNull() {
		return ""
	}
	return string(AppendText(nil, v))
}

func runOracle(t *testing.T, cases []oracleCase) {
	args := os.Getenv("DELTAVIEW_TEST_PSQL")
	if args == "" {
		t.Skip("DELTAVIEW_TEST_PSQL not set")
	}
	exprs := make([]string, len(cases))
	for i, c := range cases {
		exprs[i] = c.sql
	}
	want := psqlEvalAll(t, args, exprs)
	t.Logf("%d cases; first: %s = %q; last: %s = %q", len(cases), exprs[0], want[0], exprs[len(exprs)-1], want[len(want)-1])
	for i, c := range cases {
		if got := goEval(c); got != want[i] {
			t.Errorf("%s: got %q, PostgreSQL %q", c.sql, got, want[i])
		}
	}
}

func mustType(name string, mods ...int32) Type {
	t, err := TypeFromName(name, mods)
	if err != nil {
		panic(err)
	}
	return t
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func parseCase(s, typ string, mods ...int32) oracleCase {
	tn := typ
	if len(mods) > 0 {
		var ms []string
		for _, m := range mods {
			ms = append(ms, fmt.Sprint(m))
		}
		tn += "(" + strings.Join(ms, ",") + ")"
	}
	return oracleCase{
		// CAST(text AS ...) applies the modifier as an implicit coercion:
		// use an assignment-like form via a typed input function call.
		sql: quote(s) + "::" + tn,
		eval: func() (Value, error) {
			t := mustType(typ, mods...)
			v, err := Parse(s, Type{t.Kind, -1})
			if err != nil {
				return v, err
			}
			return Coerce(v, t, true)
		},
	}
}

func TestOracleParse(t *testing.T) {
	var cases []oracleCase
	add := func(typ string, inputs ...string) {
		for _, s := range inputs {
			cases = append(cases, parseCase(s, typ))
		}
	}
	add("int2", "0", " 12 ", "-32768", "32767", "32768", "-32769", "1.5", "", "+", "-0", "0x10", "1 2", "99999")
	add("int4", "2147483647", "-2147483648", "2147483648", "-2147483649", "  -7\t", "1e3", "00000000000000000000012")
	add("int8", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809", "99999999999999999999999")
	add("bool", "t", "TRUE", " yes ", "on", "of", "off", "o", "n", "1", "0", "2", "tr", "truex", "", "Y", "fals")
	add("numeric", "0", "1.50", "-0", "-0.00", "1e2", "1.5e1", "1.50e-1", ".5", "5.", "+.5e+1", ".", "1e", "NaN", "nan", "Infinity",
		"-Infinity", "inf", "-inf", "+inf", "infinityx", " 12.3400 ", "1e1000", "1e-1000", "1e-17000", "1e200000", "00012.000",
		"-1.23e-5", "123456789012345678901234567890.123456789", "1 2", "--1", "e5", "0e-20")
	add("float8", "0", "-0", "1e15", "1e-5", "0.1", "123456789012345", "1234567890123456", "1e-310", "1e-400", "1e400", "-1e400",
		"NaN", "-nan", "Infinity", "-inf", "inf", "1.5e300", "0.0001", "0.00001", "3.14159265358979", "abc", "", " 1.5 ", "1e",
		"5e-324", "2.5e-324", "1.7976931348623157e308", "100", "1e22", "123.456e-7", "-1.5e+20")
	add("float4", "1.1", "1e6", "123456", "1234567", "1e-5", "0.0001", "1e-50", "1e50", "3.4028235e38", "3.5e38", "1e-40",
		"NaN", "-Infinity", "0.333333343", "16777217", "-0")
	add("date", "2024-01-02", "2024-02-29", "2023-02-29", "2024-02-30", "2024-13-01", "0000-01-01", "0001-01-01 BC",
		"4714-11-24 BC", "4714-11-23 BC", "5874897-12-31", "5874898-01-01", "infinity", "-infinity", "epoch", "x", "",
		"2024-1-2", "20240102", "2024-01-02 03:04:05", " 2024-01-02 ", "2024-01-02T10:00", "1999-12-31", "1900-03-01", "10000-01-01",
		"2024-01-02 BC", "2024-01-02 AD")
	add("timestamp", "2024-01-02 03:04:05", "2024-01-02 03:04:05.5", "2024-01-02T03:04:05.123456789", "2024-01-02 03:04",
		"2024-01-02", "2024-01-02 24:00", "2024-01-02 24:00:01", "2024-01-02 25:00", "2024-01-02 23:59:60", "2024-01-02 03:04:05+05",
		"2024-01-02 03:04:05.9999995", "4714-11-24 00:00:00 BC", "294276-12-31 23:59:59.999999", "294277-01-01", "infinity",
		"-infinity", "epoch", "2024-01-02 3:4:5", "2024-01-02 03:04:05 BC", "garbage", "1999-12-31 23:59:59.000001",
		"0001-01-01 00:00:00 BC")
	add("timestamptz", "2024-01-02 03:04:05+05:30", "2024-01-02 03:04:05-08", "2024-01-02 03:04:05Z", "2024-01-02 03:04:05 +0200",
		"2024-01-02", "2024-01-02 03:04:05.123456789+05:30", "2024-01-02 03:04:05 UTC", "infinity", "0001-01-01 00:30:00+01",
		"2024-01-02 03:04:05+16")
	for _, s := range []string{"abc", "abc  ", "abcdef", "ab   x", "héllo", "  "} {
		cases = append(cases, parseCase(s, "varchar", 3), parseCase(s, "char", 3), parseCase(s, "char"), parseCase(s, "text"))
	}
	for _, s := range []string{"123.456", "-123.455", "999.995", "99.994", "0.001", "NaN", "Infinity", "12345.6", "-0.004"} {
		cases = append(cases, parseCase(s, "numeric", 5, 2), parseCase(s, "numeric", 3), parseCase(s, "numeric", 2, 5),
			parseCase(s, "numeric", 5, -2), parseCase(s, "numeric", 3, 3))
	}
	for _, s := range []string{"2024-01-02 03:04:05.123456", "2024-01-02 03:04:05.5", "1999-12-31 23:59:59.999999", "1960-01-01 00:00:00.55"} {
		cases = append(cases, parseCase(s, "timestamp", 0), parseCase(s, "timestamp", 2), parseCase(s, "timestamptz", 5))
	}
	runOracle(t, cases)
}

func binCase(a, b, typ, op string, f func(x, y Value) (Value, error)) oracleCase {
	return binCase2(a, typ, b, typ, op, f)
}

func binCase2(a, ta, b, tb, op string, f func(x, y Value) (Value, error)) oracleCase {
	return oracleCase{
		sql: fmt.Sprintf("%s::%s %s %s::%s", quote(a), ta, op, quote(b), tb),
		eval: func() (Value, error) {
			x, err := Parse(a, mustType(ta))
			if err != nil {
				return x, err
			}
			y, err := Parse(b, mustType(tb))
			if err != nil {
				return y, err
			}
			return f(x, y)
		},
	}
}

func TestOracleArith(t *testing.T) {
	ops := []struct {
		op string
		f  func(a, b Value) (Value, error)
	}{{"+", Add}, {"-", Sub}, {"*", Mul}, {"/", Div}, {"%", Mod}}
	sets := map[string][]string{
		"int2":    {"0", "1", "-1", "7", "-7", "32767", "-32768", "200", "3"},
		"int4":    {"0", "1", "-1", "7", "-7", "2147483647", "-2147483648", "65536", "3"},
		"int8":    {"0", "1", "-1", "7", "-7", "9223372036854775807", "-9223372036854775808", "4294967296", "3"},
		"numeric": {"0", "1", "-1", "3", "10.0", "4", "2", "3.0", "1.50", "-7.5", "2.25", "0.0001", "7", "123456789", "0.001", "1e20", "NaN", "Infinity", "-Infinity", "0.00", "99999999999999999999.5", "1e-20", "12345.678"},
		"float8":  {"0", "-0", "1", "0.1", "0.2", "3", "1e308", "1e-308", "-2.5", "NaN", "Infinity", "-Infinity", "1e-200", "1e200"},
		"float4":  {"0", "1", "3", "1.1", "3e38", "1e-30", "1e-20", "NaN", "Infinity", "-2.5", "0.1"},
	}
	var cases []oracleCase
	for typ, vals := range sets {
		for _, op := range ops {
			if op.op == "%" && strings.HasPrefix(typ, "float") {
				continue
			}
			for _, a := range vals {
				for _, b := range vals {
					cases = append(cases, binCase(a, b, typ, op.op, op.f))
				}
			}
		}
	}
	for _, d := range []string{"2024-01-01", "2024-03-01", "infinity", "-infinity", "5874897-12-31", "4714-11-24 BC"} {
		for _, n := range []string{"0", "1", "-1", "60", "2147483647"} {
			cases = append(cases, binCase2(d, "date", n, "int4", "+", Add), binCase2(d, "date", n, "int4", "-", Sub),
				binCase2(n, "int4", d, "date", "+", Add))
		}
		for _, e := range []string{"2024-01-01", "1999-12-31", "infinity"} {
			cases = append(cases, binCase2(d, "date", e, "date", "-", Sub))
		}
	}
	runOracle(t, cases)
}

func TestOracleUnary(t *testing.T) {
	var cases []oracleCase
	un := func(sql, s, typ string, f func(Value) (Value, error)) {
		cases = append(cases, oracleCase{sql: fmt.Sprintf(sql, quote(s)+"::"+typ), eval: func() (Value, error) {
			v, err := Parse(s, mustType(typ))
			if err != nil {
				return v, err
			}
			return f(v)
		}})
	}
	for _, s := range []string{"0", "1", "-32768", "32767"} {
		un("-%s", s, "int2", Neg)
		un("abs(%s)", s, "int2", Abs)
	}
	for _, s := range []string{"0", "-2147483648", "5"} {
		un("-%s", s, "int4", Neg)
		un("abs(%s)", s, "int4", Abs)
	}
	for _, s := range []string{"0", "-9223372036854775808", "-5"} {
		un("-%s", s, "int8", Neg)
		un("abs(%s)", s, "int8", Abs)
	}
	for _, s := range []string{"0", "-0", "1.5", "-2.5", "NaN", "-Infinity"} {
		un("-%s", s, "float8", Neg)
		un("abs(%s)", s, "float8", Abs)
	}
	for _, s := range []string{"0", "-0.00", "1.50", "-2.5", "NaN", "-Infinity", "Infinity"} {
		un("-%s", s, "numeric", Neg)
		un("abs(%s)", s, "numeric", Abs)
	}
	for _, s := range []string{"2.5", "-2.5", "3.5", "0.49999999999999994", "-0.5", "1e300", "NaN", "-Infinity", "2.7", "-2.7"} {
		un("round(%s)", s, "float8", func(v Value) (Value, error) { return Round(v, 0) })
		un("trunc(%s)", s, "float8", func(v Value) (Value, error) { return Trunc(v, 0) })
	}
	for _, s := range []string{"2.5", "-2.5", "1234.5678", "-1234.5678", "0.0049", "NaN", "Infinity", "99.95", "0", "5"} {
		for _, d := range []int64{0, 1, 2, 6, -1, -2, -5} {
			un(fmt.Sprintf("round(%%s, %d)", d), s, "numeric", func(v Value) (Value, error) { return Round(v, d) })
			un(fmt.Sprintf("trunc(%%s, %d)", d), s, "numeric", func(v Value) (Value, error) { return Trunc(v, d) })
		}
	}
	runOracle(t, cases)
}

func TestOracleCast(t *testing.T) {
	vals := map[string][]string{
		"int2":        {"0", "-32768", "300", "1"},
		"int4":        {"0", "2147483647", "-2147483648", "70000", "1", "-1"},
		"int8":        {"0", "9223372036854775807", "-9223372036854775808", "3000000000", "16777217", "9007199254740993"},
		"numeric":     {"0", "1.5", "2.5", "-2.5", "-0.5", "32767.5", "32768.4", "NaN", "Infinity", "-Infinity", "1e400", "1e-400", "123.456", "0.1", "1e39", "9223372036854775807.4", "9223372036854775807.5"},
		"float8":      {"0", "-0", "0.1", "0.30000000000000004", "2.5", "3.5", "-2.5", "1e20", "1e-10", "NaN", "Infinity", "3e38", "4e38", "1e-50", "9223372036854775807", "-9223372036854775808", "2147483647.4", "2147483647.5", "32767.5", "1.2345678901234567e-7", "123456789.123456789"},
		"float4":      {"0", "0.1", "1.1", "0.33333334", "2.5", "NaN", "-Infinity", "1e10", "3e38", "16777216"},
		"bool":        {"t", "f"},
		"text":        {"abc", " 12 ", "2024-01-02", "t", "1.50", "x  "},
		"char(4)":     {"ab", "abcd"},
		"varchar(4)":  {"ab  ", "abcd"},
		"date":        {"2024-01-02", "infinity", "0001-01-01 BC"},
		"timestamp":   {"2024-01-02 03:04:05.5", "1969-12-31 23:59:59", "-infinity"},
		"timestamptz": {"2024-01-02 03:04:05+02"},
	}
	targets := []string{"int2", "int4", "int8", "numeric", "numeric(5,2)", "float4", "float8", "bool", "text", "varchar(2)", "char(3)", "date", "timestamp", "timestamptz", "timestamp(0)"}
	var cases []oracleCase
	for from, vs := range vals {
		for _, s := range vs {
			for _, to := range targets {
				tt := parseTypeSpec(to)
				ft := parseTypeSpec(from)
				if !CanCast(ft.Kind, tt.Kind, true) {
					continue
				}
				cases = append(cases, oracleCase{
					sql: fmt.Sprintf("%s::%s::%s", quote(s), from, to),
					eval: func() (Value, error) {
						v, err := Parse(s, ft)
						if err != nil {
							return v, err
						}
						return Cast(v, tt, true)
					},
				})
			}
		}
	}
	runOracle(t, cases)
}

// parseTypeSpec reads "name" or "name(m,n)".
func parseTypeSpec(s string) Type {
	name, rest, ok := strings.Cut(s, "(")
	var mods []int32
	if ok {
		for _, m := range strings.Split(strings.TrimSuffix(rest, ")"), ",") {
			var n int32
			fmt.Sscan(m, &n)
			mods = append(mods, n)
		}
	}
	if name == "char" {
		name = "bpchar" // SQL's char(n); TypeFromName's bare char is "char"
	}
	return mustType(name, mods...)
}

// TestOracleRandom compares float output and numeric division on
// pseudo-random inputs.
func TestOracleRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var cases []oracleCase
	for i := 0; i < 400; i++ {
		f := math.Float64frombits(rng.Uint64())
		if i%2 == 0 {
			f = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-20))
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		cases = append(cases, parseCase(s, "float8"))
		s4 := strconv.FormatFloat(float64(float32(f)), 'g', -1, 32)
		cases = append(cases, parseCase(s4, "float4"))
	}
	for i := 0; i < 400; i++ {
		// Short decimals often land exactly between two floats.
		cases = append(cases, parseCase(fmt.Sprintf("%de%d", rng.Int64N(1e7), rng.IntN(30)-10), "float4"),
			parseCase(fmt.Sprintf("%de%d", rng.Int64N(1e16), rng.IntN(40)-10), "float8"))
	}
	randNum := func() string {
		s := strconv.FormatInt(rng.Int64N(1e12)-5e11, 10)
		return s[:len(s)-rng.IntN(min(len(s), 6))] + "e" + strconv.Itoa(rng.IntN(16)-8)
	}
	for i := 0; i < 400; i++ {
		a, b := randNum(), randNum()
		cases = append(cases, binCase(a, b, "numeric", "/", Div), binCase(a, b, "numeric", "%", Mod),
			binCase(a, b, "numeric", "*", Mul), binCase(a, b, "numeric", "-", Sub))
	}
	runOracle(t, cases)
}
