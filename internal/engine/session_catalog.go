package engine

import (
	"slices"
	"strings"
	"time"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// The catalog views of a session's own objects, pg_prepared_statements
// and pg_cursors, keep no state of their own: a session's reads go
// through sessionSource, which makes their rows from the session's
// prepared statements and its server's cursors when a statement scans
// them. Read without a session (a view's query), they are empty.

// sessionSource is what a session's statements read: src, with the
// session's own catalog views.
type sessionSource struct {
	src exec.Source
	s   *Session
}

var (
	_ exec.FilteredSource = sessionSource{}
	_ exec.Sizer          = sessionSource{}
)

// Scan implements exec.Source.
func (ss sessionSource) Scan(rel string, fn func(value.Row) error) error {
	var rows []value.Row
	switch rel {
	case "pg_catalog.pg_prepared_statements":
		rows = ss.s.preparedRows()
	case "pg_catalog.pg_cursors":
		rows = ss.s.cursorRows()
	default:
		if !ss.s.readsTempCatalog(rel) {
			return ss.src.Scan(rel, fn)
		}
		var err error
		if rows, err = ss.s.e.catalogRows(rel, strings.TrimSuffix(ss.s.tempNS, ".")); err != nil {
			return err
		}
	}
	for _, r := range rows {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// ScanFiltered implements exec.FilteredSource.
func (ss sessionSource) ScanFiltered(rel string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	if fs, ok := ss.src.(exec.FilteredSource); ok {
		return fs.ScanFiltered(rel, pred, fn)
	}
	return false, nil
}

// RelationSize implements exec.Sizer.
func (ss sessionSource) RelationSize(rel string) (int, bool) {
	if sz, ok := ss.src.(exec.Sizer); ok {
		return sz.RelationSize(rel)
	}
	return 0, false
}

// preparedRows are pg_prepared_statements' rows: the statements of SQL's
// PREPARE, by name. A statement is bound once and run as bound, so an
// EXECUTE of one without parameters counts as a generic plan; one with
// parameters, whose values its EXECUTE gives, as a custom plan.
func (s *Session) preparedRows() []value.Row {
	names := sortedKeys(s.prepared)
	out := make([]value.Row, 0, len(names))
	for _, name := range names {
		p := s.prepared[name]
		types := p.ParamTypes()
		elems := make([]value.Value, len(types))
		for i, t := range types {
			elems[i] = value.NewReg(value.RegType, s.e.typeOID(t, nil), value.Type{Kind: t.Kind, Mod: -1}.String())
		}
		generic, custom := p.executions, int64(0)
		if len(types) > 0 {
			generic, custom = 0, p.executions
		}
		out = append(out, value.Row{value.NewText(value.Text, name), value.NewText(value.Text, p.stmt.SQL),
			value.NewTimestamp(value.TimestampTZ, p.preparedAt), value.NewArray(value.ArrayType(value.RegType).Kind, elems),
			value.NewBool(true), value.NewInt(value.Int8, generic), value.NewInt(value.Int8, custom)})
	}
	return out
}

// CursorInfo is a cursor as pg_cursors lists it.
type CursorInfo struct {
	Name, Statement              string
	Holdable, Binary, Scrollable bool
	Created                      time.Time
}

// CursorLister is a CursorSource that lists its cursors (pg_cursors);
// a session's cursors are listed when its CursorSource is one.
type CursorLister interface {
	Cursors() []CursorInfo
}

// cursorRows are pg_cursors' rows: the cursors of the session's server,
// by name.
func (s *Session) cursorRows() []value.Row {
	var cs []CursorInfo
	if l, ok := s.cursors.(CursorLister); ok {
		cs = l.Cursors()
	}
	for _, p := range s.portals.List() {
		cs = append(cs, CursorInfo{Name: p.Name, Statement: p.Text, Scrollable: p.Scroll, Binary: p.Binary,
			Created: time.UnixMicro(p.Created + pgEpochMicros)})
	}
	slices.SortFunc(cs, func(a, b CursorInfo) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	out := make([]value.Row, 0, len(cs))
	for _, c := range cs {
		out = append(out, value.Row{value.NewText(value.Text, c.Name), value.NewText(value.Text, c.Statement),
			value.NewBool(c.Holdable), value.NewBool(c.Binary), value.NewBool(c.Scrollable),
			value.NewTimestamp(value.TimestampTZ, c.Created.UnixMicro()-pgEpochMicros)})
	}
	return out
}

func init() {
	none := func(*catalogObjects, *catRows) {}
	for name, cols := range map[string]string{
		"pg_catalog.pg_prepared_statements": "name:text,statement:text,prepare_time:timestamp with time zone,parameter_types:regtype[]," +
			"from_sql:boolean,generic_plans:bigint,custom_plans:bigint",
		"pg_catalog.pg_cursors": "name:text,statement:text,is_holdable:boolean,is_binary:boolean,is_scrollable:boolean," +
			"creation_time:timestamp with time zone",
	} {
		catalogColumns[name], catalogRowFuncs[name] = cols, none
		catalogRelations[name] = catalogRelation{cols: catalogCols(cols), rows: none}
	}
}
