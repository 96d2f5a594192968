package lint

import (
	"os/exec"
	"strings"
	"testing"
)

// driverPackage reports whether an import path is a database driver or
// what every database/sql driver needs. database/sql/driver alone (the
// interfaces a value type implements to be stored, as a decimal library
// does) registers no driver and is allowed.
func driverPackage(path string) bool {
	if path == "database/sql" {
		return true // sql.Register lives here: no database/sql driver without it
	}
	for _, prefix := range []string{
		"github.com/jackc/", // pgx and its connection packages
		"modernc.org/sqlite",
		"github.com/mattn/go-sqlite3",
		"github.com/lib/pq",
		"github.com/go-sql-driver/",
		"github.com/ncruces/go-sqlite3",
	} {
		if strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}

// TestRootLinksNoDriver fails when the root package, or anything it
// imports, links a database driver: a program that embeds deltaview pays
// for a driver only by importing a sink package.
func TestRootLinksNoDriver(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", module)
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", module, err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps %s listed only %q", module, deps)
	}
	for _, d := range deps {
		if driverPackage(d) {
			t.Errorf("%s links %s; database drivers belong in the sink packages", module, d)
		}
	}
}

func TestDriverPackage(t *testing.T) {
	for path, want := range map[string]bool{
		"database/sql":                   true,
		"database/sql/driver":            false,
		"github.com/jackc/pgx/v5":        true,
		"github.com/jackc/pgx/v5/pgconn": true,
		"modernc.org/sqlite":             true,
		"modernc.org/sqlite/lib":         true,
		"github.com/cockroachdb/apd/v3":  false,
		module:                           false,
	} {
		if got := driverPackage(path); got != want {
			t.Errorf("driverPackage(%q) = %v, want %v", path, got, want)
		}
	}
}
