package explainfmt

import (
	"strconv"
)

// Node is one node of a plan: its type, its properties in order, and its
// inputs.
type Node struct {
	Type  string
	Props []Prop
	Plans []*Node
}

// Prop is one property: a string, a number or boolean (Bare), or a list.
type Prop struct {
	Label string
	Value string
	Bare  bool
	List  []string
	// IsList makes the property a list (List may be empty).
	IsList bool
}

// Str is a string property.
func Str(label, v string) Prop { return Prop{Label: label, Value: v} }

// Int is an integer property.
func Int(label string, v int64) Prop {
	return Prop{Label: label, Value: strconv.FormatInt(v, 10), Bare: true}
}

// Bool is a boolean property.
func Bool(label string, v bool) Prop {
	return Prop{Label: label, Value: strconv.FormatBool(v), Bare: true}
}

// Millis is a time in milliseconds with PostgreSQL's three decimals.
func Millis(label string, ms float64) Prop {
	return Prop{Label: label, Value: strconv.FormatFloat(ms, 'f', 3, 64), Bare: true}
}

// Strs is a list property.
func Strs(label string, v []string) Prop { return Prop{Label: label, List: v, IsList: true} }

func (w *Writer) prop(p Prop) {
	if p.IsList {
		w.List(p.Label, p.List)
		return
	}
	w.Property(p.Label, p.Value, p.Bare)
}

// Query writes one query: its plan under "Plan", then the properties
// after it (Planning Time, Triggers, Execution Time …). A nil plan
// writes the properties alone.
func (w *Writer) Query(plan *Node, after []Prop) {
	w.Open("Query", "", true)
	if plan != nil {
		w.plan(plan, "Plan")
	}
	for _, p := range after {
		w.prop(p)
	}
	w.Close("Query", "", true)
}

// Triggers writes the empty list of trigger figures that PostgreSQL's
// EXPLAIN ANALYZE gives in the structured formats.
func (w *Writer) Triggers() {
	w.Open("Triggers", "Triggers", false)
	w.Close("Triggers", "Triggers", false)
}

// QueryAnalyzed writes one query of EXPLAIN ANALYZE: the plan, Planning
// Time (when summary), the triggers, Execution Time (when summary).
func (w *Writer) QueryAnalyzed(plan *Node, summary bool, planning, execution float64) {
	w.Open("Query", "", true)
	if plan != nil {
		w.plan(plan, "Plan")
	}
	if summary {
		w.prop(Millis("Planning Time", planning))
	}
	w.Triggers()
	if summary {
		w.prop(Millis("Execution Time", execution))
	}
	w.Close("Query", "", true)
}

// plan writes n as a group labelled label ("Plan" at the top, none in a
// list of inputs).
func (w *Writer) plan(n *Node, label string) {
	w.Open("Plan", label, true)
	w.Property("Node Type", n.Type, false)
	for _, p := range n.Props {
		w.prop(p)
	}
	if len(n.Plans) > 0 {
		w.Open("Plans", "Plans", false)
		for _, c := range n.Plans {
			w.plan(c, "")
		}
		w.Close("Plans", "Plans", false)
	}
	w.Close("Plan", label, true)
}
