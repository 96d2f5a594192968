package pgwire_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	deltaview "github.com/deltaview/deltaview"
)

// TestInferredDomainParams: a parameter whose type comes from a cast to
// a domain ($1::d) or from an assignment to a column of a domain
// (INSERT … VALUES ($1), UPDATE … SET c = $1) is of the domain in
// ParameterDescription, as PostgreSQL 15 infers it; a comparison with
// such a column gives the base type. The expected oids are PostgreSQL's.
func TestInferredDomainParams(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c, err := pgx.Connect(ctx(t), connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	mustExec(t, c, "CREATE DOMAIN pd_pos AS int CHECK (VALUE > 0)")
	mustExec(t, c, "CREATE DOMAIN pd_txt AS text")
	mustExec(t, c, "CREATE TABLE pd_t (a pd_pos, b pd_txt, c int)")
	var pos, txt uint32
	if err := c.QueryRow(ctx(t), "SELECT 'pd_pos'::regtype::oid, 'pd_txt'::regtype::oid").Scan(&pos, &txt); err != nil {
		t.Fatal(err)
	}
	const int4, text = 23, 25
	cases := []struct {
		sql    string
		params []uint32
		col    uint32 // the first result column's type, 0 for none
	}{
		{"SELECT $1::pd_pos", []uint32{pos}, int4},
		{"SELECT $1::pd_txt", []uint32{txt}, text},
		{"SELECT CAST($1 AS pd_pos)", []uint32{pos}, int4},
		{"SELECT $1::pd_pos + 1", []uint32{pos}, int4},
		{"INSERT INTO pd_t (a, b) VALUES ($1, $2)", []uint32{pos, txt}, 0},
		{"UPDATE pd_t SET a = $1 WHERE b = $2", []uint32{pos, text}, 0},
		{"SELECT * FROM pd_t WHERE a = $1", []uint32{int4}, int4},
		{"SELECT c FROM pd_t WHERE b = $1", []uint32{text}, int4},
	}
	for _, tc := range cases {
		sd, err := c.PgConn().Prepare(ctx(t), "", tc.sql, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		if got, want := fmt.Sprint(sd.ParamOIDs), fmt.Sprint(tc.params); got != want {
			t.Errorf("%s: parameters %s, want %s", tc.sql, got, want)
		}
		if tc.col != 0 && (len(sd.Fields) == 0 || sd.Fields[0].DataTypeOID != tc.col) {
			t.Errorf("%s: columns %v, want type %d", tc.sql, sd.Fields, tc.col)
		}
	}
	// The domain's checks apply to the value bound, at Bind.
	if _, err := c.Exec(ctx(t), "SELECT $1::pd_pos", "-3"); err == nil {
		t.Errorf("SELECT $1::pd_pos with -3: no error")
	}
	var n int
	if err := c.QueryRow(ctx(t), "SELECT $1::pd_pos + 1", "4").Scan(&n); err != nil || n != 5 {
		t.Errorf("SELECT $1::pd_pos + 1 with 4: %d, %v", n, err)
	}
}
