package plan

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// JoinKind is the kind of a join.
type JoinKind int

// Join kinds. Semi and anti joins output the left row only.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	SemiJoin // EXISTS, IN (subquery), = ANY (subquery)
	AntiJoin // NOT EXISTS
	// AntiNullJoin is NOT IN (subquery) / <> ALL (subquery): a left row
	// passes only if no right row is equal or unknown (NULL) on the keys,
	// and a NULL left key passes only when the right side is empty.
	AntiNullJoin
)

var joinNames = [...]string{"InnerJoin", "LeftJoin", "RightJoin", "FullJoin", "SemiJoin", "AntiJoin", "AntiNullJoin"}

func (k JoinKind) String() string { return joinNames[k] }

// Join combines two inputs. A pair of rows matches when each left key
// equals the corresponding right key (SQL equality: NULL matches nothing)
// and Residual, evaluated over the left row followed by the right row, is
// TRUE. Outer joins pad the preserved side's unmatched rows with NULLs.
type Join struct {
	Kind        JoinKind
	Left, Right Node
	LeftKeys    []expr.Expr // over the left row
	RightKeys   []expr.Expr // over the right row
	Residual    expr.Expr   // over left ++ right; nil: TRUE
	Cols        []Column    // left ++ right, or left only for semi/anti joins
}

func (n *Join) Columns() []Column { return n.Cols }
func (n *Join) Children() []Node  { return []Node{n.Left, n.Right} }
func (*Join) node()               {}

// Outputs reports whether the join's output has the right side's columns.
func (k JoinKind) Outputs() bool { return k <= FullJoin }

func describeJoin(n *Join) string {
	s := n.Kind.String()
	var parts []string
	for i := range n.LeftKeys {
		parts = append(parts, n.LeftKeys[i].String()+" = "+n.RightKeys[i].String())
	}
	if len(parts) > 0 {
		s += " on " + strings.Join(parts, " AND ")
	} else {
		s += " (no key)"
	}
	if n.Residual != nil {
		s += " filter " + n.Residual.String()
	}
	return s
}

// SetOpKind is INTERSECT or EXCEPT, with or without ALL.
type SetOpKind int

// Set operations other than UNION.
const (
	Intersect SetOpKind = iota
	IntersectAll
	Except
	ExceptAll
)

var setOpNames = [...]string{"Intersect", "IntersectAll", "Except", "ExceptAll"}

func (k SetOpKind) String() string { return setOpNames[k] }

// SetOp is INTERSECT [ALL] or EXCEPT [ALL] of two inputs with the same
// column types: a row counted l times on the left and r on the right
// appears min(l, r) times (INTERSECT ALL), max(l-r, 0) times (EXCEPT ALL),
// or once when that number is positive (without ALL). Rows compare as in
// DISTINCT: NULLs are equal.
type SetOp struct {
	Kind        SetOpKind
	Left, Right Node
	Cols        []Column
}

func (n *SetOp) Columns() []Column { return n.Cols }
func (n *SetOp) Children() []Node  { return []Node{n.Left, n.Right} }
func (*SetOp) node()               {}
