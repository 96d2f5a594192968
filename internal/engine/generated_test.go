package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// TestGeneratedTypedAPI checks that every call of the typed API that
// writes rows computes a table's stored generated columns, whatever value
// the row gives there, and that the views over them are maintained:
// Insert, Update, Replace, ReplaceRows and ApplySource (a partial update
// that leaves the column unknown included), into a table that keeps its
// replacements in the transaction (one integer key) and one that does
// not, and into a table with a BEFORE trigger.
func TestGeneratedTypedAPI(t *testing.T) {
	e := engine.New()
	s := e.NewSession()
	script := `CREATE TABLE t (id int PRIMARY KEY, v int, g int GENERATED ALWAYS AS (v * 10 + id) STORED);
CREATE TABLE u (id int PRIMARY KEY, v int UNIQUE, g text GENERATED ALWAYS AS ('v' || v) STORED);
CREATE TABLE w (id int PRIMARY KEY, v int, g int GENERATED ALWAYS AS (v + 1) STORED);
CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := NEW.v * 2; NEW.g := -1; RETURN NEW; END $$;
CREATE TRIGGER b BEFORE INSERT OR UPDATE ON w FOR EACH ROW EXECUTE FUNCTION bump();
CREATE MATERIALIZED VIEW tv AS SELECT id, g FROM t;
CREATE MATERIALIZED VIEW us AS SELECT string_agg(g, ',' ORDER BY g) AS s FROM u;`
	if err := s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	i := func(n int64) value.Value { return value.NewInt(value.Int4, n) }
	steps := []struct {
		name string
		do   func() error
	}{
		{"insert t", func() error { return s.Insert("t", value.Row{i(1), i(1), value.Null}) }},
		{"insert t with a value", func() error { return s.Insert("t", value.Row{i(2), i(2), i(999)}) }},
		{"update t", func() error {
			return s.Update("t", value.Row{i(1), i(1), i(11)}, value.Row{i(1), i(5), i(11)})
		}},
		{"replace t", func() error { return s.Replace("t", value.Row{i(2), i(7), value.Null}) }},
		{"replace rows t", func() error {
			return s.ReplaceRows("t", [][]value.Value{{i(1), i(3), i(0)}, {i(2), i(4), value.Null}})
		}},
		{"insert u", func() error { return s.Insert("u", value.Row{i(1), i(1), value.NewText(value.Text, "x")}) }},
		{"replace rows u", func() error {
			return s.ReplaceRows("u", [][]value.Value{{i(1), i(8), value.Null}})
		}},
		{"apply source t", func() error {
			return s.ApplySource([]engine.SourceChange{
				{Table: "t", Change: delta.Insert{Row: value.Row{i(5), i(1), value.Null}}},
				{Table: "t", Change: delta.PartialUpdate{Row: value.Row{i(5), i(2), value.Null}, Unknown: delta.ColsOf(2)}},
				{Table: "t", Change: delta.Upsert{Row: value.Row{i(6), i(3), i(0)}}},
			}, nil)
		}},
		{"insert w", func() error { return s.Insert("w", value.Row{i(1), i(3), i(0)}) }},
		{"replace w", func() error { return s.Replace("w", value.Row{i(1), i(5), i(0)}) }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
	}
	want := map[string]string{
		"SELECT * FROM t ORDER BY id":  "[(1, 3, 31) (2, 4, 42) (5, 2, 25) (6, 3, 36)]",
		"SELECT * FROM tv ORDER BY id": "[(1, 31) (2, 42) (5, 25) (6, 36)]",
		"SELECT * FROM u":              "[(1, 8, v8)]",
		"SELECT * FROM us":             "[(v8)]",
		"SELECT * FROM w":              "[(1, 10, 11)]",
	}
	for q, w := range want {
		var got []value.Row
		if err := s.ExecScript(q, func(r engine.Result) error { got = append(got, r.Rows...); return nil }); err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(got); g != w {
			t.Errorf("%s: got %s, want %s", q, g, w)
		}
	}
}
