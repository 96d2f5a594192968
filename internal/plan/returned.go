package plan

// Returned reads a data-modifying WITH item of the statement (INSERT,
// UPDATE or DELETE … RETURNING): the rows its RETURNING clause produced.
// The statement runs the item, once, before it evaluates a plan that reads
// it, and hands its rows to the evaluation (exec.Returning). Item is the
// item's place among the statement's data-modifying items.
type Returned struct {
	Name string
	Item int
	Cols []Column
}

func (n *Returned) Columns() []Column { return n.Cols }
func (n *Returned) Children() []Node  { return nil }
func (*Returned) node()               {}

// ReturnedItems lists the data-modifying WITH items that n reads, each
// once, in the order they are first met.
func ReturnedItems(n Node) []int {
	var out []int
	var walk func(Node)
	walk = func(n Node) {
		if r, ok := n.(*Returned); ok {
			for _, i := range out {
				if i == r.Item {
					return
				}
			}
			out = append(out, r.Item)
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	if n != nil {
		walk(n)
	}
	return out
}
