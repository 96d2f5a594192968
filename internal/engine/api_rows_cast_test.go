package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestReplaceRowsCastOnce checks ReplaceRows's loop that casts and checks
// a call's rows with the plan of one call (replaceRowsKept) against the
// same calls taking each row Replace's way (engine.SetEachRow): over
// random transactions of calls into tables of integer, text, varchar(n),
// numeric(p,s), domain, jsonb and bytea columns, NOT NULL constraints,
// CHECK constraints, a domain's CHECK in a table without any and keys
// that are not the first column, with values of every
// kind given for every column (integers out of a column's range, NULLs,
// text that casts or does not, text with NUL or invalid UTF-8, strings too
// long, floats, missing and NULL keys, rows of the wrong width), the two
// engines return the same error (SQLSTATE and message) from every call,
// and after every transaction, committed or rolled back, hold the same
// rows and gave their subscribers the same deltas. A third of the calls
// are a Replace a row, which after a transaction's first casts as
// ReplaceRows does; and each table's accounted bytes must be those of
// its rows.
func TestReplaceRowsCastOnce(t *testing.T) {
	const script = `CREATE DOMAIN pos AS int CHECK (VALUE > 0);
		CREATE TABLE a (id int PRIMARY KEY, s int2 NOT NULL, b bigint, x text NOT NULL, y text);
		CREATE TABLE c (id int PRIMARY KEY, v varchar(5), n numeric(6,2), p pos, j jsonb, w text CHECK (w <> 'bad'), by bytea);
		CREATE TABLE d (t text NOT NULL, k bigint PRIMARY KEY, q pos);
		INSERT INTO a SELECT g, g % 100, g * 1000, 'x' || g, NULL FROM generate_series(1, 300) g;
		INSERT INTO c SELECT g, 'v', g / 4.0, g, '{"a": 1}', 'w', '\x01' FROM generate_series(1, 100) g;
		INSERT INTO d SELECT 't' || g, g, g FROM generate_series(1, 50) g;
		CREATE MATERIALIZED VIEW va AS SELECT id, s, x FROM a WHERE s < 50;
		CREATE MATERIALIZED VIEW vc AS SELECT id, v, n, p, w FROM c;
		CREATE MATERIALIZED VIEW vd AS SELECT k, t FROM d ORDER BY t DESC, k LIMIT 3;
		CREATE MATERIALIZED VIEW wa AS SELECT * FROM a;
		CREATE MATERIALIZED VIEW wc AS SELECT * FROM c;`
	type side struct {
		e      *engine.Engine
		s      *engine.Session
		deltas []string
	}
	open := func(each bool) *side {
		x := &side{e: engine.New()}
		engine.SetEachRow(x.e, each)
		x.s = x.e.NewSession()
		if err := x.s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
		for _, v := range []string{"va", "vc", "vd", "wa", "wc"} {
			if _, err := x.e.Subscribe(v, func(ts uint64, d zset.ZSet) {
				for _, en := range d {
					x.deltas = append(x.deltas, fmt.Sprintf("%s %d %s %d", v, ts, en.Row, en.W))
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		return x
	}
	once, each := open(false), open(true)
	rng := rand.New(rand.NewPCG(20, 12))
	i4 := func(n int64) value.Value { return value.NewInt(value.Int4, n) }
	txt := func(s string) value.Value { return value.NewText(value.Text, s) }
	// Values of every kind, for any column.
	anyValue := func() value.Value {
		switch rng.IntN(16) {
		case 0:
			return value.Null
		case 1:
			return value.NewInt(value.Int8, 40000+rng.Int64N(10)) // past int2
		case 2:
			return value.NewInt(value.Int8, 1<<40) // past int4
		case 3:
			return value.NewInt(value.Int2, -rng.Int64N(3)) // not positive
		case 4:
			return txt(fmt.Sprint(rng.IntN(90))) // casts to a number
		case 5:
			return txt("bad")
		case 6:
			return txt("ab\x00c")
		case 7:
			return txt("a\xffb")
		case 8:
			return txt("toolong")
		case 9:
			return value.NewFloat(value.Float8, 2.5)
		case 10:
			return value.NewText(value.Varchar, "vc")
		case 11:
			return txt(`{"k": [1, 2]}`)
		case 12:
			return txt("")
		case 13:
			return txt("\\x0a0b")
		}
		return i4(rng.Int64N(60))
	}
	// A row of table, mostly valid, some of whose values are drawn at
	// random.
	draw := func(table string, wild int) []value.Value {
		var r []value.Value
		switch table {
		case "a":
			r = []value.Value{i4(1 + rng.Int64N(300)), i4(rng.Int64N(100)), value.NewInt(value.Int8, rng.Int64N(1e6)),
				txt(strings.Repeat("é", rng.IntN(4)) + "x"), value.Null}
		case "c":
			r = []value.Value{i4(1 + rng.Int64N(100)), txt("v"), txt("1.25"), i4(1 + rng.Int64N(9)), txt(`{"b": 2}`), txt("w"), value.NewBytea([]byte{1, 2})}
		case "d":
			r = []value.Value{txt(fmt.Sprintf("t%d", rng.IntN(99))), value.NewInt(value.Int8, 1+rng.Int64N(50)), i4(1 + rng.Int64N(9))}
		}
		for range wild {
			r[rng.IntN(len(r))] = anyValue()
		}
		switch rng.IntN(200) {
		case 0:
			r = r[:len(r)-1]
		case 1:
			r[0] = i4(100000) // a and c: a key of no row
		case 2, 3:
			r[1] = value.Null // a: NOT NULL; d: the key
		case 4, 5:
			if table == "c" {
				r[5] = txt("bad") // CHECK
			}
		case 6, 7:
			switch table {
			case "c":
				r[3] = i4(0) // the domain's CHECK
			case "d":
				r[2] = i4(-1) // the domain's CHECK, in a table without CHECK
			}
		}
		return r
	}
	tables := []string{"a", "c", "d"}
	for txn := range 400 {
		for _, x := range []*side{once, each} {
			if err := x.s.Begin(); err != nil {
				t.Fatal(err)
			}
		}
		for call := range 1 + rng.IntN(5) {
			table := tables[rng.IntN(len(tables))]
			n := 1 + rng.IntN(12)
			if rng.IntN(20) == 0 {
				table, n = "a", 1100+rng.IntN(200) // a commit in chunks
			}
			// Most calls valid; the rest with a few wild values, where a
			// failing row may come anywhere.
			wild := 0
			if rng.IntN(3) == 0 {
				wild = 1 + rng.IntN(2)
			}
			rows := make([][]value.Value, n)
			for i := range rows {
				w := 0
				if wild > 0 && rng.IntN(n) < 2 {
					w = wild
				}
				rows[i] = draw(table, w)
			}
			var errs [2]error
			oneByOne := rng.IntN(3) == 0
			for i, x := range []*side{once, each} {
				if !oneByOne {
					errs[i] = x.s.ReplaceRows(table, rows)
					continue
				}
				// A call a row: after a transaction's first, Replace
				// casts as ReplaceRows does (once) or as it did (each).
				for _, r := range rows {
					if errs[i] = x.s.Replace(table, r); errs[i] != nil {
						break
					}
				}
			}
			if (errs[0] == nil) != (errs[1] == nil) ||
				errs[0] != nil && (pgerr.Code(errs[0]) != pgerr.Code(errs[1]) || errs[0].Error() != errs[1].Error()) {
				t.Fatalf("transaction %d, call %d, %d rows into %s: %v against %v", txn, call, n, table, errs[0], errs[1])
			}
			if rng.IntN(8) == 0 {
				// A statement between calls writes the kept rows first.
				for _, x := range []*side{once, each} {
					if err := x.s.ExecScript("UPDATE d SET t = t || 'u' WHERE k = 3", func(engine.Result) error { return nil }); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		var errs [2]error
		rollback := rng.IntN(6) == 0
		for i, x := range []*side{once, each} {
			if rollback {
				x.s.Rollback()
			} else {
				errs[i] = x.s.Commit()
			}
		}
		if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
			t.Fatalf("transaction %d: commit %v against %v", txn, errs[0], errs[1])
		}
		for _, q := range []string{"SELECT * FROM a", "SELECT * FROM c", "SELECT * FROM d", "SELECT * FROM va", "SELECT * FROM vc", "SELECT * FROM vd"} {
			if a, b := sortedResult(t, once.s, q), sortedResult(t, each.s, q); a != b {
				t.Fatalf("transaction %d: %s:\n%s\nagainst\n%s", txn, q, a, b)
			}
		}
		for _, table := range tables {
			for _, x := range []*side{once, each} {
				// The write counts the bytes of the columns that may hold
				// any outside their values (dataflow.RowBytesAt).
				if kept, counted := engine.TableBytes(x.e, table); kept != counted {
					t.Fatalf("transaction %d: table %s keeps %d bytes, its rows hold %d", txn, table, kept, counted)
				}
			}
		}
		if a, b := strings.Join(once.deltas, "\n"), strings.Join(each.deltas, "\n"); a != b {
			t.Fatalf("transaction %d: deltas:\n%s\nagainst\n%s", txn, a, b)
		}
		once.deltas, each.deltas = once.deltas[:0], each.deltas[:0]
	}
}
