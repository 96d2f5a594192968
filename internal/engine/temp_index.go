package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The indexes of a session's temporary tables are the session's, as
// PostgreSQL makes them in the session's pg_temp schema: kept under the
// session's prefix like its tables, named without it, never written to
// the store, dropped with their table, at a rollback of the block that
// made them, and with the session.

// createTempIndex runs CREATE INDEX on the session's temporary table.
func (s *Session) createTempIndex(ci *sql.CreateIndex, text string) (Result, error) {
	s.forgetTemps()
	bare := ci.Name
	if i := strings.LastIndexByte(bare, '.'); i >= 0 {
		bare = bare[i+1:] // a default name, made from the table's key
	}
	taken := func(n string) bool {
		_, ok := s.temps[n]
		return ok || s.e.relationExists(s.tempNS+n)
	}
	name := bare
	if ci.DefaultName {
		for i := 1; taken(name); i++ {
			name = fmt.Sprintf("%s%d", bare, i)
		}
	} else if taken(name) {
		if ci.IfNotExists {
			return Result{Tag: "CREATE INDEX", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
	}
	c := *ci
	c.Name, c.DefaultName = s.tempNS+name, false
	res, err := s.e.createIndex(&c, text)
	if err != nil {
		return Result{}, err
	}
	s.addTemp(name, &tempTable{name: c.Name})
	return res, nil
}

// forgetTempIndexes drops the indexes among names, the session's
// temporary relations being dropped, from their tables.
func (s *Session) forgetTempIndexes(names []string) {
	for _, n := range names {
		if t := s.e.indexes[n]; t != nil {
			s.e.forgetIndex(t, n)
		}
	}
}

// reindexEmptied gives fresh, the emptied copy of the temporary table t
// (ON COMMIT DELETE ROWS), t's indexes, empty.
func (e *Engine) reindexEmptied(t, fresh *table) {
	for _, ix := range slices.Concat(t.indexes, t.xindexes) {
		if ix.def == nil {
			continue
		}
		if _, err := fresh.makeIndex(ix.def, ix.name, ix.text); err == nil { // an empty table's cannot fail
			e.indexes[ix.name] = fresh
		}
	}
}
