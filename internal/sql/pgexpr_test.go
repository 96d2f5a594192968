package sql

import (
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestExprTextPG checks the deparser against texts PostgreSQL 15 printed
// for the same expressions (the datadriven file deparse.txt compares
// whole catalogs with a live server).
func TestExprTextPG(t *testing.T) {
	cols := map[string]value.Type{
		"a": {Kind: value.Int4, Mod: -1}, "b": {Kind: value.Varchar, Mod: 10}, "c": value.TextType,
		"d": {Kind: value.Numeric, Mod: -1}, "j": value.Float8Type, "i": {Kind: value.Int8, Mod: -1},
		"h": {Kind: value.Char, Mod: 3},
	}
	for _, c := range []struct {
		src           string
		target        value.Type
		plain, pretty string
	}{
		{"-1", value.Type{Kind: value.Int4, Mod: -1}, "'-1'::integer", "'-1'::integer"},
		{"'x'", value.Type{Kind: value.Varchar, Mod: 10}, "'x'::character varying", "'x'::character varying"},
		{"upper('x')", value.TextType, "upper('x'::text)", "upper('x'::text)"},
		{"(1 + 2) * 3", value.Type{Kind: value.Int4, Mod: -1}, "((1 + 2) * 3)", "(1 + 2) * 3"},
		{"'a' || 'b'", value.TextType, "('a'::text || 'b'::text)", "'a'::text || 'b'::text"},
		{"10000000000", value.Type{Kind: value.Int8, Mod: -1}, "'10000000000'::bigint", "'10000000000'::bigint"},
		{"a > 0", value.UnknownType, "(a > 0)", "a > 0"},
		{"b IN ('x', 'y')", value.UnknownType, "((b)::text = ANY ((ARRAY['x'::character varying, 'y'::character varying])::text[]))",
			"b::text = ANY (ARRAY['x'::character varying, 'y'::character varying]::text[])"},
		{"d > 0 AND d < 1.5", value.UnknownType, "((d > (0)::numeric) AND (d < 1.5))", "d > 0::numeric AND d < 1.5"},
		{"i BETWEEN 1 AND 10", value.UnknownType, "((i >= 1) AND (i <= 10))", "i >= 1 AND i <= 10"},
		{"j > 0", value.UnknownType, "(j > (0)::double precision)", "j > 0::double precision"},
		{"c ~ '^a' OR c LIKE 'b%' OR c IS NULL", value.UnknownType, "((c ~ '^a'::text) OR (c ~~ 'b%'::text) OR (c IS NULL))",
			"c ~ '^a'::text OR c ~~ 'b%'::text OR c IS NULL"},
		{"CASE WHEN a > 0 THEN true ELSE false END", value.UnknownType, "\nCASE\n    WHEN (a > 0) THEN true\n    ELSE false\nEND",
			"\nCASE\n    WHEN a > 0 THEN true\n    ELSE false\nEND"},
		{"d::numeric(10,2) > 0", value.UnknownType, "((d)::numeric(10,2) > (0)::numeric)", "d::numeric(10,2) > 0::numeric"},
		{"coalesce(c, 'z') <> 'q'", value.UnknownType, "(COALESCE(c, 'z'::text) <> 'q'::text)", "COALESCE(c, 'z'::text) <> 'q'::text"},
		{"a NOT IN (1, 2)", value.UnknownType, "(a <> ALL (ARRAY[1, 2]))", "a <> ALL (ARRAY[1, 2])"},
		{"NOT (c = 'a')", value.UnknownType, "(NOT (c = 'a'::text))", "NOT c = 'a'::text"},
		{"a + 1 > 2 * a - 3 AND (a IS NOT NULL OR a = 1)", value.UnknownType, "(((a + 1) > ((2 * a) - 3)) AND ((a IS NOT NULL) OR (a = 1)))",
			"(a + 1) > (2 * a - 3) AND (a IS NOT NULL OR a = 1)"},
		{"c IS DISTINCT FROM 'x' AND NULLIF(c, 'y') IS NOT NULL", value.UnknownType, "((c IS DISTINCT FROM 'x'::text) AND (NULLIF(c, 'y'::text) IS NOT NULL))",
			"c IS DISTINCT FROM 'x'::text AND NULLIF(c, 'y'::text) IS NOT NULL"},
		{"a = ANY (ARRAY[1,2]) AND -a < 0", value.UnknownType, "((a = ANY (ARRAY[1, 2])) AND ((- a) < 0))", "(a = ANY (ARRAY[1, 2])) AND (- a) < 0"},
		{"b LIKE 'a%' AND upper(b) <> 'B' AND length(b) > 1", value.UnknownType,
			"(((b)::text ~~ 'a%'::text) AND (upper((b)::text) <> 'B'::text) AND (length((b)::text) > 1))",
			"b::text ~~ 'a%'::text AND upper(b::text) <> 'B'::text AND length(b::text) > 1"},
		{"h = 'ab'", value.UnknownType, "(h = 'ab'::bpchar)", "h = 'ab'::bpchar"},
		{"CASE WHEN random() > 0.5 THEN 1 ELSE 2 END", value.Type{Kind: value.Int4, Mod: -1},
			"\nCASE\n    WHEN (random() > (0.5)::double precision) THEN 1\n    ELSE 2\nEND", "\nCASE\n    WHEN random() > 0.5::double precision THEN 1\n    ELSE 2\nEND"},
		{"'x'::varchar(10)", value.Type{Kind: value.Varchar, Mod: 10}, "'x'::character varying(10)", "'x'::character varying(10)"},
		{"nextval('t_id_seq'::regclass)", value.Type{Kind: value.Int8, Mod: -1}, "nextval('t_id_seq'::regclass)", "nextval('t_id_seq'::regclass)"},
	} {
		plain, ok := ExprTextPG(c.src, cols, c.target, false)
		if !ok || plain != c.plain {
			t.Errorf("%s: plain %q (%v), want %q", c.src, plain, ok, c.plain)
		}
		pretty, ok := ExprTextPG(c.src, cols, c.target, true)
		if !ok || pretty != c.pretty {
			t.Errorf("%s: pretty %q (%v), want %q", c.src, pretty, ok, c.pretty)
		}
		again, ok := ExprTextPretty(c.plain)
		if !ok || again != c.pretty {
			t.Errorf("%s: pretty of plain %q (%v), want %q", c.src, again, ok, c.pretty)
		}
	}
}
