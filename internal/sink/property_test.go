package sink_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite"
	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/sink"
	"github.com/deltaview/deltaview/internal/value"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The three related relations of the view-maintenance property
// (docs/partial-deltas.md, "How it is checked"): customers →
// addresses → regions, every foreign key NOT NULL and holding at every
// step boundary.
const schema = `
CREATE TABLE regions (rid int PRIMARY KEY, rname text, zone int)%[1]s;
CREATE TABLE addresses (aid int PRIMARY KEY, city text, country text, rid int NOT NULL)%[1]s;
CREATE TABLE customers (cid int PRIMARY KEY, name text, disc int, aid int NOT NULL)%[2]s;
`

// streams are the options that make schema's tables change streams:
// customers, the root of views with a predicate on it, declares that its
// changes leave no column unknown (forgettable has none of its columns).
var streams = []any{" WITH (change_stream = true)", " WITH (change_stream = true, complete_rows = true)"}

// views are dimension views of depth 0 to 3: plain, with a predicate on
// the root, with a predicate on a dimension (the join keeps its left
// rows), a filter without a join (whose output has upserts and safe
// deletions), and one rooted at addresses.
var views = []struct{ name, query string }{
	{"dim", "SELECT c.cid, c.name, a.city, a.country FROM customers c JOIN addresses a ON c.aid = a.aid"},
	{"disc", "SELECT c.cid, c.name, c.disc * 2 AS d2, a.city FROM customers c JOIN addresses a ON c.aid = a.aid WHERE c.disc > 2"},
	{"zone", "SELECT c.cid, c.name, a.city, r.rname FROM customers c JOIN addresses a ON c.aid = a.aid JOIN regions r ON a.rid = r.rid WHERE r.zone = 1"},
	{"flt", "SELECT cid, name, disc FROM customers WHERE disc > 2"},
	{"addr", "SELECT a.aid, a.city, r.rname, r.zone FROM addresses a JOIN regions r ON a.rid = r.rid WHERE a.country = 'DE'"},
}

// forgettable lists, per table, the columns a partial update may leave
// unknown: none of customers, which declares complete_rows so that the
// predicates on it go directly over it (docs/partial-deltas.md §3.4), nor
// of addresses; every non-key column of regions.
var forgettable = map[string][]int{"regions": {1, 2}}

var tableNames = []string{"regions", "addresses", "customers"}

func i4(n int64) value.Value  { return value.NewInt(value.Int4, n) }
func tx(s string) value.Value { return value.NewText(value.Text, s) }

// world is the test's model of the base tables: key → row.
type world map[string]map[int64]value.Row

func (w world) clone() world {
	c := world{}
	for t, rows := range w {
		c[t] = map[int64]value.Row{}
		for k, r := range rows {
			c[t][k] = r
		}
	}
	return c
}

func (w world) keys(t string) []int64 {
	var ks []int64
	for k := range w[t] {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// referenced reports whether a row of the table below t references key.
func (w world) referenced(t string, key int64) bool {
	by := map[string]string{"regions": "addresses", "addresses": "customers"}[t]
	if by == "" {
		return false
	}
	for _, r := range w[by] {
		if r[3].Int() == key {
			return true
		}
	}
	return false
}

var cities = []string{"Essen", "Bonn", "Paris", "Lyon"}
var countries = []string{"DE", "FR"}
var names = []string{"Adam", "Bob", "Carl", "Dave"}

func genRow(rt *rapid.T, w world, t string, key int64) value.Row {
	pick := func(xs []string, label string) value.Value { return tx(rapid.SampledFrom(xs).Draw(rt, label)) }
	switch t {
	case "regions":
		return value.Row{i4(key), pick([]string{"North", "South"}, "rname"), i4(int64(rapid.IntRange(0, 2).Draw(rt, "zone")))}
	case "addresses":
		return value.Row{i4(key), pick(cities, "city"), pick(countries, "country"), i4(rapid.SampledFrom(w.keys("regions")).Draw(rt, "rid"))}
	}
	return value.Row{i4(key), pick(names, "name"), i4(int64(rapid.IntRange(0, 5).Draw(rt, "disc"))), i4(rapid.SampledFrom(w.keys("addresses")).Draw(rt, "aid"))}
}

// change is one truthful change of the model, before forgetting.
type change struct {
	table    string
	old, new value.Row // nil for absent
}

// genTx draws 1–6 changes that keep the foreign keys, applying them to w,
// with some changes undone within the transaction.
func genTx(rt *rapid.T, w world, dims bool) []change {
	var out []change
	n := rapid.IntRange(1, 6).Draw(rt, "changes")
	for i := 0; i < n; i++ {
		t := "customers"
		if dims {
			t = rapid.SampledFrom(tableNames).Draw(rt, "table")
		}
		keys := w.keys(t)
		var c change
		switch op := rapid.IntRange(0, 2).Draw(rt, "op"); {
		case op == 0 || len(keys) == 0:
			key := int64(rapid.IntRange(1, 12).Draw(rt, "key"))
			if _, ok := w[t][key]; ok {
				continue
			}
			if (t == "addresses" && len(w.keys("regions")) == 0) || (t == "customers" && len(w.keys("addresses")) == 0) {
				continue
			}
			c = change{table: t, new: genRow(rt, w, t, key)}
		case op == 1:
			key := rapid.SampledFrom(keys).Draw(rt, "key")
			c = change{table: t, old: w[t][key], new: genRow(rt, w, t, key)}
		default:
			key := rapid.SampledFrom(keys).Draw(rt, "key")
			if w.referenced(t, key) {
				continue
			}
			c = change{table: t, old: w[t][key]}
		}
		out = append(out, c)
		w.apply(c)
		if rapid.IntRange(0, 5).Draw(rt, "undo") == 0 { // cancelled within the transaction
			u := change{table: c.table, old: c.new, new: c.old}
			out = append(out, u)
			w.apply(u)
		}
	}
	return out
}

func (w world) apply(c change) {
	if c.new != nil {
		w[c.table][c.new[0].Int()] = c.new
	} else {
		delete(w[c.table], c.old[0].Int())
	}
}

// forget states c as one of the kinds it allows, at random: an insertion
// as an upsert; an update as a partial update (unchanged forgettable
// columns unknown) or an upsert; a deletion by key, true or safe.
func forget(rt *rapid.T, c change, on bool) delta.Change {
	k := 0
	if on {
		k = rapid.IntRange(0, 2).Draw(rt, "forget")
	}
	switch {
	case c.old == nil:
		if k == 1 {
			return delta.Upsert{Row: c.new}
		}
		return delta.Insert{Row: c.new}
	case c.new == nil:
		switch k {
		case 1:
			return delta.TruePartialDelete{KeyVals: value.Row{c.old[0]}}
		case 2:
			return delta.SafePartialDelete{KeyVals: value.Row{c.old[0]}}
		}
		return delta.Delete{Row: c.old}
	}
	switch k {
	case 1:
		var unknown delta.Cols
		row := slices.Clone(c.new)
		for _, i := range forgettable[c.table] {
			if value.Compare(c.old[i], c.new[i]) == 0 && rapid.Bool().Draw(rt, "unknown") {
				unknown = unknown.With(i)
				row[i] = value.Null
			}
		}
		return delta.PartialUpdate{Row: row, Unknown: unknown}
	case 2:
		return delta.Upsert{Row: c.new}
	}
	return delta.Update{Old: c.old, New: c.new}
}

func exec(t testing.TB, e *engine.Engine, script string) {
	t.Helper()
	if err := e.NewSession().ExecScript(script, func(engine.Result) error { return nil }); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

func applyTx(e *engine.Engine, byTable map[string]delta.Batch) error {
	s := e.NewSession()
	if err := s.Begin(); err != nil {
		return err
	}
	for _, t := range tableNames {
		if b := byTable[t]; len(b) > 0 {
			if err := s.ApplyChanges(t, b); err != nil {
				s.Rollback()
				return err
			}
		}
	}
	return s.Commit()
}

func rowText(r value.Row) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = textOf(v)
	}
	return strings.Join(parts, "|")
}

func textOf(v value.Value) string {
	if v.IsNull() {
		return "NULL"
	}
	return string(value.AppendText(nil, v))
}

func sorted(rows []string) []string { slices.Sort(rows); return rows }

func sqliteRows(t testing.TB, db *sql.DB, table string) []string {
	rows, err := db.Query("SELECT * FROM " + strconv.Quote(table))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				parts[i] = "NULL"
			case []byte:
				parts[i] = string(v)
			default:
				parts[i] = fmt.Sprint(v)
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return sorted(out)
}

func pgRows(t testing.TB, conn *pgx.Conn, table string) []string {
	rows, err := pgtest.Query(t, conn, "SELECT * FROM "+strconv.Quote(table))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		parts := make([]string, len(r))
		for i, v := range r {
			parts[i] = "NULL"
			if v != nil {
				parts[i] = *v
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return sorted(out)
}

// totals counts what the property test ran.
type totals struct {
	checks, txs, forgotten, partialSteps, sinkSteps int
	kinds                                           [delta.NumKinds]int64
}

// TestViewMaintenanceTargets is the view-maintenance property (applying a
// view's delta to its old contents gives its new contents), through the engine
// and into the three targets: random old states of customers → addresses
// → regions, random transactions (some changes undone within them), each
// change stated with random truthful forgetting. The same events feed two
// engines whose tables are change-stream tables — one maintaining the
// views by partial propagation, one by normalisation — and each view is
// kept in the engine, in a table of a real SQLite file and in a real
// PostgreSQL table. After every transaction all twelve copies of every
// view must equal the view recomputed from scratch over a third engine
// with ordinary tables fed the same events.
func TestViewMaintenanceTargets(t *testing.T) {
	conn := pgtest.Start(t).Conn(t)
	dir := t.TempDir()
	lite, err := sql.Open("sqlite", filepath.Join(dir, "views.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	lite.SetMaxOpenConns(1)
	for _, p := range []string{"PRAGMA journal_mode=WAL", "PRAGMA synchronous=OFF"} {
		if _, err := lite.Exec(p); err != nil {
			t.Fatal(err)
		}
	}
	var tot totals
	rapid.Check(t, func(rt *rapid.T) {
		tot.checks++
		run := tot.checks
		oracle := engine.New()
		exec(t, oracle, fmt.Sprintf(schema, "", ""))
		type target struct {
			e    *engine.Engine
			mode string
		}
		targets := []target{{engine.New(), "partial"}, {engine.New(), "normalise"}}
		for _, tg := range targets {
			liteDB, pgDB := sink.NewSQLiteDB(lite), sink.NewPostgresDB(conn)
			exec(t, tg.e, fmt.Sprintf(schema, streams...))
			for _, v := range views {
				exec(t, tg.e, fmt.Sprintf("CREATE MATERIALIZED VIEW %s WITH (propagation = %s) AS %s", v.name, tg.mode, v.query))
				if got := tg.e.Propagation(v.name); got != tg.mode {
					t.Fatalf("view %s is maintained by %s, not %s", v.name, got, tg.mode)
				}
				if _, err := tg.e.AttachSink(v.name, liteDB.Table(tableName(tg.mode, v.name, run))); err != nil {
					t.Fatal(err)
				}
				if _, err := tg.e.AttachSink(v.name, pgDB.Table(tableName(tg.mode, v.name, run))); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, v := range views {
			exec(t, oracle, fmt.Sprintf("CREATE VIEW %s AS %s", v.name, v.query))
		}
		w := world{"regions": {}, "addresses": {}, "customers": {}}
		forgetting := rapid.Bool().Draw(rt, "forgetting")
		// The old state, as the first transaction.
		var first []change
		for _, tn := range tableNames {
			for k := int64(1); k <= int64(rapid.IntRange(1, 6).Draw(rt, "rows")); k++ {
				c := change{table: tn, new: genRow(rt, w, tn, k)}
				w.apply(c)
				first = append(first, c)
			}
		}
		txs := [][]change{first}
		for i := rapid.IntRange(100, 120).Draw(rt, "txs"); i > 0; i-- {
			txs = append(txs, genTx(rt, w.clone(), true))
			for _, c := range txs[len(txs)-1] {
				w.apply(c)
			}
		}
		for _, changes := range txs {
			byTable := map[string]delta.Batch{}
			for _, c := range changes {
				d := forget(rt, c, forgetting)
				if !d.Kind().Complete() {
					tot.forgotten++
				}
				byTable[c.table] = append(byTable[c.table], d)
			}
			if err := applyTx(oracle, byTable); err != nil {
				t.Fatalf("oracle: %v", err)
			}
			for _, tg := range targets {
				if err := applyTx(tg.e, byTable); err != nil {
					t.Fatalf("%s: %v\ntransaction: %v", tg.mode, err, byTable)
				}
			}
			tot.txs++
			for _, v := range views {
				res, err := exec1(oracle, "SELECT * FROM "+v.name)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, r := range res {
					want = append(want, rowText(r))
				}
				want = sorted(want)
				for _, tg := range targets {
					_, rows, err := tg.e.ViewRows(v.name)
					if err != nil {
						t.Fatal(err)
					}
					var got []string
					for _, r := range rows {
						got = append(got, rowText(r))
					}
					check(t, tg.mode+" engine "+v.name, sorted(got), want, byTable)
					check(t, tg.mode+" sqlite "+v.name, sqliteRows(t, lite, tableName(tg.mode, v.name, run)), want, byTable)
					check(t, tg.mode+" postgres "+v.name, pgRows(t, conn, tableName(tg.mode, v.name, run)), want, byTable)
				}
			}
		}
		for _, v := range views {
			k, _ := targets[0].e.PartialKinds(v.name)
			for i := range k {
				tot.kinds[i] += k[i]
			}
			// Minimality: from complete changes, complete output.
			if !forgetting && (k[delta.KindUpsert] > 0 || k[delta.KindSafePartialDelete] > 0) {
				t.Fatalf("view %s: complete input gave %d upserts and %d safe deletions", v.name, k[delta.KindUpsert], k[delta.KindSafePartialDelete])
			}
		}
	})
	t.Logf("%d runs, %d transactions (%d partially stated changes), each into 2 engines × 5 views × 3 targets (engine, SQLite, PostgreSQL): %d transactions per target and mode",
		tot.checks, tot.txs, tot.forgotten, tot.txs)
	var kinds []string
	for i, n := range tot.kinds {
		kinds = append(kinds, fmt.Sprintf("%s=%d", delta.Kind(i), n))
	}
	t.Logf("partial propagation produced: %s", strings.Join(kinds, " "))
	fmt.Printf("partial-delta targets: %d transactions per target (engine, SQLite, PostgreSQL) and per mode (partial, normalise)\n", tot.txs)
}

func tableName(mode, view string, run int) string {
	return fmt.Sprintf("%s_%s_%d", mode[:4], view, run)
}

func exec1(e *engine.Engine, q string) ([]value.Row, error) {
	var rows []value.Row
	err := e.NewSession().ExecScript(q, func(r engine.Result) error { rows = append(rows, r.Rows...); return nil })
	return rows, err
}

func check(t testing.TB, what string, got, want []string, tx map[string]delta.Batch) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\ngot  %q\nwant %q\nafter %v", what, got, want, tx)
	}
}

// countingSink records the changes it is given.
type countingSink struct{ steps, changes int }

func (c *countingSink) Open(engine.SinkView, []value.Row) error { return nil }
func (c *countingSink) Prepare(_ uint64, b delta.Batch) error {
	c.steps++
	c.changes += len(b)
	return nil
}
func (c *countingSink) Commit() error { return nil }
func (c *countingSink) Abort()        {}

// TestMinimalityAndCancellation: complete changes of the root give only
// complete kinds; a change of a dimension gives partial updates of the
// view rows (the root's other columns are not kept); a transaction whose
// changes cancel gives the targets nothing.
func TestMinimalityAndCancellation(t *testing.T) {
	e := engine.New()
	exec(t, e, fmt.Sprintf(schema, streams...))
	exec(t, e, "CREATE MATERIALIZED VIEW dim AS "+views[0].query)
	cs := &countingSink{}
	if _, err := e.AttachSink("dim", cs); err != nil {
		t.Fatal(err)
	}
	step := func(b map[string]delta.Batch) [delta.NumKinds]int64 {
		before, _ := e.PartialKinds("dim")
		if err := applyTx(e, b); err != nil {
			t.Fatal(err)
		}
		after, _ := e.PartialKinds("dim")
		for i := range after {
			after[i] -= before[i]
		}
		return after
	}
	kinds := func(pairs ...any) [delta.NumKinds]int64 {
		var k [delta.NumKinds]int64
		for i := 0; i < len(pairs); i += 2 {
			k[pairs[i].(delta.Kind)] = int64(pairs[i+1].(int))
		}
		return k
	}
	a1 := value.Row{i4(1), tx("Essen"), tx("DE"), i4(1)}
	a2 := value.Row{i4(2), tx("Paris"), tx("FR"), i4(1)}
	c1 := value.Row{i4(1), tx("Adam"), i4(5), i4(1)}
	c2 := value.Row{i4(2), tx("Bob"), i4(0), i4(1)}
	c1b := value.Row{i4(1), tx("Adam"), i4(5), i4(2)}
	for _, c := range []struct {
		name string
		tx   map[string]delta.Batch
		want [delta.NumKinds]int64
	}{
		{"inserts", map[string]delta.Batch{"regions": {delta.Insert{Row: value.Row{i4(1), tx("North"), i4(1)}}},
			"addresses": {delta.Insert{Row: a1}, delta.Insert{Row: a2}}, "customers": {delta.Insert{Row: c1}, delta.Insert{Row: c2}}},
			kinds(delta.KindInsert, 2)},
		{"root update", map[string]delta.Batch{"customers": {delta.Update{Old: c1, New: c1b}}}, kinds(delta.KindUpdate, 1)},
		{"root partial update", map[string]delta.Batch{"customers": {delta.PartialUpdate{Row: c1}}}, kinds(delta.KindUpdate, 0, delta.KindPartialUpdate, 1)},
		{"root upsert of a known key", map[string]delta.Batch{"customers": {delta.Upsert{Row: c1b}}}, kinds(delta.KindPartialUpdate, 1)},
		{"root deletion by key", map[string]delta.Batch{"customers": {delta.SafePartialDelete{KeyVals: value.Row{i4(2)}}}}, kinds(delta.KindTruePartialDelete, 1)},
		{"dimension update", map[string]delta.Batch{"addresses": {delta.Update{Old: a2, New: value.Row{i4(2), tx("Lyon"), tx("FR"), i4(1)}}}}, kinds(delta.KindPartialUpdate, 1)},
	} {
		if got := step(c.tx); got != c.want {
			t.Errorf("%s: kinds %v, want %v", c.name, got, c.want)
		}
	}
	steps := cs.steps
	for _, c := range []struct {
		name string
		tx   map[string]delta.Batch
	}{
		{"insert then delete", map[string]delta.Batch{"customers": {delta.Insert{Row: c2}, delta.Delete{Row: c2}}}},
		{"update and back", map[string]delta.Batch{"customers": {delta.Update{Old: c1b, New: c1}, delta.Update{Old: c1, New: c1b}}}},
		{"dimension change and back", map[string]delta.Batch{"addresses": {
			delta.PartialUpdate{Row: value.Row{i4(1), tx("Bonn"), tx("DE"), i4(1)}},
			delta.PartialUpdate{Row: a1}}}},
	} {
		if got := step(c.tx); got != ([delta.NumKinds]int64{}) {
			t.Errorf("%s: produced %v", c.name, got)
		}
		if cs.steps != steps {
			t.Errorf("%s: the sink received a step", c.name)
		}
	}
}

// TestSinkFailureRollsBack: a deletion that does not find its row in the
// target fails the step, names the view, the key and the step, and leaves
// the target and the engine as they were.
func TestSinkFailureRollsBack(t *testing.T) {
	lite, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "v.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	e := engine.New()
	exec(t, e, fmt.Sprintf(schema, streams...))
	exec(t, e, "CREATE MATERIALIZED VIEW flt AS "+views[3].query)
	db := sink.NewSQLiteDB(lite)
	if _, err := e.AttachSink("flt", db.Table("flt")); err != nil {
		t.Fatal(err)
	}
	c1 := value.Row{i4(1), tx("Adam"), i4(5), i4(1)}
	c2 := value.Row{i4(2), tx("Bob"), i4(7), i4(1)}
	if err := applyTx(e, map[string]delta.Batch{"customers": {delta.Insert{Row: c1}, delta.Insert{Row: c2}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := lite.Exec(`DELETE FROM flt WHERE cid = 1`); err != nil {
		t.Fatal(err)
	}
	err = applyTx(e, map[string]delta.Batch{"customers": {delta.Delete{Row: c2}, delta.Delete{Row: c1}}})
	if err == nil || !strings.Contains(err.Error(), "flt") || !strings.Contains(err.Error(), "(1)") || !strings.Contains(err.Error(), "step 2") {
		t.Fatalf("error %v does not name the view, the key and the step", err)
	}
	if got := sqliteRows(t, lite, "flt"); !slices.Equal(got, []string{"2|Bob|7"}) {
		t.Fatalf("the target changed: %q", got)
	}
	if _, rows, _ := e.ViewRows("flt"); len(rows) != 2 {
		t.Fatalf("the view changed: %v", rows)
	}
}
