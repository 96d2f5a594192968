package plan

// Target reads the rows an INSERT, UPDATE or DELETE acts on, as the
// statement hands them to the evaluation (exec.Targets): for the plan that
// finds an UPDATE's or a DELETE's rows, the rows of its table, each
// followed by its row id; for the plan of a RETURNING list or of ON
// CONFLICT DO UPDATE, the rows the statement changed or proposed. It lets
// the subqueries of a DML statement's expressions be bound and decorrelated
// as a query's are, over the rows the statement supplies.
type Target struct {
	Name string // the table's
	Cols []Column
}

func (n *Target) Columns() []Column { return n.Cols }
func (n *Target) Children() []Node  { return nil }
func (*Target) node()               {}
