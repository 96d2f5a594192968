package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/deltaview/deltaview"
)

// TestPgxGeometricTypes reads and writes the geometric types through
// pgx: they have PostgreSQL's OIDs, so pgx decodes them from the binary
// format, and parameters sent in binary are read back, in every query
// mode.
func TestPgxGeometricTypes(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TABLE g (id int PRIMARY KEY, p point, l lseg, pa path, b box, po polygon, li line, c circle)`); err != nil {
		t.Fatal(err)
	}
	p := pgtype.Point{P: pgtype.Vec2{X: 1.5, Y: -2}, Valid: true}
	b := pgtype.Box{P: [2]pgtype.Vec2{{X: 0, Y: 0}, {X: 2, Y: 3}}, Valid: true} // corners in either order
	pa := pgtype.Path{P: []pgtype.Vec2{{X: 0, Y: 0}, {X: 1, Y: 1}}, Closed: true, Valid: true}
	ci := pgtype.Circle{P: pgtype.Vec2{X: 1, Y: 1}, R: 0.5, Valid: true}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO g VALUES ($1, $2, '[(0,0),(1,1)]', $3, $4, '((0,0),(1,1),(2,0))', '{1,-1,0}', $5)`, mode, i, p, pa, b, ci); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var gp pgtype.Point
		var gl pgtype.Lseg
		var gpa pgtype.Path
		var gb pgtype.Box
		var gpo pgtype.Polygon
		var gli pgtype.Line
		var gc pgtype.Circle
		var s string
		if err := c.QueryRow(ctx(t), `SELECT p, l, pa, b, po, li, c, p::text || ' ' || b::text || ' ' || pa::text || ' ' || c::text FROM g WHERE id = $1`, mode, i).
			Scan(&gp, &gl, &gpa, &gb, &gpo, &gli, &gc, &s); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		got := fmt.Sprint(gp.P, gl.P, gpa.P, gpa.Closed, gb.P, gpo.P, gli.A, gli.B, gli.C, gc.P, gc.R, " ", s)
		if want := "{1.5 -2} [{0 0} {1 1}] [{0 0} {1 1}] true [{2 3} {0 0}] [{0 0} {1 1} {2 0}] 1 -1 0 {1 1} 0.5 (1.5,-2) (2,3),(0,0) ((0,0),(1,1)) <(1,1),0.5>"; got != want {
			t.Errorf("mode %v: got %s\nwant %s", mode, got, want)
		}
	}
	rows, err := c.Query(ctx(t), `SELECT p, l, pa, b, po, li, c, ARRAY[p], ARRAY[l], ARRAY[pa], ARRAY[b], ARRAY[po], ARRAY[li], ARRAY[c] FROM g`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[600 601 602 603 604 628 718 1017 1018 1019 1020 1027 629 719]" {
		t.Errorf("OIDs %s", got)
	}
	var boxes []pgtype.Box
	if err := c.QueryRow(ctx(t), `SELECT ARRAY[b, b # box '(1,1),(0,0)'] FROM g WHERE id = 0`).Scan(&boxes); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(boxes[0].P, boxes[1].P); got != "[{2 3} {0 0}] [{1 1} {0 0}]" {
		t.Errorf("box[] %s", got)
	}
}
