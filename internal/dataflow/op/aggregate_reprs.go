package op

import (
	"slices"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
)

// A group's key is shown as one of its rows' keys. Keys equal in SQL may
// print differently (-0 and 0, 1.5 and 1.50, '1 day' and '24:00:00'): the
// group then shows the first representation (value.CompareRepr) that some
// row of the group has, as the from-scratch evaluation does, so that a
// view depends on its input alone. A group whose rows all print their key
// alike, the usual case, keeps nothing for it; one whose rows print it in
// several ways keeps a count per representation (GroupBy.reprs), until a
// single one is left.

// reprCount is how many rows of a group have one representation of its
// key.
type reprCount struct {
	key value.Row
	n   int64
}

// hasReprs reports whether keys of these types may be equal but print
// differently.
func hasReprs(keys []value.Type) bool {
	return slices.ContainsFunc(keys, func(t value.Type) bool { return value.HasReprs(t.Kind) })
}

// stageReprs returns the representation of key that the group gr (found:
// held before this step) shows once the step's records recs[i:j] apply,
// and stages in sg the group's counts per representation when they
// change. Only groups whose rows print their key in several ways, or get
// such rows, pay more than a comparison per record.
func (g *GroupBy) stageReprs(sg *stagedGroup, gr *group, found bool, key value.Row, i, j int) value.Row {
	nk := len(g.keys)
	held := g.reprs[gr] // nil: the group's rows print their key as gr.out does
	shown := key
	if found && gr.out != nil {
		shown = gr.out[:nk]
	}
	if held == nil {
		same := true
		for _, r := range g.recs[i:j] {
			if !identicalRows(g.arena[r.off:r.off+nk], shown) {
				same = false
				break
			}
		}
		if same {
			return shown
		}
	}
	var counts []reprCount
	switch {
	case held != nil:
		counts = slices.Clone(held)
	case found && gr.out != nil:
		counts = []reprCount{{key: slices.Clone(shown), n: gr.n}}
	}
	for _, r := range g.recs[i:j] {
		k := g.arena[r.off : r.off+nk]
		at := slices.IndexFunc(counts, func(c reprCount) bool { return identicalRows(c.key, k) })
		if at < 0 {
			counts = append(counts, reprCount{key: slices.Clone(k)})
			at = len(counts) - 1
		}
		counts[at].n += r.w
	}
	counts = slices.DeleteFunc(counts, func(c reprCount) bool { return c.n == 0 })
	first := -1
	for x, c := range counts {
		if c.n > 0 && (first < 0 || value.CompareReprs(c.key, counts[first].key) < 0) {
			first = x
		}
	}
	if first >= 0 {
		shown = counts[first].key
	}
	if len(counts) < 2 {
		counts = nil
	}
	if held != nil || counts != nil {
		sg.reprs, sg.setReprs = counts, true
	}
	return shown
}

// commitReprs applies a group's staged counts per representation.
func (g *GroupBy) commitReprs(gr *group, counts []reprCount) {
	g.bytes -= reprBytes(g.reprs[gr])
	if counts == nil {
		delete(g.reprs, gr)
		return
	}
	if g.reprs == nil {
		g.reprs = map[*group][]reprCount{}
	}
	g.reprs[gr] = counts
	g.bytes += reprBytes(counts)
}

// reprBytes is the state of one group's counts per representation: the
// slice, the keys and the map slot.
func reprBytes(counts []reprCount) int64 {
	if counts == nil {
		return 0
	}
	b := int64(cap(counts))*int64(unsafe.Sizeof(reprCount{})) + mapSlot
	for _, c := range counts {
		b += dataflow.RowBytes(c.key)
	}
	return b
}
