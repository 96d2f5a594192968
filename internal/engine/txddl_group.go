package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// groupSavepoint names the savepoint that makes a statement run as several
// catalog statements one unit inside a block: no SQL name can be it.
const groupSavepoint = "\x00group"

// asOneBlock runs the statements texts in the session as one unit, as
// PostgreSQL runs the one statement they stand for (REASSIGN OWNED, DROP
// OWNED): outside a transaction block inside one of their own, committed
// at their end; inside one after a savepoint, rolled back to when one of
// them fails, which fails the block. It keeps no state: the block's undo
// of catalog changes (txddl.go) does the work.
func (s *Session) asOneBlock(texts []string) error {
	stmts := make([]*sql.Stmt, len(texts))
	for i, text := range texts {
		st, err := sql.Parse(text)
		if err != nil {
			return err
		}
		stmts[i] = st
	}
	run := func() error {
		for _, st := range stmts {
			if _, err := s.Exec(st); err != nil {
				pe := *pgerr.Wrap(err)
				pe.Position = 0 // in the statement's own text, not the client's
				return &pe
			}
		}
		return nil
	}
	if !s.block {
		if len(stmts) == 0 {
			return nil
		}
		if err := s.execText("BEGIN"); err != nil {
			return err
		}
		if err := run(); err != nil {
			s.execText("ROLLBACK") //nolint:errcheck // the statement's error is the one to report
			return err
		}
		return s.execText("COMMIT")
	}
	s.setSavepoint(groupSavepoint)
	i := len(s.savepoints) - 1
	err := run()
	if err != nil {
		s.rollbackTo(i)
	}
	clear(s.savepoints[i:])
	s.savepoints = s.savepoints[:i]
	if err != nil {
		s.failed = true
	}
	return err
}

// execText runs one statement of text in the session.
func (s *Session) execText(text string) error {
	st, err := sql.Parse(text)
	if err != nil {
		return err
	}
	_, err = s.Exec(st)
	return err
}
