package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// DROP DOMAIN … CASCADE drops what uses the domain, as PostgreSQL's
// cascade does: the columns of it or of an array of it (each table
// altered as by ALTER TABLE … DROP COLUMN … CASCADE, which drops the
// views reading them), the domains over it with what uses those, and the
// views whose statements name it, and the attributes of composite types
// of it (each type altered as by ALTER TYPE … DROP ATTRIBUTE … CASCADE,
// with its typed tables' columns). The notice lists them in PostgreSQL's
// order: what uses the array type first, then the domains over it, the
// attributes, the columns (of a table, the last first), the views and
// the routines taking or returning it.

// domainDrops are what DROP DOMAIN … CASCADE drops beside the domains it
// names.
type domainDrops struct {
	cols    typeColumnDrops // the columns, by table
	domains []string        // the domains over those named
	// routines take or return the domains (or arrays of them); they go
	// after the views, with what depends on them.
	routines  []*sql.Function
	arrayOnly []*sql.Function // of routines, those of an array of the domain alone
	// aggs and ops are the aggregates and operators taking the domains,
	// aggLines and opLines their lines (domainAggOpLines).
	aggs              []*sql.Aggregate
	ops               []*sql.Operator
	aggLines, opLines []dependentLine
	entries           []domainDropEntry
	seen              map[*expr.Domain]bool
	// attrs are the attributes of composite types of the domains, with
	// the typed tables whose columns go with them.
	attrs typeCascade
}

// domainDropEntry is a line of the notice: a column (table set), a domain
// or a view (view set), in the notice's order.
type domainDropEntry struct {
	line, table, view string
	array             bool // a column of an array of the domain
}

// add gathers what uses d, a domain the statement names (listed are all
// it names); an error when something it cannot drop uses it.
func (c *domainDrops) add(e *Engine, d *expr.Domain, listed []string) error {
	if c.seen == nil {
		c.seen = map[*expr.Domain]bool{}
	}
	if c.seen[d] {
		return nil
	}
	c.seen[d] = true
	refuse := func(dep string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "DROP DOMAIN … CASCADE is not supported when other objects depend on domain %s", d.Name()).
			WithDetail("%s", dep).
			WithHint("drop or alter the dependent objects first")
	}
	for _, f := range e.domainRoutineObjs(d) {
		if !slices.Contains(c.routines, f) {
			c.routines = append(c.routines, f)
			if domainArrayOnly(f, d) {
				c.arrayOnly = append(c.arrayOnly, f)
			}
		}
	}
	aggLines, opLines := e.domainAggOpLines(d)
	for i, a := range e.domainAggregates(d) {
		if !slices.Contains(c.aggs, a) {
			c.aggs, c.aggLines = append(c.aggs, a), append(c.aggLines, aggLines[i])
		}
	}
	for i, o := range e.domainOperators(d) {
		if !slices.Contains(c.ops, o) {
			c.ops, c.opLines = append(c.ops, o), append(c.opLines, opLines[i])
		}
	}
	over := func(array bool) []*expr.Domain {
		var out []*expr.Domain
		for _, o := range e.domains.byName {
			if p := o.Def().Parent; p != nil && (array && p.Elem() == d || !array && p == d) {
				out = append(out, o)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
		return out
	}
	addDomains := func(ds []*expr.Domain) error {
		for _, o := range ds {
			if slices.Contains(listed, o.Name()) {
				continue // dropped as named, with what uses it
			}
			c.domains = append(c.domains, o.Name())
			c.entries = append(c.entries, domainDropEntry{line: "drop cascades to type " + o.Name()})
			if err := c.add(e, o, listed); err != nil {
				return err
			}
		}
		return nil
	}
	c.addAttrs(e, d, true, listed)
	if err := c.addColumns(e, d, true, refuse); err != nil {
		return err
	}
	if err := addDomains(over(true)); err != nil {
		return err
	}
	if err := addDomains(over(false)); err != nil {
		return err
	}
	c.addAttrs(e, d, false, listed)
	if err := c.addColumns(e, d, false, refuse); err != nil {
		return err
	}
	for _, v := range e.domainViews(d.Name()) {
		c.entries = append(c.entries, domainDropEntry{view: v})
	}
	return nil
}

// addAttrs adds the attributes of d (array: of d's array type) of the
// composite types the statement does not name, each followed by the
// columns of its typed tables.
func (c *domainDrops) addAttrs(e *Engine, d *expr.Domain, array bool, listed []string) {
	a := &c.attrs
	for _, cn := range sortedKeys(e.composites) {
		if slices.Contains(listed, cn) {
			continue
		}
		for _, at := range e.composites[cn].Attrs {
			if at.Domain == nil || array && at.Domain.Elem() != d || !array && at.Domain != d || slices.Contains(a.attrs[cn], at.Name) {
				continue
			}
			if a.attrs == nil {
				a.attrs, a.typedOf = map[string][]string{}, map[string]bool{}
			}
			if !slices.Contains(a.attrOrd, cn) {
				a.attrOrd = append(a.attrOrd, cn)
			}
			a.attrs[cn] = append(a.attrs[cn], at.Name)
			c.entries = append(c.entries, domainDropEntry{line: fmt.Sprintf("drop cascades to column %s of composite type %s", at.Name, cn)})
			for _, tt := range e.typedTables(cn) {
				a.typedOf[tt] = true
				c.entries = append(c.entries, domainDropEntry{line: fmt.Sprintf("drop cascades to column %s of table %s", at.Name, tt)})
			}
		}
	}
}

// addColumns adds the columns of d (array: of d's array type), the last
// of a table first, as PostgreSQL lists them.
func (c *domainDrops) addColumns(e *Engine, d *expr.Domain, array bool, refuse func(string) error) error {
	for _, tn := range sortedKeys(e.tables) {
		t := e.tables[tn]
		if c.attrs.typedOf[tn] {
			continue // its columns go with the composite type's attributes
		}
		cols := t.def.Cols
		for i := len(cols) - 1; i >= 0; i-- {
			cd := cols[i]
			if cd.Domain == nil || array && cd.Domain.Elem() != d || !array && cd.Domain != d {
				continue
			}
			if t.temp || len(e.parentsOf(tn)) > 0 || len(e.childrenOf(tn)) > 0 {
				return refuse(fmt.Sprintf("column %s of table %s depends on type %s", cd.Name, tn, dependedName(cd.Domain)))
			}
			if c.cols.cols == nil {
				c.cols.cols = map[string][]string{}
			}
			if !slices.Contains(c.cols.order, tn) {
				c.cols.order = append(c.cols.order, tn)
			}
			if !slices.Contains(c.cols.cols[tn], cd.Name) {
				c.cols.cols[tn] = append(c.cols.cols[tn], cd.Name)
				c.entries = append(c.entries, domainDropEntry{line: fmt.Sprintf("drop cascades to column %s of table %s", cd.Name, tn), table: tn, array: array})
			}
		}
	}
	return nil
}

// apply drops the attributes (attrAlters, checked by c.attrs.check),
// the columns (alters, bound by c.cols.bind before anything changed),
// then the views naming the domains that are still there; it returns the
// lines of the notice. The domains are left to the caller.
func (c *domainDrops) apply(e *Engine, attrAlters []*sql.AlterComposite, alters []*sql.AlterTable) ([]string, error) {
	var attrLines []string // what the attributes' drops took besides
	for _, a := range attrAlters {
		res, err := e.alterComposite(a)
		if err != nil {
			return nil, err
		}
		attrLines = append(attrLines, cascadedLines(res.Notices)...)
	}
	cascaded := map[string][]string{} // by table, what its ALTER dropped
	for i, a := range alters {
		res, err := e.alterTable(a)
		if err != nil {
			return nil, err
		}
		cascaded[c.cols.order[i]] = cascadedLines(res.Notices)
	}
	// What a table's ALTER dropped follows its first column of the
	// domain itself (the last of the table, which views read more often
	// than arrays), or else its last.
	anchor := map[string]int{}
	for i, en := range c.entries {
		if j, ok := anchor[en.table]; en.table != "" && (!ok || c.entries[j].array) {
			anchor[en.table] = i
		}
	}
	var lines []string
	for i, en := range c.entries {
		switch {
		case en.view != "":
			k, ok := e.kindOf(en.view)
			if !ok {
				continue // gone with a column it reads
			}
			lines = append(lines, fmt.Sprintf("drop cascades to %s %s", map[sql.DropKind]string{sql.DropView: "view", sql.DropMatView: "materialized view"}[k], en.view))
			res, err := e.drop(&sql.Drop{Kind: k, Names: []string{en.view}, Cascade: true})
			if err != nil {
				return nil, err
			}
			lines = append(lines, cascadedLines(res.Notices)...)
		default:
			lines = append(lines, en.line)
			if en.table != "" && anchor[en.table] == i {
				lines = append(lines, cascaded[en.table]...)
			}
		}
	}
	lines = append(lines, attrLines...)
	if len(c.routines) > 0 || len(c.aggs) > 0 || len(c.ops) > 0 {
		var ls []dependentLine
		for _, f := range c.routines {
			ls = append(ls, dependentLine{sig: f.Signature(), what: "function " + f.Signature(), array: slices.Contains(c.arrayOnly, f)})
		}
		ls = append(ls, c.aggLines...)
		slices.SortStableFunc(ls, func(a, b dependentLine) int { return strings.Compare(a.sig, b.sig) })
		var arrays []string
		for _, l := range append(ls, c.opLines...) {
			if l.array {
				arrays = append(arrays, "drop cascades to "+l.what)
			} else {
				lines = append(lines, "drop cascades to "+l.what)
			}
		}
		lines = append(arrays, lines...)
		// The operators and aggregates go first, so that the routines'
		// drop does not take them again as their functions' users.
		notices, err := e.dropOperatorObjs(c.ops, true, nil)
		if err != nil {
			return nil, err
		}
		if notices, err = e.dropAggregateObjs(c.aggs, true, notices); err != nil {
			return nil, err
		}
		if len(c.routines) > 0 {
			if notices, err = e.dropRoutines(c.routines, true, notices); err != nil {
				return nil, err
			}
		}
		lines = append(lines, cascadedLines(notices)...)
	}
	return lines, nil
}
