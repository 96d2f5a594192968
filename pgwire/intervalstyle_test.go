package pgwire_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestIntervalStyleStartup connects as Rails does, with IntervalStyle
// iso_8601 in the startup message, and reads intervals as text through
// the simple and the extended protocol (columns, casts to text, arrays),
// then changes the style with SET:
// deltaview and PostgreSQL must send the same bytes and report the same
// ParameterStatus.
func TestIntervalStyleStartup(t *testing.T) {
	conns := map[string]string{"deltaview": connString(startServer(t, deltaview.Open()))}
	if _, err := pgtest.FindBinDir(); err == nil || os.Getenv("CI") == "true" {
		conns["PostgreSQL"] = pgtest.Start(t).ConnString("postgres")
	}
	results := map[string][]string{}
	for name, cs := range conns {
		cfg, err := pgx.ParseConfig(cs)
		if err != nil {
			t.Fatal(err)
		}
		cfg.RuntimeParams["IntervalStyle"] = "iso_8601"
		c, err := pgx.ConnectConfig(ctx(t), cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		var out []string
		pc := c.PgConn()
		out = append(out, "status "+pc.ParameterStatus("IntervalStyle"))
		mustExec(t, c, `CREATE TABLE ivs (id int PRIMARY KEY, v interval)`)
		mustExec(t, c, `INSERT INTO ivs VALUES (1, '1 year 2 mons 3 days 04:05:06.5'), (2, '-1 day +02:00'), (3, '0'), (4, NULL)`)
		read := func(q string) {
			t.Helper()
			rs, err := pc.Exec(ctx(t), q).ReadAll()
			if err != nil {
				t.Fatalf("%s: %s: %v", name, q, err)
			}
			for _, r := range rs {
				for _, row := range r.Rows {
					for _, v := range row {
						out = append(out, string(v))
					}
				}
			}
			r := pc.ExecParams(ctx(t), q, nil, nil, nil, []int16{0}).Read()
			if r.Err != nil {
				t.Fatalf("%s: %s (extended): %v", name, q, r.Err)
			}
			for _, row := range r.Rows {
				for _, v := range row {
					out = append(out, "ext "+string(v))
				}
			}
		}
		for _, style := range []string{"", "sql_standard", "postgres_verbose", "postgres"} {
			if style != "" {
				mustExec(t, c, "SET IntervalStyle = "+style)
				out = append(out, "status "+pc.ParameterStatus("IntervalStyle"))
			}
			read(`SELECT v FROM ivs ORDER BY id`)
			read(`SELECT v::text || '|' || (v * 2)::varchar FROM ivs ORDER BY id`)
			read(`SELECT ARRAY[v, -v] FROM ivs ORDER BY id`)
		}
		results[name] = out
	}
	want := []string{"status iso_8601", "P1Y2M3DT4H5M6.5S", "P-1DT2H", "PT0S"}
	if got := results["deltaview"]; len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("deltaview begins with %q, want %q", got[:min(len(got), len(want))], want)
	}
	if pg, ok := results["PostgreSQL"]; ok && !slices.Equal(results["deltaview"], pg) {
		t.Errorf("deltaview sends\n%q\nPostgreSQL sends\n%q", results["deltaview"], pg)
	}
}
