package pgwire_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	deltaview "github.com/deltaview/deltaview"
)

// TestDeclaredParamTypes: the parameter types a Parse message declares
// resolve the statement as PostgreSQL 15's do (the results, the types of
// RowDescription and ParameterDescription, and the SQLSTATEs below are
// PostgreSQL's); oid 0 leaves a type to be deduced from the uses.
func TestDeclaredParamTypes(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c, err := pgx.Connect(ctx(t), connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	mustExec(t, c, "CREATE TYPE pt_mood AS ENUM ('sad', 'ok')")
	mustExec(t, c, "CREATE DOMAIN pt_pos AS int CHECK (VALUE > 0)")
	mustExec(t, c, "CREATE TABLE pt (id int PRIMARY KEY)")
	var moodOID, posOID uint32
	if err := c.QueryRow(ctx(t), "SELECT 'pt_mood'::regtype::oid, 'pt_pos'::regtype::oid").Scan(&moodOID, &posOID); err != nil {
		t.Fatal(err)
	}
	const int2, int4, int8, text, date, numeric, float4 = 21, 23, 20, 25, 1082, 1700, 700
	pc := c.PgConn()
	cases := []struct {
		sql    string
		oids   []uint32
		args   []string
		params []uint32 // ParameterDescription
		col    uint32   // the first result column's type
		want   string   // the first value, or the SQLSTATE
	}{
		{"SELECT to_char($1, 'YYYY')", []uint32{date}, []string{"2024-05-06"}, []uint32{date}, text, "2024"},
		{"SELECT $1 + $2", []uint32{int8, int8}, []string{"1", "2"}, []uint32{int8, int8}, int8, "3"},
		{"SELECT $1", []uint32{int4}, []string{"3"}, []uint32{int4}, int4, "3"},
		{"SELECT $1", []uint32{0}, []string{"3"}, []uint32{text}, text, "3"},
		{"SELECT $1 - $2", []uint32{date, date}, []string{"2024-05-06", "2024-05-01"}, []uint32{date, date}, int4, "5"},
		{"SELECT abs($1)", []uint32{float4}, []string{"-1.5"}, []uint32{float4}, float4, "1.5"},
		{"SELECT $1 = 1", []uint32{int2}, []string{"3"}, []uint32{int2}, 16, "f"},
		{"SELECT $2", []uint32{int4}, []string{"3", "4"}, []uint32{int4, text}, text, "4"},
		{"SELECT pg_typeof($1)::text", []uint32{numeric}, []string{"12"}, []uint32{numeric}, text, "numeric"},
		{"SELECT $1", []uint32{moodOID}, []string{"ok"}, []uint32{moodOID}, moodOID, "ok"},
		{"SELECT $1 + 1", []uint32{posOID}, []string{"5"}, []uint32{posOID}, int4, "6"},
		{"SELECT $1", []uint32{posOID}, []string{"-5"}, nil, 0, "23514"},
		{"SELECT $1 + 1", []uint32{text}, []string{"3"}, nil, 0, "42883"},
		{"SELECT * FROM pt WHERE id = $1", []uint32{date}, []string{"2024-05-06"}, nil, 0, "42883"},
		{"INSERT INTO pt VALUES ($1)", []uint32{date}, []string{"2024-05-06"}, nil, 0, "42804"},
		{"SELECT 1", []uint32{0}, []string{"3"}, nil, 0, "42P18"},
		{"SELECT $1", []uint32{99999}, []string{"3"}, nil, 0, "XX000"},
	}
	for _, tc := range cases {
		args := make([][]byte, len(tc.args))
		for i, a := range tc.args {
			args[i] = []byte(a)
		}
		sd, perr := pc.Prepare(ctx(t), "", tc.sql, tc.oids)
		rs := pc.ExecParams(ctx(t), tc.sql, args, tc.oids, nil, nil).Read()
		err := errors.Join(perr, rs.Err)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) {
			if pgErr.Code != tc.want {
				t.Errorf("%s %v: %s %s, want %s", tc.sql, tc.oids, pgErr.Code, pgErr.Message, tc.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %v: %v", tc.sql, tc.oids, err)
		}
		if len(sd.ParamOIDs) != len(tc.params) {
			t.Errorf("%s %v: parameters %v, want %v", tc.sql, tc.oids, sd.ParamOIDs, tc.params)
		} else {
			for i := range tc.params {
				if sd.ParamOIDs[i] != tc.params[i] {
					t.Errorf("%s %v: parameters %v, want %v", tc.sql, tc.oids, sd.ParamOIDs, tc.params)
				}
			}
		}
		if len(rs.FieldDescriptions) == 0 || rs.FieldDescriptions[0].DataTypeOID != tc.col {
			t.Errorf("%s %v: columns %v, want type %d", tc.sql, tc.oids, rs.FieldDescriptions, tc.col)
		}
		if len(rs.Rows) != 1 || string(rs.Rows[0][0]) != tc.want {
			t.Errorf("%s %v: %q, want %s", tc.sql, tc.oids, rs.Rows, tc.want)
		}
	}
	// pgx's describe-then-execute mode declares the types the server
	// described: the statement binds the same.
	var n int64
	if err := c.QueryRow(ctx(t), "SELECT $1::int8 + $2", pgx.QueryExecModeDescribeExec, 40, 2).Scan(&n); err != nil || n != 42 {
		t.Errorf("describe-exec: %d, %v", n, err)
	}
}
