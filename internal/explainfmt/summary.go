package explainfmt

import "strings"

// AppendToQuery returns doc, a finished document of one query in f, with
// p written last in its query: where PostgreSQL writes EXPLAIN (SUMMARY)'s
// Planning Time when it does not run the statement. A document of no
// query (a utility statement's) is returned as it is.
func AppendToQuery(doc string, f Format, p Prop) string {
	// A writer inside the query's group, after the plan.
	w := &Writer{f: f, indent: 2, first: []bool{false, false}}
	end := ""
	switch f {
	case XML:
		end = "  </Query>\n</explain>"
	case JSON:
		end = "\n  }\n]"
	case YAML:
		w.indent = 1
		if !strings.HasPrefix(doc, "- Plan:") {
			return doc
		}
	default:
		return doc
	}
	if !strings.HasSuffix(doc, end) || f == XML && !strings.Contains(doc, "<Query>") || f == JSON && !strings.Contains(doc, `"Plan"`) {
		return doc
	}
	w.prop(p)
	return doc[:len(doc)-len(end)] + w.b.String() + end
}
