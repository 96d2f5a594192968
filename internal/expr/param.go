package expr

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// ParamSlot is one parameter $N of a prepared statement: the type its
// uses deduce, and the value bound for the current execution. Every Param
// of $N shares the slot, so a statement bound once runs with new values.
type ParamSlot struct {
	N   int        // 1-based
	T   value.Type // value.UnknownType until a use gives it a type
	V   value.Value
	Set bool // V holds this execution's value
	// Domain is the domain the parameter was declared of (PREPARE
	// p(posint)): T is its base type, and a value set must pass its
	// checks.
	Domain *Domain
	// Reg is the reg* type of a parameter cast to one ($1::regtype): T
	// is text, the object's name or its oid, which the cast looks up
	// when the statement runs; a client is told the parameter is of Reg,
	// as PostgreSQL tells it.
	Reg value.Kind
}

// Param reads a parameter's slot. T is the type the use was bound with:
// the slot's type, or Unknown for a use seen before any use deduced the
// slot's type (as an untyped literal, it is then coerced where used).
type Param struct {
	Slot *ParamSlot
	T    value.Type
}

func (p *Param) Type() value.Type { return p.T }
func (p *Param) Volatile() bool   { return false }
func (*Param) expr()              {}
func (p *Param) String() string   { return "$" + strconv.Itoa(p.Slot.N) }

func (p *Param) Eval(value.Row) (value.Value, error) {
	if !p.Slot.Set {
		return value.Null, pgerr.New(pgerr.ProtocolViolation, "no value is bound to parameter $%d", p.Slot.N)
	}
	return p.Slot.V, nil
}

// coerceParam coerces an untyped use of a parameter: the first context to
// coerce it gives the slot its type, as PostgreSQL deduces a parameter's
// type from its first use; later uses are cast from that type.
func coerceParam(p *Param, to value.Type, explicit bool) (Expr, error) {
	if to.Kind == value.Unknown {
		return p, nil
	}
	if p.Slot.T.Kind == value.Unknown {
		p.Slot.T = to
	}
	return Coerce(&Param{Slot: p.Slot, T: p.Slot.T}, to, explicit)
}
