package dataflow

// Split shares out the parts of one operator's step among goroutines. The
// engine gives one to the operators of its views (Splitter): a big batch
// of a commit is then worked on by several workers at once, each part
// reading the operator's state and writing scratch of its own.
type Split interface {
	// Ways returns into how many parts a step over rows input rows is
	// worth splitting now: 1, not at all (one worker, a small batch, or
	// not within a commit's prepare).
	Ways(rows int) int
	// Run runs fns at once, the first on the calling goroutine, and
	// returns when all have; a panic of one is raised on the caller.
	Run(fns ...func())
}

// Splitter is an operator that can split a big step's work among
// goroutines by key, its result, state and errors those of the step on
// one goroutine.
type Splitter interface {
	SetSplit(Split)
}
