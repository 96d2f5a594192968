package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// AlterTypeOwner is ALTER TYPE | DOMAIN name OWNER TO role.
type AlterTypeOwner struct {
	Domain bool // ALTER DOMAIN: the type must be a domain
	Name   string
	// Owner is the new owner; empty for the session's role
	// (CURRENT_USER, SESSION_USER, CURRENT_ROLE).
	Owner string
}

func (*AlterTypeOwner) bound() {}

func (b *binder) bindAlterTypeOwner(ao *pg_query.AlterOwnerStmt) (Bound, error) {
	name, err := b.typeKeyOf(ao.Object.GetList().GetItems())
	if err != nil {
		return nil, err
	}
	owner, err := b.newOwner(ao.Newowner)
	if err != nil {
		return nil, err
	}
	return &AlterTypeOwner{Domain: ao.ObjectType == pg_query.ObjectType_OBJECT_DOMAIN, Name: name, Owner: owner}, nil
}

// typeKeyOf is the key of the type a statement's name list names: a type
// of a user's schema by its key, another by typeObjectName.
func (b *binder) typeKeyOf(items []*pg_query.Node) (string, error) {
	if sch, _, _ := nameParts(items); len(items) == 2 && sch != "pg_catalog" && !systemSchema(sch) {
		return b.keyOfNames(items), nil
	}
	return b.typeObjectName(items)
}
