package sql

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// chain returns SELECT 1 + 1 + … with n terms.
func chain(n int, op string) string {
	return "SELECT 1" + strings.Repeat(" "+op+" 1", n-1)
}

func code(err error) string {
	var e *pgerr.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return fmt.Sprint(err)
}

// TestParseDepthGuard: long operator chains, which crashed the process
// inside the parser (30,000 terms) or failed with a decoder's error
// (5,000–20,000 terms), get PostgreSQL's 54001, in a query and in a view;
// the longest chain under the limit parses.
func TestParseDepthGuard(t *testing.T) {
	for _, op := range []string{"+", "||"} {
		for _, n := range []int{5000, 10000, 20000, 30000, 200000} {
			for _, text := range []string{chain(n, op), "CREATE MATERIALIZED VIEW v AS " + chain(n, op)} {
				_, err := Parse(text)
				if code(err) != pgerr.StatementTooComplex {
					t.Fatalf("%d terms of %s: got %v, want 54001", n, op, err)
				}
				if e := err.(*pgerr.Error); e.Message != "stack depth limit exceeded" || e.Hint == "" {
					t.Fatalf("message %q hint %q", e.Message, e.Hint)
				}
			}
		}
	}
	// Both sides of the limit: SELECT counts three levels, each + one.
	at := MaxNestingDepth - 2
	if d := nestingDepth(chain(at, "+")); d != MaxNestingDepth {
		t.Fatalf("depth of %d terms: %d", at, d)
	}
	if _, err := Parse(chain(at, "+")); err != nil {
		t.Fatalf("%d terms: %v", at, err)
	}
	if _, err := Parse(chain(at+1, "+")); code(err) != pgerr.StatementTooComplex {
		t.Fatalf("%d terms: %v", at+1, err)
	}
	// Balanced groups keep a long sum shallow.
	group := "(" + strings.Repeat("1 + ", 199) + "1)"
	if _, err := Parse("SELECT " + strings.Repeat(group+" + ", 149) + group); err != nil {
		t.Fatalf("30,000 terms in groups of 200: %v", err)
	}
}

func TestParseStatementSize(t *testing.T) {
	big := "SELECT '" + strings.Repeat("x", MaxStatementBytes) + "'"
	if _, err := Parse(big); code(err) != pgerr.ProgramLimitExceeded {
		t.Fatalf("got %v", err)
	}
}

func TestNestingDepth(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"SELECT 1", 3},
		{"SELECT 1 + 2 * 3", 5},
		{"SELECT a, b, c FROM t", 3},
		{"SELECT a + b, c + d", 4},
		{"SELECT f(a + b + c, d)", 6},
		{"SELECT 1 +-+- 2", 7},
		{"SELECT x::int::text", 5},
		{"SELECT (SELECT 1)", 7},
		{"SELECT CASE WHEN a = 1 THEN 2 WHEN b = 1 THEN 3 END", 6},
		{"SELECT 'a + b + c' || $$ + + $$ || \"x+y\" -- + + +\n", 5},
		{"SELECT E'\\' + + + ' /* + + /* + */ + */", 3},
		{"SELECT a FROM t JOIN u ON true JOIN v ON true", 5},
		{"SELECT 1 UNION SELECT 1 UNION SELECT 1", 5},
		{"SELECT a WHERE a AND b AND c OR d", 3},
		{"SELECT 1; SELECT 2", 3},
		{"SELECT (1 + (2 + (3", 8},
		{"SELECT 1)))) + 2", 4},
	} {
		if got := nestingDepth(c.text); got != c.want {
			t.Errorf("%q: depth %d, want %d", c.text, got, c.want)
		}
	}
}

// deepShapes build, for a size n, the statements whose trees nest
// deepest: chains that grow to the left, which the parser's own stack
// does not limit, and nestings that grow to the right.
var deepShapes = map[string]func(n int) string{
	"plus":   func(n int) string { return chain(n, "+") },
	"concat": func(n int) string { return chain(n, "||") },
	"cast":   func(n int) string { return "SELECT 1" + strings.Repeat("::int", n) },
	"is":     func(n int) string { return "SELECT true" + strings.Repeat(" IS NOT NULL", n) },
	"join":   func(n int) string { return "SELECT * FROM t" + strings.Repeat(" JOIN t ON true", n) },
	"union":  func(n int) string { return "SELECT 1" + strings.Repeat(" UNION SELECT 1", n) },
	"not":    func(n int) string { return "SELECT " + strings.Repeat("NOT ", n) + "true" },
	"paren":  func(n int) string { return "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) },
	"func":   func(n int) string { return "SELECT " + strings.Repeat("abs(", n) + "1" + strings.Repeat(")", n) },
	"array":  func(n int) string { return "SELECT " + strings.Repeat("ARRAY[", n) + "1" + strings.Repeat("]", n) },
	"case": func(n int) string {
		return "SELECT " + strings.Repeat("CASE WHEN true THEN ", n) + "1" + strings.Repeat(" END", n)
	},
	"sub": func(n int) string { return "SELECT " + strings.Repeat("(SELECT ", n) + "1" + strings.Repeat(")", n) },
	"in": func(n int) string {
		return "SELECT * FROM t WHERE " + strings.Repeat("x IN (SELECT x FROM t WHERE ", n) + "true" + strings.Repeat(")", n)
	},
	"unionp": func(n int) string { return strings.Repeat("(SELECT 1 UNION ", n) + "SELECT 1" + strings.Repeat(")", n) },
	"with": func(n int) string {
		return strings.Repeat("WITH a AS (", n) + "SELECT 1" + strings.Repeat(") SELECT * FROM a", n)
	},
}

// largestUnder returns the largest n whose statement passes the guard.
func largestUnder(shape func(int) string) int {
	lo, hi := 1, 1
	for nestingDepth(shape(hi)) <= MaxNestingDepth {
		lo, hi = hi, hi*2
	}
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if nestingDepth(shape(m)) <= MaxNestingDepth {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// TestParseDepthGuardStack parses, for each deep shape, the largest
// statement the guard lets through, in a child process whose threads have
// 2 MB stacks: the parser must answer (a result or an error), not crash.
func TestParseDepthGuardStack(t *testing.T) {
	if os.Getenv("DELTAVIEW_GUARD_CHILD") == "1" {
		for name, shape := range deepShapes {
			n := largestUnder(shape)
			_, err := Parse(shape(n))
			fmt.Printf("%s: %d: %v\n", name, n, err)
			if code(err) == pgerr.StatementTooComplex {
				t.Errorf("%s at %d: %v", name, n, err)
			}
		}
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no shell to set the stack limit")
	}
	cmd := exec.Command(sh, "-c", `ulimit -s 2048 && exec "$0" -test.run '^TestParseDepthGuardStack$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), "DELTAVIEW_GUARD_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child with 2 MB stacks: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
