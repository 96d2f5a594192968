package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// The DETAIL of DROP TYPE's 2BP01 lists what depends on the type as
// PostgreSQL's does: what uses its array type first (PostgreSQL reaches
// it through the array type, made with the type), then the other direct
// dependents, each range type and domain over it followed by what depends
// on that in turn. PostgreSQL lists dependents in the order they were
// made, which the catalog does not keep; the kinds come in the order a
// schema usually makes them: columns, routines, attributes of composite
// types, range types, domains, defaults, constraints, views.

// dependentRank orders a DETAIL line of what depends on type name;
// isDomain tells a domain's line from a range type's.
func dependentRank(line, name string, isDomain bool) int {
	if strings.HasSuffix(line, " depends on type "+name+"[]") {
		return 0
	}
	if strings.HasPrefix(line, "type ") && isDomain {
		return 5 // after the range types
	}
	for i, p := range []string{"column ", "function ", "", "type ", "", "default value ", "constraint "} {
		if p != "" && strings.HasPrefix(line, p) && !strings.Contains(line, " of composite type ") {
			return i + 1
		}
		if p == "" && strings.Contains(line, " of composite type ") {
			return i + 1
		}
	}
	return 8
}

// dropTypeDetail orders deps, the direct dependents of the user type t,
// called name, and adds after each range type and domain over it what
// depends on those.
func (e *Engine) dropTypeDetail(name string, deps []string) []string {
	deps = slices.Clone(deps)
	rank := func(l, name string) int { return dependentRank(l, name, e.domains.byName[lineObject(l)] != nil) }
	slices.SortStableFunc(deps, func(a, b string) int { return rank(a, name) - rank(b, name) })
	var out []string
	seen := map[string]bool{}
	var add func(lines []string)
	add = func(lines []string) {
		for _, l := range lines {
			if seen[l] || e.typedColumnLine(l, lines) {
				continue
			}
			seen[l] = true
			out = append(out, l)
			// The columns of a composite type's typed tables follow
			// its attribute's line, as they depend on it.
			if attr, ct, ok := strings.Cut(l, " of composite type "); ok {
				ct, typ, _ := strings.Cut(ct, " depends on ")
				for _, tt := range e.typedTables(ct) {
					tl := attr + " of table " + tt + " depends on " + typ
					if slices.Contains(lines, tl) && !seen[tl] {
						seen[tl] = true
						out = append(out, tl)
					}
				}
			}
			if !strings.HasPrefix(l, "type ") {
				continue
			}
			dep := lineObject(l)
			if d := e.domains.byName[dep]; d != nil {
				add(e.domainDependents(d))
			} else if ut, ok := e.userTypes[dep]; ok && ut.Kind == value.UserRange {
				more := e.typeDependents(dep, ut)
				slices.SortStableFunc(more, func(a, b string) int { return rank(a, dep) - rank(b, dep) })
				add(more)
			}
		}
	}
	add(deps)
	return out
}

// lineObject is the name of the type a "type X depends on …" line is of.
func lineObject(line string) string {
	dep, ok := strings.CutPrefix(line, "type ")
	if !ok {
		return ""
	}
	dep, _, _ = strings.Cut(dep, " depends on ")
	return dep
}

// typedColumnLine reports whether line is of a column of a typed table
// whose composite type's attribute has a line of its own in lines.
func (e *Engine) typedColumnLine(line string, lines []string) bool {
	col, rest, ok := strings.Cut(line, " of table ")
	if !ok {
		return false
	}
	tn, typ, _ := strings.Cut(rest, " depends on ")
	t := e.tables[tn]
	if t == nil || t.def.OfType == "" {
		return false
	}
	return slices.Contains(lines, col+" of composite type "+t.def.OfType+" depends on "+typ)
}
