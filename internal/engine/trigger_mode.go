package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// When a trigger fires, as PostgreSQL decides it: ENABLE (tgenabled 'O')
// fires under session_replication_role origin and local, ENABLE REPLICA
// ('R') under replica only, ENABLE ALWAYS ('A') under any, DISABLE ('D')
// never. Under replica the FOREIGN KEY constraints are not enforced
// either: PostgreSQL's are triggers enabled 'O'. The rows a subscription
// applies (Engine.replica) are checked against no constraint and fire no
// trigger (trigger_fire.go).

// tgenabled is pg_trigger.tgenabled.
func (tr *trigger) tgenabled() string {
	switch {
	case !tr.enabled:
		return "D"
	case tr.mode != 0:
		return string(tr.mode)
	}
	return "O"
}

// firesIn reports whether tr fires under replica or not.
func (tr *trigger) firesIn(replica bool) bool {
	switch {
	case !tr.enabled:
		return false
	case tr.mode == 'A':
		return true
	case tr.mode == 'R':
		return replica
	}
	return !replica
}

// anyFires reports whether one of list fires under replica or not.
func anyFires(list []*trigger, replica bool) bool {
	for _, tr := range list {
		if tr.firesIn(replica) {
			return true
		}
	}
	return false
}

// modeText is the ALTER TABLE that gives a trigger its mode after its
// CREATE TRIGGER, for the store; "" for ENABLE.
func (tr *trigger) modeText() string {
	kw := map[byte]string{'A': "ALWAYS", 'R': "REPLICA"}[tr.mode]
	if kw == "" {
		return ""
	}
	return ";\nALTER TABLE " + expr.QuoteIdent(tr.table) + " ENABLE " + kw + " TRIGGER " + expr.QuoteIdent(tr.name)
}

// replicaRole reports whether the change running is under replica: a
// subscription's rows, or a statement of a session whose
// session_replication_role is replica.
func (e *Engine) replicaRole() bool {
	return e.replica || e.firer != nil && e.firer.replicationRole() == "replica"
}

// replicationRole is the session's session_replication_role.
func (s *Session) replicationRole() string {
	v, _ := s.setting("session_replication_role")
	return v
}

// checkReplicationRole refuses SET session_replication_role to a role
// that is no superuser, as PostgreSQL does (a superuser-only setting).
func (s *Session) checkReplicationRole(name string) error {
	if name != "session_replication_role" || s.Superuser() {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set parameter %q", name)
}
