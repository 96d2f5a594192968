package engine

import "sync/atomic"

// The counters of pg_stat_all_tables and pg_stat_database. Readers scan
// under the shared lock, several at once: a scan adds its two counts
// once, at its end, atomically, never per row. Rows are changed under the
// exclusive lock only: a change adds one to a plain field, which readers
// read under the shared lock. As in PostgreSQL, the rows of statements
// rolled back are counted too (n_tup_ins counts what was inserted, not
// what stayed); a transaction ends as a commit or a rollback, read-only
// ones included. The counters start at 0 when the engine opens.

// relStats counts a table's scans, the rows they returned, and the rows
// its statements inserted, updated and deleted.
type relStats struct {
	seqScan, seqRead, idxScan, idxFetch atomic.Int64
	ins, upd, del                       int64
}

// scanned counts a sequential scan that read n rows.
func (s *relStats) scanned(n int64) {
	s.seqScan.Add(1)
	s.seqRead.Add(n)
}

// fetched counts a scan through an index that found n rows.
func (s *relStats) fetched(n int64) {
	s.idxScan.Add(1)
	s.idxFetch.Add(n)
}

// xactStats counts the transactions that ended, as pg_stat_database's
// xact_commit and xact_rollback.
type xactStats struct{ commits, rollbacks atomic.Int64 }

// ended counts a transaction that ended: committed or rolled back.
func (x *xactStats) ended(committed bool) {
	if committed {
		x.commits.Add(1)
	} else {
		x.rollbacks.Add(1)
	}
}
