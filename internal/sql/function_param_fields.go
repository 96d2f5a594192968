package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/value"
)

// paramFields makes a SQL function body's references to a field of a
// parameter of a composite type, p.x (or f.p.x, the function's name
// first), the field selection (p).x, as PostgreSQL's SQL functions
// resolve a name no relation of the body has. A relation or alias of the
// body named p keeps p.x its column: that is the reading PostgreSQL
// gives first; so does a name of no field of p (42P01 at CREATE).
func paramFields(f *Function, stmts []*pg_query.Node) {
	params := map[string]value.Type{}
	for _, p := range f.Params {
		if p.Name != "" && isRowType(p.Type) {
			params[p.Name] = p.Type
		}
	}
	if len(params) == 0 {
		return
	}
	for _, st := range stmts {
		relationNames(st.ProtoReflect(), func(name string) { delete(params, name) })
	}
	if len(params) == 0 {
		return
	}
	for _, st := range stmts {
		walkNodesPruned(st.ProtoReflect(), func(n *pg_query.Node) bool {
			cr := n.GetColumnRef()
			if cr == nil {
				return true
			}
			var names []string
			for _, fl := range cr.Fields {
				s := fl.GetString_()
				if s == nil {
					return false
				}
				names = append(names, s.Sval)
			}
			at := 0
			if len(names) == 3 && strings.EqualFold(names[0], f.Name) {
				at = 1
			}
			if len(names) != at+2 {
				return false
			}
			// A field the type has not is left to fail as a column.
			if t, ok := params[names[at]]; !ok {
				return false
			} else if _, i := t.RecordDesc().Field(names[at+1]); i < 0 {
				return false
			}
			param := pg_query.MakeColumnRefNode(cr.Fields[:at+1], cr.Location)
			n.Node = &pg_query.Node_AIndirection{AIndirection: &pg_query.A_Indirection{Arg: param, Indirection: cr.Fields[at+1:]}}
			return false
		})
	}
}

// relationNames calls fn with the name of every relation, alias and
// common table expression under m.
func relationNames(m protoreflect.Message, fn func(string)) {
	switch x := m.Interface().(type) {
	case *pg_query.RangeVar:
		fn(x.Relname)
	case *pg_query.Alias:
		fn(x.Aliasname)
	case *pg_query.CommonTableExpr:
		fn(x.Ctename)
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				relationNames(l.Get(i).Message(), fn)
			}
		case fd.Message() != nil && !fd.IsMap():
			relationNames(v.Message(), fn)
		}
		return true
	})
}
