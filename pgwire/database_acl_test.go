package pgwire_test

import (
	"context"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/pgwire"
)

// TestConnectPrivilege checks that a role needs CONNECT on the database
// to log in, as in PostgreSQL (42501, DETAIL `User does not have CONNECT
// privilege.`): REVOKE CONNECT … FROM PUBLIC keeps out the roles not
// granted it again, a superuser gets in regardless, and a GRANT to a role
// a login role is a member of lets that one in.
func TestConnectPrivilege(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE ROLE p5w_admin LOGIN SUPERUSER PASSWORD 'admin pw';
CREATE ROLE p5w_alice LOGIN PASSWORD 'alice pw';
CREATE ROLE p5w_bob LOGIN PASSWORD 'bob pw';
CREATE ROLE p5w_group;
GRANT p5w_group TO p5w_bob;
REVOKE CONNECT ON DATABASE deltaview FROM PUBLIC`); err != nil {
		t.Fatal(err)
	}
	addr := startServerWith(t, db, pgwire.Options{})
	try := func(user, password, want string) {
		t.Helper()
		c, err := connectAs(addr, user, password, "disable")
		if err == nil {
			c.Close(context.Background())
		}
		if sqlstate(err) != want {
			t.Errorf("%s logging in: %v, want SQLSTATE %q", user, err, want)
		}
	}
	try("p5w_alice", "alice pw", "42501")
	try("p5w_bob", "bob pw", "42501")
	try("p5w_admin", "admin pw", "")
	if err := db.Exec(`GRANT CONNECT ON DATABASE deltaview TO p5w_alice, p5w_group`); err != nil {
		t.Fatal(err)
	}
	try("p5w_alice", "alice pw", "")
	try("p5w_bob", "bob pw", "")
}
