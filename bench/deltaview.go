package bench

import (
	"fmt"
	"strconv"

	"github.com/deltaview/deltaview"
)

// Deltaview runs the workload on deltaview, in this process: through typed
// transactions of the Go API (SQL false), a single change a Replace of the
// row by its key and a batch one ReplaceRows of its rows, or through a
// prepared SQL statement (SQL true), UPDATE t SET grp = $1, val = $2 WHERE
// id = $3, a batch in one transaction. EachReplace makes the Go API
// replace a batch's rows one call each, as it did before ReplaceRows: it
// is there to compare the two in one run. Workers, when not 0, is the
// engine's workers (DB.SetWorkers) after the load; 0 leaves the engine's
// default, as many as GOMAXPROCS, with which a big batch's table write
// splits by key range between two goroutines.
type Deltaview struct {
	SQL         bool
	EachReplace bool
	Workers     int
	db          *deltaview.DB
	d           *Data
	up          *deltaview.Stmt
	// The batch's rows for ReplaceRows, reused from batch to batch: the
	// engine keeps none of their slices.
	rows [][]deltaview.Value
	vals []deltaview.Value
}

var (
	_ System         = (*Deltaview)(nil)
	_ MemoryReporter = (*Deltaview)(nil)
)

// Name implements System.
func (s *Deltaview) Name() string {
	if s.SQL {
		return "deltaview (SQL)"
	}
	return "deltaview (Go API)"
}

// Load implements System: one typed transaction per table.
func (s *Deltaview) Load(d *Data) error {
	s.d = d
	s.db = deltaview.Open()
	err := s.db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, k int NOT NULL, val int NOT NULL, pad text NOT NULL);
		CREATE TABLE u (id int PRIMARY KEY, name text NOT NULL, region text NOT NULL);`)
	if err != nil {
		return err
	}
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	for id := 1; id <= d.N; id++ {
		if err := tx.Insert("t", s.tRow(id, d.T[id])...); err != nil {
			tx.Rollback()
			return err
		}
	}
	for id := 1; id <= d.U(); id++ {
		if err := tx.Insert("u", deltaview.Int(int64(id)), deltaview.Text(Name(id)), deltaview.Text(Region(id))); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if s.Workers > 0 {
		s.db.SetWorkers(s.Workers)
	}
	if s.SQL {
		s.up, err = s.db.Prepare("UPDATE t SET grp = $1, val = $2 WHERE id = $3")
	}
	return err
}

func (s *Deltaview) tRow(id int, r Row) []deltaview.Value {
	return []deltaview.Value{deltaview.Int(int64(id)), deltaview.Int(r.Grp), deltaview.Int(s.d.K(id)),
		deltaview.Int(r.Val), deltaview.Text(Pad(id))}
}

// DB returns the loaded database, for a benchmark to trace or set.
func (s *Deltaview) DB() *deltaview.DB { return s.db }

// CreateView implements System.
func (s *Deltaview) CreateView(v View) error {
	return s.db.Exec("CREATE MATERIALIZED VIEW " + v.Rel() + " AS " + v.SQL)
}

// Apply implements System: the engine maintains the view on commit.
func (s *Deltaview) Apply(_ View, batch []Change) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	if !s.SQL && !s.EachReplace && len(batch) > 1 {
		if err := tx.ReplaceRows("t", s.batchRows(batch)); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	}
	for _, c := range batch {
		if s.SQL {
			_, err = tx.Exec(s.up, deltaview.Int(c.New.Grp), deltaview.Int(c.New.Val), deltaview.Int(int64(c.ID)))
		} else {
			// The values as arguments: the call's slice stays on the
			// stack.
			err = tx.Replace("t", deltaview.Int(int64(c.ID)), deltaview.Int(c.New.Grp), deltaview.Int(s.d.K(c.ID)),
				deltaview.Int(c.New.Val), deltaview.Text(Pad(c.ID)))
		}
		if err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// batchRows is batch's new rows of t, in s.rows over one backing array of
// values.
func (s *Deltaview) batchRows(batch []Change) [][]deltaview.Value {
	const width = 5
	if cap(s.vals) < width*len(batch) {
		s.vals = make([]deltaview.Value, width*len(batch))
		s.rows = make([][]deltaview.Value, len(batch))
	}
	vals, rows := s.vals[:width*len(batch)], s.rows[:len(batch)]
	for i, c := range batch {
		r := vals[width*i : width*(i+1) : width*(i+1)]
		r[0], r[1], r[2] = deltaview.Int(int64(c.ID)), deltaview.Int(c.New.Grp), deltaview.Int(s.d.K(c.ID))
		r[3], r[4] = deltaview.Int(c.New.Val), deltaview.Text(Pad(c.ID))
		rows[i] = r
	}
	return rows
}

// Answer implements System: the view's maintained rows.
func (s *Deltaview) Answer(v View) (Answer, error) {
	rows, err := s.db.View(v.Rel())
	if err != nil {
		return nil, err
	}
	return textRows(rows), nil
}

func textRows(rows *deltaview.Rows) Answer {
	out := make(Answer, len(rows.Rows))
	for i, r := range rows.Rows {
		out[i] = make([]string, len(r))
		for j, val := range r {
			out[i][j] = val.String()
		}
	}
	return out
}

// Memory implements MemoryReporter: the engine's own accounting of the
// view's operator state (deltaview_views.state_bytes).
func (s *Deltaview) Memory(v View) (int64, string, error) {
	rows, err := s.db.Query("SELECT state_bytes FROM deltaview_views WHERE name = '" + v.Rel() + "'")
	if err != nil {
		return 0, "", err
	}
	if len(rows.Rows) != 1 {
		return 0, "", fmt.Errorf("deltaview_views has %d rows for %s", len(rows.Rows), v.Name)
	}
	n, err := strconv.ParseInt(rows.Rows[0][0].String(), 10, 64)
	return n, "engine accounting (state_bytes)", err
}

// DropView implements System.
func (s *Deltaview) DropView(v View) error {
	return s.db.Exec("DROP MATERIALIZED VIEW " + v.Rel())
}

// Close implements System.
func (s *Deltaview) Close() error {
	s.db = nil
	return nil
}
