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
// rows a Map computes. Distinct, SetOp and Integrate keep their counts in
// a hash index over a slab of (row, weight) slots (see counts); operators
// that need order read arrangements, B-trees (dataflow.Arrangement).
package op
