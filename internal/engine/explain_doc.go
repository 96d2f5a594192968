package engine

import (
	"reflect"
	"strings"

	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/explainfmt"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// EXPLAIN's structured formats (JSON, XML, YAML) give the plan that the
// text format prints as a tree of nodes in PostgreSQL's document shape:
// one row, one query, its plan under "Plan" with each node's inputs
// under "Plans", then the query's figures. The nodes are deltaview's:
// a view's operators with their state and cost per change, an ad-hoc
// query's plan nodes, a data change's target.

// structured is EXPLAIN's one-row result in a structured format: the
// document of plan (nil: none) and the properties after it.
func structured(format string, plan *explainfmt.Node, after []explainfmt.Prop) Result {
	f, _ := explainfmt.ParseFormat(format)
	w := explainfmt.NewWriter(f)
	w.Query(plan, after)
	return docResult(format, w.String())
}

// docResult is EXPLAIN's one-row result holding doc: its QUERY PLAN
// column is of type json for FORMAT JSON and xml for FORMAT XML, as
// PostgreSQL types it, text otherwise.
func docResult(format, doc string) Result {
	t := explainColumnType(format)
	v := value.NewText(value.Text, doc)
	switch t.Kind {
	case value.JSON:
		v = value.NewJSON(doc)
	case value.XML:
		v = value.NewXML(doc)
	}
	return Result{Columns: []plan.Column{{Name: "QUERY PLAN", Type: t}}, Rows: []value.Row{{v}}, HasRows: true, Tag: "EXPLAIN"}
}

// explainColumnType is the type of EXPLAIN's QUERY PLAN column in format.
func explainColumnType(format string) value.Type {
	switch format {
	case "json":
		return value.JSONType
	case "xml":
		return value.XMLType
	}
	return value.TextType
}

// analyzedDoc is EXPLAIN ANALYZE's one-row result in a structured
// format: the plan, then (when summary) the planning and execution
// times around the triggers' empty list, as PostgreSQL gives them.
func analyzedDoc(format string, plan *explainfmt.Node, summary bool, planning, execution float64) Result {
	f, _ := explainfmt.ParseFormat(format)
	w := explainfmt.NewWriter(f)
	w.QueryAnalyzed(plan, summary, planning, execution)
	return docResult(format, w.String())
}

// dummyDoc is a statement PostgreSQL explains without a plan: text
// prints what (for a utility statement) or nothing, the structured
// formats a dummy group named objtype.
func dummyDoc(format, objtype, text string) Result {
	if format == "text" {
		if text == "" {
			return queryPlan(nil)
		}
		return queryPlan([]string{text})
	}
	f, _ := explainfmt.ParseFormat(format)
	w := explainfmt.NewWriter(f)
	w.Dummy(objtype, "")
	return docResult(format, w.String())
}

// circuitNode is operator id of circ and its inputs: kind, detail, state
// and cost per change, and for a live view its figures.
func circuitNode(circ *dataflow.Circuit, id dataflow.NodeID, live bool) *explainfmt.Node {
	n := circ.Node(id)
	info := n.Info()
	out := &explainfmt.Node{Type: info.Kind, Props: []explainfmt.Prop{explainfmt.Int("Operator", int64(id))}}
	if info.Detail != "" {
		out.Props = append(out.Props, explainfmt.Str("Detail", info.Detail))
	}
	if !circ.IsSource(id) || info.State != "" {
		out.Props = append(out.Props, explainfmt.Str("State", info.State), explainfmt.Str("Cost per Change", info.Cost))
	}
	if live {
		st, stats := n.State(), circ.Stats(id)
		out.Props = append(out.Props, explainfmt.Int("Rows", st.Rows), explainfmt.Int("Bytes", st.Bytes), explainfmt.Int("Steps", stats.Steps))
		if _, ok := n.(interface{ Refills() int64 }); ok {
			out.Props = append(out.Props, explainfmt.Int("Refills", nodeRefills(n)))
		}
	}
	if r, ok := n.(interface{ Inner() *dataflow.Circuit }); ok {
		inner := r.Inner()
		var lines []string
		for _, l := range innerLines(inner) {
			lines = append(lines, strings.TrimSpace(l))
		}
		out.Props = append(out.Props, explainfmt.Strs("Inner Circuit", lines))
	}
	for _, in := range circ.Inputs(id) {
		out.Plans = append(out.Plans, circuitNode(circ, in, live))
	}
	return out
}

// circuitDoc is a compiled view's circuit in a structured format: the
// last operator (the view's) at the top, each operator's inputs under
// it (an operator two others read appears under each, with its number);
// pre are lines the text format prints first (the choice of
// propagation), given as "Notes".
func circuitDoc(format string, pre []string, c *compile.Compiled, access []string) Result {
	circ := c.Circuit
	top := circuitNode(circ, dataflow.NodeID(circ.Len()-1), false)
	var after []explainfmt.Prop
	if len(pre) > 0 {
		after = append(after, explainfmt.Strs("Notes", pre))
	}
	if len(access) > 0 {
		after = append(after, explainfmt.Strs("Ad Hoc Access", access))
	}
	return structured(format, top, after)
}

// planLabel names an ad-hoc plan node as the text format does.
func planLabel(n plan.Node) string {
	label := reflect.TypeOf(n).Elem().Name()
	if sc, ok := n.(*plan.Scan); ok {
		label += " on " + sc.Relation
	}
	if name, ok := functionScan(n); ok {
		label = "Function Scan on " + name
	}
	return label
}

// functionScan is the function of a TableFunc calling one function
// without input, which PostgreSQL names a Function Scan of it.
func functionScan(n plan.Node) (string, bool) {
	if tf, ok := n.(*plan.TableFunc); ok && tf.Input == nil && len(tf.Funcs) == 1 {
		return tf.Funcs[0].Name, true
	}
	return "", false
}

// planLines prints an ad-hoc query's plan without figures: each input
// under its parent after "->", as profileLines does with them.
func planLines(lines *[]string, n plan.Node, depth int) {
	prefix := ""
	if depth > 0 {
		prefix = strings.Repeat(" ", 6*depth-4) + "->  "
	}
	*lines = append(*lines, prefix+planLabel(n))
	for _, c := range n.Children() {
		planLines(lines, c, depth+1)
	}
}

// profileNode is an ad-hoc plan node and its inputs as a document's
// node, with its figures when prof is not nil (ran: its parent ran).
func profileNode(n plan.Node, prof *exec.Profile, timing, ran bool) *explainfmt.Node {
	out := &explainfmt.Node{Type: reflect.TypeOf(n).Elem().Name()}
	if sc, ok := n.(*plan.Scan); ok {
		out.Props = append(out.Props, explainfmt.Str("Relation Name", sc.Relation))
	}
	if name, ok := functionScan(n); ok {
		out.Type = "Function Scan"
		out.Props = append(out.Props, explainfmt.Str("Function Name", name))
	}
	var np *exec.NodeProfile
	if prof != nil {
		np = prof.Nodes[n]
		var rows, loops int64
		var took float64
		if np != nil {
			rows, loops, took = np.Rows, np.Loops, ms(np.Time)
		}
		if timing {
			out.Props = append(out.Props, explainfmt.Millis("Actual Total Time", took))
		}
		out.Props = append(out.Props, explainfmt.Int("Actual Rows", rows), explainfmt.Int("Actual Loops", loops))
		if _, scan := n.(*plan.Scan); np == nil && scan && ran {
			out.Props = append(out.Props, explainfmt.Str("Rows Found", "through an index, by the node above"))
		}
	}
	for _, c := range n.Children() {
		out.Plans = append(out.Plans, profileNode(c, prof, timing, np != nil))
	}
	return out
}

// linesNode reads the text format's lines of a plan printed as lines
// (a data change's target and access path, a stream view's choice)
// into a node: the first line is the node, each "->" line an input,
// other lines its details.
func linesNode(lines []string) *explainfmt.Node {
	if len(lines) == 0 {
		return nil
	}
	out := &explainfmt.Node{Type: lines[0]}
	if f := strings.Fields(lines[0]); len(f) >= 3 && f[1] == "on" {
		switch f[0] {
		case "Insert", "Update", "Delete", "Merge":
			out.Type = "ModifyTable"
			out.Props = append(out.Props, explainfmt.Str("Operation", f[0]), explainfmt.Str("Relation Name", f[2]))
			if rest := strings.TrimSpace(strings.SplitN(lines[0], " "+f[2], 2)[1]); rest != "" {
				out.Props = append(out.Props, explainfmt.Str("Detail", rest))
			}
		}
	}
	var details []string
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if c, ok := strings.CutPrefix(t, "->"); ok {
			out.Plans = append(out.Plans, &explainfmt.Node{Type: strings.TrimSpace(c)})
		} else if t != "" {
			details = append(details, t)
		}
	}
	if len(details) > 0 {
		out.Props = append(out.Props, explainfmt.Strs("Details", details))
	}
	return out
}

// linesDoc gives a text plan's result in format: as it is for text,
// else as one node (linesNode).
func linesDoc(format string, res Result) Result {
	if format == "text" {
		return res
	}
	var lines []string
	for _, r := range res.Rows {
		lines = append(lines, r[0].String())
	}
	out := structured(format, linesNode(lines), nil)
	out.Notices = res.Notices
	return out
}
