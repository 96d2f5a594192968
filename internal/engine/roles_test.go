package engine_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/scram"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// TestRoles runs the files under testdata/roles: exec runs its script in a
// session that acts as the role its role=NAME argument names (opened on
// first use), or in a session without a role, which may do anything.
// grants prints the privileges granted; verifier ROLE checks that the
// role's password is stored as a SCRAM-SHA-256 verifier of the password
// given, never in clear.
func TestRoles(t *testing.T) {
	datadriven.Walk(t, "testdata/roles", func(t *testing.T, path string) {
		e := engine.New()
		sessions := map[string]*engine.Session{}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "exec":
				name := ""
				if d.HasArg("role") {
					d.ScanArgs(t, "role", &name)
				}
				s := sessions[name]
				if s == nil {
					s = e.NewSession()
					if name != "" {
						if err := s.SetRole(name); err != nil {
							return "ERROR: " + err.Error() + "\n"
						}
					}
					sessions[name] = s
				}
				var out bytes.Buffer
				pieces, err := sql.SplitScript(d.Input)
				if err != nil {
					t.Fatalf("%s: %v", d.Pos, err)
				}
				for _, p := range pieces {
					stmt := p.SQL
					if p.HasData {
						stmt = p.SQL + ";\n" + p.Data + "\\.\n"
					}
					err := s.ExecScript(stmt, func(r engine.Result) error {
						writeResult(t, &out, r, nil, value.IntervalPostgres, value.UTC)
						return nil
					})
					var se *engine.ScriptError
					if errors.As(err, &se) {
						writeError(&out, se)
					} else if err != nil {
						t.Fatalf("%s: %v", d.Pos, err)
					}
				}
				return out.String()
			case "grants":
				if g := e.Grants(); len(g) > 0 {
					return strings.Join(g, "\n") + "\n"
				}
				return "(none)\n"
			case "verifier":
				var name, password string
				d.ScanArgs(t, "role", &name)
				d.ScanArgs(t, "password", &password)
				info, ok := e.Role(name)
				switch {
				case !ok:
					return "no such role\n"
				case !info.HasPassword:
					return "no password\n"
				case info.Verifier.Check(password):
					return "matches\n"
				}
				return "does not match\n"
			}
			t.Fatalf("%s: unknown command %q", d.Pos, d.Cmd)
			return ""
		})
	})
}

// TestVerifierNotPlain checks that a role's stored password is a verifier
// in PostgreSQL's format, that a verifier given as the password is stored
// as it is, and that the verifier proves the password.
func TestVerifierNotPlain(t *testing.T) {
	e := engine.New()
	s := e.NewSession()
	if err := s.ExecScript("CREATE ROLE a LOGIN PASSWORD 'secret'", func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	info, _ := e.Role("a")
	v := info.Verifier.String()
	if !strings.HasPrefix(v, "SCRAM-SHA-256$4096:") || strings.Contains(v, "secret") {
		t.Fatalf("stored %q", v)
	}
	if err := s.ExecScript("CREATE ROLE b LOGIN PASSWORD '"+v+"'", func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	info, _ = e.Role("b")
	if info.Verifier.String() != v || !info.Verifier.Check("secret") {
		t.Fatalf("b's verifier %q, want %q", info.Verifier.String(), v)
	}
	if _, ok := scram.Parse(v); !ok {
		t.Fatal("the verifier does not parse")
	}
}
