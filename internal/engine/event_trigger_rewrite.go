package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Event triggers on table_rewrite run before an ALTER TABLE that
// PostgreSQL 15 would rewrite the table's rows for (sql.AlterTable's
// Rewrite: a column's type converted, a column added with a volatile
// default or generated, SET LOGGED or UNLOGGED), after
// ddl_command_start and before anything changes: their function reads the
// table's oid and the reason's bits from
// pg_event_trigger_table_rewrite_oid() and _reason(). The engine builds the
// table anew for every change of its columns; the triggers fire only where
// PostgreSQL's would.

// fireTableRewrite runs the table_rewrite event triggers for a; an error
// stops the statement.
func (s *Session) fireTableRewrite(a *sql.AlterTable) error {
	e := s.e
	if s.restoring || a.Rewrite == 0 || len(e.evtTriggers) == 0 || e.inheritRecursing {
		return nil
	}
	fire := s.evtTriggersFor("table_rewrite", "ALTER TABLE")
	if len(fire) == 0 {
		return nil
	}
	row := value.Row{value.NewOid(RelationOID(a.Table)), value.NewInt(value.Int4, int64(a.Rewrite))}
	s.evtEvent, s.evtRows = "table_rewrite", []value.Row{row}
	defer func() { s.evtEvent, s.evtRows = "", nil }()
	_, err := e.autocommit(func() (Result, error) {
		for _, t := range fire {
			if err := s.callEventTrigger(t, "ALTER TABLE"); err != nil {
				return Result{}, err
			}
		}
		return Result{}, nil
	})
	return err
}

// tableRewriteRows is what pg_event_trigger_table_rewrite_oid() (fn) or
// _reason() returns: one row of one value, in a table_rewrite trigger.
func (s *Session) tableRewriteRows(fn string) ([]value.Row, error) {
	if s.evtEvent != "table_rewrite" || len(s.evtRows) != 1 {
		return nil, pgerr.New("39P03", "%s() can only be called in a table_rewrite event trigger function", fn)
	}
	col := 0
	if fn == "pg_event_trigger_table_rewrite_reason" {
		col = 1
	}
	return []value.Row{{s.evtRows[0][col]}}, nil
}
