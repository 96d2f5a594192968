package engine

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Sequences, as in PostgreSQL: CREATE / ALTER / DROP SEQUENCE, the
// sequences that serial and identity columns own, and nextval, currval,
// setval and lastval. A sequence is not transactional: a number handed
// out stays handed out when its transaction rolls back. The catalog of
// sequences (e.seqs) changes under the engine's write lock; a sequence's
// state under its own mutex, since ad-hoc statements that call nextval run
// at once under the shared lock.
//
// In a durable engine a sequence is written ahead: when the numbers the
// store has recorded as handed out run out, the store records the state
// the next reserve of numbers leads to (32 at first, doubling at each
// reserve up to 65,536), before the first of them is handed out. A
// restart after a crash continues after the reserve: numbers are skipped,
// never handed out twice. Closing the store records every sequence's
// exact state, so that a clean restart skips none.

// sequence is one sequence: its definition and its state. last and
// called are PostgreSQL's last_value and is_called.
type sequence struct {
	mu                   sync.Mutex
	name                 string
	typ                  value.Kind // Int2, Int4 or Int8
	inc, min, max, start int64
	cache                int64
	cycle                bool
	last                 int64
	called               bool
	owner                [2]string // table, column; empty when none
	identity             bool      // the sequence of an identity column
	unlogged             bool      // UNLOGGED (sequence_persistence.go)
	left                 int64     // numbers handed out before the store must record more
	chunk                int64     // the size of the next reserve
	// logCnt is PostgreSQL's log_cnt, the numbers its write-ahead log
	// holds in advance: 32 after a nextval that logged, one less after
	// each other, 0 after a reset. Only shown (SELECT * FROM s).
	logCnt int64
	// cached counts the numbers after last that PostgreSQL's session
	// cache (CACHE above 1) still holds, handed out by the next nextvals
	// without writing the sequence; cacheEnd, the last of them, is the
	// last_value the sequence shows meanwhile. Every write of the
	// sequence (setval, ALTER, RESTART) empties the cache.
	cached, cacheEnd int64
	// pending counts the restarts of the open transaction (restart.go):
	// while any, nextval records no reserve.
	pending int
}

// label is the sequence's name as PostgreSQL's messages write it: a
// session's temporary sequence without the engine's namespace.
func (q *sequence) label() string { return tempLabel(q.name) }

// tempLabel is a relation's key as messages write it: a session's
// temporary relation without the engine's namespace.
func tempLabel(key string) string {
	if isTemp(key) {
		_, n, _ := strings.Cut(key, ".")
		return n
	}
	return key
}

// seqLogVals is PostgreSQL's SEQ_LOG_VALS.
const seqLogVals = 32

// row is the sequence read as a relation: last_value, log_cnt, is_called.
func (q *sequence) row() value.Row {
	q.mu.Lock()
	defer q.mu.Unlock()
	last := q.last
	if q.cached > 0 {
		last = q.cacheEnd
	}
	return value.Row{value.NewInt(value.Int8, last), value.NewInt(value.Int8, q.logCnt), value.NewBool(q.called)}
}

const (
	firstReserve = 32
	maxReserve   = 1 << 16
)

// typeBounds are the least and greatest values of a sequence's type.
func typeBounds(k value.Kind) (int64, int64) {
	switch k {
	case value.Int2:
		return math.MinInt16, math.MaxInt16
	case value.Int4:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

func typeName(k value.Kind) string {
	return map[value.Kind]string{value.Int2: "smallint", value.Int4: "integer", value.Int8: "bigint"}[k]
}

// apply sets the options o on q, checked as PostgreSQL's init_params
// checks them; isNew for CREATE SEQUENCE.
func (q *sequence) apply(o *sql.SeqOptions, isNew bool) error {
	oldLo, oldHi := typeBounds(q.typ)
	if isNew {
		q.typ, q.inc, q.cache = value.Int8, 1, 1
	}
	if o.Type != value.Unknown {
		q.typ = o.Type
	}
	if o.Increment != nil {
		if *o.Increment == 0 {
			return pgerr.New(pgerr.InvalidParameter, "INCREMENT must not be zero")
		}
		q.inc = *o.Increment
	}
	lo, hi := typeBounds(q.typ)
	switch {
	case o.Max != nil:
		q.max = *o.Max
	case isNew || o.NoMax || (o.Type != value.Unknown && q.max == oldHi):
		if q.inc > 0 {
			q.max = hi
		} else {
			q.max = -1
		}
	}
	switch {
	case o.Min != nil:
		q.min = *o.Min
	case isNew || o.NoMin || (o.Type != value.Unknown && q.min == oldLo):
		if q.inc > 0 {
			q.min = 1
		} else {
			q.min = lo
		}
	}
	if q.max < lo || q.max > hi {
		return pgerr.New(pgerr.InvalidParameter, "MAXVALUE (%d) is out of range for sequence data type %s", q.max, typeName(q.typ))
	}
	if q.min < lo || q.min > hi {
		return pgerr.New(pgerr.InvalidParameter, "MINVALUE (%d) is out of range for sequence data type %s", q.min, typeName(q.typ))
	}
	if q.min >= q.max {
		return pgerr.New(pgerr.InvalidParameter, "MINVALUE (%d) must be less than MAXVALUE (%d)", q.min, q.max)
	}
	switch {
	case o.Start != nil:
		q.start = *o.Start
	case isNew:
		if q.inc > 0 {
			q.start = q.min
		} else {
			q.start = q.max
		}
	}
	if q.start < q.min {
		return pgerr.New(pgerr.InvalidParameter, "START value (%d) cannot be less than MINVALUE (%d)", q.start, q.min)
	}
	if q.start > q.max {
		return pgerr.New(pgerr.InvalidParameter, "START value (%d) cannot be greater than MAXVALUE (%d)", q.start, q.max)
	}
	if isNew {
		q.last, q.called = q.start, false
	}
	if o.Restart {
		q.last, q.called = q.start, false
		if o.RestartWith != nil {
			q.last = *o.RestartWith
		}
	}
	if q.last < q.min {
		return pgerr.New(pgerr.InvalidParameter, "RESTART value (%d) cannot be less than MINVALUE (%d)", q.last, q.min)
	}
	if q.last > q.max {
		return pgerr.New(pgerr.InvalidParameter, "RESTART value (%d) cannot be greater than MAXVALUE (%d)", q.last, q.max)
	}
	if o.Cache != nil {
		if *o.Cache <= 0 {
			return pgerr.New(pgerr.InvalidParameter, "CACHE (%d) must be greater than zero", *o.Cache)
		}
		q.cache = *o.Cache
	}
	if o.Cycle != nil {
		q.cycle = *o.Cycle
	}
	return nil
}

// step returns the value nextval hands out from the state (last, called)
// and whether the sequence had one left.
func (q *sequence) step(last int64, called bool) (int64, error) {
	if !called {
		return last, nil
	}
	if q.inc > 0 {
		if last > q.max-q.inc { // no overflow: max-inc cannot overflow for inc > 0
			if !q.cycle {
				return 0, pgerr.New(pgerr.SequenceLimitExceeded, "nextval: reached maximum value of sequence %q (%d)", q.label(), q.max)
			}
			return q.min, nil
		}
		return last + q.inc, nil
	}
	if last < q.min-q.inc {
		if !q.cycle {
			return 0, pgerr.New(pgerr.SequenceLimitExceeded, "nextval: reached minimum value of sequence %q (%d)", q.label(), q.min)
		}
		return q.max, nil
	}
	return last + q.inc, nil
}

// nextval hands out the next value; save records a reserve in the store
// (nil in an engine in memory).
func (q *sequence) nextval(save func(StoredSequence) error) (int64, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pending > 0 {
		save = nil
	}
	v, err := q.step(q.last, q.called)
	if err != nil {
		return 0, err
	}
	if save != nil && q.left == 0 {
		// Record the state after a reserve of numbers, the first of which
		// is v.
		if q.chunk == 0 {
			q.chunk = firstReserve
		}
		last, n := v, int64(1)
		for ; n < q.chunk; n++ {
			w, err := q.step(last, true)
			if err != nil {
				break
			}
			last = w
		}
		st := q.stored()
		st.Last, st.Called = last, true
		if err := save(st); err != nil {
			return 0, err
		}
		q.left = n
		q.chunk = min(2*q.chunk, maxReserve)
	}
	if save != nil {
		q.left--
	}
	if q.cached > 0 {
		q.cached--
	} else {
		q.fetch(v)
	}
	q.last, q.called = v, true
	return v, nil
}

// fetch writes the sequence as PostgreSQL's nextval does when its session
// has no number cached, v being the next: it takes CACHE numbers from v
// (fewer at a limit without CYCLE), the last of them shown as last_value,
// and logs 32 numbers ahead when log_cnt cannot cover them; log_cnt
// counts down the numbers taken and those a limit cut off.
func (q *sequence) fetch(v int64) {
	want, logCnt := max(q.cache, 1), q.logCnt
	if logCnt < want || !q.called {
		want += seqLogVals
		logCnt = want
	}
	end, taken, cache := v, int64(1), max(q.cache, 1)
	for n := v; taken < want; taken++ {
		w, err := q.step(n, true)
		if err != nil {
			break
		}
		n = w
		if taken < cache {
			end = w
		}
	}
	got := min(taken, cache)
	q.cached, q.cacheEnd = got-1, end
	q.logCnt = logCnt - got - (want - taken)
}

// StoredSequence is a sequence as a store records it: its definition,
// its state, and the column that owns it.
type StoredSequence struct {
	Name                       string
	Type                       string // smallint, integer or bigint
	Increment, Min, Max, Start int64
	Cache                      int64
	Cycle                      bool
	Last                       int64
	Called                     bool
	OwnerTable, OwnerColumn    string
	Identity                   bool
}

// SequenceStore is implemented by a Store that keeps sequences. The
// engine calls it as it calls the Store, under its write lock, or under
// its shared lock and its own mutex for the reserves of nextval.
type SequenceStore interface {
	// SaveSequence records a sequence, new or changed, with its state.
	SaveSequence(s StoredSequence) error
	// DropSequences records that the sequences named are gone.
	DropSequences(names []string) error
}

func (q *sequence) stored() StoredSequence {
	return StoredSequence{Name: q.name, Type: typeName(q.typ), Increment: q.inc, Min: q.min, Max: q.max, Start: q.start,
		Cache: q.cache, Cycle: q.cycle, Last: q.last, Called: q.called, OwnerTable: q.owner[0], OwnerColumn: q.owner[1], Identity: q.identity}
}

func (closedStore) SaveSequence(StoredSequence) error { return errClosedStore() }
func (closedStore) DropSequences([]string) error      { return errClosedStore() }

// seqStore is the store's sequence side; nil for an engine in memory.
func (e *Engine) seqStore() SequenceStore {
	if e.store == nil {
		return nil
	}
	if s, ok := e.store.(SequenceStore); ok {
		return s
	}
	return nil
}

// saveSequence records q's state as it is now (write lock held).
func (e *Engine) saveSequence(q *sequence) error {
	ss := e.seqStore()
	if ss == nil || isTemp(q.name) { // a session's temporary sequence is never stored
		return nil
	}
	q.left = 0
	e.seqStoreMu.Lock()
	defer e.seqStoreMu.Unlock()
	return ss.SaveSequence(q.stored())
}

// reserveSaver is what nextval records its reserves with, nil in memory.
func (e *Engine) reserveSaver() func(StoredSequence) error {
	ss := e.seqStore()
	if ss == nil {
		return nil
	}
	return func(st StoredSequence) error {
		e.seqStoreMu.Lock()
		defer e.seqStoreMu.Unlock()
		return ss.SaveSequence(st)
	}
}

// saveSequencesExact records every sequence's exact state, when the store
// closes: a clean restart then skips no number.
func (e *Engine) saveSequencesExact() {
	ss := e.seqStore()
	if ss == nil {
		return
	}
	for _, q := range e.seqs {
		q.mu.Lock()
		if q.left > 0 && ss.SaveSequence(q.stored()) == nil {
			q.left = 0
		}
		q.mu.Unlock()
	}
}

// LoadSequences creates the sequences a store holds, before the tables
// that use them: a serial column's statement, run again, finds its
// sequence there and keeps it (createOwnedSequences).
func (e *Engine) LoadSequences(seqs []StoredSequence) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, st := range seqs {
		k := map[string]value.Kind{"smallint": value.Int2, "integer": value.Int4, "bigint": value.Int8}[st.Type]
		if k == value.Unknown {
			return pgerr.New(pgerr.Internal, "sequence %q has type %q", st.Name, st.Type)
		}
		e.sequences()[st.Name] = &sequence{name: st.Name, typ: k, inc: st.Increment, min: st.Min, max: st.Max, start: st.Start,
			cache: st.Cache, cycle: st.Cycle, last: st.Last, called: st.Called, owner: [2]string{st.OwnerTable, st.OwnerColumn}, identity: st.Identity}
	}
	return nil
}

func (e *Engine) sequences() map[string]*sequence {
	if e.seqs == nil {
		e.seqs = map[string]*sequence{}
	}
	return e.seqs
}

var _ sql.SequenceCatalog = (*Engine)(nil)

// Sequence implements sql.SequenceCatalog.
func (e *Engine) Sequence(name string) ([2]string, bool) {
	q, ok := e.seqs[name]
	if !ok {
		return [2]string{}, false
	}
	return q.owner, true
}

// Sequence implements sql.SequenceCatalog.
func (r *recorder) Sequence(name string) ([2]string, bool) {
	if sc, ok := r.cat.(sql.SequenceCatalog); ok {
		return sc.Sequence(name)
	}
	return [2]string{}, false
}

// Sequence implements sql.SequenceCatalog.
func (v viewRecorder) Sequence(name string) ([2]string, bool) { return v.r.Sequence(name) }

var _ sql.SequenceReader = (*recorder)(nil)

// ReadSequence implements sql.SequenceReader.
func (r *recorder) ReadSequence(name string) {
	if !slices.Contains(r.seqs, name) {
		r.seqs = append(r.seqs, name)
	}
}

// ReadSequence implements sql.SequenceReader.
func (v viewRecorder) ReadSequence(name string) { v.r.ReadSequence(name) }

// relationExists reports whether name is taken by a relation or a
// sequence, which share PostgreSQL's namespace.
func (e *Engine) relationExists(name string) bool {
	_, ok := e.Relation(name)
	return ok || e.indexes[name] != nil || e.seqs[name] != nil || e.matIndexes[name] != nil
}

func (e *Engine) createSequence(cs *sql.CreateSequence) (Result, error) {
	if e.relationExists(cs.Name) {
		if cs.IfNotExists {
			return Result{Tag: "CREATE SEQUENCE", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", e.bareName(cs.Name))}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", e.bareName(cs.Name))
	}
	q := &sequence{name: cs.Name, owner: cs.Owner, identity: cs.Identity, unlogged: cs.Unlogged}
	if err := q.apply(&cs.Opts, true); err != nil {
		return Result{}, err
	}
	if err := e.setOwner(q, &cs.Opts); err != nil {
		return Result{}, err
	}
	if err := e.saveSequence(q); err != nil {
		return Result{}, err
	}
	if err := e.saveSeqPersistence(q.name, q); err != nil {
		return Result{}, err
	}
	e.sequences()[q.name] = q
	return Result{Tag: "CREATE SEQUENCE"}, nil
}

// setOwner applies OWNED BY: the column must be of a table that exists.
func (e *Engine) setOwner(q *sequence, o *sql.SeqOptions) error {
	switch {
	case o.OwnedNone:
		if q.identity {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot change ownership of identity sequence")
		}
		q.owner = [2]string{}
	case o.OwnedBy != nil:
		if q.identity {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot change ownership of identity sequence")
		}
		t, ok := e.tables[o.OwnedBy[0]]
		if !ok {
			return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", o.OwnedBy[0])
		}
		if colIndex(t.cols, o.OwnedBy[1]) < 0 {
			return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", o.OwnedBy[1], o.OwnedBy[0])
		}
		q.owner = [2]string{o.OwnedBy[0], o.OwnedBy[1]}
	}
	return nil
}

func colIndex(cols []plan.Column, name string) int {
	for i, c := range cols {
		if c.Name == name {
			return i
		}
	}
	return -1
}

func (e *Engine) alterSequence(as *sql.AlterSequence) (Result, error) {
	q, ok := e.seqs[as.Name]
	if !ok {
		if _, rel := e.Relation(as.Name); rel {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", tempLabel(as.Name))
		}
		if as.IfExists {
			return Result{Tag: "ALTER SEQUENCE", Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", as.Name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", as.Name)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	next, err := q.altered(&as.Opts)
	if err != nil {
		return Result{}, err
	}
	if err := e.setOwner(next, &as.Opts); err != nil {
		return Result{}, err
	}
	if err := e.saveSequence(next); err != nil {
		return Result{}, err
	}
	q.take(next)
	return Result{Tag: "ALTER SEQUENCE"}, nil
}

// altered returns a copy of q with the options of an ALTER SEQUENCE
// applied (q's lock held).
func (q *sequence) altered(opts *sql.SeqOptions) (*sequence, error) {
	next := &sequence{name: q.name, typ: q.typ, inc: q.inc, min: q.min, max: q.max, start: q.start, cache: q.cache,
		cycle: q.cycle, last: q.last, called: q.called, owner: q.owner, identity: q.identity}
	if err := next.apply(opts, false); err != nil {
		return nil, err
	}
	return next, nil
}

// take gives q the state of next, an altered copy once it is recorded
// (q's lock held).
func (q *sequence) take(next *sequence) {
	q.typ, q.inc, q.min, q.max, q.start, q.cache, q.cycle = next.typ, next.inc, next.min, next.max, next.start, next.cache, next.cycle
	q.last, q.called, q.owner, q.left = next.last, next.called, next.owner, 0
	q.logCnt, q.cached = 0, 0 // PostgreSQL writes the sequence anew
}

// seqUsers returns, for the sequence name, the columns whose DEFAULT
// calls it by name, as "column c of table t", sorted.
func (e *Engine) seqUsers(name string) []string {
	var out []string
	for tn, t := range e.tables {
		for _, c := range t.def.Cols {
			if c.Default != nil && callsSequence(c.Default, name) {
				out = append(out, fmt.Sprintf("column %s of table %s", c.Name, tempLabel(tn)))
			}
		}
	}
	sort.Strings(out)
	return out
}

func callsSequence(e expr.Expr, name string) bool {
	found := false
	expr.Walk(e, func(n expr.Expr) bool {
		if s, ok := n.(*expr.SeqCall); ok && len(s.Args) > 0 {
			if c, ok := s.Args[0].(*expr.Const); ok && sql.SeqKey(c.V.String()) == name {
				found = true
			}
		}
		return !found
	})
	return found
}

func (e *Engine) dropSequence(ds *sql.DropSequence) (Result, error) {
	var notices, names []string
	for _, name := range ds.Names {
		q, ok := e.seqs[name]
		label := tempLabel(name)
		if !ok {
			if err := e.dropWrongKind(name, "a sequence"); err != nil {
				return Result{}, err
			}
			if _, rel := e.Relation(name); rel {
				return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", e.bareName(name))
			}
			if ds.IfExists {
				notices = append(notices, fmt.Sprintf("sequence %q does not exist, skipping", e.bareName(name)))
				continue
			}
			return Result{}, pgerr.New(pgerr.UndefinedTable, "sequence %q does not exist", e.bareName(name))
		}
		if q.identity && e.tables[q.owner[0]] != nil {
			return Result{}, pgerr.New(pgerr.DependentObjects, "cannot drop sequence %s because column %s of table %s requires it", label, q.owner[1], tempLabel(q.owner[0])).
				WithHint("You can drop column %s of table %s instead.", q.owner[1], tempLabel(q.owner[0]))
		}
		if users := e.seqUsers(name); len(users) > 0 {
			if ds.Cascade {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP SEQUENCE … CASCADE would drop the default of %s: that is not supported", users[0]).
					WithHint("drop the table, or the column's default, first")
			}
			lines := make([]string, len(users))
			for i, u := range users {
				lines[i] = fmt.Sprintf("default value for %s depends on sequence %s", u, label)
			}
			return Result{}, &pgerr.Error{Code: pgerr.DependentObjects,
				Message: fmt.Sprintf("cannot drop sequence %s because other objects depend on it", label),
				Detail:  strings.Join(lines, "\n"),
				Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
		}
		names = append(names, name)
	}
	if err := e.forgetSequences(names); err != nil {
		return Result{}, err
	}
	return Result{Tag: "DROP SEQUENCE", Notices: notices}, nil
}

// forgetSequences drops the sequences named from the store and the
// catalog.
func (e *Engine) forgetSequences(names []string) error {
	if len(names) == 0 {
		return nil
	}
	stored := slices.DeleteFunc(slices.Clone(names), isTemp)
	if ss := e.seqStore(); ss != nil && len(stored) > 0 {
		e.seqStoreMu.Lock()
		err := ss.DropSequences(stored)
		e.seqStoreMu.Unlock()
		if err != nil {
			return err
		}
	}
	for _, n := range names {
		if q := e.seqs[n]; q != nil && q.unlogged {
			if err := e.saveSeqPersistence(n, nil); err != nil {
				return err
			}
		}
		delete(e.seqs, n)
	}
	return nil
}

// createOwnedSequences creates the sequences of a new table's serial and
// identity columns. A sequence the column owns already (loaded from the
// database file before the table's statement runs again) is kept, with
// its state.
func (e *Engine) createOwnedSequences(ct *sql.CreateTable) ([]string, error) {
	var made []string
	for _, cs := range ct.Sequences {
		if q, ok := e.seqs[cs.Name]; ok && q.owner == cs.Owner {
			continue
		}
		if _, err := e.createSequence(cs); err != nil {
			e.forgetSequences(made) //nolint:errcheck // the first error is the one to report
			return nil, err
		}
		made = append(made, cs.Name)
	}
	return made, nil
}

// dropOwnedSequences drops the sequences that columns of the tables gone
// owned, as PostgreSQL does with a table's serial and identity sequences.
func (e *Engine) dropOwnedSequences(gone map[string]bool) error {
	var names []string
	for n, q := range e.seqs {
		if q.owner[0] != "" && gone[q.owner[0]] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return e.forgetSequences(names)
}

// sessionSeqs is a session's view of the sequences: currval and lastval
// are its own.
type sessionSeqs struct {
	s *Session
}

var _ expr.Sequences = sessionSeqs{}

// seqState is what a session remembers of the sequences it used.
type seqState struct {
	cur      map[string]int64
	lastName string
}

func (x sessionSeqs) lookup(name string, need sql.Privilege) (*sequence, error) {
	e := x.s.e
	if isTemp(name) && (x.s.tempNS == "" || !strings.HasPrefix(name, x.s.tempNS)) {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name) // another session's
	}
	q, ok := e.seqs[name]
	if !ok {
		if _, rel := e.Relation(name); rel {
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", tempLabel(name))
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if err := x.s.seqAllowed(name, need); err != nil {
		return nil, err
	}
	return q, nil
}

func (x sessionSeqs) Nextval(name string) (int64, error) {
	q, err := x.lookup(name, seqNextval)
	if err != nil {
		return 0, err
	}
	if !isTemp(q.name) && x.s.readOnly() {
		return 0, errReadOnly("nextval()")
	}
	save := x.s.e.reserveSaver()
	if isTemp(q.name) {
		save = nil
	}
	v, err := q.nextval(save)
	if err != nil {
		return 0, err
	}
	name = q.name
	st := &x.s.seq
	if st.cur == nil {
		st.cur = map[string]int64{}
	}
	st.cur[name], st.lastName = v, name
	return v, nil
}

func (x sessionSeqs) Currval(name string) (int64, error) {
	q, err := x.lookup(name, seqCurrval)
	if err != nil {
		return 0, err
	}
	v, ok := x.s.seq.cur[q.name]
	if !ok {
		return 0, pgerr.New(pgerr.ObjectNotInPrereqState, "currval of sequence %q is not yet defined in this session", q.label())
	}
	return v, nil
}

func (x sessionSeqs) Lastval() (int64, error) {
	st := &x.s.seq
	if st.lastName == "" || x.s.e.seqs[st.lastName] == nil {
		return 0, pgerr.New(pgerr.ObjectNotInPrereqState, "lastval is not yet defined in this session")
	}
	if _, err := x.lookup(st.lastName, seqCurrval); err != nil {
		return 0, err
	}
	return st.cur[st.lastName], nil
}

func (x sessionSeqs) Setval(name string, v int64, called bool) (int64, error) {
	q, err := x.lookup(name, seqSetval)
	if err != nil {
		return 0, err
	}
	if !isTemp(q.name) && x.s.readOnly() {
		return 0, errReadOnly("setval()")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if v < q.min || v > q.max {
		return 0, pgerr.New(pgerr.NumericOutOfRange, "setval: value %d is out of bounds for sequence %q (%d..%d)", v, q.label(), q.min, q.max)
	}
	name = q.name
	prev, prevCalled := q.last, q.called
	q.last, q.called = v, called
	if save := x.s.e.reserveSaver(); save != nil && !isTemp(q.name) {
		st := q.stored()
		if err := save(st); err != nil {
			q.last, q.called = prev, prevCalled
			return 0, err
		}
		q.left = 0
	}
	q.logCnt, q.cached = 0, 0
	if called {
		if x.s.seq.cur == nil {
			x.s.seq.cur = map[string]int64{}
		}
		x.s.seq.cur[name] = v
	}
	return v, nil
}

// Which privileges on a sequence let a role call each function, as
// PostgreSQL checks them: any one of the set suffices.
const (
	seqNextval = sql.PrivUsage | sql.PrivUpdate // nextval
	seqCurrval = sql.PrivSelect | sql.PrivUsage // currval, lastval, pg_sequence_last_value
	seqSetval  = sql.PrivUpdate                 // setval
	seqRead    = sql.PrivSelect                 // SELECT … FROM s
)

// seqAllowed checks that the session's role holds one of the privileges
// any on a sequence (GRANT … ON SEQUENCE, to it, a role it holds the
// privileges of, or PUBLIC), owns it, or is a superuser; else 42501 as
// PostgreSQL's.
func (s *Session) seqAllowed(name string, any sql.Privilege) error {
	if s.role == "" {
		return nil
	}
	if r := s.e.roles[s.role]; r != nil && r.superuser {
		return nil
	}
	if o, ok := s.e.owners[name]; ok && s.e.hasPrivsOf(s.role, o) && s.e.ownerHoldsAll(name) {
		return nil // the owner holds every privilege (owner.go), and its members
	}
	g := s.e.relGrants(name)
	have := g[""]
	for _, h := range s.e.heldRoles(s.role) {
		have |= g[h]
	}
	if have&any != 0 {
		return nil
	}
	names := strings.Split(any.String(), ", ")
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for sequence %s", s.e.bareName(name)).
		WithHint("role %q needs %s on sequence %s: a superuser grants it with GRANT %s ON SEQUENCE %s TO %s",
			s.role, strings.Join(names, " or "), name, names[len(names)-1], name, s.role)
}

// identity returns, per column, 'a' or 'd' for an identity column and 0
// for another; nil when the table has none.
func (t *table) identity() []byte {
	var out []byte
	for i, c := range t.def.Cols {
		if c.Identity != 0 {
			if out == nil {
				out = make([]byte, len(t.def.Cols))
			}
			out[i] = c.Identity
		}
	}
	return out
}

// copyDefaults returns the defaults of t's columns for a COPY: a default
// that calls a sequence calls it as the COPY's session.
func (e *Engine) copyDefaults(t *table) func(int) (value.Value, error) {
	if e.copyClock == nil {
		return t.defaultValue
	}
	defs := make([]expr.Expr, len(t.def.Cols))
	for i := range t.def.Cols {
		defs[i] = expr.WithClock(t.def.Cols[i].DefaultExpr(), e.copyClock)
	}
	return func(i int) (value.Value, error) {
		if defs[i] == nil {
			return value.Null, nil
		}
		v, err := defs[i].Eval(nil)
		if err != nil {
			return value.Null, err
		}
		return value.Cast(v, t.cols[i].Type, false)
	}
}

// LastValue implements expr.SequenceLastValuer: the sequence's
// last_value as its relation shows it, ok false before its first
// nextval (pg_sequence_last_value gives NULL then).
func (x sessionSeqs) LastValue(name string) (int64, bool, error) {
	q, err := x.lookup(name, seqCurrval)
	if err != nil {
		return 0, false, err
	}
	r := q.row()
	return r[0].Int(), r[2].Bool(), nil
}
