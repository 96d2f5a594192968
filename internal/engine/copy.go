package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/source"
	"github.com/deltaview/deltaview/internal/source/changefeed"
	"github.com/deltaview/deltaview/internal/source/copyfmt"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// FileOpener opens the file of COPY … FROM 'file'. The engine opens no
// files itself: a program that lets its users load files (deltaview run)
// sets one. If the reader has a Size() int64 method, progress reports
// bytes read out of that size.
type FileOpener func(name string) (io.ReadCloser, error)

// SetFileOpener sets how COPY FROM 'file' opens files; nil (the default)
// refuses such COPY statements.
func (e *Engine) SetFileOpener(fn FileOpener) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.openFile = fn
}

// copyFormat is how COPY reads one data format: a decoder of the input
// into typed batches (internal/source). Adding a format is a source
// package and one entry in copyFormats.
type copyFormat struct {
	// events: the format carries change events of a keyed table (which
	// may be a change-stream table); the others carry plain rows, which a
	// change-stream table refuses.
	events bool
	open   func(r io.Reader, t *source.Table, c *sql.Copy, l source.Limits, z value.Zone, st value.TextStyle) (source.Decoder, error)
}

var copyFormats = map[sql.CopyFormat]copyFormat{
	sql.CopyText:     {open: openRows},
	sql.CopyCSV:      {open: openRows},
	sql.CopyDebezium: {events: true, open: openEvents(changefeed.Debezium)},
	sql.CopyUpsert:   {events: true, open: openEvents(changefeed.Upsert)},
}

func openRows(r io.Reader, t *source.Table, c *sql.Copy, l source.Limits, z value.Zone, st value.TextStyle) (source.Decoder, error) {
	return copyfmt.NewDecoder(r, t, copyfmt.Options{CSV: c.Format == sql.CopyCSV, Delimiter: c.Delimiter,
		Null: c.Null, Header: c.Header, Quote: c.Quote, Escape: c.Escape, Cols: c.Cols, Limits: l, Zone: z, Style: st,
		ForceNotNull: c.ForceNotNull, ForceNull: c.ForceNull}), nil
}

func openEvents(f changefeed.Format) func(io.Reader, *source.Table, *sql.Copy, source.Limits, value.Zone, value.TextStyle) (source.Decoder, error) {
	return func(r io.Reader, t *source.Table, _ *sql.Copy, l source.Limits, _ value.Zone, _ value.TextStyle) (source.Decoder, error) {
		d, err := changefeed.NewDecoder(r, t, f)
		if err != nil {
			return nil, err
		}
		d.SetLimits(l)
		return d, nil
	}
}

// execCopy runs COPY … FROM: it opens the input, decodes it with the
// format's decoder and applies the batches (copyFeed).
// copyZone is the zone in which a COPY's text reads timestamptz values
// without an offset: its session's, UTC without one.
func (e *Engine) copyZone() value.Zone {
	if e.copyClock == nil {
		return value.UTC
	}
	return e.copyClock.Zone
}

// copyStyle carries the DateStyle field order in which a COPY's text
// reads ambiguous dates: its session's, MDY without one.
func (e *Engine) copyStyle() value.TextStyle {
	if e.copyClock == nil {
		return value.IntervalPostgres
	}
	return e.copyClock.TextStyle
}

func (e *Engine) execCopy(c *sql.Copy) (Result, error) {
	f, ok := copyFormats[c.Format]
	if !ok {
		return Result{}, pgerr.New(pgerr.Internal, "no decoder for COPY format %d", c.Format)
	}
	if c.View {
		return e.autocommit(func() (Result, error) { return e.execCopyView(c) })
	}
	t, ok := e.tables[c.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "cannot copy to system view %q", c.Table)
	}
	if !f.events && t.def.ChangeStream {
		return Result{}, changeStreamDML(t, "COPY rows into")
	}
	defer e.setWithin(c.Table, c.Partition)()
	if !f.events {
		t.copyBare = copyBare(t, c)
		defer func() { t.copyBare = nil }()
	}
	st := &source.Table{Name: t.name, Columns: make([]source.Column, len(t.cols)), Default: e.copyDefaults(t)}
	if c.Partition != nil {
		st.Name = c.Partition.Name // the name its errors give, as in PostgreSQL
	}
	for i, col := range t.cols {
		st.Columns[i] = source.Column{Name: col.Name, Type: col.Type}
		if d := t.def.Cols[i].Domain; d != nil && !f.events {
			st.Columns[i].Check = d.Check
		}
	}
	if f.events {
		s, err := t.deltaSchema()
		if err != nil {
			return Result{}, err
		}
		st.Key = s.Key
	}
	r, done, err := e.copySource(c)
	if err != nil {
		return Result{}, err
	}
	defer done()
	cr := &copyReader{r: r, file: c.File}
	dec, err := f.open(decodeCopy(cr, e.copyEnc), st, c, e.copyLimits, e.copyZone(), e.copyStyle())
	if err != nil {
		return Result{}, err
	}
	total := int64(-1)
	if s, ok := r.(interface{ Size() int64 }); ok {
		total = s.Size()
	}
	var tf *trigFire
	if !f.events {
		tf = e.fireFor(t) // rows fire INSERT triggers, change events none
	}
	n, err := e.copyFeed(t, dec, cr, total, tf)
	if err != nil {
		return Result{}, err
	}
	return Result{Tag: fmt.Sprintf("COPY %d", n)}, nil
}

// copyFiring inserts the rows of a COPY into a table with triggers,
// each through its BEFORE and AFTER ROW INSERT triggers: how many were
// inserted, or the row that failed.
func (e *Engine) copyFiring(tf *trigFire, rows []value.Row) (int, int, error) {
	done := 0
	for i, r := range rows {
		r, ok, err := tf.beforeRow(sql.TriggerInsert, nil, slices.Clone(r))
		if err != nil {
			return i, done, err
		} else if !ok {
			continue
		}
		if _, err := e.insertRow(tf.t, r); err != nil {
			return i, done, err
		}
		if err := tf.afterRow(sql.TriggerInsert, nil, r); err != nil {
			return i, done, err
		}
		done++
	}
	return 0, done, nil
}

// defaultValue is the value of column i in a row that does not give it.
func (t *table) defaultValue(i int) (value.Value, error) {
	d := t.def.Cols[i].DefaultExpr()
	if d == nil {
		return value.Null, nil
	}
	v, err := d.Eval(nil)
	if err != nil {
		return value.Null, err
	}
	return value.Cast(v, t.cols[i].Type, false)
}

func unwrapPath(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// copyReader counts the bytes read through it, for progress, and words a
// file's read errors as PostgreSQL does.
type copyReader struct {
	r    io.Reader
	n    int64
	file string // COPY … FROM 'file'; "" for STDIN
}

func (c *copyReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.file != "" {
		err = fileError(c.file, err, pgerr.IOError, "could not read from COPY file")
	}
	return n, err
}

// fileError words an error of the file of a COPY: the host's own SQLSTATE
// when it gives one; 42809 for a directory, as PostgreSQL; otherwise code
// with what, then the cause without the path.
func fileError(file string, err error, code, what string) error {
	var pe *pgerr.Error
	switch {
	case errors.As(err, &pe):
		return err
	case errors.Is(err, syscall.EISDIR):
		return pgerr.New(pgerr.WrongObjectType, "%q is a directory", file)
	}
	return pgerr.New(code, "%s: %v", what, unwrapPath(err))
}

// copyRowsPerReport is how often a COPY reports progress, in rows.
const copyRowsPerReport = 1 << 16

// copyFeed applies a decoder's batches to t through applyBatch. Outside a
// transaction block each source transaction is committed on its own, as
// one step of every view; inside one, the whole COPY joins the open
// transaction. An error names its line and voids the source transaction
// it occurs in (inside a block, the whole COPY); source transactions
// committed before it stay committed. tf, when not nil, fires the
// table's INSERT triggers, for each row and for the COPY (whose rows are
// one source transaction).
func (e *Engine) copyFeed(t *table, dec source.Decoder, cr *copyReader, total int64, tf *trigFire) (int64, error) {
	explicit := e.tx != nil && e.tx.explicit
	mark := 0
	if explicit {
		mark = len(e.tx.log)
	}
	start := time.Now()
	report := func(finished bool) {
		if e.progress != nil {
			e.progress(Progress{Op: "COPY " + t.name, Unit: "bytes", Done: cr.n, Total: total,
				Elapsed: time.Since(start), Finished: finished})
		}
	}
	var n, committed int64
	var first, last int64 // the lines of the open source transaction
	open := false
	fkMark := 0 // the log's length when the source transaction opened
	fail := func(err error) (int64, error) {
		if explicit {
			e.undoTo(mark)
		} else if open {
			e.rollback()
		}
		if committed > 0 && !explicit {
			pe := *pgerr.Wrap(err)
			pe.Hint = fmt.Sprintf("the %d events before this transaction were committed", committed)
			err = &pe
		}
		return n, err
	}
	for {
		b, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(err)
		}
		if s := e.firer; s != nil { // a cancellation point per batch
			if err := s.checkInterrupts(); err != nil {
				return fail(err)
			}
		}
		if !open {
			e.begin()
			open, first = true, -1
			fkMark = len(e.tx.log)
			if tf != nil {
				if err := tf.beforeStatement(sql.TriggerInsert); err != nil {
					return fail(err)
				}
			}
		}
		if k := b.Len(); k > 0 {
			if first < 0 {
				first = b.Lines[0]
			}
			last = b.Lines[k-1]
			before := n
			if tf != nil {
				i, done, err := e.copyFiring(tf, b.Rows)
				if err != nil {
					return fail(copyRowError(err, copyName(e, t), b, i, tf))
				}
				n += int64(done - k) // the rows BEFORE triggers skipped
			} else if i, err := e.applyBatch(t, b.Changes, b.Rows); err != nil {
				return fail(copyRowError(err, copyName(e, t), b, i, tf))
			}
			n += int64(k)
			if n/copyRowsPerReport != before/copyRowsPerReport {
				report(false)
				if before < copyRowsPerReport && len(b.Rows) > 0 && total > 0 && cr.n > 0 {
					// Make room at once for the rows the size promises.
					e.reserve(t, n*total/cr.n-n)
				}
			}
		}
		if b.More {
			continue
		}
		if tf != nil {
			if err := tf.end(sql.TriggerInsert); err != nil {
				return fail(err)
			}
		}
		if e.fkeys != nil {
			if err := e.enforceForeignKeys(fkMark); err != nil {
				return fail(err)
			}
		}
		if e.deferKeys {
			if err := e.checkKeys(fkMark, nil); err != nil {
				return fail(err)
			}
		}
		open = false
		if !explicit {
			if err := e.commit(); err != nil {
				pe := *pgerr.Wrap(err)
				pe.Detail += fmt.Sprintf("\nCOPY %s, the transaction of lines %d to %d", t.name, first, last)
				return fail(&pe)
			}
		}
		committed = n
	}
	report(true)
	return n, nil
}

// execSet runs SET and RESET: deltaview.max_memory, the engine-wide budget
// of all views' state; deltaview.refill_notice, the refills one view may
// do in one step before a notice; the limits on COPY's input.
func (e *Engine) execSet(s *sql.Set) (Result, error) {
	switch s.Name {
	case "deltaview.max_memory":
		var n int64
		if s.Value != "" && s.Value != "0" {
			var err error
			if n, err = sql.ParseBytes(s.Value); err != nil {
				return Result{}, err
			}
		}
		e.maxMemory = n
		e.overBudget = false
	case "deltaview.max_query_memory":
		var n int64
		if s.Value != "" && s.Value != "0" {
			var err error
			if n, err = sql.ParseBytes(s.Value); err != nil {
				return Result{}, err
			}
		}
		e.maxQueryMemory = n
	case "deltaview.max_copy_line", "deltaview.max_copy_field":
		var n int64
		if s.Value != "" && s.Value != "0" {
			var err error
			if n, err = sql.ParseBytes(s.Value); err != nil {
				return Result{}, err
			}
			if n > 1<<30 { // PostgreSQL's bound on a value
				return Result{}, pgerr.New(pgerr.InvalidParameter, "%s is outside the valid range for parameter %q (0 .. 1GB)", s.Value, s.Name)
			}
		}
		if s.Name == "deltaview.max_copy_line" {
			e.copyLimits.MaxLine = int(n)
		} else {
			e.copyLimits.MaxField = int(n)
		}
	case "deltaview.max_stream_events":
		var n int64
		if s.Value != "" {
			var err error
			if n, err = strconv.ParseInt(s.Value, 10, 32); err != nil || n < 0 {
				return Result{}, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", s.Name, s.Value).
					WithHint("a number of change events; 0 for the default")
			}
		}
		e.copyLimits.MaxEvents = int(n)
	case "deltaview.clock":
		return e.setClock(s.Value)
	case "deltaview.max_recursion":
		var n int64
		if s.Value != "" {
			var err error
			if n, err = strconv.ParseInt(s.Value, 10, 32); err != nil || n < 0 {
				return Result{}, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", s.Name, s.Value).
					WithHint("a number of rounds; 0 for the default (%d)", plan.DefaultMaxIterations)
			}
		}
		e.maxRecursion = int(n)
	case "deltaview.workers":
		n := int64(0) // RESET
		if s.Value != "" {
			var err error
			if n, err = strconv.ParseInt(s.Value, 10, 32); err != nil || n < 0 {
				return Result{}, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", s.Name, s.Value).
					WithHint("a number of goroutines that prepare a commit's views; 0, the default, for as many as GOMAXPROCS")
			}
		}
		e.workers = int(n)
	case "deltaview.refill_notice":
		n := int64(DefaultRefillNotice) // RESET
		if s.Value != "" {
			var err error
			if n, err = strconv.ParseInt(s.Value, 10, 64); err != nil {
				return Result{}, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", s.Name, s.Value).
					WithHint("a number of refills per view and step above which a commit raises a notice; 0 for a notice on every refill, a negative number to turn the notice off")
			}
		}
		e.setRefillNotice(n)
	default:
		return Result{}, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", s.Name).
			WithHint("the settings are deltaview.max_memory, deltaview.max_query_memory, deltaview.refill_notice, deltaview.max_recursion, deltaview.workers, deltaview.clock, deltaview.max_copy_line, deltaview.max_copy_field and deltaview.max_stream_events")
	}
	return Result{Tag: "SET"}, nil
}

// SetMaxMemory sets the engine-wide budget of all views' state in bytes,
// as SET deltaview.max_memory does; 0 removes it.
func (e *Engine) SetMaxMemory(n int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.maxMemory, e.overBudget = n, false
}

// reserve makes room for about n more rows in t and in the open
// transaction's log, so that a bulk load does not grow them step by step.
func (e *Engine) reserve(t *table, n int64) {
	if n <= 0 {
		return
	}
	e.tx.log = slices.Grow(e.tx.log, int(n))
	for _, u := range t.uniques {
		u.reserve(n)
	}
}

// copySource opens a COPY's input: the data lines of the script for FROM
// STDIN, or the file, through the opener the host allows. done closes it.
func (e *Engine) copySource(c *sql.Copy) (r io.Reader, done func(), err error) {
	if c.Stdin {
		if e.copyData == nil {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY FROM STDIN needs its data").
				WithHint(`in a script, write the data lines after the statement, ending with a line \.`)
		}
		return e.copyData, func() {}, nil
	}
	if e.openFile == nil {
		return nil, nil, pgerr.New(pgerr.InsufficientPrivilege, "COPY from a file is not allowed here").
			WithHint("use COPY … FROM STDIN, or deltaview run, which reads files")
	}
	f, err := e.openFile(c.File)
	if err != nil {
		return nil, nil, fileError(c.File, err, pgerr.UndefinedFile, fmt.Sprintf("could not open file %q for reading", c.File))
	}
	// A directory opens (os.Open) and fails at its first read; PostgreSQL
	// refuses it before reading.
	if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.IsDir() {
			f.Close()
			return nil, nil, pgerr.New(pgerr.WrongObjectType, "%q is a directory", c.File)
		}
	}
	return f, func() { f.Close() }, nil
}

// copyName is the relation a COPY's errors name: the partition it loads,
// or its table.
func copyName(e *Engine, t *table) string {
	if w := e.within; w.of != nil && w.root == t {
		return w.of.Name
	}
	return t.name
}
