package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"strings"
)

// scopeCol is a column visible to expressions: a position in the input row
// with the name of the relation it came from.
type scopeCol struct {
	qual string // relation name or alias
	// relKey is the relation's key when qual is its name, not an alias
	// (checkDuplicateAliases).
	relKey string
	name   string
	typ    value.Type
	// merged is set on the two inputs' columns that JOIN … USING (or
	// NATURAL) merged: they are reachable qualified only, and an unqualified
	// name finds the merged column.
	merged bool
	// outer marks the enclosing query's columns in a correlated
	// subquery's scope: names resolve to them only when no column of the
	// subquery matches.
	outer bool
	// nullExt marks the columns of an outer join's null-extended side: a
	// whole-row reference to their relation is NULL when all are (WholeRow).
	nullExt bool
	// rowType is the row type of the table or view whose columns these
	// are: its whole row's type. Unset (the zero Type) for a subquery's, a
	// CTE's or a function's columns, whose whole row is an anonymous
	// record.
	rowType value.Type
	// sequence marks a sequence's columns: a sequence has no row type,
	// so its whole row cannot be read (seqRowError).
	sequence bool
	// unregistered marks a subquery's or CTE's column whose records have
	// no fields PostgreSQL can select (unregisteredColumn).
	unregistered bool
	// rel is the table these columns come from, with its primary key,
	// and relCol the column's position in it: a GROUP BY over the whole
	// key makes the table's other columns functionally dependent on it
	// (groupDependents). Nil for any other source.
	rel    *keyedRel
	relCol int
	// hidden marks columns that are there but may not be referenced: a
	// MERGE target's in a WHEN NOT MATCHED clause. A reference gets
	// PostgreSQL's error, which names them (hiddenRef).
	hidden bool
	// pgName is the name PostgreSQL gives the column in messages when it
	// is not qual.name: a JOIN … USING column's is the input column it
	// stands for.
	pgName string
	// system marks a table's system column (ctid, xmin, …, tableoid):
	// reachable by name only, not through *, a whole-row reference or
	// NATURAL and USING joins. viewRefused marks one a materialized view
	// may not read (all but tableoid): a reference is 0A000.
	system, viewRefused bool
	// scalarRow marks the one column of a function that returns a
	// scalar through a named OUT parameter (jsonb_array_elements's
	// value): a reference to the relation's name is the column
	// (scalarRowRef), as PostgreSQL reads a scalar function's row.
	scalarRow bool
	// origin is the table whose column this is, by key, and originCol
	// its position there; "" for any other source (RefLog).
	origin    string
	originCol int
	// src is, for a subquery's or a WITH query's column, the table
	// column it is taken from, if any (Origin).
	src Origin
	// coll is the ICU collation of a table's column (plan.Column.Coll),
	// which a reference applies with implicit strength; 0 for none.
	coll uint8
	// bytewise is the byte-wise collation ("C", "POSIX") that the query
	// of a subquery's, a WITH query's or a view's column derives for it,
	// which a reference derives with implicit strength; "" for none.
	bytewise string
	// uncollated marks a string column of a subquery or a WITH query
	// whose query derives conflicting implicit collations (c || e of a
	// "C" and an ICU column): PostgreSQL gives it no collation, so a
	// reference of it alone makes what needs one fail (uncollatedRef).
	uncollated bool
}

// keyedRel is one occurrence of a table with a primary key in a FROM
// clause; its identity tells the occurrences apart.
type keyedRel struct {
	pk []int
}

// refName is the name PostgreSQL gives a scope column in messages.
func (c *scopeCol) refName() string {
	switch {
	case c.pgName != "":
		return c.pgName
	case c.qual != "":
		return c.qual + "." + c.name
	}
	return c.name
}

// scope is the list of columns that expressions of one query level see, in
// input-row order.
type scope struct {
	cols []scopeCol
	// star lists the columns * expands to, in order; nil means all.
	star []int
	// allowScalar is set on a query level's input scope while its WHERE
	// and select list are bound: scalar subqueries there are decorrelated
	// into joins, and (in the select list, with allowWindow) window
	// functions into Window nodes. Each adds hidden columns to the scope
	// and a wrapper to pending, which applyPending puts over the input
	// before the filter or projection that reads them, in binding order.
	allowScalar bool
	allowWindow bool
	pending     []func(plan.Node) plan.Node
	// base is, while applyPending runs, the input it puts the pending
	// joins over: the level's own rows, from which a decorrelated subquery takes the
	// values it reads (not from the rows earlier joins widened).
	base plan.Node
	// grouping is set on a grouped level's input scope while its select
	// list and HAVING are bound: a subquery there may call an aggregate of
	// this level (one whose arguments read only its columns), which
	// outerAggregate adds to it.
	grouping *aggScope
	// subCache holds the subqueries of expressions bound in this scope,
	// by their text, while the hidden columns they read are there.
	subCache map[string]expr.Expr
}

// starCols returns the positions * expands to.
func (s *scope) starCols() []int {
	if s.star != nil {
		return s.star
	}
	out := make([]int, len(s.cols))
	for i := range out {
		out[i] = i
	}
	return out
}

func newScope(qual string, cols []plan.Column) *scope {
	s := &scope{}
	s.add(qual, cols)
	return s
}

// rowScope is newScope for the columns of a table or view whose row type
// is rowType.
func rowScope(qual string, rowType value.Type, cols []plan.Column) *scope {
	s := newScope(qual, cols)
	for i := range s.cols {
		s.cols[i].rowType = rowType
	}
	return s
}

func (s *scope) add(qual string, cols []plan.Column) {
	for _, c := range cols {
		s.cols = append(s.cols, scopeCol{qual: qual, name: c.Name, typ: c.Type, coll: c.Coll})
	}
}

// resolve finds qual.name (qual may be empty) and returns a column
// reference, or a positioned error.
func (b *binder) resolve(s *scope, qual, name string, loc int32) (expr.Expr, error) {
	e, err := b.resolveLevel(s, qual, name, loc, false)
	if e == nil && err == nil {
		e, err = b.resolveLevel(s, qual, name, loc, true)
	}
	for depth := 0; e == nil && err == nil && depth < len(b.outers); depth++ {
		if e, err = b.resolveLevel(b.outers[depth], qual, name, loc, false); e != nil {
			c := e.(*expr.Col)
			// Named with the relation, to tell it from the subquery's own
			// columns in plans and messages.
			name := c.Name
			if q := b.outers[depth].cols[c.Idx].qual; q != "" {
				name = q + "." + name
			}
			e = &expr.Outer{Depth: depth + 1, Idx: c.Idx, T: c.T, Name: name}
		}
	}
	if e == nil && err == nil {
		if err := b.hiddenRef(s, qual, name, loc); err != nil {
			return nil, err
		}
		if qual != "" {
			for _, c := range s.cols {
				if c.qual == qual {
					return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "column %s.%s does not exist", qual, name)
				}
			}
			return nil, b.missingFromEntry(s, qual, loc)
		}
		return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "column %q does not exist", name)
	}
	return e, err
}

// resolveLevel looks for qual.name among the columns of one level (the
// query's own, or the enclosing query's); nil, nil when absent.
func (b *binder) resolveLevel(s *scope, qual, name string, loc int32, outer bool) (expr.Expr, error) {
	if qual != "" {
		// Two relations of one name, of two schemas, neither given an
		// alias: the name alone is ambiguous.
		first := ""
		for _, c := range s.cols {
			if c.hidden || c.outer != outer || c.qual != qual || c.relKey == "" {
				continue
			}
			if first == "" {
				first = c.relKey
			} else if c.relKey != first {
				return nil, b.stmt.errf(loc, "42P09", "table reference %q is ambiguous", qual)
			}
		}
	}
	found := -1
	for i, c := range s.cols {
		if c.hidden || c.outer != outer || qual != "" && c.qual != qual && c.relKey != qual || qual == "" && c.merged || c.name != name {
			continue
		}
		if found >= 0 {
			return nil, b.stmt.errf(loc, pgerr.AmbiguousColumn, "column reference %q is ambiguous", name)
		}
		found = i
	}
	if found < 0 {
		return nil, nil
	}
	c := s.cols[found]
	b.noteRef(s, found, loc, outer)
	if c.viewRefused {
		return nil, b.refuse(loc, "a materialized view cannot read the system column %s", name).
			WithHint("only tableoid, a constant of the table, can be maintained")
	}
	return &expr.Col{Idx: found, T: c.typ, Name: name}, nil
}

// hiddenRef is PostgreSQL's error for a reference qual.name (qual may be
// empty) that only hidden columns of s answer; nil when none does.
func (b *binder) hiddenRef(s *scope, qual, name string, loc int32) error {
	for _, c := range s.cols {
		switch {
		case !c.hidden:
		case qual != "" && c.qual == qual:
			return b.stmt.errf(loc, pgerr.UndefinedTable, "invalid reference to FROM-clause entry for table %q", qual).
				WithHint("There is an entry for table %q, but it cannot be referenced from this part of the query.", qual)
		case qual == "" && c.name == name:
			return b.stmt.errf(loc, pgerr.UndefinedColumn, "column %q does not exist", name).
				WithHint("There is a column named %q in table %q, but it cannot be referenced from this part of the query.", name, c.qual)
		}
	}
	return nil
}

// missingFromEntry is PostgreSQL's error for a qualifier no relation in
// scope answers to: when a table of that name is there under an alias
// (`SELECT item.id FROM item i`), the reference is invalid and the hint
// names the alias (errorMissingRTE).
func (b *binder) missingFromEntry(s *scope, qual string, loc int32) error {
	for _, sc := range append([]*scope{s}, b.outers...) {
		for _, c := range sc.cols {
			if c.origin == "" || c.qual == qual || c.system || c.hidden {
				continue
			}
			if name := c.origin[strings.LastIndexByte(c.origin, '.')+1:]; name == qual {
				return b.stmt.errf(loc, pgerr.UndefinedTable, "invalid reference to FROM-clause entry for table %q", qual).
					WithHint("Perhaps you meant to reference the table alias %q.", c.qual)
			}
		}
	}
	return b.stmt.errf(loc, pgerr.UndefinedTable, "missing FROM-clause entry for table %q", qual)
}
