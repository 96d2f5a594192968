// Package bench is deltaview's benchmark harness: one workload run on
// deltaview and on the systems its users would otherwise pick, in one
// invocation, with every answer checked before any figure counts.
//
// Run it with
//
//	go run ./cmd/deltaview bench                      # N = 10k and 100k, every system
//	go run ./cmd/deltaview bench --n 10000,100000,1000000
//
// It writes bench/results/<date>.json, docs/benchmarks.md and the plots in
// docs/benchmarks/.
//
// The workload (workload.go) is two tables, t with N rows and u with N/10,
// and five views (filter, groupby, groupcount, join, topk). A change sets
// one uniformly chosen row's grp and val to new uniform values. A System
// (system.go) loads the tables, creates a view, applies batches of changes
// and returns the view's answer; Run times single changes (median, p99),
// batches of 1, 100 and 10,000 (changes per second), the view's creation,
// and its memory, and compares the answer with Data.Expected, a
// recomputation from the harness's own copy of t, after creation and at
// the end. RunParallel (parallel.go) runs one commit stream over the
// views of t at once through the Go API, with one worker and with two in
// alternating rounds, for the speed-up two cores give.
//
// The Go systems run in this process (deltaview through the Go API and
// through SQL, SQLite) or against a PostgreSQL server the harness starts
// and stops itself (postgres.go). The JavaScript engines run in Node
// (bench/peers/js): run.mjs and workload.mjs are this package's twins,
// with the same generator, so every system loads the same rows and applies
// the same changes. TestSmoke runs deltaview and SQLite at N = 1,000 in the
// default test suite; the full comparison is a command, not a test.
package bench
