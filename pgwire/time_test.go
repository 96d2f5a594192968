package pgwire_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/deltaview/deltaview"
)

// TestPgxTimes reads and writes time, timetz and interval through pgx in
// the text and binary formats, with PostgreSQL's type OIDs.
func TestPgxTimes(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE tt (id int PRIMARY KEY, t time, tz timetz, iv interval)`)
	q := `SELECT t, tz, iv, t::text FROM tt WHERE id = $1`
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		in := pgtype.Time{Microseconds: (10*3600+20*60+30)*1000000 + 500000, Valid: true}
		iv := pgtype.Interval{Months: 14, Days: 3, Microseconds: -4 * 3600 * 1000000, Valid: true}
		if _, err := c.Exec(ctx(t), `INSERT INTO tt VALUES ($1, $2, '10:00:00.25-03:30', $3)`, mode, i, in, iv); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var (
			out   pgtype.Time
			tz    string
			ivOut pgtype.Interval
			text  string
		)
		if err := c.QueryRow(ctx(t), q, mode, i).Scan(&out, &tz, &ivOut, &text); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		got := fmt.Sprintln(out.Microseconds, tz, ivOut.Months, ivOut.Days, ivOut.Microseconds, text)
		want := "37230500000 10:00:00.25-03:30 14 3 -14400000000 10:20:30.5\n"
		if got != want {
			t.Errorf("mode %v:\ngot  %s\nwant %s", mode, got, want)
		}
	}
	var d time.Duration
	if err := c.QueryRow(ctx(t), `SELECT time '24:00' - time '00:00:01'`).Scan(&d); err != nil || d != 86399*time.Second {
		t.Errorf("time - time: %v %v", d, err)
	}
	rows, err := c.Query(ctx(t), `SELECT t, tz, iv, ARRAY[t], ARRAY[tz], ARRAY[iv] FROM tt`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[1083 1266 1186 1183 1270 1187]" {
		t.Errorf("OIDs %s", got)
	}
}
