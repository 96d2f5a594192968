package deltaview_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// changeSchema is customers → addresses, as change-stream tables (%s is
// the table option) or ordinary ones.
const changeSchema = `
CREATE TABLE addresses (aid int PRIMARY KEY, city text, country text)%[1]s;
CREATE TABLE customers (cid int PRIMARY KEY, name text, disc int, aid int NOT NULL)%[1]s;
`

// changeViews are the views the typed API tests maintain: a dimension view
// (a join along the foreign key) and one filtered on the dimension's
// columns, whose join keeps its left rows. (A filter on the root's columns
// cannot be maintained from partial updates with unknown columns, which the
// history below has: docs/partial-deltas.md, §3.4.)
var changeViews = []struct{ name, query string }{
	{"dim", "SELECT c.cid, c.name, a.city, a.country FROM customers c JOIN addresses a ON c.aid = a.aid"},
	{"de", "SELECT c.cid, c.name, c.disc, a.city FROM customers c JOIN addresses a ON c.aid = a.aid WHERE a.country = 'DE'"},
}

func openChangeDB(t fataler, tableOpt, viewOpt string) *deltaview.DB {
	t.Helper()
	db := deltaview.Open()
	script := fmt.Sprintf(changeSchema, tableOpt)
	for _, v := range changeViews {
		script += fmt.Sprintf("CREATE MATERIALIZED VIEW %s%s AS %s;\n", v.name, viewOpt, v.query)
	}
	if err := db.Exec(script); err != nil {
		t.Fatal(err)
	}
	return db
}

// fataler is what the helpers need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// changeStep is one transaction of events, each for a table.
type changeStep []struct {
	table string
	ev    deltaview.ChangeEvent
}

func vals(vs ...any) []deltaview.Value {
	out := make([]deltaview.Value, len(vs))
	for i, v := range vs {
		switch v := v.(type) {
		case int:
			out[i] = deltaview.Int(int64(v))
		case string:
			out[i] = deltaview.Text(v)
		case nil:
			out[i] = deltaview.Null
		default:
			panic(fmt.Sprintf("vals: %T", v))
		}
	}
	return out
}

// sevenKinds is a history that uses each of the seven kinds, on the root
// table and on the dimension, with and without unknown columns.
var sevenKinds = []changeStep{
	{
		{"addresses", deltaview.Insert{Row: vals(1, "Essen", "DE")}},
		{"addresses", deltaview.Insert{Row: vals(2, "Paris", "FR")}},
		{"customers", deltaview.Insert{Row: vals(1, "Adam", 5, 1)}},
		{"customers", deltaview.Insert{Row: vals(2, "Bob", 0, 2)}},
		{"customers", deltaview.Insert{Row: vals(3, "Carl", 1, 1)}},
	},
	{{"customers", deltaview.Update{Old: vals(1, "Adam", 5, 1), New: vals(1, "Adam", 6, 2)}}},
	{{"customers", deltaview.PartialUpdate{Row: vals(3, nil, 2, 1), Unknown: []string{"name"}}}},
	{{"customers", deltaview.PartialUpdate{Row: vals(2, "Bobby", 0, 1)}}},
	{
		{"customers", deltaview.Upsert{Row: vals(4, "Dora", 3, 2)}},
		{"customers", deltaview.Upsert{Row: vals(2, "Bob", 7, 2)}},
	},
	{{"addresses", deltaview.PartialUpdate{Row: vals(1, "Koeln", nil), Unknown: []string{"country"}}}},
	{{"customers", deltaview.Delete{Row: vals(4, "Dora", 3, 2)}}},
	{{"customers", deltaview.TruePartialDelete{Key: vals(3)}}},
	{
		{"customers", deltaview.SafePartialDelete{Key: vals(9)}},
		{"customers", deltaview.SafePartialDelete{Key: vals(2)}},
	},
	{
		{"customers", deltaview.Upsert{Row: vals(5, "Eve", 2, 1)}},
		{"addresses", deltaview.Update{Old: vals(2, "Paris", "FR"), New: vals(2, "Lyon", "FR")}},
	},
}

func applyStep(t fataler, db *deltaview.DB, step changeStep) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range step {
		if err := tx.Apply(c.table, c.ev); err != nil {
			tx.Rollback()
			t.Fatalf("%s %T: %v", c.table, c.ev, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// rowsText prints rows sorted, one a line.
func rowsText(rows [][]deltaview.Value) string {
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = fmt.Sprint(r)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func viewRowsText(t fataler, db *deltaview.DB, view string) string {
	t.Helper()
	rows, err := db.View(view)
	if err != nil {
		t.Fatal(err)
	}
	return rowsText(rows.Rows)
}

func queryText(t fataler, db *deltaview.DB, query string) string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	return rowsText(rows.Rows)
}

// TestApplySevenKinds applies each of the seven kinds through Tx.Apply to
// three databases: change-stream tables with partially maintained views,
// change-stream tables with normalised views, and ordinary tables. After
// every transaction each view must equal its query evaluated from scratch
// over the ordinary tables (the complete state), and, at the end of each
// transaction, what PostgreSQL computes from the same rows.
func TestApplySevenKinds(t *testing.T) {
	partial := openChangeDB(t, " WITH (change_stream = true)", "")
	normalised := openChangeDB(t, " WITH (change_stream = true)", " WITH (propagation = normalise)")
	ordinary := openChangeDB(t, "", "")
	pg := pgtest.Start(t).Conn(t)
	ctx := context.Background()
	if _, err := pg.Exec(ctx, fmt.Sprintf(changeSchema, "")); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		db        *deltaview.DB
		opt, want string
	}{{partial, "", "propagation: partial"}, {normalised, " WITH (propagation = normalise)", "propagation: normalisation"}} {
		for _, v := range changeViews {
			if got := queryText(t, m.db, "EXPLAIN CREATE MATERIALIZED VIEW x"+m.opt+" AS "+v.query); !strings.Contains(got, m.want) {
				t.Fatalf("%s is not maintained by %q:\n%s", v.name, m.want, got)
			}
		}
	}
	for i, step := range sevenKinds {
		for _, db := range []*deltaview.DB{partial, normalised, ordinary} {
			applyStep(t, db, step)
		}
		for _, tbl := range []string{"addresses", "customers"} {
			if _, err := pg.Exec(ctx, "DELETE FROM "+tbl); err != nil {
				t.Fatal(err)
			}
			rows, err := ordinary.Query("SELECT * FROM " + tbl)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows.Rows {
				ph := make([]string, len(r))
				args := make([]any, len(r))
				for j, v := range r {
					ph[j] = fmt.Sprintf("$%d", j+1)
					if !v.IsNull() {
						args[j] = v.String()
					}
				}
				ins := "INSERT INTO " + tbl + " VALUES (" + strings.Join(ph, ", ") + ")"
				if _, err := pg.Exec(ctx, ins, args...); err != nil {
					t.Fatalf("%s: %v", ins, err)
				}
			}
		}
		for _, v := range changeViews {
			want := queryText(t, ordinary, v.query)
			for name, db := range map[string]*deltaview.DB{"partial": partial, "normalised": normalised, "ordinary": ordinary} {
				if got := viewRowsText(t, db, v.name); got != want {
					t.Errorf("step %d, %s view %s:\n%s\nwant (from scratch)\n%s", i+1, name, v.name, got, want)
				}
			}
			if got := pgRows(t, pg, v.query); got != want {
				t.Errorf("step %d, view %s: PostgreSQL computes\n%s\nwant\n%s", i+1, v.name, got, want)
			}
		}
	}
	if got := viewRowsText(t, partial, "dim"); got != "[1 Adam Lyon FR]\n[5 Eve Koeln DE]" {
		t.Errorf("final dim:\n%s", got)
	}
}

// pgRows runs query in PostgreSQL and prints its rows as rowsText does.
func pgRows(t *testing.T, conn *pgx.Conn, query string) string {
	t.Helper()
	rows, err := pgtest.Query(t, conn, query)
	if err != nil {
		t.Fatal(err)
	}
	lines := make([]string, len(rows))
	for i, r := range rows {
		parts := make([]string, len(r))
		for j, v := range r {
			parts[j] = "NULL"
			if v != nil {
				parts[j] = *v
			}
		}
		lines[i] = "[" + strings.Join(parts, " ") + "]"
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// TestApplyErrors checks each refusal's SQLSTATE, and that a failing call
// applies none of its events and leaves the transaction usable.
func TestApplyErrors(t *testing.T) {
	for _, mode := range []struct{ name, tableOpt string }{{"ordinary", ""}, {"change-stream", " WITH (change_stream = true)"}} {
		t.Run(mode.name, func(t *testing.T) {
			db := openChangeDB(t, mode.tableOpt, "")
			applyStep(t, db, sevenKinds[0])
			before := viewRowsText(t, db, "dim")
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			ok := deltaview.Insert{Row: vals(7, "Gus", 0, 1)}
			for _, c := range []struct {
				table string
				ev    deltaview.ChangeEvent
				code  string
			}{
				{"nosuch", ok, "42P01"},
				{"dim", ok, "42P01"},
				{"customers", deltaview.Insert{Row: vals(8, "Hal", 0)}, "42601"},
				{"customers", deltaview.Update{Old: vals(1, "Adam", 5, 1), New: vals(1, "Adam", 5, 1, 0)}, "42601"},
				{"customers", deltaview.TruePartialDelete{Key: vals(1, 2)}, "42601"},
				{"customers", deltaview.SafePartialDelete{Key: nil}, "42601"},
				{"customers", deltaview.Insert{Row: vals(8, "Hal", "lots", 1)}, "22P02"},
				{"customers", deltaview.Upsert{Row: vals(nil, "Hal", 0, 1)}, "22023"},
				{"customers", deltaview.Update{Old: vals(1, "Adam", 5, 1), New: vals(9, "Adam", 5, 1)}, "22023"},
				{"customers", deltaview.PartialUpdate{Row: vals(1, "A", 5, 1), Unknown: []string{"cid"}}, "22023"},
				{"customers", deltaview.PartialUpdate{Row: vals(1, "A", 5, 1), Unknown: []string{"nosuch"}}, "42703"},
				{"customers", nil, "22023"},
			} {
				err := tx.Apply(c.table, ok, c.ev)
				if deltaview.Code(err) != c.code {
					t.Errorf("%s %#v: %v (%s), want %s", c.table, c.ev, err, deltaview.Code(err), c.code)
				}
			}
			if mode.tableOpt == "" {
				// Contradictions with the stored rows fail at once.
				for _, c := range []struct {
					ev   deltaview.ChangeEvent
					code string
				}{
					{deltaview.Insert{Row: vals(1, "Adam", 5, 1)}, "23505"},
					{deltaview.Update{Old: vals(1, "Adam", 4, 1), New: vals(1, "Adam", 5, 1)}, "22000"},
					{deltaview.Update{Old: vals(9, "Ian", 4, 1), New: vals(9, "Ian", 5, 1)}, "P0002"},
					{deltaview.PartialUpdate{Row: vals(9, "Ian", 4, 1)}, "P0002"},
					{deltaview.Delete{Row: vals(1, "Adam", 4, 1)}, "22000"},
					{deltaview.TruePartialDelete{Key: vals(9)}, "P0002"},
				} {
					if err := tx.Apply("customers", ok, c.ev); deltaview.Code(err) != c.code {
						t.Errorf("%#v: %v (%s), want %s", c.ev, err, deltaview.Code(err), c.code)
					}
				}
			}
			// The transaction goes on without any event of the failed calls.
			if err := tx.Apply("customers", deltaview.Upsert{Row: vals(8, "Hal", 0, 2)}); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			if got, want := viewRowsText(t, db, "dim"), before+"\n[8 Hal Paris FR]"; got != want {
				t.Errorf("after the failed calls:\n%s\nwant\n%s", got, want)
			}
			if err := tx.Apply("customers", ok); err != deltaview.ErrTxDone {
				t.Errorf("after Commit: %v", err)
			}
			if mode.tableOpt != "" {
				// A change-stream table keeps no rows to check an event
				// against: the view that holds the state finds the
				// contradiction at Commit, which rolls everything back.
				tx, _ := db.Begin()
				if err := tx.Apply("customers", deltaview.Upsert{Row: vals(10, "Jo", 0, 1)}, deltaview.TruePartialDelete{Key: vals(99)}); err != nil {
					t.Fatal(err)
				}
				if err := tx.Commit(); deltaview.Code(err) != "P0002" {
					t.Errorf("commit of a true partial deletion of a missing key: %v", err)
				}
				if got, want := viewRowsText(t, db, "dim"), before+"\n[8 Hal Paris FR]"; got != want {
					t.Errorf("after the failed commit:\n%s\nwant\n%s", got, want)
				}
			}
		})
	}
	db := deltaview.Open()
	if err := db.Exec("CREATE TABLE nokey (a int)"); err != nil {
		t.Fatal(err)
	}
	tx, _ := db.Begin()
	defer tx.Rollback()
	if err := tx.Apply("nokey", deltaview.Insert{Row: vals(1)}); deltaview.Code(err) != "0A000" {
		t.Errorf("a table without a primary key: %v", err)
	}
}

// changeMarker is a last commit that adds the row [100 Mark …] to every
// view of changeViews.
const changeMarker = `
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"aid":100,"city":"Mark","country":"DE"}}
\.
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"cid":100,"name":"Mark","disc":0,"aid":100}}
\.
`

// lockedLog is a text that subscriptions' goroutines append to.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.b, format, args...)
}

// sorted is the text's lines in order: subscriptions to different views
// may interleave differently.
func (l *lockedLog) sorted() string {
	lines := strings.SplitAfter(l.String(), "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestCopyAndApplyAgree feeds the same events to two databases, through
// COPY … WITH (FORMAT debezium | upsert) and through Tx.Apply, one
// transaction per source transaction: every view's deltas and rows must
// be the same.
func TestCopyAndApplyAgree(t *testing.T) {
	const copyScript = `
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"op":"r","after":{"aid":1,"city":"Essen","country":"DE"},"source":{"txId":1}}
{"op":"r","after":{"aid":2,"city":"Paris","country":"FR"},"source":{"txId":1}}
{"op":"r","after":{"aid":3,"city":"Bonn","country":"DE"},"source":{"txId":1}}
\.
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"cid":1,"name":"Adam","disc":5,"aid":1},"source":{"txId":2}}
{"op":"c","after":{"cid":2,"name":"Bob","disc":0,"aid":2},"source":{"txId":2}}
{"op":"c","after":{"cid":3,"name":"Carl","disc":1,"aid":3},"source":{"txId":2}}
{"op":"u","before":null,"after":{"cid":1,"name":"__debezium_unavailable_value","disc":6,"aid":2},"source":{"txId":3}}
{"op":"u","before":{"cid":2,"name":"Bob","disc":0,"aid":2},"after":{"cid":2,"name":"Bob","disc":2,"aid":1},"source":{"txId":4}}
{"op":"u","before":{"cid":3},"after":{"cid":4,"name":"Carl","disc":1,"aid":3},"source":{"txId":5}}
{"op":"d","before":{"cid":2,"name":"Bob","disc":2,"aid":1},"source":{"txId":6}}
{"op":"d","before":{"cid":4},"source":{"txId":6}}
\.
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"op":"u","after":{"aid":1,"city":"Koeln","country":"__debezium_unavailable_value"},"source":{"txId":7}}
\.
COPY customers FROM STDIN WITH (FORMAT upsert);
{"key":5,"value":{"name":"Eve","disc":3,"aid":1}}
{"key":{"cid":1},"value":{"name":"Adam","disc":7,"aid":3}}
{"key":6,"value":null}
\.
COPY customers FROM STDIN WITH (FORMAT upsert);
{"key":5,"value":null}
\.
`
	type ev struct {
		table string
		ev    deltaview.ChangeEvent
	}
	txs := [][]ev{
		{{"addresses", deltaview.Insert{Row: vals(1, "Essen", "DE")}}, {"addresses", deltaview.Insert{Row: vals(2, "Paris", "FR")}}, {"addresses", deltaview.Insert{Row: vals(3, "Bonn", "DE")}}},
		{{"customers", deltaview.Insert{Row: vals(1, "Adam", 5, 1)}}, {"customers", deltaview.Insert{Row: vals(2, "Bob", 0, 2)}}, {"customers", deltaview.Insert{Row: vals(3, "Carl", 1, 3)}}},
		{{"customers", deltaview.PartialUpdate{Row: vals(1, nil, 6, 2), Unknown: []string{"name"}}}},
		{{"customers", deltaview.Update{Old: vals(2, "Bob", 0, 2), New: vals(2, "Bob", 2, 1)}}},
		{{"customers", deltaview.TruePartialDelete{Key: vals(3)}}, {"customers", deltaview.Insert{Row: vals(4, "Carl", 1, 3)}}},
		{{"customers", deltaview.Delete{Row: vals(2, "Bob", 2, 1)}}, {"customers", deltaview.TruePartialDelete{Key: vals(4)}}},
		{{"addresses", deltaview.PartialUpdate{Row: vals(1, "Koeln", nil), Unknown: []string{"country"}}}},
		{{"customers", deltaview.Upsert{Row: vals(5, "Eve", 3, 1)}}, {"customers", deltaview.Upsert{Row: vals(1, "Adam", 7, 3)}}, {"customers", deltaview.SafePartialDelete{Key: vals(6)}}},
		{{"customers", deltaview.SafePartialDelete{Key: vals(5)}}},
	}
	for _, viewOpt := range []string{"", " WITH (propagation = normalise)"} {
		byCopy := openChangeDB(t, " WITH (change_stream = true)", viewOpt)
		byAPI := openChangeDB(t, " WITH (change_stream = true)", viewOpt)
		deltas := map[*deltaview.DB]*lockedLog{byCopy: {}, byAPI: {}}
		for db, b := range deltas {
			for _, v := range changeViews {
				cancel, err := db.Subscribe(v.name, func(d deltaview.Delta) {
					lines := make([]string, len(d.Changes))
					for i, c := range d.Changes {
						lines[i] = fmt.Sprintf("%+d %v", c.Diff, c.Row)
					}
					slices.Sort(lines)
					b.printf("%s ts=%d: %s\n", v.name, d.TS, strings.Join(lines, ", "))
				})
				if err != nil {
					t.Fatal(err)
				}
				defer cancel()
			}
		}
		if err := byCopy.Exec(copyScript); err != nil {
			t.Fatal(err)
		}
		for _, tx := range txs {
			step := make(changeStep, len(tx))
			for i, e := range tx {
				step[i].table, step[i].ev = e.table, e.ev
			}
			applyStep(t, byAPI, step)
		}
		// Deltas reach subscribers on goroutines of their own, in commit
		// order: once a last commit's marker row has reached every
		// subscription, so has everything before it.
		for db, b := range deltas {
			if err := db.Exec(changeMarker); err != nil {
				t.Fatal(err)
			}
			subEventually(t, "the marker reaches every view's subscription", func() bool {
				return strings.Count(b.String(), "[100 Mark") == len(changeViews)
			})
		}
		if got, want := deltas[byAPI].sorted(), deltas[byCopy].sorted(); got != want || strings.Count(want, "\n") < len(txs) {
			t.Errorf("views%s: deltas through Tx.Apply\n%s\nthrough COPY\n%s", viewOpt, got, want)
		}
		for _, v := range changeViews {
			if got, want := viewRowsText(t, byAPI, v.name), viewRowsText(t, byCopy, v.name); got != want {
				t.Errorf("views%s: %s through Tx.Apply\n%s\nthrough COPY\n%s", viewOpt, v.name, got, want)
			}
		}
		if got := viewRowsText(t, byAPI, "dim"); got != "[1 Adam Bonn DE]\n[100 Mark Mark DE]" {
			t.Errorf("views%s: final dim %s", viewOpt, got)
		}
	}
}
