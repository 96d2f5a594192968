package engine_test

import (
	"context"
	"strings"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
)

// checkPGExplain runs an EXPLAIN statement of a pgexplain block on
// PostgreSQL: both must succeed, or fail with one SQLSTATE; on success
// the result's column is QUERY PLAN in both, a structured format's
// document is one row that opens and closes as PostgreSQL's (its first
// two lines and its last; a YAML list's first), and a statement PostgreSQL explains without a
// plan gives what it gives.
func (h *harness) checkPGExplain(t failer, d *datadriven.TestData, hs *hsession, stmt string, results []engine.Result, err error) {
	s, perr := sql.Parse(stmt)
	if perr != nil || s == nil || s.Node.GetExplainStmt() == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rs, pgErr := hs.pg.PgConn().Exec(ctx, stmt).ReadAll()
	if !sameOutcome(t, d, stmt, err, pgErr) {
		return
	}
	pg := rs[len(rs)-1]
	if len(results) == 0 || len(results[0].Columns) != 1 || results[0].Columns[0].Name != "QUERY PLAN" ||
		(len(pg.Rows) > 0 && (len(pg.FieldDescriptions) != 1 || string(pg.FieldDescriptions[0].Name) != "QUERY PLAN")) {
		fatalAt(t, d, "%s: the result is not one QUERY PLAN column in both", stmt)
	}
	got, want := rowTexts(results[0].Rows), pgTexts(pgRows(pg))
	doc := len(want) == 1 && (strings.HasPrefix(want[0], "[") || strings.HasPrefix(want[0], "<explain") || strings.HasPrefix(want[0], "- "))
	switch {
	case doc:
		if len(got) != 1 {
			fatalAt(t, d, "%s: deltaview returns %d rows, PostgreSQL one document", stmt, len(got))
		}
		gl, wl := strings.Split(got[0], "\n"), strings.Split(want[0], "\n")
		yaml := strings.HasPrefix(want[0], "- ") // a YAML list ends with its last item
		if gl[0] != wl[0] || (!yaml && gl[len(gl)-1] != wl[len(wl)-1]) || (len(wl) > 1) != (len(gl) > 1) || (!yaml && len(wl) > 1 && gl[1] != wl[1]) {
			fatalAt(t, d, "%s\ndeltaview's document\n%s\nis not shaped as PostgreSQL's\n%s", stmt, got[0], want[0])
		}
		if !strings.Contains(want[0], "Plan") && got[0] != want[0] {
			fatalAt(t, d, "%s\ndeltaview returns\n%s\nPostgreSQL returns\n%s", stmt, got[0], want[0])
		}
	case len(want) == 0 || want[0] == "Utility statements have no plan structure":
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			fatalAt(t, d, "%s\ndeltaview returns\n%s\nPostgreSQL returns\n%s", stmt, show(got), show(want))
		}
	case len(got) == 0:
		fatalAt(t, d, "%s: deltaview returns no plan, PostgreSQL one", stmt)
	}
}
