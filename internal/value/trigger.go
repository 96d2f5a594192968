package value

import "github.com/deltaview/deltaview/internal/pgerr"

// trigger and event_trigger are the pseudo-types of trigger functions'
// results: no value of them is ever made, as PostgreSQL's trigger_in
// refuses every text, and they have no comparison, array type or column.

// TriggerType is trigger.
var TriggerType = Type{Trigger, -1}

// EventTriggerType is event_trigger.
var EventTriggerType = Type{EventTrigger, -1}

// IsValueless reports whether k is a pseudo-type no value is made of.
func (k Kind) IsValueless() bool { return k == Trigger || k == EventTrigger }

// ErrPseudoValue is the error reading a value of a pseudo-type that has
// none (0A000), as the type's input function gives it.
func ErrPseudoValue(k Kind) error {
	return pgerr.New(pgerr.FeatureNotSupported, "cannot accept a value of type %s", k)
}
