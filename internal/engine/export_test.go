package engine

// SetParallelMin sets the number of input rows from which a commit
// prepares its views on several goroutines: tests set 0 to make every
// commit with two views to step do so.
func SetParallelMin(e *Engine, rows int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.parallelMin = rows
}

// SpareLogCap returns the capacity of the log kept for the next
// transaction.
func SpareLogCap(e *Engine) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.spare == nil {
		return 0
	}
	return cap(e.spare.log)
}

// SetBehindHook makes every commit that leaves its views' commits behind
// (behind.go) call fn, and their goroutine run what fn returns before it
// starts, until the returned function removes the hook.
func SetBehindHook(fn func() (hold func())) (restore func()) {
	testHookBehind = fn
	return func() { testHookBehind = nil }
}

// ReserveExtensions returns how many times the engine's bounded reserve
// indexes were extended from their tables.
func ReserveExtensions(e *Engine) int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	var n int64
	for _, si := range e.shared.list {
		n += si.a.Extensions()
	}
	return n
}

// SetSeedTopKs turns seeding top-ks from their indexes in cold starts on
// or off, and returns the setting before.
func SetSeedTopKs(on bool) (old bool) {
	old, seedTopKs = seedTopKs, on
	return old
}

// SetNotifyQueuePages bounds the notification queue to pages of 8 kB.
func SetNotifyQueuePages(e *Engine, pages int64) {
	e.notifyQ.mu.Lock()
	defer e.notifyQ.mu.Unlock()
	e.notifyQ.pages = pages
}

// SetFillSeeded turns filling a seeded top-k's new index in the pass that
// counts on or off, and returns the setting before.
func SetFillSeeded(on bool) (old bool) {
	old, fillSeeded = fillSeeded, on
	return old
}

// TableMoved returns how many of table's rows were replaced since its last
// layout.
func TableMoved(e *Engine, table string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.tables[table].rows.moved
}

// SetChunkRows sets the number of keys of a chunk of a big commit of kept
// replacements (chunked.go); 0 commits whole.
func SetChunkRows(e *Engine, rows int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.chunkRows = rows
}

// SetEachRow makes ReplaceRows take each row Replace's way (on) rather
// than casting and checking a table's rows with the plan of one call.
func SetEachRow(e *Engine, on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.eachRow = on
}

// RelayRunning reports whether e's relay goroutine (relay.go) runs or
// waits for a task.
func RelayRunning(e *Engine) bool { return e.relayRunning() }
