package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
)

// TestAuth checks HTTP authentication once roles exist: no credentials
// and a wrong password get 401, basic authentication and a bearer token
// from POST /v1/token run statements with the role's privileges (a
// missing grant is 403), reading a view's rows or changes needs SELECT on
// it, /healthz needs nothing, and an oversized body is still 413.
func TestAuth(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 10), (2, 20);
CREATE MATERIALIZED VIEW big AS SELECT id, v FROM t WHERE v > 15;
CREATE MATERIALIZED VIEW small AS SELECT id, v FROM t WHERE v < 15;
CREATE ROLE alice LOGIN PASSWORD 'alice pw';
CREATE ROLE nologin PASSWORD 'nologin pw';
GRANT SELECT ON big TO alice;`)
	base := start(t, db, httpapi.Options{MaxBody: 256})
	do := func(method, path, body string, auth func(*http.Request)) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if auth != nil {
			auth(req)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	basic := func(user, pw string) func(*http.Request) {
		return func(r *http.Request) { r.SetBasicAuth(user, pw) }
	}
	bearer := func(tok string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }
	}
	for _, c := range []struct {
		method, path, body string
		auth               func(*http.Request)
		status             int
		contains           string
	}{
		{"POST", "/v1/sql", "SELECT 1", nil, 401, `"28P01"`},
		{"POST", "/v1/sql", "SELECT 1", basic("alice", "wrong"), 401, `"28P01"`},
		{"POST", "/v1/sql", "SELECT 1", basic("nobody", "alice pw"), 401, `"28P01"`},
		{"POST", "/v1/sql", "SELECT 1", basic("nologin", "nologin pw"), 401, `"28000"`},
		{"POST", "/v1/sql", "SELECT 1", bearer("made-up"), 401, `"28P01"`},
		{"GET", "/healthz", "", nil, 200, "ok"},
		{"GET", "/metrics", "", nil, 401, `"28P01"`},
		{"POST", "/v1/sql", "SELECT count(*) FROM big", basic("alice", "alice pw"), 200, `[[1]]`},
		{"POST", "/v1/sql", "SELECT * FROM t", basic("alice", "alice pw"), 403, `"42501"`},
		{"POST", "/v1/sql", "COPY t FROM '/etc/hosts'", basic("alice", "alice pw"), 403, `"42501"`},
		{"GET", "/v1/views/big", "", basic("alice", "alice pw"), 200, `"rows"`},
		{"GET", "/v1/views/small", "", basic("alice", "alice pw"), 403, `"42501"`},
		{"GET", "/v1/views/small/changes", "", basic("alice", "alice pw"), 403, `"42501"`},
		{"POST", "/v1/sql", strings.Repeat("SELECT 1;", 100), basic("alice", "alice pw"), 413, `"54000"`},
	} {
		st, body := do(c.method, c.path, c.body, c.auth)
		if st != c.status || !strings.Contains(body, c.contains) {
			t.Errorf("%s %s %.40q: %d %s, want %d with %s", c.method, c.path, c.body, st, body, c.status, c.contains)
		}
	}
	st, body := do("POST", "/v1/token", "", basic("alice", "alice pw"))
	var tok struct {
		Token string `json:"token"`
		Role  string `json:"role"`
	}
	if err := json.Unmarshal([]byte(body), &tok); st != 200 || err != nil || tok.Token == "" || tok.Role != "alice" {
		t.Fatalf("POST /v1/token: %d %s", st, body)
	}
	if st, body := do("POST", "/v1/sql", "SELECT count(*) FROM big", bearer(tok.Token)); st != 200 || !strings.Contains(body, `[[1]]`) {
		t.Errorf("with the token: %d %s", st, body)
	}
	if st, body := do("POST", "/v1/sql", "SELECT * FROM t", bearer(tok.Token)); st != 403 {
		t.Errorf("with the token, a missing grant: %d %s", st, body)
	}
	// A dropped role's token no longer works.
	mustExec(t, db, "DROP OWNED BY alice") // its privileges: DROP ROLE of a role holding some is 2BP01
	mustExec(t, db, "DROP ROLE alice")
	if st, body := do("POST", "/v1/sql", "SELECT 1", bearer(tok.Token)); st != 401 {
		t.Errorf("the token of a dropped role: %d %s", st, body)
	}
}
