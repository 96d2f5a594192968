package resultfmt_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/resultfmt"
	"github.com/deltaview/deltaview/internal/value"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The files in testdata hold result sets and how each format prints them:
//
//	print format=(table,csv) [null=STR]
//	a int4, "b c" text
//	1 "x,y"
//	NULL ""
//
// The first input line names the columns and their PostgreSQL types (or is
// "none" for a set without columns); each further line is a row of values
// in PostgreSQL's text input format, bare or Go-quoted, NULL for SQL NULL
// ("()" is a row without columns). TestGolden checks the output against the
// file; TestAgainstPsql also prints the set with psql and checks that the
// table and csv formats are byte-for-byte psql's.
func TestGolden(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return run(t, d, nil)
		})
	})
}

func TestAgainstPsql(t *testing.T) {
	s := pgtest.Start(t)
	psql := filepath.Join(mustBinDir(t), "psql")
	if _, err := os.Stat(psql); err != nil {
		psql = "psql"
	}
	conn := s.Conn(t)
	db := conn.Config().Database
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return run(t, d, func(c *testCase, format, got string) {
				if format == resultfmt.FormatJSON {
					return
				}
				args := []string{"-X", "-q", "-h", s.SocketDir(), "-p", strconv.Itoa(s.Port()), "-U", "postgres", "-d", db,
					"-P", "pager=off", "-P", "null=" + c.null, "-c", c.sql()}
				if format == resultfmt.FormatCSV {
					args = append(args, "--csv")
				}
				cmd := exec.Command(psql, args...)
				cmd.Env = append(os.Environ(), "PGCLIENTENCODING=UTF8", "PSQLRC=/dev/null")
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s: psql: %v\n%s", d.Pos, err, out)
				}
				want := string(out)
				if format == resultfmt.FormatCSV {
					want += "\n" // deltaview ends every result set with an empty line
				}
				if got != want {
					t.Errorf("%s: %s differs from psql\nsql: %s\ngot:\n%s\npsql:\n%s", d.Pos, format, c.sql(), got, want)
				}
			})
		})
	})
}

func mustBinDir(t *testing.T) string {
	d, err := pgtest.FindBinDir()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

type testCase struct {
	set  resultfmt.Set
	pg   []string    // PostgreSQL type names
	rows [][]*string // text values, nil for NULL
	null string
}

// sql returns a query that makes PostgreSQL return the same set.
func (c *testCase) sql() string {
	if len(c.set.Columns) == 0 {
		return fmt.Sprintf("SELECT FROM generate_series(1, %d)", len(c.rows))
	}
	var sel, names []string
	for i, col := range c.set.Columns {
		sel = append(sel, fmt.Sprintf("c%d::%s AS %s", i, c.pg[i], `"`+strings.ReplaceAll(col.Name, `"`, `""`)+`"`))
		names = append(names, fmt.Sprintf("c%d", i))
	}
	rows := c.rows
	where := ""
	if len(rows) == 0 {
		rows = [][]*string{make([]*string, len(c.set.Columns))}
		where = " WHERE false"
	}
	var vals []string
	for _, r := range rows {
		var lits []string
		for _, v := range r {
			if v == nil {
				lits = append(lits, "NULL")
			} else {
				lits = append(lits, "'"+strings.ReplaceAll(*v, "'", "''")+"'")
			}
		}
		vals = append(vals, "("+strings.Join(lits, ", ")+")")
	}
	return fmt.Sprintf("SELECT %s FROM (VALUES %s) AS t(%s)%s",
		strings.Join(sel, ", "), strings.Join(vals, ", "), strings.Join(names, ", "), where)
}

var types = map[string]value.Type{
	"bool": value.BoolType, "int2": value.Int2Type, "int4": value.Int4Type, "int8": value.Int8Type,
	"numeric": value.NumericType, "float4": value.Float4Type, "float8": value.Float8Type,
	"text": value.TextType, "varchar": {Kind: value.Varchar, Mod: -1}, "date": value.DateType,
	"timestamp": value.TimestampType, "timestamptz": value.TimestampTZType,
}

// tokens splits a line into bare words and Go-quoted strings; commas
// between tokens are ignored.
func tokens(t *testing.T, line string) (toks []string, quoted []bool) {
	for line = strings.TrimLeft(line, " ,"); line != ""; line = strings.TrimLeft(line, " ,") {
		if line[0] == '"' {
			q, err := strconv.QuotedPrefix(line)
			if err != nil {
				t.Fatalf("bad quoted string in %q: %v", line, err)
			}
			s, _ := strconv.Unquote(q)
			toks, quoted = append(toks, s), append(quoted, true)
			line = line[len(q):]
			continue
		}
		n := strings.IndexAny(line, " ,")
		if n < 0 {
			n = len(line)
		}
		toks, quoted = append(toks, line[:n]), append(quoted, false)
		line = line[n:]
	}
	return toks, quoted
}

func parseCase(t *testing.T, d *datadriven.TestData) *testCase {
	c := &testCase{}
	d.MaybeScanArgs(t, "null", &c.null)
	lines := strings.Split(d.Input, "\n")
	if lines[0] != "none" {
		toks, _ := tokens(t, lines[0])
		if len(toks)%2 != 0 {
			t.Fatalf("%s: columns must be name type pairs", d.Pos)
		}
		for i := 0; i < len(toks); i += 2 {
			typ, ok := types[toks[i+1]]
			if !ok {
				t.Fatalf("%s: unknown type %s", d.Pos, toks[i+1])
			}
			c.set.Columns = append(c.set.Columns, resultfmt.Column{Name: toks[i], Type: typ})
			c.pg = append(c.pg, toks[i+1])
		}
	}
	for _, line := range lines[1:] {
		if line == "()" {
			c.set.Rows = append(c.set.Rows, value.Row{})
			c.rows = append(c.rows, nil)
			continue
		}
		toks, quoted := tokens(t, line)
		if len(toks) != len(c.set.Columns) {
			t.Fatalf("%s: row %q has %d values", d.Pos, line, len(toks))
		}
		var row value.Row
		var text []*string
		for i, tok := range toks {
			if tok == "NULL" && !quoted[i] {
				row = append(row, value.Null)
				text = append(text, nil)
				continue
			}
			v, err := value.Parse(tok, c.set.Columns[i].Type)
			if err != nil {
				t.Fatalf("%s: %v", d.Pos, err)
			}
			row = append(row, v)
			text = append(text, &tok)
		}
		c.set.Rows = append(c.set.Rows, row)
		c.rows = append(c.rows, text)
	}
	return c
}

func run(t *testing.T, d *datadriven.TestData, check func(c *testCase, format, got string)) string {
	if d.Cmd != "print" {
		t.Fatalf("%s: unknown command %s", d.Pos, d.Cmd)
	}
	c := parseCase(t, d)
	var formats []string
	d.ScanArgs(t, "format", &formats)
	var out strings.Builder
	for _, f := range formats {
		var b bytes.Buffer
		if err := resultfmt.Write(&b, &c.set, resultfmt.Options{Format: f, Null: c.null}); err != nil {
			t.Fatalf("%s: %v", d.Pos, err)
		}
		if check != nil {
			check(c, f, b.String())
		}
		if len(formats) > 1 {
			fmt.Fprintf(&out, "# %s\n", f)
		}
		out.WriteString(b.String())
	}
	return out.String()
}

func TestErrors(t *testing.T) {
	s := &resultfmt.Set{Columns: []resultfmt.Column{{Name: "a", Type: value.Int4Type}}, Rows: []value.Row{{}}}
	if err := resultfmt.Write(&bytes.Buffer{}, s, resultfmt.Options{Format: "table"}); err == nil {
		t.Error("want an error for a short row")
	}
	s.Rows = nil
	if err := resultfmt.Write(&bytes.Buffer{}, s, resultfmt.Options{Format: "xml"}); err == nil {
		t.Error("want an error for an unknown format")
	}
}

// TestJSONDocuments checks that json and jsonb values are written into a
// JSON result as documents, not as strings.
func TestJSONDocuments(t *testing.T) {
	j, err := value.Parse(`{"b": [1, "x"], "a": null}`, value.JSONBType)
	if err != nil {
		t.Fatal(err)
	}
	var scratch []byte
	got := string(resultfmt.AppendJSON(resultfmt.AppendJSON(nil, j, &scratch), value.NewJSON(`{"x" : 1}`), &scratch))
	if want := `{"a": null, "b": [1, "x"]}{"x" : 1}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
