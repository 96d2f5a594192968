package engine

// wholeLog keeps the tables of a commit's log when the commit's writing of
// its kept replacements (applyPending) wrote the whole log and built every
// table's batch as it went: the log then holds replacements alone (no
// event, no row a table still owes), each of a table whose batch is built.
// The commit's passes over the log to gather the tables' batches, to look
// for events and to find the tables to compact have nothing to find then:
// it takes the tables from here instead of reading the log's entries,
// 20,000 of them for 10,000 replacements, three times on the commit's
// serial path.
type wholeLog struct {
	tables []*table
	n      int // the log's length as written
}

// set records the tables (copied) of a log of n entries.
func (w *wholeLog) set(tables []*table, n int) {
	w.tables = append(w.tables[:0], tables...)
	w.n = n
}

// reset forgets the log: it is no longer known whole.
func (w *wholeLog) reset() {
	clear(w.tables)
	w.tables = w.tables[:0]
	w.n = 0
}

// of returns the tables of log when it is the log recorded, nil otherwise.
func (w *wholeLog) of(log []change) []*table {
	if len(w.tables) == 0 || len(log) != w.n {
		return nil
	}
	return w.tables
}
