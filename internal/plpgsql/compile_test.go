package plpgsql

import (
	"reflect"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

func TestSplitAssign(t *testing.T) {
	for _, c := range []struct{ in, target, rhs string }{
		{"x := x + 1", "x ", " x + 1"},
		{"r.a = 5", "r.a ", " 5"},
		{"a[i] := b = c", "a[i] ", " b = c"},
		{`"x:=y" := ':='`, `"x:=y" `, ` ':='`},
	} {
		target, rhs := splitAssign(c.in)
		if target != c.target || rhs != c.rhs {
			t.Errorf("splitAssign(%q) = %q, %q; want %q, %q", c.in, target, rhs, c.target, c.rhs)
		}
	}
}

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		conds []string
		code  string
		want  bool
	}{
		{[]string{"division_by_zero"}, "22012", true},
		{[]string{"data_exception"}, "22012", true},
		{[]string{"22012"}, "22012", true},
		{[]string{"unique_violation"}, "22012", false},
		{[]string{"others"}, "23505", true},
		{[]string{"others"}, pgerr.QueryCanceled, false},
		{[]string{"others"}, "P0004", false},
		{[]string{"assert_failure"}, "P0004", true},
	} {
		if got := matches(c.conds, c.code); got != c.want {
			t.Errorf("matches(%v, %s) = %v", c.conds, c.code, got)
		}
	}
}

func TestRowTypeDecls(t *testing.T) {
	out, rels := rowTypeDecls("DECLARE it items%ROWTYPE; k CONSTANT public.t%rowtype := x; n int;")
	if out != "DECLARE it record; k CONSTANT record := x; n int;" || rels["it"] != "items" || rels["k"] != "public.t" {
		t.Errorf("rowTypeDecls: %q %v", out, rels)
	}
}

func TestCompileScopes(t *testing.T) {
	body := `
DECLARE a int;
BEGIN
  DECLARE b int;
  BEGIN
    FOR i IN 1..2 LOOP RETURN NEXT i; END LOOP;
  END;
END`
	f, err := Compile("CREATE FUNCTION f() RETURNS SETOF int LANGUAGE plpgsql AS $$"+body+"$$", body,
		Signature{Name: "f"})
	if err != nil {
		t.Fatal(err)
	}
	names := func(b *block) []string {
		var out []string
		for _, d := range b.decls {
			out = append(out, f.datums[d].name)
		}
		return out
	}
	inner := f.body.body[0].(*block)
	if got := names(f.body); len(got) != 1 || got[0] != "a" {
		t.Errorf("outer block declares %v", got)
	}
	if got := names(inner); len(got) != 1 || got[0] != "b" {
		t.Errorf("inner block declares %v", got)
	}
	loop := inner.body[0].(*forInt)
	if next := loop.body[0].(*returnNext); next.e == nil || next.e.text != "i" {
		t.Errorf("RETURN NEXT i lost its variable")
	}
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct{ src, code string }{
		{"BEGIN x := 1; END", pgerr.SyntaxError},
		{"BEGIN NULL; EXCEPTION WHEN nosuch THEN NULL; END", pgerr.UndefinedObject},
	} {
		_, err := Compile("DO $$"+c.src+"$$", c.src, Signature{})
		if pgerr.Code(err) != c.code {
			t.Errorf("Compile(%q): %v, want %s", c.src, err, c.code)
		}
	}
}

// TestRecordDecls: a declaration of a row type's name becomes one of
// record, in the DECLARE sections only; records' defaults are read.
func TestRecordDecls(t *testing.T) {
	body := `DECLARE r t; n int := 1; k CONSTANT T := NULL; q record DEFAULT ROW(1, 2); BEGIN PERFORM t; RETURN t; END`
	src := "DO $$" + body + "$$"
	rels := map[string]string{}
	got, defaults := recordDecls(src, body, func(name string) bool { return name == "t" }, rels)
	want := "DO $$DECLARE r record; n int := 1; k CONSTANT record := NULL; q record DEFAULT ROW(1, 2); BEGIN PERFORM t; RETURN t; END$$"
	if got != want || rels["r"] != "t" || rels["k"] != "T" || len(rels) != 2 {
		t.Errorf("recordDecls = %q %v", got, rels)
	}
	if d := defaults; len(d) != 3 || d["r"][0] != "" || d["k"][0] != "NULL" || d["q"][0] != "ROW(1, 2)" {
		t.Errorf("defaults = %q", d)
	}
}

func TestDeclSections(t *testing.T) {
	body := `<<b>> DECLARE a int := $1; s text := 'BEGIN; DECLARE'; BEGIN
	  FOR i IN 1..2 LOOP DECLARE c int[] := ARRAY[1, 2]; d int; BEGIN NULL; END; END LOOP; -- BEGIN
	  BEGIN NULL; END; END`
	got, ok := declSections(body)
	want := []declSection{{block: 0, count: 2, start: 13, end: 55}, {block: 1, count: 2, start: 90, end: 122}}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("declSections = %v, %v; want %v", got, ok, want)
	}
	if s := body[want[1].start:want[1].end]; s != " c int[] := ARRAY[1, 2]; d int; " {
		t.Errorf("second section %q", s)
	}
}

// TestCompileWrappedScopes: a labelled body, or one with an EXCEPTION
// clause, is wrapped in a block of the grammar's own, which declares
// nothing.
func TestCompileWrappedScopes(t *testing.T) {
	for _, body := range []string{
		"<<b>> DECLARE x int; BEGIN DECLARE y int; BEGIN NULL; END; END",
		"DECLARE x int; BEGIN DECLARE y int; BEGIN NULL; END; EXCEPTION WHEN others THEN NULL; END",
	} {
		f, err := Compile("DO $$"+body+"$$", body, Signature{})
		if err != nil {
			t.Fatal(err)
		}
		outer := f.body.body[0].(*block)
		inner := outer.body[0].(*block)
		if len(f.body.decls) != 0 || len(outer.decls) != 1 || f.datums[outer.decls[0]].name != "x" ||
			len(inner.decls) != 1 || f.datums[inner.decls[0]].name != "y" {
			t.Errorf("%s: declarations %v %v %v", body, f.body.decls, outer.decls, inner.decls)
		}
	}
}

func TestDeclSectionsAliases(t *testing.T) {
	body := `DECLARE a int; p ALIAS FOR $1; "Q" alias for outer.x; b int := p; BEGIN END`
	got, ok := declSections(body)
	if !ok || len(got) != 1 || got[0].count != 2 {
		t.Fatalf("declSections = %v, %v", got, ok)
	}
	want := []alias{{after: 1, name: "p", target: "$1"}, {after: 1, name: "Q", label: "outer", target: "x"}}
	if !reflect.DeepEqual(got[0].aliases, want) {
		t.Errorf("aliases = %+v; want %+v", got[0].aliases, want)
	}
}
