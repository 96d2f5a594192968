// Package zset holds Z-sets: collections of rows with signed integer
// weights. A change to a collection is the retraction of the old row
// (weight -1) and the assertion of the new (+1); adding Z-sets adds weights,
// and a row whose weight sums to zero disappears.
package zset

import "github.com/deltaview/deltaview/internal/value"

// Entry is one row with its weight.
type Entry struct {
	Row value.Row
	W   int64
}

// ZSet is a batch of entries. A consolidated ZSet has no zero weights and no
// two entries with equal rows (CompareRows == 0), and is sorted by
// row. Every batch that leaves an operator is consolidated.
type ZSet []Entry
