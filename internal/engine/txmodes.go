package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Transaction modes. BEGIN's modes (ISOLATION LEVEL, READ WRITE, …) are
// set as SET TRANSACTION sets them: the transaction's values of
// transaction_isolation, transaction_read_only and transaction_deferrable,
// refused as SET TRANSACTION refuses what the engine does not do (0A000:
// every transaction runs at READ COMMITTED and may write). COMMIT AND
// CHAIN and ROLLBACK AND CHAIN end the block and open the next at once,
// with the same modes.

// setModes sets a transaction's modes; on error the caller's statement
// fails and the modes it set go with it.
func (s *Session) setModes(modes []sql.Set) error {
	for _, m := range modes {
		if err := s.setSetting(m.Name, m.Value, false, true); err != nil {
			return err
		}
	}
	return nil
}

// txModes returns the open transaction's modes, for the transaction that
// AND CHAIN opens after it.
func (s *Session) txModes() []sql.Set {
	var out []sql.Set
	for name, v := range s.gucs.local {
		if d := gucDefs[name]; d != nil && d.transaction != "" {
			out = append(out, sql.Set{Name: name, Value: v, Local: true})
		}
	}
	slices.SortFunc(out, func(a, b sql.Set) int {
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	return out
}

// chain opens the transaction block that AND CHAIN starts, with the modes
// of the one that ended: a new transaction, whose now() is its own start.
func (s *Session) chain(modes []sql.Set) {
	s.block = true
	s.txStart = expr.ClockMicros()
	s.setModes(modes) // they were accepted once: they are again
}
