// Package explainfmt writes EXPLAIN's structured output as PostgreSQL
// writes it: FORMAT JSON (an array of queries), XML (under an explain
// element in PostgreSQL's namespace) and YAML (a list of queries), with
// PostgreSQL's indentation, quoting and escapes, so that a client that
// reads PostgreSQL's EXPLAIN documents reads deltaview's.
//
// The plans are deltaview's own: a Node carries the properties its
// producer gives it, in order, and its inputs under "Plans".
//
//	w := explainfmt.NewWriter(explainfmt.YAML)
//	w.Query(&explainfmt.Node{Type: "Scan", Props: []explainfmt.Prop{explainfmt.Str("Relation Name", "t")}}, nil)
//	w.String()
//	// - Plan:  (and a space: PostgreSQL ends a label line so)
//	//     Node Type: "Scan"
//	//     Relation Name: "t"
package explainfmt
