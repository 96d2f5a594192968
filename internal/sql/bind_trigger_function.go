package sql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// triggerResult checks a function declared RETURNS trigger, as
// PostgreSQL's validators do: only PL/pgSQL, and no declared parameters
// (a trigger's arguments arrive in TG_ARGV). It keeps no result column:
// the function cannot be called in an expression.
func (b *binder) triggerResult(f *Function) error {
	if f.Language != LangPLpgSQL {
		return pgerr.New(CodeInvalidFunctionDef, "SQL functions cannot return type trigger")
	}
	if len(f.Params) > 0 {
		return pgerr.New(CodeInvalidFunctionDef, "trigger functions cannot have declared arguments").
			WithHint("The arguments of the trigger can be accessed through TG_NARGS and TG_ARGV instead.")
	}
	f.Trigger = true
	return nil
}

// TriggerType is the result type of a trigger function: trigger, or
// event_trigger for an event trigger's.
func (f *Function) TriggerType() value.Type {
	if f.EventTrigger {
		return value.EventTriggerType
	}
	return value.TriggerType
}

// ErrTriggerCall is PostgreSQL's error for a call of a trigger function
// in an expression or in FROM.
func ErrTriggerCall() error {
	return pgerr.New(pgerr.FeatureNotSupported, "trigger functions can only be called as triggers")
}
