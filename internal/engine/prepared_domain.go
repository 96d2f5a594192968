package engine

import (
	"github.com/deltaview/deltaview/internal/value"
)

// CheckArgs checks the arguments of p's parameters declared of a domain
// (PREPARE p(posint), or a domain's oid given at Parse) against the
// domain's constraints, as PostgreSQL's Bind does: the domain's input
// function checks them, so that the error arrives at Bind, before any
// Execute. args are $1…$n as ExecPrepared takes them; ExecPrepared checks
// them again, against the catalog as it is then.
func (s *Session) CheckArgs(p *Prepared, args []value.Value) error {
	p.mu.Lock()
	domains := p.domains
	p.mu.Unlock()
	if len(domains) == 0 {
		return nil
	}
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	for i := range domains {
		slot := &domains[i]
		if slot.N > len(args) {
			continue // the count is refused by ExecPrepared
		}
		if _, err := s.paramValue(slot, args[slot.N-1]); err != nil {
			return err
		}
	}
	return nil
}
