package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// TestForeignKeysSourceUnchecked checks that a subscription's changes are
// applied without FOREIGN KEY checks or actions, as on a PostgreSQL
// subscriber, while the same change by the typed API is checked.
func TestForeignKeysSourceUnchecked(t *testing.T) {
	e := engine.New()
	s := e.NewSession()
	defer s.Close()
	if err := s.ExecScript(`CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p ON DELETE CASCADE);
INSERT INTO p VALUES (1);
INSERT INTO c VALUES (10, 1)`, func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	orphan := value.Row{value.NewInt(value.Int4, 11), value.NewInt(value.Int4, 9)}
	if err := s.Insert("c", orphan); pgerr.Code(err) != pgerr.ForeignKeyViolation {
		t.Fatalf("typed insert of an orphan: %v, want 23503", err)
	}
	err := s.ApplySource([]engine.SourceChange{
		{Table: "c", Change: delta.Insert{Row: orphan}},
		{Table: "p", Change: delta.Delete{Row: value.Row{value.NewInt(value.Int4, 1)}}},
	}, nil)
	if err != nil {
		t.Fatalf("a subscription's changes: %v", err)
	}
	var n int64
	err = s.ExecScript("SELECT count(*) FROM c", func(r engine.Result) error {
		n = r.Rows[0][0].Int()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("c holds %d rows, want 2: no check, no cascade", n)
	}
}
