package explainfmt

import "testing"

// TestAppendToQuery: a property appended to a finished document is
// where Query writes the properties after the plan.
func TestAppendToQuery(t *testing.T) {
	plan := &Node{Type: "Seq Scan", Props: []Prop{Str("Relation Name", "t")}}
	p := Millis("Planning Time", 0.011)
	for _, f := range []Format{JSON, XML, YAML} {
		w := NewWriter(f)
		w.Query(plan, nil)
		got := AppendToQuery(w.String(), f, p)
		w = NewWriter(f)
		w.Query(plan, []Prop{p})
		if want := w.String(); got != want {
			t.Errorf("%v:\n%s\nwant\n%s", f, got, want)
		}
		w = NewWriter(f)
		w.Dummy("Utility Statement", "")
		if doc := w.String(); AppendToQuery(doc, f, p) != doc {
			t.Errorf("%v: a utility statement's document changed", f)
		}
	}
}
