package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
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

// ErrTriggerCall is PostgreSQL's error for a call of a trigger function
// in an expression or in FROM.
func ErrTriggerCall() error {
	return pgerr.New(pgerr.FeatureNotSupported, "trigger functions can only be called as triggers")
}

// refuseTrigger refuses CREATE TRIGGER, pointing at the statement: no
// DML path runs trigger functions yet.
func (b *binder) refuseTrigger(ct *pg_query.CreateTrigStmt) error {
	kind := "CREATE TRIGGER"
	if ct.Isconstraint {
		kind = "CREATE CONSTRAINT TRIGGER"
	}
	return b.refuse(0, "%s is not supported", kind).
		WithHint("a trigger function may be created, but no statement runs it yet; write the rows' changes in the statements themselves")
}
