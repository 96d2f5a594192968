package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// A statement on a relation with rules is rewritten as a tree before it
// is bound, so its parameters ($1: a prepared statement's, a PL/pgSQL
// variable) are not bound where they are used. The binder registers
// them as the statement's (RuleDML.Slots): a declared type (PREPARE's,
// a PL/pgSQL variable's) is kept, any other is the one its uses give the
// statement bound without its rules, as PostgreSQL deduces it, else text
// (read as an untyped literal is). When the statement runs, each $n of the tree
// becomes its value, written as a literal of its type (an untyped one
// for text read so), and the rewrite runs on that tree: the value is
// then read where it is used, as PostgreSQL reads the parameter's.

// ruleParams registers the parameters n uses; nil when the statement
// takes none (then $n is an error when the tree is bound).
func (b *binder) ruleParams(n *pg_query.Node) []*expr.ParamSlot {
	if b.params == nil {
		return nil
	}
	ps := *b.params
	var walkParams func(m protoreflect.Message)
	walkParams = func(m protoreflect.Message) {
		if p, ok := m.Interface().(*pg_query.ParamRef); ok {
			if p.Number < 1 || p.Number > maxParams {
				return
			}
			for len(ps) < int(p.Number) {
				ps = append(ps, nil)
			}
			if ps[p.Number-1] == nil {
				ps[p.Number-1] = &expr.ParamSlot{N: int(p.Number), T: value.UnknownType}
			}
			return
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsMap() || fd.Message() == nil:
			case fd.IsList():
				for i := 0; i < v.List().Len(); i++ {
					walkParams(v.List().Get(i).Message())
				}
			default:
				walkParams(v.Message())
			}
			return true
		})
	}
	walkParams(n.ProtoReflect())
	*b.params = ps
	// The types their uses give the statement bound as it is, without
	// its rules, as PostgreSQL deduces them; text where that fails.
	sub := &binder{cat: b.cat, stmt: b.stmt, params: b.params, stmtClock: b.stmtClock}
	switch {
	case n.GetInsertStmt() != nil:
		_, _ = sub.bindInsert(n.GetInsertStmt())
	case n.GetUpdateStmt() != nil:
		_, _ = sub.bindUpdate(n.GetUpdateStmt())
	case n.GetDeleteStmt() != nil:
		_, _ = sub.bindDelete(n.GetDeleteStmt())
	}
	ps = *b.params
	for _, s := range ps {
		if s != nil && s.T.Kind == value.Unknown {
			s.T = value.TextType
		}
	}
	*b.params = ps
	return ps
}
