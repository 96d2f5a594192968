//go:build invariants

package dataflow

// invariants enables the expensive assertions: every batch leaving an
// operator is checked to be consolidated.
const invariants = true
