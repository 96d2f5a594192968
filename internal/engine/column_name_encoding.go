package engine

import (
	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// checkColumnNames fails a statement whose result columns' names do not
// convert to the session's client_encoding with PostgreSQL's 22P05 for
// the first character that does not: PostgreSQL converts the names as it
// sends the row description, when the statement starts running, so the
// statement changes nothing. The error has no CONTEXT, as PostgreSQL's.
func (s *Session) checkColumnNames(b sql.Bound) error {
	cols, ok := resultColumns(b)
	if !ok {
		return nil
	}
	name, _ := s.setting("client_encoding")
	enc, err := pgenc.Get(name)
	if err != nil || enc == nil {
		return nil
	}
	for _, c := range cols {
		if _, err := enc.FromUTF8(nil, []byte(c.Name)); err != nil {
			e := *pgerr.Wrap(err)
			e.NoContext = true
			return &e
		}
	}
	return nil
}
