// DROP TYPE and DROP DOMAIN of lists: the 2BP01 DETAIL gathers what
// depends on every object named, and a DROP TYPE list may name domains
// and other types together, as PostgreSQL's.
package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// dependentGroup is the DETAIL lines of what depends on one object a
// DROP names, outside the objects it names; kids are the objects named
// after it that depend on it (PostgreSQL's walk reaches them from it).
type dependentGroup struct {
	name  string
	lines []string
	kids  []string
}

// listedDependent reports whether a DETAIL line is of an object among
// names or of an attribute of one of them: it goes with the statement.
func listedDependent(names []string) func(string) bool {
	return func(dep string) bool { return dependentNamed(dep, names) != "" }
}

// dependentNamed is the object of names a DETAIL line is of (or of an
// attribute of), "" for none.
func dependentNamed(dep string, names []string) string {
	for _, n := range names {
		if strings.HasPrefix(dep, "type "+n+" depends on ") || strings.Contains(dep, " of composite type "+n+" depends on ") {
			return n
		}
	}
	return ""
}

// typeDropGroups are, for each type or domain names holds (in the order
// named), the DETAIL lines of what depends on it outside names, each
// column's followed by the views reading the column.
func (e *Engine) typeDropGroups(names []string) []dependentGroup {
	listed := listedDependent(names)
	var out []dependentGroup
	for i, n := range names {
		var all []string
		if d := e.domains.byName[n]; d != nil {
			all = e.domainDependents(d)
		} else if t, ok := e.userTypes[n]; ok {
			all = e.typeDependents(n, t)
		}
		g := dependentGroup{name: n}
		for _, l := range all {
			if k := dependentNamed(l, names[i+1:]); k != "" && !slices.Contains(g.kids, k) {
				g.kids = append(g.kids, k)
			}
		}
		if deps := slices.DeleteFunc(all, listed); len(deps) > 0 {
			if e.domains.byName[n] == nil {
				deps = e.dropTypeDetail(n, deps)
			}
			g.lines = e.withColumnReaders(deps)
		}
		out = append(out, g)
	}
	return out
}

// withColumnReaders adds after each line of a column of a table the
// lines of the views reading that column, as PostgreSQL's DETAIL lists
// what depends on the column after it.
func (e *Engine) withColumnReaders(lines []string) []string {
	var idx map[string][]string
	out := slices.Clone(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		col, rest, ok := strings.Cut(lines[i], " of table ")
		col, isCol := strings.CutPrefix(col, "column ")
		if !ok || !isCol {
			continue
		}
		tn, _, _ := strings.Cut(rest, " depends on ")
		t := e.tables[tn]
		if t == nil {
			continue
		}
		at := slices.IndexFunc(t.def.Cols, func(c sql.ColumnDef) bool { return c.Name == col })
		if idx == nil {
			idx = e.dependentsIndex()
		}
		var views []string
		for _, v := range e.readersByAge(idx[tn]) {
			if !slices.Contains(e.viewColumnUses(v), colUse{tn, at}) {
				continue
			}
			l := fmt.Sprintf("%s %s depends on column %s of table %s", e.kindName(v), v, col, tn)
			// A view that names the type too is listed under the column,
			// which PostgreSQL's walk reaches first.
			if j := slices.IndexFunc(out, func(o string) bool { return sameDependent(o, l) }); j < 0 || j > i && strings.Contains(out[j], " depends on type ") {
				if j >= 0 {
					out = slices.Delete(out, j, j+1)
				}
				views = append(views, l)
			}
		}
		out = slices.Insert(out, i+1, views...)
	}
	return out
}

// readersByAge orders views: the materialized ones as created, then the
// others by name (the engine keeps no creation order of those).
func (e *Engine) readersByAge(views []string) []string {
	at := map[string]int{}
	for i, n := range e.viewNames() {
		at[n] = i
	}
	out := slices.Clone(views)
	slices.SortFunc(out, func(a, b string) int {
		ia, ma := at[a]
		ib, mb := at[b]
		switch {
		case ma && mb:
			return ia - ib
		case ma != mb:
			if ma {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return out
}

// sameDependent reports whether two DETAIL lines are of one object.
func sameDependent(a, b string) bool {
	oa, _, _ := strings.Cut(a, " depends on ")
	ob, _, _ := strings.Cut(b, " depends on ")
	return oa == ob
}

// dependentsError is the 2BP01 of a DROP of the objects groups name, nil
// when nothing else depends on them. PostgreSQL walks the objects in the
// order named, each with what depends on it (the objects named after it
// that depend on it too), and lists its walk back to front: what depends
// on the last named comes first, an object named reached from another
// follows that one's lines, and what depends on several of them is
// listed once, under the first walked.
func dependentsError(groups []dependentGroup) error {
	byName := map[string]int{}
	for i, g := range groups {
		byName[g.name] = i
	}
	parent := make([]int, len(groups))
	for i := range parent {
		parent[i] = -1
	}
	for i, g := range groups {
		for _, k := range g.kids {
			if j, ok := byName[k]; ok && j > i && parent[j] < 0 {
				parent[j] = i
			}
		}
	}
	seen := map[string]bool{}
	kept := make([][]string, len(groups))
	var walk func(i int)
	walk = func(i int) {
		for _, l := range groups[i].lines {
			if obj, _, _ := strings.Cut(l, " depends on "); !seen[obj] {
				kept[i] = append(kept[i], l)
			}
		}
		// An object is taken as met once its group is done: a group may
		// name it twice (a view through two columns).
		for _, l := range kept[i] {
			obj, _, _ := strings.Cut(l, " depends on ")
			seen[obj] = true
		}
		for j := range groups {
			if parent[j] == i {
				walk(j)
			}
		}
	}
	for i := range groups {
		if parent[i] < 0 {
			walk(i)
		}
	}
	var detail []string
	var show func(i int)
	show = func(i int) {
		detail = append(detail, kept[i]...)
		for j := range groups {
			if parent[j] == i {
				show(j)
			}
		}
	}
	for i := len(groups) - 1; i >= 0; i-- {
		if parent[i] < 0 {
			show(i)
		}
	}
	if len(detail) == 0 {
		return nil
	}
	msg := "cannot drop desired object(s) because other objects depend on them"
	if len(groups) == 1 {
		msg = fmt.Sprintf("cannot drop type %s because other objects depend on it", groups[0].name)
	}
	return &pgerr.Error{Code: pgerr.DependentObjects, Message: msg,
		Detail: strings.Join(detail, "\n"),
		Hint:   "Use DROP ... CASCADE to drop the dependent objects too."}
}

// dropTypesAndDomains runs a DROP TYPE whose list names domains and
// other types. Every name is looked up first; without CASCADE what
// depends on any of them makes one 2BP01. Both parts are checked before
// either changes anything; the other types go first (a domain may be an
// attribute's type of a composite type named), then the domains, and
// the notice lists what the part of the last name named took first.
func (e *Engine) dropTypesAndDomains(d *sql.DropType) (Result, error) {
	var doms, others, found []string
	for _, n := range d.Names {
		if e.domains.byName[n] != nil {
			doms = append(doms, n)
			found = append(found, n)
			continue
		}
		others = append(others, n)
		t, err := e.userType(n)
		if pgerr.Code(err) == pgerr.UndefinedObject && d.IfExists {
			continue
		}
		if err != nil {
			if pgerr.Code(err) == pgerr.WrongObjectType {
				return Result{}, pgerr.New(pgerr.DependentObjects, "cannot drop type %s because it is required by the database system", n)
			}
			return Result{}, err
		}
		if err := refuseDropMultirange(n, t); err != nil {
			return Result{}, err
		}
		found = append(found, n)
	}
	if !d.Cascade {
		if err := dependentsError(e.typeDropGroups(found)); err != nil {
			return Result{}, err
		}
	}
	// The domains' lines come first when the last named is a domain,
	// unless it is over a type named, whose walk reaches it.
	last := d.Names[len(d.Names)-1]
	domainsFirst := slices.Contains(doms, last) && !slices.ContainsFunc(e.typeDropGroups(found), func(g dependentGroup) bool { return slices.Contains(g.kids, last) })
	types := &sql.DropType{Names: others, IfExists: d.IfExists, Cascade: d.Cascade}
	domains := &sql.DropDomain{Names: doms, Cascade: d.Cascade}
	if _, err := e.dropUserTypes(types, doms, true); err != nil {
		return Result{}, err
	}
	if _, err := e.dropDomainListed(domains, others, true); err != nil {
		return Result{}, err
	}
	tres, err := e.dropUserTypes(types, doms, false)
	if err != nil {
		return Result{}, err
	}
	dres, err := e.dropDomainListed(domains, nil, false)
	if err != nil {
		return Result{}, err
	}
	var skipped, tlines []string
	for _, n := range tres.Notices {
		if strings.HasSuffix(n, ", skipping") {
			skipped = append(skipped, n)
		}
	}
	tlines = cascadedLines(tres.Notices)
	lines := slices.Concat(tlines, cascadedLines(dres.Notices))
	if domainsFirst {
		lines = slices.Concat(cascadedLines(dres.Notices), tlines)
	}
	return Result{Tag: "DROP TYPE", Notices: append(skipped, cascadeNotice(lines)...)}, nil
}
