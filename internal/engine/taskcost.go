package engine

import "time"

// taskCost keeps how long one recurring task of a parallel commit (a
// view's prepare or commit, a shared index's staging or commit) took per
// input row, averaged over its last runs, so that the next commit can
// hand out its tasks longest first. Views differ by far more than their
// input: on one batch of a table, a grouping with MIN and MAX takes three
// times what a filter does. The order changes no result, only which
// worker does what and when; the figures are of the wall clock, which the
// load moves, and the average damps that.
type taskCost struct {
	nsPerRow float64 // 0 until measured
}

// guessNsPerRow is the cost per row of a task not yet measured: tasks of
// the same input then go by the order they had before any was measured.
const guessNsPerRow = 100

// estimate returns the task's expected time on rows input rows, in ns.
func (c *taskCost) estimate(rows int) int64 {
	if c.nsPerRow == 0 {
		return int64(rows) * guessNsPerRow
	}
	return int64(c.nsPerRow * float64(rows))
}

// record adds a run of d on rows input rows; a run on no rows tells
// nothing.
func (c *taskCost) record(d time.Duration, rows int) {
	if rows <= 0 {
		return
	}
	x := float64(d) / float64(rows)
	if c.nsPerRow == 0 {
		c.nsPerRow = x
		return
	}
	c.nsPerRow += (x - c.nsPerRow) / 4
}
