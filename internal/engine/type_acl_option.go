package engine

import (
	"maps"
	"slices"
)

// A type's grant option (GRANT USAGE ON TYPE … WITH GRANT OPTION) is kept
// apart from its ACL's grantees (type_acl.go), as the roles of the ACL
// that hold it: typacl shows it as "U*", has_type_privilege answers
// … WITH GRANT OPTION from it, REVOKE GRANT OPTION FOR takes it alone
// and REVOKE with the privilege. Every item's grantor is still the
// type's owner: a role holding the option on a type it does not own is
// refused when it grants (0A000).

// setTypeOptions makes opts the roles holding the grant option of the
// type name, copying the map as setTypeACL copies the ACLs (a
// transaction block's image keeps the old one).
func (e *Engine) setTypeOptions(name string, opts []string) {
	if len(opts) == 0 && e.typeOptions[name] == nil {
		return
	}
	next := maps.Clone(e.typeOptions)
	if len(opts) == 0 {
		delete(next, name)
	} else {
		if next == nil {
			next = map[string][]string{}
		}
		next[name] = opts
	}
	e.typeOptions = next
}

// typeOptionHeld reports whether role holds the grant option of the type
// name itself or through a role whose privileges it holds.
func (e *Engine) typeOptionHeld(role, name string) bool {
	for _, h := range e.heldRoles(role) {
		if slices.Contains(e.typeOptions[name], h) {
			return true
		}
	}
	return false
}
