package engine_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
)

// runScript runs a script and returns its result sets as CSV and its
// notices, or the error.
func runScript(e *engine.Engine, script string) (string, []string, error) {
	var b strings.Builder
	var notices []string
	sess := e.NewSession()
	defer sess.Close()
	err := sess.ExecScript(script, func(r engine.Result) error {
		notices = append(notices, r.Notices...)
		if !r.HasRows {
			b.WriteString(r.Tag + "\n")
			return nil
		}
		set := &resultfmt.Set{Rows: r.Rows}
		for _, c := range r.Columns {
			set.Columns = append(set.Columns, resultfmt.Column{Name: c.Name, Type: c.Type})
		}
		var one strings.Builder
		err := resultfmt.Write(&one, set, resultfmt.Options{Format: resultfmt.FormatCSV, Null: "NULL"})
		b.WriteString(strings.TrimRight(one.String(), "\n") + "\n")
		return err
	})
	return b.String(), notices, err
}

func code(err error) string {
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func TestCopyFromStdin(t *testing.T) {
	e := engine.New()
	out, _, err := runScript(e, `CREATE TABLE t (id int PRIMARY KEY, name text, x numeric DEFAULT 7);
CREATE MATERIALIZED VIEW v AS SELECT id, name FROM t WHERE id > 1;
COPY t FROM STDIN;
1	a;b	1.5
2	\N	2
3	tab\there	\N
\.
COPY t (id, name) FROM STDIN WITH (FORMAT csv, HEADER);
id,name
4,"quoted, ""with"" comma"
5,"two
lines; and 'a quote"
6,
7,""
\.
COPY t FROM STDIN WITH (DELIMITER '|', NULL 'nil');
8|nil|nil
\.
SELECT * FROM t ORDER BY id;
SELECT count(*) FROM v;
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `CREATE TABLE
SELECT 0
COPY 3
COPY 4
COPY 1
id,name,x
1,a;b,1.5
2,NULL,2
3,tab	here,NULL
4,"quoted, ""with"" comma",7
5,"two
lines; and 'a quote",7
6,NULL,7
7,,7
8,NULL,NULL
count
7
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestCopyBadLineAppliesNothing(t *testing.T) {
	e := engine.New()
	if _, _, err := runScript(e, "CREATE TABLE t (id int, d date); CREATE MATERIALIZED VIEW v AS SELECT id FROM t"); err != nil {
		t.Fatal(err)
	}
	_, _, err := runScript(e, "COPY t FROM STDIN WITH (FORMAT csv);\n1,2024-01-01\n2,2024-01-02\n3,x\n\\.\n")
	if code(err) != pgerr.InvalidDatetimeFormat && code(err) != pgerr.InvalidTextRep {
		t.Fatalf("error %v (%s), want a 22xxx input syntax error", err, code(err))
	}
	var pe *pgerr.Error
	errors.As(err, &pe)
	if !strings.Contains(pe.Context, "COPY t, line 3, column d") {
		t.Errorf("detail %q does not name the line and column", pe.Detail)
	}
	_, _, err = runScript(e, "COPY t FROM STDIN;\n1\t2024-01-01\nzz\t2024-01-01\n\\.\n")
	if code(err) != pgerr.InvalidTextRep {
		t.Fatalf("error %v, want 22P02", err)
	}
	out, _, err := runScript(e, "SELECT count(*) FROM t; SELECT count(*) FROM v")
	if err != nil || out != "count\n0\ncount\n0\n" {
		t.Fatalf("after failed COPYs: %q %v", out, err)
	}
	_, _, err = runScript(e, "COPY t FROM STDIN WITH (FORMAT csv);\n1,2024-01-01,extra\n\\.\n")
	if code(err) != pgerr.BadCopyFileFormat {
		t.Fatalf("extra column: %v", err)
	}
}

func TestCopyFromFile(t *testing.T) {
	e := engine.New()
	if _, _, err := runScript(e, "CREATE TABLE t (id int, s text)"); err != nil {
		t.Fatal(err)
	}
	_, _, err := runScript(e, "COPY t FROM '/tmp/x.csv' WITH (FORMAT csv)")
	if code(err) != pgerr.InsufficientPrivilege {
		t.Fatalf("COPY from a file without an opener: %v", err)
	}
	e.SetFileOpener(func(name string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("a,b\n1,x\n2,y\n")), nil
	})
	var last engine.Progress
	e.SetProgress(func(p engine.Progress) { last = p })
	out, _, err := runScript(e, "COPY t FROM 'data.csv' WITH (FORMAT csv, HEADER true); SELECT * FROM t ORDER BY id")
	if err != nil || out != "COPY 2\nid,s\n1,x\n2,y\n" {
		t.Fatalf("%q %v", out, err)
	}
	if !last.Finished || last.Op != "COPY t" {
		t.Errorf("last progress report %+v", last)
	}
}

func TestViewBudgets(t *testing.T) {
	e := engine.New()
	var b strings.Builder
	b.WriteString("CREATE TABLE t (id int PRIMARY KEY, g int);\nCOPY t FROM STDIN WITH (FORMAT csv);\n")
	for i := 0; i < 200000; i++ {
		b.WriteString(itoa(i) + "," + itoa(i%7) + "\n")
	}
	b.WriteString("\\.\n")
	if _, _, err := runScript(e, b.String()); err != nil {
		t.Fatal(err)
	}
	var reports int
	e.SetProgress(func(p engine.Progress) { reports++ })
	// The cold start stops at the first batch over the budget.
	_, _, err := runScript(e, "CREATE MATERIALIZED VIEW big WITH (max_memory = '1MB') AS SELECT id, g FROM t")
	if code(err) != pgerr.OutOfMemory {
		t.Fatalf("over-budget cold start: %v", err)
	}
	if reports > 2 {
		t.Errorf("the build went on for %d batches past its budget", reports)
	}
	out, _, _ := runScript(e, "SELECT count(*) FROM deltaview_views")
	if out != "count\n0\n" {
		t.Errorf("a failed build left a view behind: %s", out)
	}
	if _, _, err := runScript(e, "SELECT * FROM big"); code(err) != pgerr.UndefinedTable {
		t.Errorf("the failed view is readable: %v", err)
	}
	// The engine-wide budget.
	if _, _, err := runScript(e, "SET deltaview.max_memory = '2MB'"); err != nil {
		t.Fatal(err)
	}
	_, _, err = runScript(e, "CREATE MATERIALIZED VIEW big AS SELECT id FROM t")
	if code(err) != pgerr.OutOfMemory {
		t.Fatalf("over the engine-wide budget: %v", err)
	}
	if _, _, err := runScript(e, "RESET deltaview.max_memory"); err != nil {
		t.Fatal(err)
	}
	// A running view that crosses its budget is flagged and reported.
	if _, _, err := runScript(e, "CREATE MATERIALIZED VIEW small WITH (max_memory = '10kB') AS SELECT id FROM t WHERE id < 10"); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runScript(e, "SELECT max_memory, over_budget FROM deltaview_views")
	if out != "max_memory,over_budget\n10240,f\n" {
		t.Errorf("before: %s", out)
	}
	_, notices, err := runScript(e, "UPDATE t SET id = -id - 1 WHERE id < 1000")
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], `"small"`) || !strings.Contains(notices[0], "budget") {
		t.Errorf("notices %q", notices)
	}
	out, _, _ = runScript(e, "SELECT over_budget FROM deltaview_views")
	if out != "over_budget\nt\n" {
		t.Errorf("after: %s", out)
	}
	// Bad budgets.
	for _, s := range []string{
		"CREATE MATERIALIZED VIEW x WITH (max_memory = 'lots') AS SELECT 1",
		"SET deltaview.max_memory = '-1MB'",
	} {
		if _, _, err := runScript(e, s); code(err) != pgerr.InvalidParameter {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, _, err := runScript(e, "CREATE MATERIALIZED VIEW x WITH (bogus = 10) AS SELECT 1"); code(err) != pgerr.InvalidParameter {
		t.Errorf("other option: %v", err)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{digits[i%10]}, b...)
	}
	return string(b)
}
