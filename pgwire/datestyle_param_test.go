package pgwire_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	deltaview "github.com/deltaview/deltaview"
)

// TestDateStyleTextParams: a date or timestamp bound as text reads in the
// session's DateStyle field order, as PostgreSQL's input functions read
// it: 05/12/2026 is 5 December under DMY (SQL, German) and 12 May under
// MDY, whether the parameter's type is declared or deduced.
func TestDateStyleTextParams(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c, err := pgx.Connect(ctx(t), connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	mustExec(t, c, "CREATE TABLE dp (id int PRIMARY KEY, d date, ts timestamp)")
	const dateOID, tsOID = 1082, 1114
	cases := []struct {
		style string
		in    string
		want  string // the date in ISO
	}{
		{"SQL, DMY", "05/12/2026", "2026-12-05"},
		{"German", "05.12.2026", "2026-12-05"},
		{"German", "05/12/2026", "2026-12-05"},
		{"Postgres, MDY", "05/12/2026", "2026-05-12"},
		{"ISO, DMY", "05/12/2026", "2026-12-05"},
		{"ISO, MDY", "2026-12-05", "2026-12-05"},
	}
	for i, tc := range cases {
		mustExec(t, c, "SET DateStyle = '"+tc.style+"'")
		pc := c.PgConn()
		check := func(what, sql string, oids []uint32, params ...string) {
			t.Helper()
			args := make([][]byte, len(params))
			for j, p := range params {
				args[j] = []byte(p)
			}
			rs := pc.ExecParams(ctx(t), sql, args, oids, nil, nil).Read()
			if rs.Err != nil {
				t.Fatalf("%s under %s: %v", what, tc.style, rs.Err)
			}
			if len(rs.Rows) != 1 || string(rs.Rows[0][0]) != tc.want {
				t.Errorf("%s under %s: %q, want %s", what, tc.style, rs.Rows, tc.want)
			}
		}
		check("deduced date", "SELECT to_char($1::date, 'YYYY-MM-DD')", nil, tc.in)
		check("declared date", "SELECT to_char($1, 'YYYY-MM-DD')", []uint32{dateOID}, tc.in)
		check("deduced timestamp", "SELECT to_char($1::timestamp, 'YYYY-MM-DD')", nil, tc.in+" 10:00")
		check("declared timestamp", "SELECT to_char($1, 'YYYY-MM-DD')", []uint32{tsOID}, tc.in+" 10:00")
		id := []byte{byte('0' + i)}
		if _, err := pc.ExecParams(ctx(t), "INSERT INTO dp VALUES ($1, $2, $3)", [][]byte{id, []byte(tc.in), []byte(tc.in + " 10:00")}, nil, nil, nil).Close(); err != nil {
			t.Fatalf("insert under %s: %v", tc.style, err)
		}
		check("stored date", "SELECT to_char(d, 'YYYY-MM-DD') FROM dp WHERE id = $1 AND ts::date = d", nil, string(id))
	}
}
