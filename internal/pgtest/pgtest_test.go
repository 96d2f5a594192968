package pgtest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func str(p *string) string {
	if p == nil {
		return "NULL"
	}
	return *p
}

func TestTextFormat(t *testing.T) {
	s := pgtest.Start(t)
	conn := s.Conn(t)
	pgtest.MustQuery(t, conn, `CREATE TABLE t (n numeric, f float8, r float4, b bool, d date, ts timestamptz, s text);
		INSERT INTO t VALUES (1.50, 0.1::float8 + 0.2::float8, 1.1, true, '2024-02-29', '2024-01-02 03:04:05.5+02', 'a,b'),
		                     (NULL, 'NaN', '-Infinity', false, NULL, NULL, '')`)
	rows, err := s.Query(t, conn, "SELECT n, f, r, b, d, ts, s FROM t ORDER BY b DESC")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		var cells []string
		for _, c := range r {
			cells = append(cells, str(c))
		}
		got = append(got, strings.Join(cells, "|"))
	}
	want := []string{
		"1.50|0.30000000000000004|1.1|t|2024-02-29|2024-01-02 01:04:05.5+00|a,b",
		"NULL|NaN|-Infinity|f|NULL|NULL|",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestIsolation(t *testing.T) {
	s := pgtest.Start(t)
	a, b := s.Conn(t), s.Conn(t)
	pgtest.MustQuery(t, a, "CREATE TABLE x (i int)")
	if _, err := s.Query(t, b, "SELECT * FROM x"); err == nil {
		t.Fatal("table created in one database is visible in another")
	}
	rows := pgtest.MustQuery(t, b, "SELECT current_setting('TimeZone'), current_setting('DateStyle'), current_setting('extra_float_digits')")
	if got := str(rows[0][0]) + ";" + str(rows[0][1]) + ";" + str(rows[0][2]); got != "UTC;ISO, MDY;1" {
		t.Fatalf("settings: %s", got)
	}
}

func TestErrors(t *testing.T) {
	s := pgtest.Start(t)
	conn := s.Conn(t)
	_, err := s.Query(t, conn, "SELECT 1/0")
	if err == nil || !strings.Contains(err.Error(), "22012") {
		t.Fatalf("want division_by_zero, got %v", err)
	}
	// The connection is still usable after an error.
	rows := pgtest.MustQuery(t, conn, "SELECT 1")
	if len(rows) != 1 || str(rows[0][0]) != "1" {
		t.Fatalf("got %v", rows)
	}
}

func TestFindBinDir(t *testing.T) {
	t.Setenv("PGTEST_BINDIR", os.TempDir())
	if _, err := pgtest.FindBinDir(); err == nil {
		t.Fatal("want an error for a directory without initdb")
	}
}

// TestMissingInstallation runs the test binary again with no usable
// installation: the test is skipped, or fails when CI=true.
func TestMissingInstallation(t *testing.T) {
	if os.Getenv("PGTEST_CHILD") == "1" {
		pgtest.Start(t)
		t.Log("started")
		return
	}
	for _, ci := range []string{"", "true"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingInstallation$", "-test.v")
		cmd.Env = append(os.Environ(), "PGTEST_CHILD=1", "PGTEST_BINDIR="+t.TempDir(), "CI="+ci)
		out, err := cmd.CombinedOutput()
		if ci == "true" {
			if err == nil || !strings.Contains(string(out), "--- FAIL") || !strings.Contains(string(out), "CI=true") {
				t.Errorf("CI=true: want a failure, got err=%v\n%s", err, out)
			}
		} else if err != nil || !strings.Contains(string(out), "--- SKIP") {
			t.Errorf("want a skip, got err=%v\n%s", err, out)
		}
	}
}
