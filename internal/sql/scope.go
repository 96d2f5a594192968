package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// scopeCol is a column visible to expressions: a position in the input row
// with the name of the relation it came from.
type scopeCol struct {
	qual string // relation name or alias
	name string
	typ  value.Type
}

// scope is the list of columns that expressions of one query level see, in
// input-row order.
type scope struct {
	cols []scopeCol
}

func newScope(qual string, cols []plan.Column) *scope {
	s := &scope{}
	s.add(qual, cols)
	return s
}

func (s *scope) add(qual string, cols []plan.Column) {
	for _, c := range cols {
		s.cols = append(s.cols, scopeCol{qual: qual, name: c.Name, typ: c.Type})
	}
}

// resolve finds qual.name (qual may be empty) and returns a column
// reference, or a positioned error.
func (b *binder) resolve(s *scope, qual, name string, loc int32) (expr.Expr, error) {
	found := -1
	qualSeen := qual == ""
	for i, c := range s.cols {
		if qual != "" && c.qual != qual {
			continue
		}
		qualSeen = true
		if c.name != name {
			continue
		}
		if found >= 0 {
			return nil, b.stmt.errf(loc, pgerr.AmbiguousColumn, "column reference %q is ambiguous", name)
		}
		found = i
	}
	if found < 0 {
		if !qualSeen {
			return nil, b.stmt.errf(loc, pgerr.UndefinedTable, "missing FROM-clause entry for table %q", qual)
		}
		if qual != "" {
			return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "column %s.%s does not exist", qual, name)
		}
		return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "column %q does not exist", name)
	}
	c := s.cols[found]
	return &expr.Col{Idx: found, T: c.typ, Name: name}, nil
}
