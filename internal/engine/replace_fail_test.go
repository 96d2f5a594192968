package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// TestFailedReplaceKeepsOtherTables checks that a Replace that fails in a
// table that writes its replacements at once takes back its own change
// only: the replacements the transaction kept for another table, written
// before it, stay.
func TestFailedReplaceKeepsOtherTables(t *testing.T) {
	e := engine.New()
	s := e.NewSession()
	if err := s.ExecScript(`CREATE TABLE a (id int PRIMARY KEY, v int);
		CREATE TABLE b (id int PRIMARY KEY, v int UNIQUE);
		INSERT INTO a VALUES (1, 1); INSERT INTO b VALUES (1, 1);`, func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	i4 := func(v int64) value.Value { return value.NewInt(value.Int4, v) }
	if err := s.Begin(); err != nil {
		t.Fatal(err)
	}
	if err := s.Replace("a", value.Row{i4(1), i4(2)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Replace("b", value.Row{i4(9), i4(2)}); pgerr.Code(err) != "02000" {
		t.Fatalf("replacing a missing key of b: %v", err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := s.ExecScript(`SELECT v FROM a`, func(r engine.Result) error {
		for _, row := range r.Rows {
			got = append(got, fmt.Sprint(row))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprint(value.Row{i4(2)}); len(got) != 1 || got[0] != want {
		t.Fatalf("a holds %v after the commit, want [%s]", got, want)
	}
}
