// Package plan holds deltaview's logical plans: immutable relational trees
// built by the binder, evaluated once by package exec (ad-hoc queries, DML
// sources, the from-scratch oracle) or compiled by package compile into an
// incremental dataflow (views).
package plan

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// Column is a named, typed output column of a plan node.
type Column struct {
	Name string
	Type value.Type
	// Coll is the ICU collation a table's column declares, which every
	// reference of the column applies (value.LookupCollation's ID); 0
	// for none and for the columns of other nodes, whose values carry
	// their collation themselves.
	Coll uint8
	// TableOID and AttNum are, on a statement's result columns, the
	// table column the column is taken from straight, which
	// RowDescription names (sql.Origin); zero for any other column, and
	// on the columns of plan nodes.
	TableOID uint32
	AttNum   int16
	// TypeOID is, on a statement's result columns, the type oid
	// RowDescription sends where Type does not tell it: an array type of
	// a domain's (pg_type's _d); zero otherwise. ElemTypeOID is then the
	// domain's oid, which the binary form of its values names as their
	// element type.
	TypeOID, ElemTypeOID uint32
}

// Node is a logical plan node. Nodes are immutable.
type Node interface {
	// Columns are the node's output columns.
	Columns() []Column
	// Children are the node's inputs.
	Children() []Node
	node()
}

// Scan reads every row of a stored relation: a table or a materialized
// view.
type Scan struct {
	Relation string
	Cols     []Column
}

// Filter keeps the rows for which Pred is TRUE.
type Filter struct {
	Input Node
	Pred  expr.Expr
}

// Project computes one output column per expression over each input row.
type Project struct {
	Input Node
	Exprs []expr.Expr
	Cols  []Column
}

// UnionAll concatenates its inputs, which have the same column types.
type UnionAll struct {
	Inputs []Node
	Cols   []Column
}

// Distinct removes duplicate rows.
type Distinct struct {
	Input Node
}

// Values is a constant relation. Its expressions reference no columns.
type Values struct {
	Rows [][]expr.Expr
	Cols []Column
}

// GenerateSeries is generate_series(Start, Stop[, Step]) over integers.
// With an Input (a function in FROM that reads the items before it, an
// implicit LATERAL) the arguments are over each input row, and each row
// is followed by each value of its series. It is evaluated once; views
// refuse it.
type GenerateSeries struct {
	Input             Node // nil: none
	Start, Stop, Step expr.Expr
	Col               Column
}

// SortKey is one ORDER BY item over the input's columns.
type SortKey struct {
	Expr       expr.Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders its input. Views refuse it without a LIMIT.
type Sort struct {
	Input Node
	Keys  []SortKey
}

// Limit keeps Count rows (all when Count is nil or NULL) after skipping
// Offset rows (none when nil or NULL). Count and Offset read no column of
// Input: without Params they reference no columns; with it, they read the
// one row Params yields, the values of the subqueries they hold, computed
// once before Input's first row. With Ties (FETCH … WITH TIES, Input
// sorted on these keys) the rows after the last one kept that equal it on
// them are kept too.
type Limit struct {
	Input         Node
	Count, Offset expr.Expr
	Params        Node
	Ties          []SortKey
}

func (n *Scan) Columns() []Column     { return n.Cols }
func (n *Filter) Columns() []Column   { return n.Input.Columns() }
func (n *Project) Columns() []Column  { return n.Cols }
func (n *UnionAll) Columns() []Column { return n.Cols }
func (n *Distinct) Columns() []Column { return n.Input.Columns() }
func (n *Values) Columns() []Column   { return n.Cols }
func (n *GenerateSeries) Columns() []Column {
	if n.Input != nil {
		return append(append([]Column{}, n.Input.Columns()...), n.Col)
	}
	return []Column{n.Col}
}
func (n *Sort) Columns() []Column  { return n.Input.Columns() }
func (n *Limit) Columns() []Column { return n.Input.Columns() }

func (n *Scan) Children() []Node     { return nil }
func (n *Filter) Children() []Node   { return []Node{n.Input} }
func (n *Project) Children() []Node  { return []Node{n.Input} }
func (n *UnionAll) Children() []Node { return n.Inputs }
func (n *Distinct) Children() []Node { return []Node{n.Input} }
func (n *Values) Children() []Node   { return nil }
func (n *GenerateSeries) Children() []Node {
	if n.Input != nil {
		return []Node{n.Input}
	}
	return nil
}
func (n *Sort) Children() []Node  { return []Node{n.Input} }
func (n *Limit) Children() []Node { return n.children() }

func (*Scan) node()           {}
func (*Filter) node()         {}
func (*Project) node()        {}
func (*UnionAll) node()       {}
func (*Distinct) node()       {}
func (*Values) node()         {}
func (*GenerateSeries) node() {}
func (*Sort) node()           {}
func (*Limit) node()          {}

// children is Input, then Params when the limit has subqueries.
func (n *Limit) children() []Node {
	if n.Params != nil {
		return []Node{n.Input, n.Params}
	}
	return []Node{n.Input}
}

// Relations returns the names of the stored relations n reads, in order of
// first appearance.
func Relations(n Node) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(Node)
	walk = func(n Node) {
		if s, ok := n.(*Scan); ok && !seen[s.Relation] {
			seen[s.Relation] = true
			out = append(out, s.Relation)
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
	return out
}

// String renders n as an indented tree, one node per line.
func String(n Node) string {
	var b strings.Builder
	var walk func(Node, string, string)
	walk = func(n Node, first, rest string) {
		b.WriteString(first)
		b.WriteString(describe(n))
		b.WriteByte('\n')
		kids := n.Children()
		for i, c := range kids {
			if i == len(kids)-1 {
				walk(c, rest+" └── ", rest+"     ")
			} else {
				walk(c, rest+" ├── ", rest+" │   ")
			}
		}
	}
	walk(n, "", "")
	return b.String()
}

func describe(n Node) string {
	switch n := n.(type) {
	case *Scan:
		if t, ok := SystemTable(n.Relation); ok {
			return "Scan " + t + " with system columns"
		}
		return "Scan " + n.Relation
	case *Filter:
		return "Filter " + n.Pred.String()
	case *Project:
		parts := make([]string, len(n.Exprs))
		for i, e := range n.Exprs {
			parts[i] = e.String()
			if n.Cols[i].Name != "" && n.Cols[i].Name != parts[i] {
				parts[i] += " AS " + n.Cols[i].Name
			}
		}
		return "Project " + strings.Join(parts, ", ")
	case *UnionAll:
		return "UnionAll"
	case *Distinct:
		return "Distinct"
	case *Values:
		return fmt.Sprintf("Values %d rows", len(n.Rows))
	case *GenerateSeries:
		return "GenerateSeries"
	case *TableFunc:
		return n.describe()
	case *Sort:
		parts := make([]string, len(n.Keys))
		for i, k := range n.Keys {
			parts[i] = k.Expr.String()
			if k.Desc {
				parts[i] += " DESC"
			}
		}
		return "Sort " + strings.Join(parts, ", ")
	case *Join:
		return describeJoin(n)
	case *SetOp:
		return n.Kind.String()
	case *Aggregate:
		return describeAggregate(n)
	case *TopK:
		return describeTopK(n)
	case *Window:
		return describeWindow(n)
	case *Recursive:
		return describeRecursive(n)
	case *RecRef:
		return "RecRef " + n.Name
	case *Returned:
		return "Returned " + n.Name
	case *Target:
		return "Target " + n.Name
	case *Limit:
		s := "Limit"
		if n.Count != nil {
			s += " " + n.Count.String()
		}
		if n.Offset != nil {
			s += " offset " + n.Offset.String()
		}
		if n.Ties != nil {
			s += " with ties"
		}
		return s
	}
	return fmt.Sprintf("%T", n)
}
