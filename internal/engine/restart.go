package engine

import "sort"

// TRUNCATE … RESTART IDENTITY restarts the sequences the tables' serial
// and identity columns own, and, as in PostgreSQL, the restart belongs to
// the transaction: the statements after it draw from the start, and a
// ROLLBACK (or a ROLLBACK TO a savepoint before it) gives the sequence
// back the state it had, forgetting the numbers drawn since. Sequences
// are otherwise not transactional.
//
// The store learns of a restart at the commit only: until then the
// sequence records no reserve (its numbers would be written ahead of a
// transaction that may never commit), so that a crash leaves the store
// with the state before the restart, which the table's rows before the
// TRUNCATE agree with.

// seqRestart is one sequence restarted by the open transaction, with the
// state to give back if it rolls back.
type seqRestart struct {
	q      *sequence
	last   int64
	called bool
	logCnt int64
}

// restartOwned restarts the sequences owned by the tables ts, in the
// open transaction.
func (e *Engine) restartOwned(ts []*table) {
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		names = append(names, t.name)
	}
	var qs []*sequence
	for _, q := range e.seqs {
		for _, n := range names {
			if q.owner[0] == n {
				qs = append(qs, q)
			}
		}
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i].name < qs[j].name })
	for _, q := range qs {
		q.mu.Lock()
		e.tx.restarts = append(e.tx.restarts, seqRestart{q: q, last: q.last, called: q.called, logCnt: q.logCnt})
		q.last, q.called, q.logCnt, q.cached = q.start, false, 0, 0
		q.pending++
		q.mu.Unlock()
	}
}

// undoRestarts gives the sequences restarted after the first n restarts
// of the open transaction their state before, newest first.
func (e *Engine) undoRestarts(n int) {
	rs := e.tx.restarts
	for i := len(rs) - 1; i >= n; i-- {
		r := rs[i]
		r.q.mu.Lock()
		r.q.last, r.q.called, r.q.logCnt, r.q.cached = r.last, r.called, r.logCnt, 0
		r.q.pending--
		r.q.mu.Unlock()
	}
	clear(rs[n:])
	e.tx.restarts = rs[:n]
}

// commitRestarts records, once the transaction has committed, the state
// of the sequences it restarted. A store that fails here keeps the state
// before the restart, which only skips numbers.
func (e *Engine) commitRestarts(rs []seqRestart) {
	for _, r := range rs {
		r.q.mu.Lock()
		r.q.pending--
		if r.q.pending == 0 {
			e.saveSequence(r.q) //nolint:errcheck // the commit is done; see above
		}
		r.q.mu.Unlock()
	}
}
