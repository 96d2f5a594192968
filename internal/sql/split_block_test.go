package sql

import (
	"slices"
	"testing"
)

// TestSplitRoutineBody: a semicolon inside BEGIN ATOMIC … END of CREATE
// [OR REPLACE] FUNCTION or PROCEDURE does not end the statement, as in
// psql; elsewhere BEGIN, CASE and END count for nothing.
func TestSplitRoutineBody(t *testing.T) {
	for _, c := range []struct {
		script string
		want   []string
	}{
		{"CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END; SELECT 3",
			[]string{"CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END", "SELECT 3"}},
		{"create or replace function f(int) returns int begin atomic select case when $1 > 0 then 1 else 2 end; end;select 4",
			[]string{"create or replace function f(int) returns int begin atomic select case when $1 > 0 then 1 else 2 end; end", "select 4"}},
		{"BEGIN; SELECT 1 AS begin; SELECT CASE WHEN true THEN 1 END; END",
			[]string{"BEGIN", "SELECT 1 AS begin", "SELECT CASE WHEN true THEN 1 END", "END"}},
		{"CREATE FUNCTION f(begin int) RETURNS int LANGUAGE sql AS 'SELECT 1'; SELECT 2",
			[]string{"CREATE FUNCTION f(begin int) RETURNS int LANGUAGE sql AS 'SELECT 1'", "SELECT 2"}},
		{"CREATE TABLE begin (a int); SELECT 1", []string{"CREATE TABLE begin (a int)", "SELECT 1"}},
		// As psql: a semicolon inside parentheses does not end the
		// statement, one in a quoted name, a dollar quote or a nested
		// comment neither; $1x$ is no dollar quote.
		{"COPY (SELECT 1; SELECT 2) TO STDOUT; SELECT 3", []string{"COPY (SELECT 1; SELECT 2) TO STDOUT", "SELECT 3"}},
		{"SELECT (1;\n2); SELECT 3", []string{"SELECT (1;\n2)", "SELECT 3"}},
		{"SELECT 1); SELECT 2", []string{"SELECT 1)", "SELECT 2"}},
		{`SELECT "a;b", $q$;$q$, 1 /* a /* b; */ c; */; SELECT 2`, []string{`SELECT "a;b", $q$;$q$, 1 /* a /* b; */ c; */`, "SELECT 2"}},
		{"SELECT $1x$;$1x$", []string{"SELECT $1x$", "$1x$"}},
		{`SELECT E'\';'; SELECT 2`, []string{`SELECT E'\';'`, "SELECT 2"}},
	} {
		got, err := Split(c.script)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", c.script, got, err, c.want)
		}
		pieces, err := SplitScript(c.script + "; COPY t FROM STDIN;\n1\n\\.\n")
		if err != nil || len(pieces) != len(c.want)+1 || pieces[0].SQL != c.want[0] {
			t.Errorf("SplitScript(%q) = %+v, %v", c.script, pieces, err)
		}
	}
}
