package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// TestWholeLogTables checks the commits of kept replacements that skip
// their passes over the log (wholelog.go) against the views' queries: a
// transaction of replacements of one table whose batch the write builds
// (the log whole), and transactions beside which the write builds no
// batch for a table (its key not leading its rows, or no view reading
// it), writes a statement made first, or whose log is as long as the
// last whole one's, with one worker and with two.
func TestWholeLogTables(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { testWholeLogTables(t, workers) })
	}
}

func testWholeLogTables(t *testing.T, workers int) {
	e := engine.New()
	e.SetWorkers(workers)
	if workers > 1 {
		engine.SetParallelMin(e, 0)
	}
	s := e.NewSession()
	views := map[string]string{
		"va":  `SELECT v, count(*) FROM a GROUP BY v`,
		"vb":  `SELECT v, count(*) FROM b GROUP BY v`,
		"vab": `SELECT a.id, b.v FROM a JOIN b ON a.id = b.id WHERE a.v > b.v`,
	}
	script := `CREATE TABLE a (id int PRIMARY KEY, v int NOT NULL);
		CREATE TABLE b (v int NOT NULL, id int PRIMARY KEY);
		CREATE TABLE c (id int PRIMARY KEY, v int NOT NULL);
		INSERT INTO a SELECT g, g % 7 FROM generate_series(1, 300) g;
		INSERT INTO b SELECT g % 5, g FROM generate_series(1, 300) g;
		INSERT INTO c SELECT g, g FROM generate_series(1, 300) g;`
	for _, name := range []string{"va", "vb", "vab"} {
		script += fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS %s;\n", name, views[name])
	}
	if err := s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	replace := func(table string, n int) {
		t.Helper()
		for range n {
			id, v := i4(1+rng.Int64N(300)), i4(rng.Int64N(9))
			row := value.Row{id, v}
			if table == "b" {
				row = value.Row{v, id}
			}
			if err := s.Replace(table, row); err != nil {
				t.Fatal(err)
			}
		}
	}
	exec := func(sql string) {
		t.Helper()
		if err := s.ExecScript(sql, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	txns := []struct {
		name string
		do   func()
	}{
		{"a alone", func() { replace("a", 200) }},
		{"a and b", func() { replace("a", 100); replace("b", 100) }},
		{"b alone", func() { replace("b", 150) }},
		{"a and c", func() { replace("a", 100); replace("c", 100) }},
		{"a after a statement", func() { exec(`UPDATE b SET v = v + 1 WHERE id <= 20`); replace("a", 100) }},
		{"a alone again", func() { replace("a", 50) }},
		// 50 rows updated: a log as long as the last commit's.
		{"a statement", func() { exec(`UPDATE a SET v = v + 1 WHERE id <= 50`) }},
		{"a and a statement after", func() { replace("a", 100); exec(`UPDATE a SET v = v + 2 WHERE id > 250`) }},
	}
	for round := range 3 {
		for _, tx := range txns {
			if err := s.Begin(); err != nil {
				t.Fatal(err)
			}
			tx.do()
			if err := s.Commit(); err != nil {
				t.Fatal(err)
			}
			for name, q := range views {
				if got, want := sortedResult(t, s, "SELECT * FROM "+name), sortedResult(t, s, q); got != want {
					t.Fatalf("round %d, %s: view %s holds %s, its query gives %s", round, tx.name, name, got, want)
				}
			}
		}
	}
}
