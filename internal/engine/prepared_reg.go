package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/value"
)

// ParamRegKinds returns, for each parameter $1…$n of the last binding,
// the reg* type it is cast to ($1::regtype), which PostgreSQL infers as
// the parameter's type and ParameterDescription reports; 0 for any
// other. The parameter's value is text still (ParamTypes): the object's
// name, or its oid's digits.
func (p *Prepared) ParamRegKinds() []value.Kind {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.regs == nil {
		return make([]value.Kind, len(p.types))
	}
	return slices.Clone(p.regs)
}
