package pgwire_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/pgwire"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const lookupRows = 10000

// BenchmarkPointLookup looks up one row by key in a materialized view
// through the wire protocol, and the same row in a PostgreSQL table
// holding the view's rows: the same client (pgx, prepared statement,
// binary results) over a unix socket to each. deltaview-table looks the
// row up in deltaview's table by its primary key instead; the roundtrip
// cases read no table, to time the protocol alone.
func BenchmarkPointLookup(b *testing.B) {
	const roundTrip = `SELECT $1::int, 2, 'row'`
	for name, q := range map[string]string{
		"deltaview":           `SELECT id, w, s FROM mv WHERE id = $1`,
		"deltaview-table":     `SELECT id, v * 2, s FROM t WHERE id = $1`,
		"deltaview-roundtrip": roundTrip,
	} {
		b.Run(name, func(b *testing.B) { lookups(b, deltaviewConn(b), q) })
	}
	b.Run("postgres-roundtrip", func(b *testing.B) { lookups(b, pgtest.Start(b).Conn(b), roundTrip) })
	b.Run("postgres", func(b *testing.B) { lookups(b, postgresConn(b), `SELECT id, w, s FROM mv WHERE id = $1`) })
}

// BenchmarkPointLookupInterleaved makes the lookups of BenchmarkPointLookup
// on the view and on PostgreSQL's table in turns, the same key on each, so
// that both meet the same load of a shared machine; it reports the median
// and mean time of each and the ratio of the medians (deltaview's over
// PostgreSQL's).
func BenchmarkPointLookupInterleaved(b *testing.B) {
	const q = `SELECT id, w, s FROM mv WHERE id = $1`
	conns := []*pgx.Conn{deltaviewConn(b), postgresConn(b)}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	var id, w int32
	var s string
	times := [2][]time.Duration{make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)}
	found := [2]int{}
	for _, c := range conns { // prepare the statement outside the clock
		if err := c.QueryRow(ctx, q, 1).Scan(&id, &w, &s); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		k := rng.Int32N(lookupRows) + 1
		for j := range conns {
			j = (j + i) % 2 // each goes first half of the time
			start := time.Now()
			err := conns[j].QueryRow(ctx, q, k).Scan(&id, &w, &s)
			times[j] = append(times[j], time.Since(start))
			if err == nil {
				found[j]++
			} else if err != pgx.ErrNoRows {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	if found[0] != found[1] {
		b.Fatalf("deltaview found %d rows, PostgreSQL %d", found[0], found[1])
	}
	var med [2]float64
	for j, name := range []string{"deltaview", "postgres"} {
		ts := times[j]
		slices.Sort(ts)
		var sum time.Duration
		for _, t := range ts {
			sum += t
		}
		med[j] = float64(ts[len(ts)/2].Nanoseconds())
		b.ReportMetric(med[j], name+"-median-ns")
		b.ReportMetric(float64(sum.Nanoseconds())/float64(len(ts)), name+"-mean-ns")
	}
	b.ReportMetric(med[0]/med[1], "median-ratio")
}

// deltaviewConn serves a database holding t and its materialized view mv
// over a unix socket, and connects pgx to it.
func deltaviewConn(b *testing.B) *pgx.Conn {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, v int, s text)`); err != nil {
		b.Fatal(err)
	}
	if err := db.Exec(fmt.Sprintf(`INSERT INTO t SELECT g, g %% 97, 'row ' || g FROM generate_series(1, %d) g`, lookupRows)); err != nil {
		b.Fatal(err)
	}
	if err := db.Exec(`CREATE MATERIALIZED VIEW mv AS SELECT id, v * 2 AS w, s FROM t WHERE v > 0`); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	ln, err := net.Listen("unix", filepath.Join(dir, ".s.PGSQL.5433"))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	go pgwire.Serve(ctx, db, ln, pgwire.Options{})
	c, err := pgx.Connect(ctx, fmt.Sprintf("host=%s port=5433 user=deltaview dbname=deltaview", dir))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// postgresConn starts a PostgreSQL whose table mv holds the view's rows,
// with id as its primary key, and connects pgx to it.
func postgresConn(b *testing.B) *pgx.Conn {
	c := pgtest.Start(b).Conn(b)
	ctx := context.Background()
	for _, q := range []string{
		`CREATE TABLE mv (id int PRIMARY KEY, w int, s text)`,
		fmt.Sprintf(`INSERT INTO mv SELECT g, (g %% 97) * 2, 'row ' || g FROM generate_series(1, %d) g WHERE g %% 97 > 0`, lookupRows),
		`ANALYZE mv`,
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

func lookups(b *testing.B, c *pgx.Conn, q string) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	var id, w int32
	var s string
	found := 0
	b.ResetTimer()
	for range b.N {
		k := rng.Int32N(lookupRows) + 1
		err := c.QueryRow(ctx, q, k).Scan(&id, &w, &s)
		if err == nil {
			found++
		} else if err != pgx.ErrNoRows {
			b.Fatal(err)
		}
	}
	if b.N > 100 && found == 0 {
		b.Fatal("no row found")
	}
}
