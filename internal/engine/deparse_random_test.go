package engine_test

import (
	"fmt"
	"slices"
	"strings"
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

// TestDeparseViewRandom creates random views with subqueries (scalar,
// IN, EXISTS, in FROM), set operations, WITH, window functions, DISTINCT
// ON, JOIN … USING, grouping sets and SQL's special forms, in deltaview
// and in PostgreSQL, and compares pg_get_viewdef, plain and pretty: the
// texts must be PostgreSQL's, byte for byte.
func TestDeparseViewRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 48)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	opt := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	runBoth(t, run, runPG,
		"CREATE TABLE va (id int PRIMARY KEY, x text, n numeric, c varchar(5), d date, a int[])",
		"CREATE TABLE vb (id int, a_id int, q int)")
	// scalar is an expression over va (named rel) and, in a subquery,
	// vb under a name that may repeat an enclosing one.
	var scalar func(rel string, depth int) string
	sub := func(rel string, depth int) string {
		if r.IntN(5) == 0 {
			// va again inside: PostgreSQL renames it va_1
			return "(SELECT max(va.n) FROM va WHERE va.id > " + opt("1", "(SELECT min(va.id) FROM va)") + ")"
		}
		inner := opt("vb", "vb t")
		ref := inner
		if inner != "vb" {
			ref = inner[3:]
		}
		cond := ref + ".a_id = " + rel + ".id"
		if depth > 0 && r.IntN(2) == 0 {
			cond += " AND " + ref + ".q > " + scalar(rel, depth-1)
		}
		switch r.IntN(4) {
		case 0:
			return "(SELECT max(" + ref + ".q) FROM " + inner + " WHERE " + cond + ")"
		case 1:
			return opt("", "NOT ") + "EXISTS (SELECT 1 FROM " + inner + " WHERE " + cond + ")"
		case 2:
			return rel + ".id " + opt("IN", "NOT IN", "= ANY", "> ALL") + " (SELECT " + ref + ".q FROM " + inner + ")"
		}
		return "ARRAY(SELECT " + ref + ".q FROM " + inner + " WHERE " + cond + ")"
	}
	scalar = func(rel string, depth int) string {
		switch r.IntN(12) {
		case 0:
			return rel + ".id + " + opt("1", "2")
		case 1:
			return "upper(" + rel + ".x)"
		case 2:
			return "coalesce(" + rel + ".c, 'z')"
		case 3:
			if depth > 0 {
				return sub(rel, depth-1)
			}
		case 4:
			return opt("extract(year from "+rel+".d)", "substring("+rel+".x from 2 for 3)", "trim(both 'x' from "+rel+".x)",
				"position('a' in "+rel+".x)", "overlay("+rel+".x placing 'q' from 1)", "substring("+rel+".c from 2)")
		case 5:
			return "CASE WHEN " + rel + ".n > 0 THEN 'p' ELSE 'n' END"
		case 6:
			return rel + ".x " + opt("LIKE 'a%'", "NOT ILIKE 'b%'", "SIMILAR TO 'c%'", "LIKE 'a!%' ESCAPE '!'")
		case 7:
			return rel + ".a[" + opt("1", "1:2", rel+".id") + "]"
		case 8:
			return rel + ".n " + opt("BETWEEN 1 AND 2", "IS DISTINCT FROM 3", "> 0")
		}
		return rel + "." + opt("id", "x", "n", "c")
	}
	window := func(rel string) string {
		return opt("row_number()", "rank()", "sum("+rel+".n)", "lag("+rel+".x)", "count(*)") + " OVER (" +
			opt("", "PARTITION BY "+rel+".c ", "PARTITION BY "+rel+".c, "+rel+".id % 2 ") + "ORDER BY " + rel + "." + opt("id", "x DESC", "n NULLS FIRST") +
			opt("", " ROWS BETWEEN 1 PRECEDING AND CURRENT ROW", " ROWS UNBOUNDED PRECEDING") + ")"
	}
	targets := func(rel string, n int) string {
		s := ""
		for i := 0; i < n; i++ {
			if i > 0 {
				s += ", "
			}
			x := scalar(rel, 2)
			if r.IntN(5) == 0 {
				x = window(rel)
			}
			s += x + " AS c" + fmt.Sprint(i)
		}
		return s
	}
	where := func(rel string) string {
		switch r.IntN(4) {
		case 0:
			return ""
		case 1:
			return " WHERE " + sub(rel, 1)
		case 2:
			return " WHERE " + rel + ".n > 0 AND " + sub(rel, 0)
		}
		return " WHERE " + rel + ".x IS NOT NULL"
	}
	simple := func(n int) string {
		switch r.IntN(5) {
		case 0:
			return "SELECT " + targets("va", n) + " FROM va JOIN vb USING (id)" + where("va")
		case 1:
			return "SELECT " + targets("s", n) + " FROM (SELECT * FROM va" + where("va") + ") s"
		case 2:
			return "SELECT " + targets("va", n) + " FROM va LEFT JOIN vb ON vb.a_id = va.id" + where("va")
		}
		return "SELECT " + targets("va", n) + " FROM va" + where("va")
	}
	query := func() string {
		n := 1 + r.IntN(3)
		switch r.IntN(7) {
		case 0:
			return simple(n) + " " + opt("UNION", "UNION ALL", "EXCEPT", "INTERSECT") + " " + simple(n) + opt("", " ORDER BY 1 LIMIT 5")
		case 1:
			return "WITH w AS (" + simple(n) + ") SELECT * FROM w" + opt("", " WHERE w.c0 IS NOT NULL")
		case 2:
			return "SELECT DISTINCT ON (va.c) va.c AS k, " + targets("va", n) + " FROM va ORDER BY va.c, va.id"
		case 3:
			return "SELECT va.c AS k, count(*) AS n, sum(va.n) AS s, string_agg(va.x, ',' ORDER BY va.x) AS xs, count(*) FILTER (WHERE va.n > 0) AS p FROM va GROUP BY " +
				opt("va.c", "ROLLUP (va.c)", "GROUPING SETS ((va.c), ())", "CUBE (va.c)") + opt("", " HAVING count(*) > 1")
		}
		return simple(n) + opt("", " ORDER BY 1", " LIMIT 3")
	}
	compareViewDefs(t, run, runPG, "rv", query, nil)
}

// runBoth runs each statement of stmts in deltaview and in PostgreSQL,
// failing the test when one fails.
func runBoth(t *testing.T, run, runPG func(string) ([]string, string), stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, code := run(s); code != "" {
			t.Fatalf("%s: %s", s, code)
		}
		if _, code := runPG(s); code != "" {
			t.Fatalf("PostgreSQL %s: %s", s, code)
		}
	}
}

// compareViewDefs creates 60 views of query() named prefix0, prefix1, …
// in deltaview and in PostgreSQL and compares their pg_get_viewdef,
// plain and pretty, byte for byte; check, when not nil, then checks each
// view made in both (stmt made it). At least 30 must be made in both.
func compareViewDefs(t *testing.T, run, runPG func(string) ([]string, string), prefix string, query func() string, check func(name, stmt string)) {
	t.Helper()
	compared := 0
	for step := 0; step < 60; step++ {
		name := fmt.Sprintf("%s%d", prefix, step)
		stmt := "CREATE VIEW " + name + " AS " + query()
		_, code := run(stmt)
		if _, pgCode := runPG(stmt); code != "" || pgCode != "" {
			if code != pgCode {
				t.Logf("%s: deltaview %s, PostgreSQL %s", stmt, code, pgCode)
			}
			if code == "" {
				run("DROP VIEW " + name)
			}
			if pgCode == "" {
				runPG("DROP VIEW " + name)
			}
			continue
		}
		q := "SELECT pg_get_viewdef('" + name + "'::regclass), pg_get_viewdef('" + name + "'::regclass, true)"
		got, code := run(q)
		want, pgCode := runPG(q)
		if code != pgCode || !slices.Equal(got, want) {
			t.Fatalf("%s\ndeltaview %s\n%s\nPostgreSQL %s\n%s", stmt, code, strings.Join(got, "\n"), pgCode, strings.Join(want, "\n"))
		}
		if check != nil {
			check(name, stmt)
		}
		compared++
	}
	t.Logf("%d views compared", compared)
	if compared < 30 {
		t.Fatalf("only %d views of 60 were made in both", compared)
	}
}
