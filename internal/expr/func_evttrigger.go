package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// EventTriggerBackend is the side of a session that the functions an
// event trigger's function calls read: pg_event_trigger_ddl_commands()
// and pg_event_trigger_dropped_objects(). A Backend implements it when
// its session runs event triggers.
type EventTriggerBackend interface {
	// EventTriggerRows are the rows of the function fn (one of
	// EventTriggerFuncs) for the event trigger running, each of its
	// columns' width; an error (39P03) when none runs, or one of another
	// event.
	EventTriggerRows(fn string) ([]value.Row, error)
}

// EventTriggerFunc is a set-returning function of an event trigger's
// function: its columns' names and types.
type EventTriggerFunc struct {
	Names []string
	Cols  []value.Type
}

var textArrayType = value.Type{Kind: value.ArrayOf(value.Text), Mod: -1}

// EventTriggerFuncs are the set-returning functions an event trigger's
// function may call, by name, with PostgreSQL's columns (but
// pg_event_trigger_ddl_commands' command, of the internal type
// pg_ddl_command, which no SQL can read).
var EventTriggerFuncs = map[string]*EventTriggerFunc{
	"pg_event_trigger_ddl_commands": {
		Names: []string{"classid", "objid", "objsubid", "command_tag", "object_type", "schema_name", "object_identity", "in_extension"},
		Cols: []value.Type{value.OidType, value.OidType, value.Int4Type, value.TextType, value.TextType, value.TextType,
			value.TextType, value.BoolType},
	},
	"pg_event_trigger_dropped_objects": {
		Names: []string{"classid", "objid", "objsubid", "original", "normal", "is_temporary", "object_type",
			"schema_name", "object_name", "object_identity", "address_names", "address_args"},
		Cols: []value.Type{value.OidType, value.OidType, value.Int4Type, value.BoolType, value.BoolType, value.BoolType,
			value.TextType, value.TextType, value.TextType, value.TextType, textArrayType, textArrayType},
	},
}
