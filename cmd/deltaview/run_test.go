package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// runScript runs script as `deltaview run` would and returns standard
// output, standard error and whether it failed.
func runScript(t *testing.T, script string, opts deltaview.PrintOptions) (string, string, bool) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "s.sql")
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	w := bufio.NewWriter(&out)
	err := run(deltaview.Open(), []string{f}, w, &errb, opts)
	w.Flush()
	if err != nil {
		if _, ok := err.(exitError); !ok {
			t.Fatalf("run: %v", err)
		}
	}
	return out.String(), errb.String(), err != nil
}

func TestRunCSVContract(t *testing.T) {
	out, errs, failed := runScript(t, `
CREATE TABLE t (id int PRIMARY KEY, s text, n numeric(6,2));
INSERT INTO t VALUES (1, 'a,b', 1.5), (2, '', NULL), (3, NULL, 2);
CREATE MATERIALIZED VIEW v AS SELECT id, s, n FROM t WHERE id > 1;
SELECT * FROM v ORDER BY id;
SUBSCRIBE v;
INSERT INTO t VALUES (4, 'x', 0);
BEGIN; UPDATE t SET n = 9 WHERE id = 4; UPDATE t SET n = 0 WHERE id = 4; COMMIT;
DELETE FROM t WHERE id = 2;
SELECT 1 AS one WHERE false;
`, deltaview.PrintOptions{Format: "csv", Null: "NULL"})
	if failed || errs != "" {
		t.Fatalf("failed=%v stderr=%q", failed, errs)
	}
	want := `id,s,n
2,,NULL
3,NULL,2.00

ts,diff,id,s,n
2,1,4,x,0.00

ts,diff,id,s,n
3,-1,2,,NULL

one

`
	if out != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestRunErrorStops(t *testing.T) {
	out, errs, failed := runScript(t, "SELECT 1 AS a;\nSELECT 1 +\n  nope FROM t;\nSELECT 2 AS b;", deltaview.PrintOptions{Format: "csv"})
	if !failed {
		t.Fatal("want failure")
	}
	if out != "a\n1\n\n" {
		t.Fatalf("stdout %q", out)
	}
	want := "ERROR:  relation \"t\" does not exist (SQLSTATE 42P01)\nLINE 2:   nope FROM t\n                    ^\n"
	if errs != want {
		t.Fatalf("stderr:\n%s\nwant:\n%s", errs, want)
	}
}

// TestRunMatchesPsql runs the same script through `psql --csv` (with
// CREATE MATERIALIZED VIEW read as CREATE VIEW) and through `deltaview run
// --format csv`: the result sets must be identical.
func TestRunMatchesPsql(t *testing.T) {
	srv := pgtest.Start(t)
	conn := srv.Conn(t)
	bin, err := pgtest.FindBinDir()
	if err != nil {
		t.Fatal(err)
	}
	script := `
CREATE TABLE orders (id int PRIMARY KEY, cust text NOT NULL, amount numeric(10,2), f float8, d date, ts timestamptz, ok boolean);
INSERT INTO orders VALUES (1, 'ann', 120, 0.1, '2024-02-29', '2024-01-02 03:04:05.5+02', true),
  (2, 'bob', 15.5, 1e20, '1999-12-31', '2024-06-01 00:00:00+00', false),
  (3, 'a "q", b', NULL, NULL, NULL, NULL, NULL);
CREATE MATERIALIZED VIEW big AS SELECT id, upper(cust) AS c, amount * 2 AS dbl, f / 3 AS third, d + 1 AS next, ts, NOT ok AS nok FROM orders WHERE amount IS NULL OR amount > 10;
SELECT * FROM big ORDER BY id;
UPDATE orders SET amount = amount / 3 WHERE id = 1;
DELETE FROM orders WHERE id = 2;
INSERT INTO orders (id, cust) VALUES (4, 'dee') RETURNING *;
SELECT * FROM big ORDER BY id;
SELECT DISTINCT ok FROM orders ORDER BY 1;
SELECT 7 / 2 AS i, 7.0 / 2 AS n, 1::float8 / 3 AS f, 'x' || 1 AS s, 2147483647::bigint + 1 AS big, round(2.5) AS r, -7 % 3 AS m;
`
	out, errs, failed := runScript(t, script, deltaview.PrintOptions{Format: "csv"})
	if failed {
		t.Fatalf("deltaview failed: %s", errs)
	}
	cfg := conn.Config()
	pgScript := regexp.MustCompile(`CREATE MATERIALIZED VIEW`).ReplaceAllString(script, "CREATE VIEW")
	cmd := exec.Command(filepath.Join(bin, "psql"), "-X", "-q", "--csv", "-v", "ON_ERROR_STOP=1",
		"-h", cfg.Host, "-p", strconv.Itoa(int(cfg.Port)), "-U", cfg.User, "-d", cfg.Database)
	cmd.Stdin = strings.NewReader(pgScript)
	cmd.Env = append(os.Environ(), "PGTZ=UTC", "PGDATESTYLE=ISO, MDY")
	pgOut, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v\n%s", err, pgOut)
	}
	// psql separates result sets with nothing; deltaview with an empty line.
	got := strings.ReplaceAll(out, "\n\n", "\n")
	if got != string(pgOut) {
		t.Fatalf("deltaview:\n%s\npsql:\n%s", got, pgOut)
	}
}

// TestRunOneSession: the files run in one session, so a transaction may
// begin in one file and commit in the next.
func TestRunOneSession(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.sql"), filepath.Join(dir, "b.sql")
	if err := os.WriteFile(a, []byte("CREATE TABLE t (id int); BEGIN; INSERT INTO t VALUES (1);"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("INSERT INTO t VALUES (2); COMMIT; SELECT count(*) FROM t;"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	w := bufio.NewWriter(&out)
	if err := run(deltaview.Open(), []string{a, b}, w, &errb, deltaview.PrintOptions{Format: "csv"}); err != nil {
		t.Fatalf("run: %v, stderr %q", err, errb.String())
	}
	w.Flush()
	if out.String() != "count\n2\n\n" || errb.Len() != 0 {
		t.Fatalf("stdout %q, stderr %q", out.String(), errb.String())
	}
}

// TestRunNULIsAnError: a NUL byte ended the script silently, and run
// reported success; it is invalid text, refused before any statement runs.
func TestRunNULIsAnError(t *testing.T) {
	out, errs, failed := runScript(t, "SELECT 1 AS a;\nSELECT 2 AS b;\x00\nSELECT 3 AS c;\n", deltaview.PrintOptions{Format: "csv"})
	if !failed {
		t.Fatalf("want failure, got stdout %q", out)
	}
	if out != "" {
		t.Fatalf("stdout %q", out)
	}
	want := "ERROR:  invalid byte sequence for encoding \"UTF8\": 0x00 (SQLSTATE 22021)\nLINE 2: SELECT 2 AS b;\n                      ^\n"
	if errs != want {
		t.Fatalf("stderr:\n%q\nwant:\n%q", errs, want)
	}
}

// TestRunDeltasBeforeFailedCopy: a Debezium COPY that fails at its fifth
// event, after earlier transactions committed (the HINT says so), printed
// none of the committed transactions' deltas under SUBSCRIBE.
func TestRunDeltasBeforeFailedCopy(t *testing.T) {
	out, errs, failed := runScript(t, `CREATE TABLE c (id int PRIMARY KEY, s text);
CREATE MATERIALIZED VIEW v AS SELECT id, s FROM c;
SUBSCRIBE v;
COPY c FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"id":1,"s":"a"},"source":{"txId":1}}
{"op":"c","after":{"id":2,"s":"b"},"source":{"txId":1}}
{"op":"c","after":{"id":3,"s":"c"},"source":{"txId":2}}
{"op":"u","before":{"id":3,"s":"c"},"after":{"id":3,"s":"d"},"source":{"txId":3}}
{"op":"x","source":{"txId":4}}
\.
`, deltaview.PrintOptions{Format: "csv"})
	if !failed || !strings.Contains(errs, "22P02") || !strings.Contains(errs, "the 3 events before this transaction were committed") {
		t.Fatalf("stderr:\n%s", errs)
	}
	// The fifth event voids the fourth's transaction, which it would have
	// ended; the first two were committed.
	want := "ts,diff,id,s\n1,1,1,a\n1,1,2,b\n\nts,diff,id,s\n2,1,3,c\n\n"
	if !strings.HasSuffix(out, want) {
		t.Fatalf("stdout:\n%q\nwant it to end with\n%q", out, want)
	}
}

// TestRunClearErrors: raw invalid UTF-8 in SQL was 42601 "string field
// contains invalid UTF-8" (PostgreSQL: 22021), and an unterminated comment
// failed the script before its first statement ran.
func TestRunClearErrors(t *testing.T) {
	for _, tc := range []struct{ script, out, errs string }{
		{"SELECT 'a\xffb' AS s;\n", "",
			"ERROR:  invalid byte sequence for encoding \"UTF8\": 0xff (SQLSTATE 22021)\nLINE 1: SELECT 'a\ufffdb' AS s;\n                 ^\n"},
		{"SELECT 1 AS x; /* unterminated", "x\n1\n\n",
			"ERROR:  unterminated /* comment at or near \"/* unterminated\" (SQLSTATE 42601)\n"},
	} {
		out, errs, failed := runScript(t, tc.script, deltaview.PrintOptions{Format: "csv"})
		if !failed || out != tc.out || errs != tc.errs {
			t.Errorf("%q: failed %v\nstdout %q, want %q\nstderr %q, want %q", tc.script, failed, out, tc.out, errs, tc.errs)
		}
	}
}

// TestRunDB runs two scripts on one database file, one process after the
// other: the second sees the first's tables, rows and views.
func TestRunDB(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "app.db")
	runDB := func(script string) string {
		t.Helper()
		f := filepath.Join(dir, "s.sql")
		if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		cmd := runCmd()
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs([]string{"--format", "csv", "--db", db, f})
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out.String())
		}
		return out.String()
	}
	runDB(`CREATE TABLE t (id int PRIMARY KEY, v numeric(6,2));
		INSERT INTO t VALUES (1, 2.5), (2, 3);
		CREATE MATERIALIZED VIEW s AS SELECT sum(v) AS total FROM t`)
	if got := runDB("INSERT INTO t VALUES (3, 0.25); SELECT * FROM s"); !strings.HasPrefix(got, "total\n5.75\n") {
		t.Fatalf("second run printed %q", got)
	}
}
