package engine

import "maps"

// A type's grant option (GRANT USAGE ON TYPE … WITH GRANT OPTION) is kept
// apart from its ACL's grantees (type_acl.go), as the roles of the ACL
// that hold it: typacl shows it as "U*", has_type_privilege answers
// … WITH GRANT OPTION from it, REVOKE GRANT OPTION FOR takes it alone
// and REVOKE with the privilege. A role holding the option on a type it
// does not own grants as itself (type_grantor.go): the roles here are the
// keys of the items holding it.

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
