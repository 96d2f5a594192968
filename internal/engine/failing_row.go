package engine

import (
	"errors"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A constraint's error shows the failing row as PostgreSQL's
// ExecBuildSlotValueDescription does, to a role that may read it: every
// column to one holding SELECT on the relation; otherwise only the
// columns it holds SELECT on or that the statement writes (an INSERT's,
// an UPDATE's SET, a COPY's), named ("Failing row contains (a, c) = (1,
// x)."); no DETAIL when none is left, or when row-level security applies
// to the role on the relation.

// visibleFailingRow cuts err's failing row down to what the session's
// role may read, for the statement b that failed.
func (s *Session) visibleFailingRow(err error, b sql.Bound) error {
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.FailingRow == nil {
		return err
	}
	vals := pe.FailingRow
	pe.FailingRow = nil // shown: a statement around b leaves it
	e := s.e
	if s.role == "" {
		return err
	}
	if r := e.roles[s.role]; r != nil && r.superuser {
		return err
	}
	rel := pe.Table
	if pe.Schema != "" && pe.Schema != "public" {
		rel = pe.Schema + "." + pe.Table
	}
	t := e.tables[rel]
	if p := e.parts[rel]; t == nil && p != nil && p.root != nil {
		t = p.root // a partition's row, in its root's columns
	}
	if t == nil || len(t.cols) != len(vals) {
		return err
	}
	if e.securityOf(s.rowSecurity(), rel) != nil {
		pe.Detail = ""
		return err
	}
	if s.allowed(rel, sql.PrivSelect) == nil {
		return err
	}
	written := writtenColumns(b)
	held := e.heldRoles(s.role)
	acl := e.colGrants[rel]
	var names, shown []string
	for i, c := range t.cols {
		if slices.Contains(written, i) || acl != nil && acl.held(c.Name, held)&sql.PrivSelect != 0 {
			names, shown = append(names, c.Name), append(shown, vals[i])
		}
	}
	pe.Detail = ""
	if len(names) > 0 {
		pe.Detail = "Failing row contains (" + strings.Join(names, ", ") + ") = (" + strings.Join(shown, ", ") + ")."
	}
	return err
}

// writtenColumns are the columns of its table that b writes, by
// position, as PostgreSQL's modifiedCols.
func writtenColumns(b sql.Bound) []int {
	switch b := b.(type) {
	case *sql.Insert:
		return b.Targets
	case *sql.Update:
		return b.SetCols
	case *sql.Copy:
		return b.Cols
	}
	return nil
}
