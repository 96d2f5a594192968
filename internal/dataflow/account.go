package dataflow

// Memory accounting by identity. An operator's State counts what it holds;
// some of that, and some state it only reads, are arrangements that other
// operators (in the same circuit or in other views' circuits) may hold or
// read too. To attribute every byte to each view that uses it and count it
// once in totals, an accounting walks the operators and keys each piece of
// state by the identity of the object that holds it: the operator itself
// for its private state, the *Arrangement for an arrangement.
//
// Rows are shared too: operators pass rows on without copying them, so
// the rows a view's Integrate keeps may be a table's own, or the rows a
// Distinct before it keeps. Each row is counted where it is first kept:
// the accounting follows where each node's output rows come from
// (RowFlow), and a piece of state that keeps rows some other holder
// already keeps (a table, an upstream view, an earlier operator) counts
// only its own overhead, not the rows' bytes.

// ArrangementUse is one arrangement an operator holds or reads.
type ArrangementUse struct {
	A *Arrangement
	// Counted says whether the operator's State already includes A's
	// bytes (it owns A privately); the accounting then subtracts them so
	// that A is counted once, under its own identity.
	Counted bool
	// Input is the operator's input whose rows A keeps; -1 for none.
	Input int
}

// RowOrigin says where an operator's output rows come from.
type RowOrigin uint8

// Row origins.
const (
	// RowsNew: rows the operator makes and does not keep (Map, a join's
	// concatenations). Operators that do not implement RowFlow are taken
	// to make new rows.
	RowsNew RowOrigin = iota
	// RowsOfInputs: its inputs' rows, passed on without being kept
	// (Filter, Union).
	RowsOfInputs
	// RowsKept: rows the operator's state keeps (Distinct, Integrate,
	// GroupBy's output rows).
	RowsKept
)

// RowFlow is implemented by operators that pass on or keep the rows they
// output.
type RowFlow interface {
	OutputRows() RowOrigin
}

// InputRowKeeper is implemented by operators whose own state (besides
// their arrangements) keeps the rows of their first input: InputRowBytes
// returns the RowBytes of those rows, part of State().Bytes.
type InputRowKeeper interface {
	InputRowBytes() int64
}

// keptOutputs reports, per node, whether its output rows are kept by
// something else as long as they are in the node's output: a stored
// relation (the rows of an Input) or an operator's state.
func (c *Circuit) keptOutputs() []bool {
	kept := make([]bool, len(c.nodes))
	for i := range c.nodes {
		n := &c.nodes[i]
		if n.source {
			kept[i] = true
			continue
		}
		f, ok := n.op.(RowFlow)
		if !ok {
			continue
		}
		switch f.OutputRows() {
		case RowsKept:
			kept[i] = true
		case RowsOfInputs:
			kept[i] = true
			for _, in := range n.inputs {
				kept[i] = kept[i] && kept[in]
			}
		}
	}
	return kept
}

// Arranged is implemented by operators that hold or read arrangements.
// Arrangements returns every one of them: private and shared, owned and
// read.
type Arranged interface {
	Arrangements() []ArrangementUse
}

// StatePart is one piece of state in an accounting: Key is the identity of
// the object holding it (an Operator or an *Arrangement).
type StatePart struct {
	Key  any
	Size StateSize
}

// StateParts returns the pieces of state of node id: the operator's own
// (its State less the arrangements it counts) and one per arrangement it
// holds or reads.
func (c *Circuit) StateParts(id NodeID) []StatePart {
	return c.stateParts(id, c.keptOutputs())
}

func (c *Circuit) stateParts(id NodeID, kept []bool) []StatePart {
	n := &c.nodes[id]
	o := n.op
	own := o.State()
	keptInput := func(i int) bool { return i >= 0 && i < len(n.inputs) && kept[n.inputs[i]] }
	if k, ok := o.(InputRowKeeper); ok && keptInput(0) {
		own.Bytes -= k.InputRowBytes()
	}
	var parts []StatePart
	if ar, ok := o.(Arranged); ok {
		for _, u := range ar.Arrangements() {
			st := u.A.State()
			if u.Counted {
				own.Rows -= st.Rows
				own.Bytes -= st.Bytes
			}
			if keptInput(u.Input) {
				st.Bytes -= u.A.RowBytes()
			}
			parts = append(parts, StatePart{Key: u.A, Size: st})
		}
	}
	if own.Rows != 0 || own.Bytes != 0 {
		parts = append([]StatePart{{Key: o, Size: own}}, parts...)
	}
	return parts
}

// Accounting sums pieces of state, each counted once however many times it
// is added.
type Accounting struct {
	seen  map[any]bool
	total StateSize
}

// Add counts p unless a piece with the same key was counted before; it
// reports whether p was new.
func (a *Accounting) Add(p StatePart) bool {
	if a.seen == nil {
		a.seen = map[any]bool{}
	}
	if a.seen[p.Key] {
		return false
	}
	a.seen[p.Key] = true
	a.total.Rows += p.Size.Rows
	a.total.Bytes += p.Size.Bytes
	return true
}

// AddCircuit counts every node's pieces of state.
func (a *Accounting) AddCircuit(c *Circuit) {
	kept := c.keptOutputs()
	for id := range c.nodes {
		for _, p := range c.stateParts(NodeID(id), kept) {
			a.Add(p)
		}
	}
}

// Total returns the sum of the distinct pieces counted.
func (a *Accounting) Total() StateSize { return a.total }

// RowBytes returns the part of State().Bytes that is the rows' values
// (RowBytes of each, less the slice header its entry holds): memory the
// arrangement shares with whoever else keeps the same rows.
func (a *Arrangement) RowBytes() int64 {
	a.settle()
	if a.through != nil {
		return 0 // it holds ids, not rows
	}
	return a.rowsB - int64(a.n)*rowHeaderBytes
}

// RowReader is implemented by operators that keep none of their inputs'
// rows, but in the arrangements they list (Arranged) with that input:
// they read each row as it flows, and what they keep of it they copy or
// compute (Map, GroupBy).
type RowReader interface {
	KeepsNoInputRows()
}

// KeepsRows reports whether some operator's state may keep rows of the
// input named name, the rows themselves rather than copies or values
// computed from them: an arrangement of them, or an operator that keeps
// its input's rows. The rows flow through operators that pass them on
// (RowsOfInputs); any other operator that receives them is taken to keep
// them unless it is a RowReader.
func (c *Circuit) KeepsRows(name string) bool {
	src, ok := c.inputs[name]
	if !ok {
		return false
	}
	of := make([]bool, len(c.nodes)) // the node's output rows may be src's
	of[src] = true
	for i := range c.nodes {
		n := &c.nodes[i]
		if n.source {
			continue
		}
		reads := false
		for _, in := range n.inputs {
			reads = reads || of[in]
		}
		if !reads {
			continue
		}
		if ar, ok := n.op.(Arranged); ok {
			for _, u := range ar.Arrangements() {
				if u.Input >= 0 && u.Input < len(n.inputs) && of[n.inputs[u.Input]] {
					return true
				}
			}
		}
		if _, ok := n.op.(RowReader); ok {
			continue
		}
		if f, ok := n.op.(RowFlow); !ok || f.OutputRows() != RowsOfInputs {
			return true
		}
		of[i] = true // passed on
	}
	return false
}
