package engine

import (
	"maps"
	"slices"
)

// The session's temporary relations across the catalog changes of its
// transaction block. Inside a block a catalog change of the session's
// temporary relations (DROP, ALTER TABLE, CREATE VIEW over one) runs as
// any other (blockCatalog): the catalog's image keeps the relations
// themselves, rows, indexes and views over them included. What only the
// session holds — which of its names map to which of the engine's
// relations, and which of them the block made — is kept beside the
// image, so that ROLLBACK and ROLLBACK TO give the session back its names
// as PostgreSQL gives back its pg_temp schema's entries.

// keepTempsForUndo has the undo of the block's running catalog change
// give the session back its temporary relations' names and the list of
// those the block made, as they are now.
func (s *Session) keepTempsForUndo() {
	temps, made := maps.Clone(s.temps), len(s.tempsMade)
	s.e.onCatalogUndo(func() {
		for _, k := range s.tempsMade[made:] {
			if !slices.Contains(s.tempsMade[:made], k) {
				delete(s.e.tempPending, k)
			}
		}
		s.tempsMade = s.tempsMade[:made]
		s.e.temps += len(temps) - len(s.temps)
		s.temps = maps.Clone(temps)
	})
}

// dropTempsSince drops the temporary relations the block made after its
// first made ones, as ROLLBACK TO a savepoint set then undoes their
// creation in PostgreSQL; the caller holds no lock.
func (s *Session) dropTempsSince(made int) {
	if len(s.tempsMade) <= made {
		return
	}
	later := slices.Clone(s.tempsMade[made:])
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	s.tempsMade = s.tempsMade[:made]
	for _, k := range later {
		if !slices.Contains(s.tempsMade, k) {
			delete(s.e.tempPending, k)
		}
	}
	s.dropTemps(func(t *tempTable) bool {
		return !slices.Contains(later, t.name) || slices.Contains(s.tempsMade, t.name)
	})
}
