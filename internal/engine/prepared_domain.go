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

// ParamDomainOIDs returns, for each parameter $1…$n of the last binding,
// the oid of the domain it is of (declared, or inferred from a cast or
// an assignment to a column of the domain, as PostgreSQL infers it),
// 0 for a parameter of a base type: what ParameterDescription reports.
func (p *Prepared) ParamDomainOIDs() []uint32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]uint32, len(p.types))
	for _, slot := range p.domains {
		if slot.N >= 1 && slot.N <= len(out) {
			out[slot.N-1] = objectOID("type", slot.Domain.Name())
		}
	}
	return out
}
