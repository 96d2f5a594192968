package engine

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// withParamValues returns rd with each parameter $n of its tree written
// as its value (sql.RuleDML.Slots): a literal cast to the parameter's
// type, or an untyped literal for one read as text, so that it is read
// where it is used as an untyped literal is (NULL likewise). ok is
// false when the statement's parameters have no slots.
func withParamValues(rd *sql.RuleDML) (*sql.RuleDML, bool, error) {
	if rd.Slots == nil {
		return rd, false, nil
	}
	node := proto.Clone(rd.Stmt.Node).(*pg_query.Node)
	var err error
	walkNodes(node, func(n *pg_query.Node) {
		p := n.GetParamRef()
		if p == nil || err != nil {
			return
		}
		i := int(p.Number) - 1
		if i < 0 || i >= len(rd.Slots) || rd.Slots[i] == nil || !rd.Slots[i].Set {
			return // bound later: 42P02 there is no parameter $n
		}
		s := rd.Slots[i]
		lit := "NULL"
		if !s.V.IsNull() {
			lit = "'" + strings.ReplaceAll(s.V.String(), "'", "''") + "'"
		}
		if s.T.Kind != value.Text {
			lit += "::" + s.T.String()
		}
		var x *pg_query.Node
		if x, err = parseExpr(lit); err == nil {
			n.Node = x.Node
		}
	})
	if err != nil {
		return nil, false, err
	}
	out := *rd
	st := *rd.Stmt
	st.Node = node
	out.Stmt, out.Params, out.Slots = &st, false, nil
	return &out, true, nil
}
