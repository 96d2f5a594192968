package engine

// A relation's row type (a table's, a view's, a materialized view's)
// takes GRANT and REVOKE … ON TYPE as PostgreSQL keeps them, in its
// typacl, an ACL like a type's (type_acl.go) under the relation's key:
// its owner is the relation's, ALTER TABLE … OWNER TO (and REASSIGN
// OWNED) puts the new owner in the old one's items, the ACL follows the
// relation's renames and moves and goes with DROP. A temporary
// relation's is kept in memory alone, as the relation. A role that is no
// superuser needs it for a column of the row type (typeKeyOf), as for a
// type's.

// rowTypeGrantable reports whether name is the key of a relation whose
// row type takes GRANT: a table's, a view's or a materialized view's
// (a sequence has none).
func (e *Engine) rowTypeGrantable(name string) bool {
	if e.userTypeExists(name) {
		return false
	}
	_, rel := e.kindOf(name)
	return rel
}

// typeACLOwner is the owner of the type name as its ACL sees it: a row
// type's is its relation's.
func (e *Engine) typeACLOwner(name string) string {
	if e.rowTypeGrantable(name) {
		return e.relOwner(name)
	}
	return e.typeOwner(name)
}

// moveRowTypeACL gives the ACL of the row type of the relation old to
// its new key.
func (e *Engine) moveRowTypeACL(old, new string) error {
	acl, ok := e.typeACLs[old]
	if !ok || old == new {
		return nil
	}
	opts := e.typeOptions[old]
	if err := e.setTypeACL(old, nil); err != nil {
		return err
	}
	return e.setTypeACLWith(new, acl, opts)
}
