package engine

import (
	"unsafe"

	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/partial"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// pview is a materialized view maintained by partial propagation: a
// partial.Circuit turns each transaction's changes of the tables it reads
// into the view's explicit delta, which the view's keyed rows absorb with
// MERGE semantics (delta.Target's rules). It keeps the circuit's state and
// the view's rows, by key; nothing of the tables it reads.
type pview struct {
	viewMeta
	circ     *partial.Circuit
	schema   *delta.Schema
	rels     []*delta.Schema
	relNames []string
	// tables are the relations' tables: whether one keeps rows is read at
	// each step, since a view normalised later makes it keep them.
	tables []*table
	// target holds the view's rows by key and applies the circuit's
	// explicit delta to them with MERGE semantics; bytes is their size.
	target *delta.Target
	bytes  int64
	// facts are the staged step's delta, one fact per key (the
	// circuit's, valid until its next step); out states them as changes
	// when a sink asks (explicit), made once a step.
	facts   []delta.Fact
	out     delta.Batch
	outMade bool
	z       zset.ZSet // the staged step's Z-set delta, reused
	// unsorted: z, made from the circuit's facts in key order, is not
	// sorted by row (the view's key is not its first columns).
	unsorted bool
	// emit and kept are the target's callbacks, made once.
	emit    func(before, after value.Row)
	kept    func(before, after value.Row)
	stepped bool
	kinds   [delta.NumKinds]int64 // changes produced, per kind
	in      map[string]delta.Batch
	start   time.Time
}

// propagation returns how a materialized view is to be maintained:
// partial (with its circuit, compiled from the plan by
// compile.Partial, with empty state), or through the Z-set dataflow (nil
// circuit); and
// a note for EXPLAIN. why is set when a view over change-stream tables is
// normalised. It has no effect on the catalog.
func (e *Engine) propagation(cv *sql.CreateView) (circ *partial.Circuit, streams []*table, why string, err error) {
	for _, rel := range plan.Relations(cv.Plan) {
		if _, ok := e.views[rel].(*pview); ok {
			return nil, nil, "", pgerr.New(pgerr.FeatureNotSupported, "materialized view %q is maintained by partial propagation and cannot be read by another materialized view", rel).
				WithHint("define the view over the tables %s reads", rel)
		}
		if t, ok := e.tables[rel]; ok && t.def.ChangeStream && !slices.Contains(streams, t) {
			streams = append(streams, t)
		}
	}
	mode := cv.Propagation
	if mode == "" {
		mode = "auto"
	}
	if mode == "normalise" {
		return nil, streams, "WITH (propagation = normalise)", nil
	}
	if len(streams) == 0 && mode == "auto" {
		return nil, nil, "", nil
	}
	circ, err = compile.Partial(cv.Name, cv.Plan, e)
	var np *compile.NotPartial
	if errors.As(err, &np) {
		if mode == "partial" {
			return nil, nil, "", pgerr.New(pgerr.FeatureNotSupported, "materialized view %q cannot be maintained by partial propagation: %s", cv.Name, np.Why).
				WithHint("partial propagation takes selections, projections keeping the root table's key, and inner joins on a dimension's whole primary key; use WITH (propagation = normalise)")
		}
		return nil, streams, np.Why, nil
	}
	if err != nil {
		return nil, nil, "", err
	}
	return circ, streams, "", nil
}

// createStreamView is the planner's choice at CREATE MATERIALIZED VIEW: it
// builds a partially maintained view and returns done, or, when the view
// is to be normalised, makes the change-stream tables it reads keep their
// rows and leaves the view to the Z-set dataflow (done false).
func (e *Engine) createStreamView(cv *sql.CreateView, deps []string) (Result, bool, error) {
	circ, streams, why, err := e.propagation(cv)
	if err != nil {
		return Result{}, true, err
	}
	if circ == nil {
		for _, t := range streams {
			if !t.stream.stored && t.stream.fed {
				return Result{}, true, pgerr.New("55000", "change-stream table %q has received changes and keeps no rows; materialized view %q needs them (normalisation: %s)", t.name, cv.Name, why).
					WithHint("create the views that need a table's rows before feeding it")
			}
		}
		for _, t := range streams {
			t.stream.stored = true
		}
		var res Result
		if len(streams) > 0 {
			e.setNote(cv.Name, "propagation: normalisation ("+why+"); each change-stream table keeps a keyed copy that completes every partial change by lookup, then the Z-set dataflow below")
			names := make([]string, len(streams))
			for i, t := range streams {
				names[i] = fmt.Sprintf("%q", t.name)
			}
			keeps := "change-stream table " + names[0] + " keeps a keyed copy of its rows"
			if len(names) > 1 {
				keeps = "change-stream tables " + strings.Join(names, ", ") + " keep a keyed copy of their rows"
			}
			res.Notices = []string{fmt.Sprintf("materialized view %q is maintained by normalisation (%s): %s", cv.Name, why, keeps)}
		}
		return res, false, nil
	}
	pv, err := e.buildPartial(cv, circ)
	if err != nil {
		return Result{}, true, err
	}
	e.addView(pv, deps)
	return Result{Tag: fmt.Sprintf("SELECT %d", pv.target.Len())}, true, nil
}

// buildPartial builds a partially maintained view: its first step inserts
// the contents of the tables that keep rows. It fails with 53200, and
// nothing remains of the view, when its state exceeds its budget or the
// engine-wide one.
func (e *Engine) buildPartial(cv *sql.CreateView, circ *partial.Circuit) (*pview, error) {
	start := time.Now()
	pv := &pview{viewMeta: viewMeta{name: cv.Name, cols: cv.Plan.Columns(), def: cv, createdAt: start, maxMemory: cv.MaxMemory},
		circ: circ, schema: circ.Schema(), rels: circ.Relations(), target: delta.NewTarget(circ.Schema())}
	pv.target.Name = "materialized view " + cv.Name
	pv.emit = func(before, after value.Row) {
		// A key's rows come in their order, and a row that did not
		// change comes not at all: when the view's key is its first
		// columns, the Z-set is consolidated as made.
		e, f := zset.Entry{Row: before, W: -1}, zset.Entry{Row: after, W: 1}
		switch {
		case before == nil:
			e, f = f, zset.Entry{}
		case after == nil:
			f = zset.Entry{}
		default:
			switch c := zset.CompareRows(before, after); {
			case c == 0:
				return
			case c > 0:
				e, f = f, e
			}
		}
		if n := len(pv.z); n > 0 && zset.CompareRows(pv.z[n-1].Row, e.Row) >= 0 {
			pv.unsorted = true
		}
		pv.z = append(pv.z, e)
		if f.Row != nil {
			pv.z = append(pv.z, f)
		}
	}
	// A row's values; its slot and key are the target's (IndexBytes).
	pv.kept = func(before, after value.Row) {
		if before != nil {
			pv.bytes -= dataflow.RowBytes(before) - rowHeaderBytes
		}
		if after != nil {
			pv.bytes += dataflow.RowBytes(after) - rowHeaderBytes
		}
	}
	in := map[string]delta.Batch{}
	for _, r := range pv.rels {
		t := e.tables[r.Name]
		pv.relNames = append(pv.relNames, r.Name)
		pv.tables = append(pv.tables, t)
		if !t.keepsRows() {
			if t.stream.fed {
				return nil, pgerr.New("55000", "change-stream table %q has received changes and keeps no rows; materialized view %q cannot be built over it", t.name, cv.Name).
					WithHint("create the views over a change-stream table before feeding it")
			}
			continue
		}
		t.layout() // as a cold start's (buildView)
		b := make(delta.Batch, 0, t.rows.Len())
		t.scan(func(_ uint64, row value.Row) bool {
			b = append(b, delta.Insert{Row: row})
			return true
		})
		in[r.Name] = b
		pv.coldRows += int64(len(b))
	}
	facts, err := circ.StepFacts(in)
	if err == nil {
		_, err = pv.stage(facts, 0)
	}
	if err != nil {
		pv.abort()
		return nil, err
	}
	pv.commit()
	// The figures are of committed state: the budgets are checked after
	// the commit, and a view over them is dropped whole.
	if err := e.checkBuildBudget(pv); err != nil {
		return nil, err
	}
	pv.steps, pv.totalSteps, pv.timedSteps = 0, 0, 0
	pv.coldStart = time.Since(start)
	return pv, nil
}

func (e *Engine) setNote(view, note string) {
	if e.notes == nil {
		e.notes = map[string]string{}
	}
	e.notes[view] = note
}

func (pv *pview) relations() []string { return pv.relNames }

// prepare gives the circuit the view's relations' changes of the
// transaction — the events of tables that keep no rows, as they came;
// complete changes, paired by key from the consolidated Z-set delta, of
// tables that keep rows — and stages its explicit delta on the rows.
func (pv *pview) prepare(si *stepInput) (zset.ZSet, bool, error) {
	in := pv.in
	clear(in)
	for i, r := range pv.rels {
		var b delta.Batch
		if pv.tables[i].keepsRows() {
			if z := si.deltas[r.Name]; len(z) > 0 {
				b = tableChanges(r, z)
			}
		} else {
			b = si.events[r.Name]
		}
		if len(b) > 0 {
			if in == nil {
				in = map[string]delta.Batch{}
				pv.in = in
			}
			in[r.Name] = b
		}
	}
	if len(in) == 0 {
		return nil, false, nil
	}
	pv.start = time.Now()
	facts, err := pv.circ.StepFacts(in)
	if err != nil {
		return nil, false, err
	}
	pv.stepped = true
	z, err := pv.stage(facts, si.step)
	if err == nil && len(pv.indexes) > 0 {
		err = pv.stageIndexes(z)
	}
	if err != nil {
		pv.abort()
		return nil, false, err
	}
	pv.lastStep = time.Since(pv.start)
	return z, true, nil
}

// stage stages the view's delta (the circuit's facts) on its rows, with
// MERGE semantics, and returns the view's Z-set delta (old rows retracted, new
// ones asserted). An error names the view, the key and the step.
func (pv *pview) stage(facts []delta.Fact, step uint64) (zset.ZSet, error) {
	pv.stepped = true
	clear(pv.z)
	pv.z, pv.unsorted = pv.z[:0], false
	if cap(pv.z) > maxSpareLog {
		pv.z = nil // a bulk step's delta is let go
	}
	if err := pv.target.StageFacts(facts, pv.emit); err != nil {
		pe := *pgerr.Wrap(err)
		pe.Message += fmt.Sprintf(" (step %d)", step)
		return nil, &pe
	}
	pv.facts = facts
	if !pv.unsorted {
		return pv.z, nil
	}
	return zset.Consolidate(pv.z), nil
}

// commit applies the staged rows.
func (pv *pview) commit() {
	if len(pv.indexes) > 0 {
		pv.commitIndexes()
	}
	pv.target.Commit(pv.kept)
	for i := range pv.facts {
		pv.kinds[pv.facts[i].Kind()]++
	}
	pv.circ.Commit()
	pv.forget()
	pv.steps++
	pv.totalSteps += pv.lastStep
	pv.timedSteps++
}

func (pv *pview) abort() {
	pv.abortIndexes()
	pv.target.Abort()
	pv.circ.Abort()
	pv.forget()
}

// forget lets go of the step's delta.
func (pv *pview) forget() {
	clear(pv.out)
	pv.out = pv.out[:0]
	if cap(pv.out) > maxSpareLog {
		pv.out = nil
	}
	pv.facts, pv.outMade, pv.stepped = nil, false, false
}

// rows returns the view's rows sorted by key.
func (pv *pview) rows() []value.Row { return pv.target.Rows() }

func (pv *pview) snapshot() zset.ZSet {
	rows := pv.rows()
	z := make(zset.ZSet, len(rows))
	for i, r := range rows {
		z[i] = zset.Entry{Row: r, W: 1}
	}
	return z
}

func (pv *pview) rowCount() int64 { return int64(pv.target.Len()) }

// state is the partial operators' state plus the view's rows.
func (pv *pview) state() dataflow.StateSize {
	s := pv.circ.State()
	s.Rows += int64(pv.target.Len())
	s.Bytes += pv.rowBytes()
	return s
}

// account adds the view's state: no other view shares it.
func (pv *pview) account(a *dataflow.Accounting) {
	a.Add(dataflow.StatePart{Key: pv, Size: pv.state()})
}

// operators lists the circuit's nodes in topological order, then the
// view's keyed rows (the target of MERGE).
func (pv *pview) operators() []opFigures {
	c := pv.circ
	out := make([]opFigures, 0, c.Len()+1)
	for i := 0; i < c.Len(); i++ {
		op, st := c.Node(i), c.Stats(i)
		out = append(out, opFigures{kind: op.Info().Kind, state: op.State(), in: st.EntriesIn, out: st.EntriesOut})
	}
	var made int64
	for _, n := range pv.kinds {
		made += n
	}
	return append(out, opFigures{kind: "Target", state: dataflow.StateSize{Rows: int64(pv.target.Len()), Bytes: pv.rowBytes()}, in: made, out: made})
}

func (pv *pview) refills() int64 { return 0 }
func (pv *pview) trim()          {}

func (pv *pview) keyed(*Engine) (*delta.Schema, error) { return pv.schema, nil }

// explicit is the circuit's explicit delta of the staged step, its
// facts stated as changes (the complete new rows copied: a sink may keep
// them).
func (pv *pview) explicit(*delta.Schema, zset.ZSet) delta.Batch {
	if !pv.stepped {
		return nil
	}
	if !pv.outMade {
		pv.out, pv.outMade = delta.AppendChanges(pv.out[:0], pv.facts, slices.Clone), true
	}
	return pv.out
}

func (pv *pview) explain(e *Engine, format string) (Result, error) {
	lines, err := e.explainPartial(pv.name, pv, nil)
	if err != nil {
		return Result{}, err
	}
	return textPlan(lines), nil
}

// explainPartial prints a partially maintained view's circuit, with what
// each operator keeps, and the state it holds against what normalisation
// would keep.
func (e *Engine) explainPartial(name string, pv *pview, circ *partial.Circuit) ([]string, error) {
	live := pv != nil
	if live {
		circ = pv.circ
	}
	lines := []string{"propagation: partial (select-project-join along key/foreign-key paths into a keyed target, key " + keyNames(circ.Schema()) + ")"}
	for _, l := range strings.Split(strings.TrimRight(circ.String(), "\n"), "\n") {
		lines = append(lines, l)
	}
	lines = append(lines, "Target "+name+" keyed by "+keyNames(circ.Schema())+"  state: one row per key; MERGE: insert, update, update of the known columns, upsert, delete, delete if present")
	for _, r := range circ.Relations() {
		lines = append(lines, "source: "+describeTable(e.tables[r.Name]))
	}
	if live {
		st := pv.circ.State()
		lines = append(lines, fmt.Sprintf("state: operators rows=%d bytes=%d; target rows=%d bytes=%d; steps=%d", st.Rows, st.Bytes, int64(pv.target.Len()), pv.rowBytes(), pv.steps))
	}
	var src []string
	for _, r := range circ.Relations() {
		src = append(src, r.Name)
	}
	lines = append(lines, "normalisation would keep: a keyed copy of every row of "+strings.Join(src, ", ")+", and an index of each join input on its join key")
	return lines, nil
}

func keyNames(s *delta.Schema) string {
	names := make([]string, len(s.Key))
	for i, k := range s.Key {
		names[i] = s.Columns[k]
	}
	return "(" + strings.Join(names, ", ") + ")"
}

// rowBytes is the memory of the view's rows: their values, the space of
// their blocks that no row fills, their slots and the index of their keys.
func (pv *pview) rowBytes() int64 {
	return pv.bytes + pv.target.Slack() + pv.target.IndexBytes()
}

// rowHeaderBytes is the slice header dataflow.RowBytes counts, which a
// row the target holds does not have: its slot holds the row instead.
const rowHeaderBytes = int64(unsafe.Sizeof(value.Row(nil)))

// PartialState returns a partially maintained view's state: the partial
// operators' and the view's rows; ok is false for any other view.
func (e *Engine) PartialState(view string) (operators, rows dataflow.StateSize, ok bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	pv, ok := e.views[view].(*pview)
	if !ok {
		return operators, rows, false
	}
	return pv.circ.State(), dataflow.StateSize{Rows: int64(pv.target.Len()), Bytes: pv.rowBytes()}, true
}

// PartialKinds returns how many changes of each kind a partially
// maintained view has produced since it was built (the cold start
// included).
func (e *Engine) PartialKinds(view string) ([delta.NumKinds]int64, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	pv, ok := e.views[view].(*pview)
	if !ok {
		return [delta.NumKinds]int64{}, false
	}
	return pv.kinds, true
}

// Propagation returns how a materialized view is maintained: "partial",
// "normalise" (over change-stream tables) or "dataflow".
func (e *Engine) Propagation(view string) string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if _, ok := e.views[view].(*pview); ok {
		return "partial"
	}
	if _, ok := e.notes[view]; ok {
		return "normalise"
	}
	return "dataflow"
}

// StoredBytes returns the bytes a table's stored rows take (0 for a
// change-stream table that keeps no rows).
func (e *Engine) StoredBytes(tableName string) int64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if t, ok := e.tables[tableName]; ok && t.keepsRows() {
		return t.bytes
	}
	return 0
}

// explainStream returns EXPLAIN's lines for a view to be created over
// change-stream tables: the whole plan (whole) of a partially maintained
// view, or the lines that precede a normalised view's dataflow.
func (e *Engine) explainStream(cv *sql.CreateView) (lines []string, whole bool, err error) {
	circ, streams, why, err := e.propagation(cv)
	if err != nil {
		return nil, false, err
	}
	if circ != nil {
		lines, err := e.explainPartial(cv.Name, nil, circ)
		return lines, true, err
	}
	if len(streams) == 0 {
		return nil, false, nil
	}
	return e.normalisedLines("propagation: normalisation ("+why+"); each change-stream table keeps a keyed copy that completes every partial change by lookup, then the Z-set dataflow below", cv.Plan), false, nil
}

// normalisedLines are the lines that precede a normalised view's
// dataflow in EXPLAIN: why it is normalised, and its change-stream
// sources.
func (e *Engine) normalisedLines(note string, p plan.Node) []string {
	lines := []string{note}
	for _, r := range plan.Relations(p) {
		if t, ok := e.tables[r]; ok {
			lines = append(lines, "source: "+describeTable(t))
		}
	}
	return lines
}

func textPlan(lines []string) Result {
	res := Result{Columns: []plan.Column{{Name: "QUERY PLAN", Type: value.TextType}}, HasRows: true, Tag: "EXPLAIN"}
	for _, l := range lines {
		res.Rows = append(res.Rows, value.Row{value.NewText(value.Text, l)})
	}
	return res
}

// ExplainView explains an existing materialized view, with its live state.
func (e *Engine) ExplainView(name string) (Result, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.explain(&sql.Explain{Name: name, Format: "text"})
}

// viewKey returns the key of a view's plan as a partial circuit of it
// would have it, or an error saying why the plan has none.
func (e *Engine) viewKey(name string, p plan.Node) (*delta.Schema, error) {
	return compile.PartialKey(name, p, e)
}

// CompleteRows implements compile.KeyedTables: an ordinary table's
// changes are completed from its rows; a change-stream table's are
// complete when it declares complete_rows.
func (e *Engine) CompleteRows(rel string) bool {
	t, ok := e.tables[rel]
	return ok && (!t.def.ChangeStream || t.def.CompleteRows)
}

// KeyedTable implements compile.KeyedTables.
func (e *Engine) KeyedTable(rel string) (*delta.Schema, []bool, bool, error) {
	t, ok := e.tables[rel]
	if !ok {
		return nil, nil, false, nil
	}
	s, err := t.deltaSchema()
	notNull := make([]bool, len(t.def.Cols))
	for i, c := range t.def.Cols {
		notNull[i] = c.NotNull
	}
	return s, notNull, true, err
}
