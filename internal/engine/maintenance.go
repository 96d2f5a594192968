package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// execMaintenance runs VACUUM, ANALYZE, CHECKPOINT and DISCARD. The first
// three have nothing to do: tables keep no dead rows, the planner no
// statistics, and a commit is durable when acknowledged. DISCARD ALL
// resets the session's settings and what it remembers of sequences (the
// server also closes its prepared statements and portals), DISCARD
// SEQUENCES the latter, DISCARD TEMP (and ALL) drops the session's
// temporary tables, and DISCARD ALL ends its LISTENs (UNLISTEN *); the
// engine caches no plans.
func (s *Session) execMaintenance(m *sql.Maintenance) (Result, error) {
	if m.NoBlock && s.block {
		return Result{}, pgerr.New(pgerr.ActiveTransaction, "%s cannot run inside a transaction block", m.Tag)
	}
	switch m.Tag {
	case "DISCARD ALL":
		s.resetSettings()
		// As SET SESSION AUTHORIZATION DEFAULT, which DISCARD ALL runs.
		delete(s.gucs.vals, "role")
		delete(s.gucs.vals, "session_authorization")
		s.applySettings()
		s.discardTemps()
		s.seq = seqState{}
		clear(s.prepared)
		s.ntx.actions = append(s.ntx.actions, sql.Listen{Unlisten: true}) // UNLISTEN *
	case "DISCARD SEQUENCES":
		s.seq = seqState{}
	case "DISCARD TEMP":
		s.discardTemps()
	}
	return Result{Tag: m.Tag}, nil
}
