package pgwire_test

// psql's \d of a table with a column of an array of a domain.

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestDomainArrayPsqlDescribe checks that \d prints a column of d[] as
// format_type does, d[] (not the pg_type name _d), beside one of d.
func TestDomainArrayPsqlDescribe(t *testing.T) {
	psql := pgtest.Psql(t)
	db := deltaview.Open()
	if err := db.Exec(`CREATE ROLE admin LOGIN SUPERUSER PASSWORD 'admin pw';
CREATE DOMAIN dx_pos AS int CHECK (VALUE > 0);
CREATE TABLE dx_t (a dx_pos[], b dx_pos, k int)`); err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, db)
	host, port, _ := net.SplitHostPort(addr)
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := exec.CommandContext(c, psql, "-X", "-c", `\d dx_t`, fmt.Sprintf("host=%s port=%s user=admin dbname=deltaview sslmode=disable", host, port))
	run.Env = append(run.Environ(), "PGPASSWORD=admin pw", "PGCONNECT_TIMEOUT=5")
	out, _ := run.CombinedOutput()
	// As PostgreSQL 15's psql prints it.
	want := ` Column |   Type   | Collation | Nullable | Default 
--------+----------+-----------+----------+---------
 a      | dx_pos[] |           |          | 
 b      | dx_pos   |           |          | 
 k      | integer  |           |          | 
`
	if !strings.Contains(string(out), want) {
		t.Errorf("\\d dx_t:\n%s\nwant:\n%s", out, want)
	}
}
