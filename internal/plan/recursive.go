package plan

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/expr"
)

// Recursive is WITH RECURSIVE name AS (Anchor UNION [ALL] Step): the rows
// of Anchor, then repeatedly the rows Step computes from the rows the
// previous round produced, until a round produces nothing (PostgreSQL's
// working-table evaluation). Without All, duplicates are discarded
// against everything produced so far, the anchor's included. Step reads
// the previous round through exactly one RecRef of the same Name, and is
// linear in it: only filters, projections and joins lie between the
// RecRef and Step's root (the binder refuses anything else). Step's
// columns are Cols' types.
type Recursive struct {
	Name   string
	Anchor Node
	Step   Node
	All    bool
	Cols   []Column
	// MaxIterations bounds the rounds; a recursion that still produces
	// rows after it fails (54000). 0 means DefaultMaxIterations in a
	// view, and no bound in an ad-hoc query (its memory budget, timeout
	// and cancel stop it, as they stop PostgreSQL's).
	MaxIterations int
	// StopAfter, when positive, ends an ad-hoc evaluation once that many
	// rows are out: a LIMIT over the recursion reads no further, as
	// PostgreSQL's executor pulls no further rows, so that
	// WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t)
	// SELECT n FROM t LIMIT 10 ends.
	StopAfter int64
	// StopPer, when positive, makes StopAfter count the rows of each
	// distinct value of the first StopPer columns apart: a correlated
	// recursion's domain (Decorrelate puts it in front), under a LIMIT per
	// domain value. Each value's recursion stops on its own, as each
	// evaluation of the subquery does in PostgreSQL.
	StopPer int
	// StopNeed, with StopPer, is each domain value's StopAfter when it is
	// no constant: evaluated over a row of the value (it reads only the
	// domain's columns, as a LIMIT reading the outer query does), NULL
	// for no stop.
	StopNeed expr.Expr
}

// RecRef is the recursive reference inside a Recursive's Step: the rows
// of the previous round.
type RecRef struct {
	Name string
	Cols []Column
}

// DefaultMaxIterations is the bound on a recursion's rounds when none is
// set.
const DefaultMaxIterations = 10000

// Bound returns the bound on n's rounds.
func (n *Recursive) Bound() int {
	if n.MaxIterations > 0 {
		return n.MaxIterations
	}
	return DefaultMaxIterations
}

func (n *Recursive) Columns() []Column { return n.Cols }
func (n *RecRef) Columns() []Column    { return n.Cols }

// Children are the anchor and the step.
func (n *Recursive) Children() []Node { return []Node{n.Anchor, n.Step} }
func (n *RecRef) Children() []Node    { return nil }

func (*Recursive) node() {}
func (*RecRef) node()    {}

func describeRecursive(n *Recursive) string {
	kind := "UNION"
	if n.All {
		kind = "UNION ALL"
	}
	return fmt.Sprintf("Recursive %s %s (bound %d rounds)", n.Name, kind, n.Bound())
}
