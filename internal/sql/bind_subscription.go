package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// CreateSubscription is CREATE SUBSCRIPTION name CONNECTION '…'
// PUBLICATION p [WITH (slot_name = …, enabled = …)].
type CreateSubscription struct {
	Name        string
	Conn        string
	Publication string
	// Slot is the replication slot's name; the subscription's name when
	// the statement gives none.
	Slot string
	// Disabled: WITH (enabled = false), created without starting.
	Disabled bool
	// ChangeStream: WITH (change_stream = true), the tables with a primary
	// key that the subscription creates are change-stream tables.
	ChangeStream bool
}

// AlterSubscription is ALTER SUBSCRIPTION name ENABLE | DISABLE.
type AlterSubscription struct {
	Name   string
	Enable bool
}

// DropSubscription is DROP SUBSCRIPTION [IF EXISTS] name.
type DropSubscription struct {
	Name     string
	IfExists bool
}

func (*CreateSubscription) bound() {}
func (*AlterSubscription) bound()  {}
func (*DropSubscription) bound()   {}

func (b *binder) bindCreateSubscription(cs *pg_query.CreateSubscriptionStmt) (Bound, error) {
	if len(cs.Publication) != 1 {
		return nil, b.refuse(-1, "a subscription reads exactly one publication")
	}
	out := &CreateSubscription{Name: cs.Subname, Conn: cs.Conninfo, Publication: cs.Publication[0].GetString_().Sval, Slot: cs.Subname}
	for _, o := range cs.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		val, isBool, on := defArg(d)
		switch strings.ToLower(d.Defname) {
		case "slot_name":
			if d.Arg == nil || val == "" {
				return nil, b.stmt.errf(d.Location, pgerr.InvalidParameter, "slot_name needs a name")
			}
			out.Slot = val
		case "enabled", "change_stream":
			if !isBool {
				return nil, b.stmt.errf(d.Location, pgerr.InvalidParameter, "%s requires a Boolean value", d.Defname)
			}
			if strings.EqualFold(d.Defname, "enabled") {
				out.Disabled = !on
			} else {
				out.ChangeStream = on
			}
		default:
			return nil, b.stmt.errf(d.Location, pgerr.FeatureNotSupported, "subscription option %s is not supported", d.Defname)
		}
	}
	return out, nil
}

func (b *binder) bindAlterSubscription(as *pg_query.AlterSubscriptionStmt) (Bound, error) {
	if as.Kind != pg_query.AlterSubscriptionType_ALTER_SUBSCRIPTION_ENABLED {
		return nil, b.refuse(-1, "ALTER SUBSCRIPTION supports ENABLE and DISABLE only")
	}
	enable := false
	for _, o := range as.Options {
		if d := o.GetDefElem(); d != nil && d.Defname == "enabled" && d.Arg.GetBoolean() != nil {
			enable = d.Arg.GetBoolean().Boolval
		}
	}
	return &AlterSubscription{Name: as.Subname, Enable: enable}, nil
}
