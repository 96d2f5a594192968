package sql

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// FuzzBind parses and binds arbitrary text of any length against a fixed
// catalog, both as given (as a statement and as a prepared statement,
// with parameters) and as a materialized view's query. Nothing may panic
// or crash the process (the parser runs in C: the depth guard must stop
// what it cannot take), and every error must be a *pgerr.Error with a
// SQLSTATE other than XX000 (internal), a position inside the text and a
// message free of the implementation's words. The seed corpus
// (testdata/fuzz/FuzzBind) runs with the tests; a long run:
//
//	go test ./internal/sql -run XXX -fuzz FuzzBind -fuzztime 30m
func FuzzBind(f *testing.F) {
	for _, r := range refusals {
		f.Add(r.query)
	}
	for _, s := range datadrivenSQL(f) {
		f.Add(s)
	}
	for _, s := range []string{"SELECT id FROM t WHERE id = $1", "UPDATE t SET n = $2 WHERE id = $1",
		"SELECT $1", "SELECT 1 WHERE $1 IS NULL", "INSERT INTO t (id, g) VALUES ($1, $2)"} {
		f.Add(s)
	}
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, text string) {
		check := func(text string) {
			s, err := Parse(text)
			verify := func(err error) {
				if err == nil {
					return
				}
				var e *pgerr.Error
				if !errors.As(err, &e) {
					t.Fatalf("%q: error of type %T: %v", text, err, err)
				}
				if e.Code == "" || e.Code == pgerr.Internal {
					t.Fatalf("%q: code %q: %s", text, e.Code, e.Message)
				}
				if e.Position < 0 || e.Position > len([]rune(text))+1 {
					t.Fatalf("%q: position %d outside the text", text, e.Position)
				}
				for _, w := range []string{"%!", "proto:", "Go "} { // fmt's, the parser's, reflection's
					if strings.Contains(e.Message, w) && !strings.Contains(text, w) {
						t.Fatalf("%q: message %q", text, e.Message)
					}
				}
			}
			if err != nil || s == nil {
				verify(err)
				return
			}
			_, err = Bind(cat, s)
			verify(err)
			_, _, err = BindPrepared(cat, s)
			verify(err)
		}
		check(text)
		if !strings.Contains(strings.ToLower(text), "create") {
			check("CREATE MATERIALIZED VIEW fz AS " + text)
		}
		if _, err := Split(text); err != nil {
			var e *pgerr.Error
			if !errors.As(err, &e) || e.Code == pgerr.Internal {
				t.Fatalf("Split(%q): %v", text, err)
			}
		}
	})
}

// datadrivenSQL returns the statements of the engine's datadriven tests.
func datadrivenSQL(tb testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join("..", "engine", "testdata", "*.txt"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		// The input of each directive: the lines between it and "----".
		in := false
		var block strings.Builder
		for _, line := range strings.Split(string(b), "\n") {
			switch {
			case strings.HasPrefix(line, "exec"):
				in = true
				block.Reset()
			case line == "----":
				if in {
					parts, err := Split(block.String())
					if err == nil {
						out = append(out, parts...)
					}
				}
				in = false
			case in:
				block.WriteString(line + "\n")
			}
		}
	}
	return out
}
