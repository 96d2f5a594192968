package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// User-defined types: CREATE TYPE … AS ENUM, ALTER TYPE and DROP TYPE.
// The catalog that holds them (TypeCatalog) resolves their names where a
// built-in type's name would be, after the built-in types, as
// PostgreSQL's search_path puts pg_catalog first.

// TypeCatalog is a Catalog that holds user-defined types.
type TypeCatalog interface {
	// UserType returns the type named, and whether there is one.
	UserType(name string) (value.Type, bool)
}

// CreateEnum is CREATE TYPE name AS ENUM (labels).
type CreateEnum struct {
	Name   string
	Labels []string
}

// AlterEnum is ALTER TYPE name ADD VALUE or RENAME VALUE.
type AlterEnum struct {
	Name string
	// Rename is RENAME VALUE From TO Label; otherwise ADD VALUE Label,
	// last or BEFORE/AFTER Neighbour.
	Rename      bool
	From, Label string
	Neighbour   string
	Before      bool
	IfNotExists bool
}

// RenameType is ALTER TYPE name RENAME TO new.
type RenameType struct {
	Name, New string
	// Move is set by ALTER TYPE … SET SCHEMA, New then in the new schema.
	Move bool
}

// DropType is DROP TYPE.
type DropType struct {
	Names    []string
	IfExists bool
	Cascade  bool
}

func (*CreateEnum) bound() {}
func (*AlterEnum) bound()  {}
func (*RenameType) bound() {}
func (*DropType) bound()   {}

// userType resolves a user-defined type's name; ok is false when the
// catalog holds none of that name.
func (b *binder) userType(names []string) (value.Type, bool) {
	tc, is := b.cat.(TypeCatalog)
	if !is {
		return value.Type{}, false
	}
	if len(names) == 2 && names[0] == "public" {
		names = names[1:]
	}
	if len(names) == 2 {
		// Another schema's, named so where QualifyNames did not pass (a
		// function's body): its key.
		if k, ok := b.otherSchemaKey([]*pg_query.Node{pg_query.MakeStrNode(names[0]), pg_query.MakeStrNode(names[1])}); ok {
			return tc.UserType(k)
		}
	}
	if len(names) != 1 {
		return value.Type{}, false
	}
	return tc.UserType(names[0])
}

// typeObjectName is the name a CREATE, ALTER or DROP TYPE statement
// gives: unqualified, in the schema public, or a built-in type's.
func (b *binder) typeObjectName(nodes []*pg_query.Node) (string, error) {
	var names []string
	for _, n := range nodes {
		names = append(names, n.GetString_().GetSval())
	}
	switch {
	case len(names) == 1:
		return names[0], nil
	case len(names) == 2 && (names[0] == "public" || names[0] == "pg_catalog"):
		return names[1], nil // pg_catalog: a built-in type, as the grammar spells integer
	case len(names) == 2:
		return "", b.outOfPublic(names[0], "types")
	}
	return "", pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(names, "."))
}

func (b *binder) bindCreateEnum(s *pg_query.CreateEnumStmt) (Bound, error) {
	name, err := b.typeObjectName(s.TypeName)
	if err != nil {
		return nil, err
	}
	c := &CreateEnum{Name: name}
	for _, v := range s.Vals {
		c.Labels = append(c.Labels, v.GetString_().GetSval())
	}
	return c, nil
}

func (b *binder) bindAlterEnum(s *pg_query.AlterEnumStmt) (Bound, error) {
	name, err := b.typeObjectName(s.TypeName)
	if err != nil {
		return nil, err
	}
	if s.OldVal != "" {
		return &AlterEnum{Name: name, Rename: true, From: s.OldVal, Label: s.NewVal}, nil
	}
	return &AlterEnum{Name: name, Label: s.NewVal, Neighbour: s.NewValNeighbor, Before: !s.NewValIsAfter,
		IfNotExists: s.SkipIfNewValExists}, nil
}

func (b *binder) bindRenameType(rs *pg_query.RenameStmt) (Bound, error) {
	if _, isDomain := b.domain(b.keyOfNames(rs.Object.GetList().GetItems())); isDomain {
		// ALTER TYPE renames or moves a domain as ALTER DOMAIN does.
		ds := proto.Clone(rs).(*pg_query.RenameStmt)
		ds.RenameType = pg_query.ObjectType_OBJECT_DOMAIN
		bound, err := b.bindRenameDomain(ds)
		if ad, ok := bound.(*AlterDomain); ok {
			ad.AsType = true
		}
		return bound, err
	}
	name, err := b.typeObjectName(rs.Object.GetList().GetItems())
	if err != nil {
		return nil, err
	}
	return &RenameType{Name: name, New: rs.Newname}, nil
}

func (b *binder) bindDropType(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropType{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, o := range ds.Objects {
		tn := o.GetTypeName()
		if tn == nil {
			return nil, pgerr.New(pgerr.SyntaxError, "DROP TYPE takes types' names")
		}
		name, err := b.typeObjectName(tn.Names)
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(tn.Location))
		}
		d.Names = append(d.Names, name)
	}
	return d, nil
}
