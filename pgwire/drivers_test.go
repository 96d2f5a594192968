package pgwire_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// pythonWithPsycopg returns a python3 that imports psycopg: Debian's
// (python3-psycopg, which CI installs) or the first on PATH.
func pythonWithPsycopg() string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import psycopg").Run() == nil {
			return py
		}
	}
	return ""
}

// runClient runs a client program against a new server and returns its
// output.
func runClient(t *testing.T, name string, args ...string) string {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(c, name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return string(out)
}

// needPsycopg returns a python3 with psycopg, or skips the test; under
// CI=true psycopg must be there.
func needPsycopg(t *testing.T) string {
	t.Helper()
	py := pythonWithPsycopg()
	if py == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no python3 with psycopg (Debian's python3-psycopg): .ci/run installs it")
		}
		t.Skip("no python3 with psycopg")
	}
	return py
}

// TestPsycopg runs testdata/drivers/psycopg_client.py: psycopg 3 connects,
// writes and reads through both protocols, uses a server-side cursor and
// follows a view through FETCH. Under CI=true psycopg must be there.
func TestPsycopg(t *testing.T) {
	py := needPsycopg(t)
	addr := startServer(t, deltaview.Open())
	got := runClient(t, py, filepath.Join("testdata", "drivers", "psycopg_client.py"), connString(addr))
	want := `server 15 15.0 (deltaview)
rows [(1, 'ann', Decimal('1.50'), datetime.date(2024, 2, 29), True), (2, None, None, None, False)]
rows [(1, 'ann', Decimal('1.50'), datetime.date(2024, 2, 29), True), (2, None, None, None, False)]
count (1,)
error 42P01
named [(1,), (2,)]
snapshot [(1, 1, 'ann')]
change [(1, 2, None)] True
ok
`
	if got != want {
		t.Errorf("psycopg client printed\n%s\nwant\n%s", got, want)
	}
}

// TestPsycopgTypeInfo runs testdata/drivers/psycopg_typeinfo.py: the
// want is what it prints against PostgreSQL 15.
func TestPsycopgTypeInfo(t *testing.T) {
	py := needPsycopg(t)
	addr := startServer(t, deltaview.Open())
	got := runClient(t, py, filepath.Join("testdata", "drivers", "psycopg_typeinfo.py"), connString(addr))
	want := `type int4 ('int4', True)
type ti_c[] ('_ti_c', False)
type nosuch None
enum ti_e ['a', 'b']
composite ti_c ['x', 'y'] 2
(<Ti_E.b: 2>, [<Ti_E.a: 1>, <Ti_E.b: 2>], ti_c(x=1, y='a'))
`
	if got != want {
		t.Errorf("psycopg client printed\n%s\nwant (PostgreSQL's)\n%s", got, want)
	}
}

// TestJDBC runs testdata/drivers/JdbcClient.java with the PostgreSQL JDBC
// driver, when a JDK and Debian's libpostgresql-jdbc-java are there. Under
// CI=true both must be (.ci/run installs them).
func TestJDBC(t *testing.T) {
	got := runJDBC(t, "JdbcClient.java")
	want := `server PostgreSQL 15
columns id:int4 s:text n:numeric
row 1 r1 1.25
row 2 null 2.25
error 42P01
snapshot 6
change -1 1 r1
ok
`
	if strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("JDBC client printed\n%s\nwant\n%s", got, want)
	}
}

// jdbcJar is Debian's PostgreSQL JDBC driver.
const jdbcJar = "/usr/share/java/postgresql.jar"

// runJDBC runs the JDBC client testdata/drivers/name against a new server
// and returns what it printed, when a JDK and the driver are there (under
// CI=true both must be: .ci/run installs them).
func runJDBC(t *testing.T, name string) string {
	t.Helper()
	skip := func(why string) {
		if os.Getenv("CI") == "true" {
			t.Fatal(why + " (default-jdk-headless, libpostgresql-jdbc-java): .ci/run installs them")
		}
		t.Skip(why)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		skip("no JDK: the JDBC client is not run")
	}
	if _, err := os.Stat(jdbcJar); err != nil {
		skip("no JDBC driver at " + jdbcJar + ": the JDBC client is not run")
	}
	addr := startServer(t, deltaview.Open())
	host, port, _ := net.SplitHostPort(addr)
	url := "jdbc:postgresql://" + host + ":" + port + "/deltaview?sslmode=disable"
	return runClient(t, java, "-cp", jdbcJar, filepath.Join("testdata", "drivers", name), url)
}

// TestJDBCMetadata runs testdata/drivers/JdbcMetadata.java: the want is
// what it prints against PostgreSQL 15. ResultSetMetaData names the table
// of a column taken from one (and so whether it is nullable or serial),
// {? = call f(?)} sends the result's OUT parameter declared void, which
// the call's arguments leave out; a built-in function's REMARKS are
// PostgreSQL's description of it; an index's CARDINALITY counts its
// table's rows, as ANALYZE does.
func TestJDBCMetadata(t *testing.T) {
	got := runJDBC(t, "JdbcMetadata.java")
	want := `meta a name=a table=jm auto=true nullable=0
meta bee name=bee table=jm auto=false nullable=0
meta c name=c table=jm auto=false nullable=1
meta e name=e table= auto=false nullable=2
meta a name=a table=jmv auto=false nullable=1
meta b name=b table=jmv auto=false nullable=1
meta b name=b table=jm auto=false nullable=0
call jmf 42
call upper ABC
call jmp 12
procedures jmp 2
functions jmf 1
columns jmf returnValue 4 int4 0
columns jmf x 1 int4 1
columns jmp x 1 int4 1
columns jmp y 2 int4 2
privileges jm deltaview DELETE YES
privileges jm deltaview INSERT YES
privileges jm deltaview REFERENCES YES
privileges jm deltaview SELECT YES
privileges jm deltaview TRIGGER YES
privileges jm deltaview TRUNCATE YES
privileges jm deltaview UPDATE YES
schemas pg_catalog
schemas public
remarks upper_3849 upper bound of range
remarks upper_4236 upper bound of multirange
remarks upper_871 uppercase
index jm_pkey f a 1
`
	if got != want {
		t.Errorf("JDBC client printed\n%s\nwant (PostgreSQL's)\n%s", got, want)
	}
}
