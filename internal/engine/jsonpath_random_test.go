package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// jsonPathGen generates random jsonb documents and random jsonpath
// expressions over the same few keys, so that paths find something.
type jsonPathGen struct{ r *rand.Rand }

var jpKeys = []string{"a", "b", "c", "aa"}

func (g jsonPathGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g jsonPathGen) doc(depth int) string {
	r := g.r
	if depth > 2 || r.IntN(3) == 0 {
		return g.pick("1", "2", "-3.5", "0", "10", `"a"`, `"ab"`, `"B"`, `"x\ny"`, "true", "false", "null", `"2020-01-02"`, `"10:00:00"`, `"02.01.2020 10:30"`, `"10:30 +02"`)
	}
	n := r.IntN(4)
	parts := make([]string, n)
	if r.IntN(2) == 0 {
		for i := range parts {
			parts[i] = g.doc(depth + 1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	for i := range parts {
		parts[i] = fmt.Sprintf(`"%s": %s`, jpKeys[r.IntN(len(jpKeys))], g.doc(depth+1))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// accessor is a path's accessor chain, relative to start ($ or @).
func (g jsonPathGen) accessor(start string, depth int) string {
	r := g.r
	s := start
	for range r.IntN(4) {
		switch r.IntN(12) {
		case 0, 1, 2:
			s += "." + jpKeys[r.IntN(len(jpKeys))]
		case 3:
			s += ".*"
		case 4:
			s += "[*]"
		case 5:
			s += g.pick("[0]", "[1]", "[last]", "[0 to 1]", "[1 to last]", "[last - 1]", "[-1]", "[0, 2]")
		case 6:
			s += g.pick(".**", ".**{1}", ".**{0 to 1}", ".**{last}", ".**{1 to last}")
		case 7:
			s += g.pick(".type()", ".size()", ".abs()", ".floor()", ".ceiling()", ".double()")
		case 8:
			if r.IntN(2) == 0 {
				s += g.pick(`.datetime("YYYY-MM-DD")`, `.datetime("DD.MM.YYYY HH24:MI")`, `.datetime("HH24:MI TZH")`, `.datetime("HH24:MI:SS")`, ".datetime()")
				break
			}
			s += ".keyvalue()" + g.pick("", ".key", ".value")
		case 9, 10:
			if depth < 2 {
				s += " ? (" + g.pred(depth+1, "@") + ")"
			}
		default:
			if depth < 2 {
				s = "(" + s + " ? (" + g.pred(depth+1, "@") + "))"
			}
		}
	}
	return s
}

// operand is a comparison's operand; cur is @ inside a filter, $ at the
// top.
func (g jsonPathGen) operand(depth int, cur string) string {
	switch g.r.IntN(6) {
	case 0:
		return g.pick("1", "2", "0", "-1.5", `"a"`, `"ab"`, "true", "null", "$v")
	case 1:
		return g.accessor("$", depth)
	case 2:
		return g.accessor(cur, depth) + g.pick(" + 1", " * 2", "", "")
	}
	return g.accessor(cur, depth)
}

func (g jsonPathGen) pred(depth int, cur string) string {
	r := g.r
	switch r.IntN(9) {
	case 0:
		return g.operand(depth, cur) + " " + g.pick("==", "!=", "<", ">=", "<>") + " " + g.operand(depth, cur)
	case 1:
		return "exists (" + g.accessor(cur, depth) + ")"
	case 2:
		return g.operand(depth, cur) + " like_regex " + g.pick(`"^a"`, `"b$"`, `"A" flag "i"`, `"x.y" flag "s"`, `"^y" flag "m"`)
	case 3:
		return g.operand(depth, cur) + " starts with " + g.pick(`"a"`, `""`, "$s")
	case 4:
		if depth < 3 {
			return "(" + g.pred(depth+1, cur) + ") is unknown"
		}
	case 5:
		if depth < 3 {
			return "!(" + g.pred(depth+1, cur) + ")"
		}
	case 6:
		if depth < 3 {
			return g.pred(depth+1, cur) + g.pick(" && ", " || ") + g.pred(depth+1, cur)
		}
	}
	return g.operand(depth, cur) + " " + g.pick("==", ">", "<=") + " " + g.operand(depth, cur)
}

// path is a whole path: a mode, then an accessor chain, an arithmetic
// expression or a predicate.
func (g jsonPathGen) path() string {
	mode := g.pick("", "", "strict ", "lax ")
	switch g.r.IntN(6) {
	case 0:
		return mode + g.accessor("$", 0) + " " + g.pick("+", "-", "*", "/", "%") + " " + g.pick("1", "$.a", "2.5", "0")
	case 1:
		return mode + g.pred(1, "$")
	case 2:
		return mode + g.pick("-", "+") + g.accessor("$", 0)
	}
	return mode + g.accessor("$", 0)
}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// TestJSONPathRandom compares random jsonpath expressions over random
// documents with PostgreSQL: their canonical text, the query functions
// with and without silent, @? and @@; then as views over a table of
// random documents under random inserts, updates and deletes.
func TestJSONPathRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 31)
	g := jsonPathGen{r}
	vars := `'{"v": 1, "s": "a"}'`
	doc := func() string { return sqlQuote(g.doc(0)) + "::jsonb" }
	path := func() string { return sqlQuote(g.path()) }
	exprs := []func() string{
		func() string { return path() + "::jsonpath" },
		func() string {
			return fmt.Sprintf("jsonb_path_query_array(%s, %s, %s)", doc(), path(), vars)
		},
		func() string {
			return fmt.Sprintf("jsonb_path_query_array(%s, %s, %s, true), jsonb_path_query_first(%s, %s, %s, true)", doc(), path(), vars, doc(), path(), vars)
		},
		func() string {
			return fmt.Sprintf("jsonb_path_exists(%s, %s, %s), jsonb_path_exists(%s, %s, %s, true)", doc(), path(), vars, doc(), path(), vars)
		},
		func() string {
			return fmt.Sprintf("jsonb_path_match(%s, %s, %s, true), jsonb_path_match(%s, %s, %s)", doc(), path(), vars, doc(), path(), vars)
		},
		func() string {
			return fmt.Sprintf("* FROM jsonb_path_query(%s, %s, %s) WITH ORDINALITY", doc(), path(), vars)
		},
		func() string {
			p := strings.ReplaceAll(strings.ReplaceAll(g.path(), "$v", "1"), "$s", `"a"`)
			return fmt.Sprintf("%s @? %s, %s @@ %s", doc(), sqlQuote(p), doc(), sqlQuote(p))
		},
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	compareAdHoc(t, 800, exprs, r, run, runPG)

	// Views over random rows, with random paths that PostgreSQL evaluates
	// without error over any document (silent, or lax accessors only).
	var paths []string
	for len(paths) < 6 {
		p := g.path()
		if _, code := runPG(fmt.Sprintf("SELECT jsonb_path_query_array('[]', %s, %s, true)", sqlQuote(p), vars)); code == "" {
			paths = append(paths, sqlQuote(p))
		}
	}
	setup := fmt.Sprintf(`CREATE TABLE jp (id int PRIMARY KEY, j jsonb);
CREATE MATERIALIZED VIEW jp_q AS SELECT id, jsonb_path_query_array(j, %s, %s, true) AS a, jsonb_path_query_first(j, %s, %s, true) AS f, jsonb_path_exists(j, %s, %s, true) AS e, jsonb_path_match(j, %s, %s, true) AS m FROM jp;
CREATE MATERIALIZED VIEW jp_srf AS SELECT jp.id, q FROM jp, jsonb_path_query(jp.j, %s, %s, true) q;
CREATE MATERIALIZED VIEW jp_where AS SELECT id, j FROM jp WHERE jsonb_path_exists(j, %s, %s, true)`,
		paths[0], vars, paths[1], vars, paths[2], vars, paths[3], vars, paths[4], vars, paths[5], vars)
	setupBoth(t, run, runPG, setup)
	ids := []int{}
	next := 1
	for step := 0; step < 60; step++ {
		var stmt string
		switch {
		case len(ids) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM jp WHERE id = %d", ids[k])
			ids = slices.Delete(ids, k, k+1)
		case len(ids) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE jp SET j = %s WHERE id = %d", doc(), ids[r.IntN(len(ids))])
		default:
			stmt = fmt.Sprintf("INSERT INTO jp VALUES (%d, %s)", next, doc())
			ids = append(ids, next)
			next++
		}
		applyBoth(t, e, run, runPG, stmt, []string{"jp_q", "jp_srf", "jp_where"})
	}
}
