package plpgsql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// prepared is a body's SQL ready to run: the statement, its variables
// made parameters $1…$n, and what each parameter reads.
type prepared struct {
	st   *sql.Stmt
	refs []ref
}

// ref is what a parameter of a prepared statement reads: a variable, or a
// field of a record variable.
type ref struct {
	label, name, field string
}

// prepare parses text and makes the variables it names parameters
// (parameterize).
func prepare(text string, fr *frame, conflict sql.VarConflict) (*prepared, error) {
	st, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	if st == nil || st.Node == nil {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at end of input")
	}
	return parameterize(st, fr, conflict), nil
}

// prepareAssign prepares an assignment to an element, a slice or a field
// of a variable, target := rhs (sql.Stmt.Assign): the variable's value is
// a parameter too, the last.
func prepareAssign(target, rhs string, fr *frame, conflict sql.VarConflict) (*prepared, error) {
	up, err := sql.Parse("UPDATE plpgsql_target SET " + target + " = NULL")
	if err != nil || up == nil || up.Node.GetUpdateStmt() == nil || len(up.Node.GetUpdateStmt().TargetList) != 1 {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in assignment target %q", strings.TrimSpace(target))
	}
	st, err := sql.Parse("SELECT " + rhs)
	if err != nil {
		return nil, err
	}
	if st == nil || st.Node == nil {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at end of input")
	}
	rt := up.Node.GetUpdateStmt().TargetList[0].GetResTarget()
	rt.Location = 0
	st.Assign = rt
	base := ref{name: rt.Name}
	if len(rt.Indirection) > 1 && rt.Indirection[0].GetString_() != nil {
		// r.f[i] := v or label.a[i] := v: the field or the variable is the
		// value assigned to.
		second := rt.Indirection[0].GetString_().Sval
		if v := fr.find("", rt.Name); v != nil && v.isRec {
			base.field = second
		} else if fr.find(rt.Name, second) != nil {
			base = ref{label: rt.Name, name: second}
		}
		if base.field != "" || base.label != "" {
			rt.Name, rt.Indirection = second, rt.Indirection[1:]
		}
	}
	p := parameterize(st, fr, conflict)
	p.refs = append(p.refs, base)
	st.AssignBase = int32(len(p.refs))
	return p, nil
}

// parameterize makes the variables st names parameters: a name of a
// variable in scope (or label.name, or $n for a function's n-th
// parameter), and record.field for a field of a record variable. The
// binder decides, under conflict, what a column of the same name in scope
// makes of a variable's name.
func parameterize(st *sql.Stmt, fr *frame, conflict sql.VarConflict) *prepared {
	p := &prepared{st: st}
	st.VarConflict = conflict
	index := map[ref]int32{}
	param := func(r ref, loc int32) *pg_query.Node {
		n, ok := index[r]
		if !ok {
			p.refs = append(p.refs, r)
			n = int32(len(p.refs))
			index[r] = n
		}
		return &pg_query.Node{Node: &pg_query.Node_ParamRef{ParamRef: &pg_query.ParamRef{Number: n, Location: loc}}}
	}
	// The names of the statement's variables are kept by location for
	// the binder; an assignment target's subscripts, from another text,
	// bind where no column is in scope.
	keep := conflict != sql.VarConflictUseVariable
	visit := func(n *pg_query.Node) {
		switch {
		case n.GetColumnRef() != nil:
			cr := n.GetColumnRef()
			var names []string
			for _, f := range cr.Fields {
				s := f.GetString_()
				if s == nil {
					return // r.*
				}
				names = append(names, s.Sval)
			}
			if r, ok := fr.resolve(names); ok {
				if keep {
					if st.Vars == nil {
						st.Vars = map[int32][]string{}
					}
					st.Vars[cr.Location] = names
				}
				*n = *param(r, cr.Location)
			}
		case n.GetParamRef() != nil:
			pr := n.GetParamRef()
			if r, ok := fr.resolve([]string{"$" + strconv.Itoa(int(pr.Number))}); ok {
				*n = *param(r, pr.Location)
			}
		}
	}
	walkNodes(st.Node.ProtoReflect(), visit)
	if st.Assign != nil {
		keep = false
		walkNodes(st.Assign.ProtoReflect(), visit)
	}
	return p
}

// walkNodes calls fn on every node of the tree under m, before its
// children: fn may replace the node.
func walkNodes(m protoreflect.Message, fn func(*pg_query.Node)) {
	if n, ok := m.Interface().(*pg_query.Node); ok {
		fn(n)
		if n.GetParamRef() != nil {
			return // a parameter has no children
		}
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walkNodes(l.Get(i).Message(), fn)
			}
		case fd.Message() != nil && !fd.IsMap():
			walkNodes(v.Message(), fn)
		}
		return true
	})
}
