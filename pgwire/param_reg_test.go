package pgwire_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestParamRegTypes checks, against PostgreSQL, the parameter a cast to a
// reg* type makes of $1: ParameterDescription says the reg* type, and the
// parameter's value, a name or an oid in text, or an oid in binary,
// names the object.
func TestParamRegTypes(t *testing.T) {
	oid := func(n uint32) []byte { return binary.BigEndian.AppendUint32(nil, n) }
	cases := []struct {
		sql    string
		arg    []byte
		binary bool
	}{
		{"SELECT $1::regtype", []byte("int4"), false},
		{"SELECT $1::regtype", []byte("23"), false},
		{"SELECT $1::regtype", oid(25), true},
		{"SELECT $1::regtype", []byte("nosuch"), false},
		{"SELECT $1::regtype::oid", []byte("double precision"), false},
		{"SELECT format_type($1::regtype, NULL)", []byte("pr_t"), false},
		{"SELECT $1::regclass", []byte("pr_t"), false},
		{"SELECT $1::regclass", nil, false},
		{"SELECT $1::regproc", []byte("upper"), false},
		{"SELECT $1::regprocedure", []byte("abs(int4)"), false},
		{"SELECT $1::regnamespace", []byte("pg_catalog"), false},
		{"SELECT $1::regoper", []byte("||/"), false},
		{"SELECT $1::regoperator", []byte("+(int4,int4)"), false},
		{"SELECT $1::regcollation", []byte("\"C\""), false},
		{"SELECT typname FROM pg_type WHERE oid = $1::regtype", []byte("text"), false},
		{"SELECT typname FROM pg_type WHERE oid = $1::regtype", oid(16), true},
	}
	run := func(c *pgx.Conn) string {
		var out strings.Builder
		pc := c.PgConn()
		for _, tc := range cases {
			sd, err := pc.Prepare(ctx(t), "", tc.sql, nil)
			if err != nil {
				t.Fatalf("%s: %v", tc.sql, err)
			}
			format := int16(0)
			if tc.binary {
				format = 1
			}
			res := pc.ExecPrepared(ctx(t), "", [][]byte{tc.arg}, []int16{format}, nil).Read()
			fmt.Fprintf(&out, "%s %q: params %v", tc.sql, tc.arg, sd.ParamOIDs)
			var pe *pgconn.PgError
			switch {
			case errors.As(res.Err, &pe):
				fmt.Fprintf(&out, " error %s %s\n", pe.Code, pe.Message)
			case res.Err != nil:
				t.Fatalf("%s: %v", tc.sql, res.Err)
			default:
				fmt.Fprintf(&out, " rows %q\n", res.Rows)
			}
		}
		return out.String()
	}
	pg := pgtest.Start(t).Conn(t)
	dv := connect(t, startServer(t, deltaview.Open()))
	for _, c := range []*pgx.Conn{pg, dv} {
		mustExec(t, c, "CREATE TABLE pr_t (a int)")
	}
	if want, got := run(pg), run(dv); got != want {
		t.Errorf("deltaview\n%s\nPostgreSQL\n%s", got, want)
	}
}
