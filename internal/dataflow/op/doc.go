// Package op holds deltaview's incremental operators, one per file, each a
// dataflow.Operator. Each file's first doc sentence says what state its
// operator keeps, which EXPLAIN prints:
//
//	Filter, Map, Union, Negate   none; O(change)
//	Distinct                     a count per distinct row
//	Integrate                    the rows with their multiplicities (a view's contents)
//
// Stateless operators reuse their output buffer from one step to the next
// (dataflow.ReuseBatch), so a step through them allocates nothing but the
// rows a Map computes. Stateful ones keep their state in a B-tree of
// (row, weight) entries held inline in the nodes (see counts).
package op
