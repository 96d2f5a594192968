package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestDeparseRandom creates tables with random checks and defaults over
// columns of several types, in deltaview and in PostgreSQL, and compares
// pg_get_constraintdef (plain and pretty) and pg_get_expr of the defaults:
// the texts must be PostgreSQL's, byte for byte.
func TestDeparseRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 47)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	opt := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	type col struct{ name, typ string }
	cols := []col{{"a", "int"}, {"b", "varchar(8)"}, {"c", "text"}, {"d", "numeric"}, {"f", "double precision"},
		{"g", "smallint"}, {"h", "bigint"}, {"k", "date"}, {"l", "boolean"}}
	lit := func(typ string) string {
		switch typ {
		case "int", "smallint", "bigint":
			return opt("0", "1", "-3", "42", "'7'", "10000000000")
		case "numeric", "double precision":
			return opt("0", "1.5", "-2.25", "'3'", "1e3")
		case "date":
			return opt("'2020-01-02'", "'2024-2-29'")
		case "boolean":
			return opt("true", "false", "'t'")
		}
		return opt("'x'", "''", "'it''s'", "'a%'")
	}
	var num func(depth int) string
	num = func(depth int) string {
		c := []col{cols[0], cols[3], cols[4], cols[5], cols[6]}[r.IntN(5)]
		if depth <= 0 || r.IntN(3) == 0 {
			return opt(c.name, lit(c.typ))
		}
		switch r.IntN(5) {
		case 0:
			return "abs(" + num(depth-1) + ")"
		case 1:
			return "coalesce(" + c.name + ", " + lit(c.typ) + ")"
		case 2:
			return "-" + c.name
		}
		return num(depth-1) + " " + opt("+", "-", "*") + " " + num(depth-1)
	}
	str := func() string {
		c := opt("b", "c")
		switch r.IntN(4) {
		case 0:
			return "upper(" + c + ")"
		case 1:
			return c + " || " + opt("'x'", "b", "c")
		case 2:
			return "coalesce(" + c + ", 'z')"
		}
		return c
	}
	var cond func(depth int) string
	cond = func(depth int) string {
		if depth > 0 && r.IntN(3) == 0 {
			switch r.IntN(3) {
			case 0:
				return cond(depth-1) + " AND " + cond(depth-1)
			case 1:
				return "(" + cond(depth-1) + " OR " + cond(depth-1) + ")"
			}
			return "NOT (" + cond(depth-1) + ")"
		}
		switch r.IntN(9) {
		case 0:
			return str() + " " + opt("=", "<>", "<", ">=") + " " + lit("text")
		case 1:
			return str() + opt(" LIKE ", " NOT LIKE ", " ~ ", " ILIKE ") + "'a%'"
		case 2:
			return opt("b", "c", "a", "d") + opt(" IN ", " NOT IN ") + opt("('x', 'y')", "(1, 2, 3)")
		case 3:
			return num(1) + " BETWEEN " + lit("int") + " AND " + lit("numeric")
		case 4:
			return opt("a", "b", "l", "k") + opt(" IS NULL", " IS NOT NULL")
		case 5:
			return "k " + opt("<", ">") + " " + lit("date")
		case 6:
			return "l" + opt(" IS NOT FALSE", " = true", "")
		case 7:
			return "length(" + opt("b", "c") + ") " + opt("<", ">") + " " + lit("int")
		}
		return num(2) + " " + opt("=", "<>", "<", ">", "<=", ">=") + " " + num(2)
	}
	compared := 0
	for step := 0; step < 60; step++ {
		name := fmt.Sprintf("dr%d", step)
		stmt := "CREATE TABLE " + name + " ("
		for i, c := range cols {
			if i > 0 {
				stmt += ", "
			}
			stmt += c.name + " " + c.typ
			if r.IntN(3) == 0 {
				stmt += " DEFAULT " + lit(c.typ)
			}
		}
		stmt += ", CONSTRAINT c1 CHECK (" + cond(2) + "), CONSTRAINT c2 CHECK (" + cond(2) + "))"
		// A statement that fails in either is not compared: the
		// SQLSTATEs of ill-typed checks are other tests' concern.
		_, code := run(stmt)
		if _, pgCode := runPG(stmt); code != "" || pgCode != "" {
			if code == "" {
				run("DROP TABLE " + name)
			}
			if pgCode == "" {
				runPG("DROP TABLE " + name)
			}
			continue
		}
		for _, q := range []string{
			"SELECT conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conrelid = '" + name + "'::regclass AND contype = 'c' ORDER BY conname",
			"SELECT adnum, pg_get_expr(adbin, adrelid), pg_get_expr(adbin, adrelid, true) FROM pg_attrdef WHERE adrelid = '" + name + "'::regclass ORDER BY adnum",
		} {
			got, code := run(q)
			want, pgCode := runPG(q)
			if code != pgCode || !slices.Equal(got, want) {
				t.Fatalf("%s\n%s\ndeltaview %s %q\nPostgreSQL %s %q", stmt, q, code, got, pgCode, want)
			}
		}
		compared++
	}
	if compared < 20 {
		t.Fatalf("only %d tables of 60 were made in both", compared)
	}
}
