//go:build !invariants

package dataflow

// invariants enables the expensive assertions; build with -tags invariants.
const invariants = false
