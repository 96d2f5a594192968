package engine_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/jackc/pgx/v5"
	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
)

var partialSave = flag.String("difftest.save", "",
	"a directory where TestDifferentialPartial writes every generated case as a datadriven file")

// partialFailed is where a failing generated case is written, as a
// datadriven file that TestDataDriven replays.
const partialFailed = "testdata/partial_failed.txt"

// TestDifferentialPartial is the differential test of views over
// change-stream tables: each rapid case generates a star schema, 2–5
// views (maintained partially or normalised, as the engine chooses or as
// WITH (propagation = …) forces), a first load and txnsPerCase
// transactions of change events of all seven kinds, and runs them as a
// datadriven file through TestDataDriven's harness: after every
// statement each view must hold what an engine over ordinary tables,
// given the same events, computes from scratch, and what PostgreSQL
// computes after the events are applied to its tables as plain SQL; the
// deltas subscribers receive must sum to the contents, with nothing for a
// transaction that leaves a view as it was. A failing case is written to
// testdata/partial_failed.txt (replay: go test ./internal/engine -run
// TestDataDriven/partial_failed); -difftest.save=DIR writes every case.
// The 100 rapid cases of the default run (20 under -short) check at least
// 200 views and 2,000 transactions; -difftest.scale multiplies the
// transactions per case.
func TestDifferentialPartial(t *testing.T) {
	t.Parallel()
	conn := pgtest.Start(t).Conn(t)
	tot := &partialTotals{events: map[string]int{}}
	start := time.Now()
	rapid.Check(t, func(rt *rapid.T) {
		tot.cases++
		g := &pgen{gen: &gen{t: rt}, totals: tot}
		nviews := 2 + g.intn(4)
		dirs := g.generate(nviews, 20**diffScale)
		runPartialCase(rt, conn, fmt.Sprintf("p%d", tot.cases), dirs, tot, nviews)
	})
	var kinds []string
	for _, k := range []string{"insert", "update", "partial update", "upsert", "delete", "true partial delete", "safe partial delete"} {
		kinds = append(kinds, fmt.Sprintf("%d %s", tot.events[k], k))
	}
	msg := fmt.Sprintf("difftest-partial: %d cases (%d with partial views only), %d views (%d partial, %d normalised), %d transactions (%d committed, %d rolled back, %d cancelling) in %d COPYs, events: %s; in %v",
		tot.cases, tot.onlyPartial, tot.views, tot.partial, tot.normalised, tot.txns, tot.committed, tot.rolledBack, tot.cancelling, tot.copies, strings.Join(kinds, ", "), time.Since(start).Round(time.Millisecond))
	t.Log(msg)
	fmt.Println(msg)
	if !t.Failed() && !testing.Short() && *diffScale >= 1 && !flagSet("rapid.checks") && !flagSet("rapid.failfile") {
		if tot.views < 200 || tot.txns < 2000 || tot.partial < 100 || tot.normalised < 20 {
			t.Errorf("difftest-partial: the default run must cover at least 200 views (100 partial, 20 normalised) and 2,000 transactions")
		}
		for k, n := range tot.events {
			if n < 100 {
				t.Errorf("difftest-partial: only %d events of kind %s", n, k)
			}
		}
	}
}

// caseFailer writes the case when the harness reports a failure, then
// fails the rapid case (which rapid then shrinks, rewriting the file).
type caseFailer struct {
	rt     *rapid.T
	onFail func(msg string)
}

func (f *caseFailer) Helper() {}

func (f *caseFailer) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	f.onFail(msg)
	f.rt.Fatalf("%s\n\nthe case is in %s; replay it with: go test ./internal/engine -run TestDataDriven/partial_failed", msg, partialFailed)
}

// runPartialCase runs a generated case's directives through the
// datadriven harness, in a PostgreSQL schema of its own.
func runPartialCase(rt *rapid.T, conn *pgx.Conn, schema string, dirs []pdirective, tot *partialTotals, nviews int) {
	h := newHarness(engine.New())
	h.pg = conn
	h.cleanup = func(func()) {}
	pgSetup := func(sql string) {
		if _, err := conn.PgConn().Exec(context.Background(), sql).ReadAll(); err != nil {
			rt.Fatalf("postgres: %s: %v", sql, err)
		}
	}
	pgSetup("ROLLBACK") // a failed case may have left a transaction open
	pgSetup("DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema + "; SET search_path TO " + schema)
	defer pgSetup("ROLLBACK; DROP SCHEMA IF EXISTS " + schema + " CASCADE; SET search_path TO public")
	var outs []string
	f := &caseFailer{rt: rt}
	for i, dir := range dirs {
		f.onFail = func(string) { writePartialCase(partialFailed, dirs[:i+1], outs) }
		d := &datadriven.TestData{Pos: fmt.Sprintf("generated directive %d", i+1), Cmd: dir.cmd, Input: dir.input}
		var out string
		if dir.cmd == "views" {
			out = h.views(f)
		} else {
			out = h.exec(f, d)
		}
		outs = append(outs, out)
		if i == 1 { // the views exist: count how each is maintained
			for _, name := range h.e.Views() {
				tot.views++
				if _, _, ok := h.e.PartialState(name); ok {
					tot.partial++
				} else {
					tot.normalised++
				}
			}
			if all := slices.ContainsFunc(h.e.Views(), func(v string) bool { _, _, ok := h.e.PartialState(v); return !ok }); !all {
				tot.onlyPartial++ // the tables keep no rows
			}
			if n := len(h.e.Views()); n != nviews {
				f.Fatalf("%d views of %d were created", n, nviews)
			}
		}
	}
	if *partialSave != "" {
		writePartialCase(filepath.Join(*partialSave, schema+".txt"), dirs, outs)
	}
}

// writePartialCase writes directives and their outputs as a datadriven
// file; a directive without an output (the failing one) gets a
// placeholder, which the replay never reaches when the failure persists.
func writePartialCase(path string, dirs []pdirective, outs []string) {
	var b strings.Builder
	b.WriteString("# A case generated by TestDifferentialPartial.\n\n")
	for i, dir := range dirs {
		b.WriteString(dir.cmd + "\n" + dir.input)
		if dir.input != "" && !strings.HasSuffix(dir.input, "\n") {
			b.WriteByte('\n')
		}
		out := "(the harness failed here)\n"
		if i < len(outs) {
			out = outs[i]
		}
		b.WriteString("----\n" + out)
		if out != "" && !strings.HasSuffix(out, "\n") {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	_ = os.WriteFile(path, []byte(b.String()), 0o644)
}
