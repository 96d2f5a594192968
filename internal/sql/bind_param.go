package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// maxParams is PostgreSQL's limit on a statement's parameters.
const maxParams = 65535

// Params are the parameters $1…$n of a statement bound by BindPrepared, in
// order. Each slot's type is deduced from the parameter's first use that
// needs one, as PostgreSQL deduces it; its value is set before each run.
type Params []*expr.ParamSlot

// BindPrepared binds a statement that may use parameters $1, $2, …: a
// SELECT (not a view's definition), INSERT, UPDATE, DELETE, MERGE or CALL. Any other
// statement binds as Bind does, without parameters.
//
// EXPLAIN of such a statement (or of DECLARE … CURSOR FOR a SELECT) binds
// with parameters too, as EXPLAIN EXECUTE binds the prepared statement.
func BindPrepared(cat Catalog, s *Stmt) (Bound, Params, error) {
	n := s.Node
	q := n
	if x := n.GetExplainStmt(); x != nil {
		q = x.Query
		if dc := q.GetDeclareCursorStmt(); dc != nil {
			q = dc.Query
		}
	}
	if s.Subscribe != "" || s.Explain != "" || (q.GetSelectStmt() == nil && q.GetInsertStmt() == nil &&
		q.GetUpdateStmt() == nil && q.GetDeleteStmt() == nil && q.GetMergeStmt() == nil && q.GetCallStmt() == nil) {
		bd, err := Bind(cat, s)
		return bd, nil, err
	}
	var ps Params
	dropVoidParams(n, s)
	rewriteQuantified(cat, s.SQL, n)
	markUserAggregates(cat, n)
	b := &binder{cat: cat, stmt: s, params: &ps, stmtClock: stmtClockFor(cat, n)}
	if err := b.declareParams(s.Declared, s.DeclaredTypes); err != nil {
		return nil, nil, err
	}
	bd, err := b.bindStmt(n)
	if err != nil {
		return nil, nil, err
	}
	for i, p := range ps {
		if p == nil || p.T.Kind == value.Unknown {
			return nil, nil, pgerr.New(pgerr.IndeterminateDatatype, "could not determine data type of parameter $%d", i+1)
		}
	}
	return bd, ps, nil
}

// bindParam binds $N: a use of the statement's N-th parameter.
func (b *binder) bindParam(p *pg_query.ParamRef) (expr.Expr, error) {
	if b.params == nil || b.forView || p.Number < 1 || p.Number > maxParams {
		err := b.stmt.errf(p.Location, pgerr.UndefinedParameter, "there is no parameter $%d", p.Number)
		if b.forView {
			err = err.WithHint("a view's definition cannot have parameters")
		}
		return nil, err
	}
	ps := *b.params
	for len(ps) < int(p.Number) {
		ps = append(ps, nil)
	}
	slot := ps[p.Number-1]
	if slot == nil {
		slot = &expr.ParamSlot{N: int(p.Number), T: value.UnknownType}
		ps[p.Number-1] = slot
	}
	*b.params = ps
	return &expr.Param{Slot: slot, T: slot.T}, nil
}

// declareParams gives the parameters the types PREPARE or the protocol's
// Parse message declares, as PostgreSQL does: $n is then of its type
// wherever it is used, and EXECUTE or Bind converts its argument to it. A
// type may be a table's or a view's row type. A parameter declared
// neither by a name nor by a type (Parse's oid 0) takes its type from its
// uses.
func (b *binder) declareParams(names []*pg_query.Node, types []value.Type) error {
	for i := 0; i < max(len(names), len(types)); i++ {
		var n *pg_query.Node
		if i < len(names) {
			n = names[i]
		}
		if n == nil {
			t := value.UnknownType
			if i < len(types) && types[i].Kind != value.Unknown {
				t = types[i]
			}
			if i < len(b.stmt.Void) && b.stmt.Void[i] {
				t = value.TextType // void's input takes any text (dropVoidParams)
			}
			*b.params = append(*b.params, &expr.ParamSlot{N: i + 1, T: t})
			continue
		}
		tn := n.GetTypeName()
		if tn == nil {
			return pgerr.New(pgerr.SyntaxError, "parameter $%d has no type", i+1)
		}
		t, err := b.typeFromName(tn)
		if pgerr.Code(err) == pgerr.UndefinedObject && len(tn.Names) == 1 && len(tn.Typmods) == 0 {
			if rel, found := b.cat.Relation(typeNameText(tn)); found {
				t, err = relRowType(rel), nil
				if len(tn.ArrayBounds) > 0 {
					t = value.ArrayTypeOf(t)
				}
			}
		}
		if err != nil {
			return err
		}
		d, err := b.typeDomain(tn)
		if err != nil {
			return err
		}
		*b.params = append(*b.params, &expr.ParamSlot{N: i + 1, T: t, Domain: d})
	}
	return nil
}

// dropVoidParams leaves out of each function call's arguments the
// parameters s declares void, as PostgreSQL's parser does for JDBC, which
// sends {? = call f(?)} as SELECT * FROM f($1, $2) AS result with $1, the
// result's OUT parameter, declared void. An ordered-set aggregate's
// arguments keep theirs, as PostgreSQL's do.
func dropVoidParams(n *pg_query.Node, s *Stmt) {
	if !slices.Contains(s.Void, true) {
		return
	}
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		f := n.GetFuncCall()
		if f == nil || f.AggWithinGroup {
			return
		}
		f.Args = slices.DeleteFunc(f.Args, func(a *pg_query.Node) bool {
			p := a.GetParamRef()
			return p != nil && p.Number >= 1 && int(p.Number) <= len(s.Void) && s.Void[p.Number-1]
		})
	})
}
