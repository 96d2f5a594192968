package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestCopyFromInSessionZone checks that COPY FROM reads a timestamptz
// without an offset, alone, in an array or in a range, as the session's
// wall-clock time, as PostgreSQL's COPY does, and one with an offset as
// the instant it names.
func TestCopyFromInSessionZone(t *testing.T) {
	e := engine.New()
	out, _, err := runScript(e, `SET TIME ZONE 'Asia/Tokyo';
CREATE TABLE t (id int PRIMARY KEY, at timestamptz, ats timestamptz[], r tstzrange);
COPY t FROM STDIN;
1	2026-03-01 12:00	{"2026-03-01 12:00"}	["2026-03-01 12:00","2026-03-02 12:00")
2	2026-03-01 12:00+00	{"2026-03-01 12:00+00"}	["2026-03-01 12:00+00",)
\.
SET TIME ZONE 'UTC';
SELECT id, at::text, ats::text, r::text FROM t ORDER BY id;
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `SET
CREATE TABLE
COPY 2
SET
id,at,ats,r
1,2026-03-01 03:00:00+00,"{""2026-03-01 03:00:00+00""}","[""2026-03-01 03:00:00+00"",""2026-03-02 03:00:00+00"")"
2,2026-03-01 12:00:00+00,"{""2026-03-01 12:00:00+00""}","[""2026-03-01 12:00:00+00"",)"
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
