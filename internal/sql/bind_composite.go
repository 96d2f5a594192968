package sql

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Composite types: CREATE TYPE name AS (attribute type, …) and ALTER
// TYPE's attribute forms. A composite type is a named record type
// (value.CompositeTypeOf) whose attributes may be of any column type, a
// domain included; the binder reads one as it reads a relation's row type
// (rowTypeNamed), as PostgreSQL keeps a composite type as a relation of
// its own kind.

// CompositeCatalog is a TypeCatalog that holds composite types.
type CompositeCatalog interface {
	// CompositeType returns the composite type named, and whether there
	// is one.
	CompositeType(name string) (*CompositeType, bool)
}

// CompositeType is a composite type: its record type and its attributes
// (a domain attribute's Type is the domain's base type).
type CompositeType struct {
	Name  string
	Type  value.Type
	Attrs []ColumnDef
	// Dropped are the attributes DROP ATTRIBUTE dropped, which keep their
	// numbers (composite_attnum.go); each keeps its Def.
	Dropped []DroppedColumn
}

// CreateComposite is CREATE TYPE name AS (attrs…).
type CreateComposite struct {
	Name  string
	Attrs []ColumnDef
}

// AlterComposite is ALTER TYPE name ADD, DROP, ALTER or RENAME
// ATTRIBUTE: Attrs are the type's attributes after the change.
type AlterComposite struct {
	Name    string
	Attrs   []ColumnDef
	Dropped []DroppedColumn // all the type's dropped attributes after it
	// Retyped is the first attribute whose type changes ("" for none),
	// which PostgreSQL refuses while a column uses the type.
	Retyped string
	// Notices are those of IF EXISTS clauses that found nothing.
	Notices []string
	// Cascade is set by CASCADE, which alters the typed tables too, as
	// the ALTER TABLE tableStmt is (composite_cascade.go).
	Cascade   bool
	tableStmt *pg_query.Node
}

func (*CreateComposite) bound() {}
func (*AlterComposite) bound()  {}

// CompositeSQL is the CREATE TYPE statement that makes a composite type
// of these attributes, as a store records it; with dropped attributes,
// followed by the ALTER TYPE that drops them (compositeNumberedSQL).
func CompositeSQL(name string, attrs []ColumnDef, dropped []DroppedColumn) string {
	if len(dropped) > 0 {
		return compositeNumberedSQL(name, attrs, dropped)
	}
	return compositeCreateSQL(name, attrs)
}

// compositeCreateSQL is CREATE TYPE name AS (attrs…).
func compositeCreateSQL(name string, attrs []ColumnDef) string {
	var b strings.Builder
	b.WriteString("CREATE TYPE " + QuoteIdent(name) + " AS (")
	for i, a := range attrs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteIdent(a.Name) + " ")
		if a.Domain != nil {
			b.WriteString(QuoteIdent(a.Domain.Name()))
		} else {
			b.WriteString(a.Type.String())
		}
	}
	b.WriteString(")")
	return b.String()
}

// CompositeTypeFields returns the record fields of attributes attrs.
func CompositeTypeFields(attrs []ColumnDef) []value.RecordField {
	fields := make([]value.RecordField, len(attrs))
	for i, a := range attrs {
		fields[i] = value.RecordField{Name: a.Name, Type: a.Type}
	}
	return fields
}

func (b *binder) bindCreateComposite(s *pg_query.CompositeTypeStmt) (Bound, error) {
	rv := s.Typevar
	if rv.Schemaname != "" && rv.Schemaname != "public" {
		return nil, b.outOfPublic(rv.Schemaname, "types")
	}
	c := &CreateComposite{Name: rv.Relname}
	for _, n := range s.Coldeflist {
		cd := n.GetColumnDef()
		if slices.ContainsFunc(c.Attrs, func(a ColumnDef) bool { return a.Name == cd.Colname }) {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", cd.Colname)
		}
		a, err := b.attributeDef(c.Name, cd)
		if err != nil {
			return nil, err
		}
		c.Attrs = append(c.Attrs, a)
	}
	return c, nil
}

// attributeDef binds an attribute of composite type name: any column
// type but the type itself, an array of it, or a type holding it
// (42P16, as PostgreSQL's CheckAttributeType).
func (b *binder) attributeDef(name string, cd *pg_query.ColumnDef) (ColumnDef, error) {
	if cd.CollClause != nil {
		return ColumnDef{}, b.refuse(cd.CollClause.Location, "COLLATE is not supported")
	}
	t, err := b.typeFromName(cd.TypeName)
	if err != nil {
		return ColumnDef{}, err
	}
	if t.Kind == value.Record && t.IsAnonymousRecord() {
		return ColumnDef{}, pgerr.New(pgerr.InvalidTableDef, "column %q has pseudo-type record", cd.Colname)
	}
	if err := checkVoidColumn(cd.Colname, t); err != nil {
		return ColumnDef{}, err
	}
	if HoldsRowType(t, name) {
		return ColumnDef{}, pgerr.New(pgerr.InvalidTableDef, "composite type %s cannot be made a member of itself", name)
	}
	dom, err := b.typeDomain(cd.TypeName)
	if err != nil {
		return ColumnDef{}, err
	}
	return ColumnDef{Name: cd.Colname, Type: t, Domain: dom}, nil
}

// HoldsRowType reports whether values of type t hold a record of the row
// type called name: t is it, an array of it, or a record type with a
// field that holds it.
func HoldsRowType(t value.Type, name string) bool {
	d := t.RecordDesc()
	if d == nil {
		return false
	}
	if d.Name == name {
		return true
	}
	return slices.ContainsFunc(d.Fields, func(f value.RecordField) bool { return HoldsRowType(f.Type, name) })
}

// compositeNamed returns the composite type ALTER TYPE names; a relation
// that is no composite type is 42809, another type's name 42P01 (ALTER
// TYPE's attribute forms resolve a relation, as PostgreSQL's do).
func (b *binder) compositeNamed(rv *pg_query.RangeVar) (*CompositeType, error) {
	if cc, ok := b.cat.(CompositeCatalog); ok {
		if ct, ok := cc.CompositeType(rv.Relname); ok {
			if tc, ok := b.cat.(TypeCatalog); ok {
				tc.UserType(rv.Relname) // the statement names it
			}
			return ct, nil
		}
	}
	if _, ok := b.cat.Relation(rv.Relname); ok {
		return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "%q is not a composite type", rv.Relname)
	}
	return nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
}

// bindAlterComposite binds ALTER TYPE name ADD, DROP or ALTER ATTRIBUTE,
// each command over the attributes the ones before it left.
func (b *binder) bindAlterComposite(as *pg_query.AlterTableStmt) (Bound, error) {
	ct, err := b.compositeNamed(as.Relation)
	if err != nil {
		return nil, err
	}
	ac := &AlterComposite{Name: ct.Name, Attrs: slices.Clone(ct.Attrs), Dropped: slices.Clone(ct.Dropped)}
	find := func(name string) int {
		return slices.IndexFunc(ac.Attrs, func(a ColumnDef) bool { return a.Name == name })
	}
	if !slices.ContainsFunc(as.Cmds, func(n *pg_query.Node) bool {
		return n.GetAlterTableCmd().Behavior != pg_query.DropBehavior_DROP_CASCADE
	}) {
		ac.cascadeTables(&pg_query.Node{Node: &pg_query.Node_AlterTableStmt{AlterTableStmt: as}})
	}
	for _, n := range as.Cmds {
		cmd := n.GetAlterTableCmd()
		switch cmd.Subtype {
		case pg_query.AlterTableType_AT_AddColumn:
			cd := cmd.Def.GetColumnDef()
			if find(cd.Colname) >= 0 {
				return nil, colErr(pgerr.DuplicateColumn, "column %q of relation %q already exists", cd.Colname, ct.Name)
			}
			a, err := b.attributeDef(ct.Name, cd)
			if err != nil {
				return nil, err
			}
			if len(ac.Dropped) > 0 {
				a.Attnum = nextAttnum(ac.Attrs, ac.Dropped)
			}
			ac.Attrs = append(ac.Attrs, a)
		case pg_query.AlterTableType_AT_DropColumn:
			i := find(cmd.Name)
			if i < 0 {
				if cmd.MissingOk {
					ac.Notices = append(ac.Notices, fmt.Sprintf("column %q of relation %q does not exist, skipping", cmd.Name, ct.Name))
					continue
				}
				return nil, colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, ct.Name)
			}
			ac.dropAttr(i)
		case pg_query.AlterTableType_AT_AlterColumnType:
			i := find(cmd.Name)
			if i < 0 {
				return nil, colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, ct.Name)
			}
			cd := cmd.Def.GetColumnDef()
			if cd.RawDefault != nil {
				return nil, b.refuse(nodeLoc(cd.RawDefault, -1), "ALTER ATTRIBUTE … TYPE … USING is not supported")
			}
			cd.Colname = cmd.Name
			a, err := b.attributeDef(ct.Name, cd)
			if err != nil {
				return nil, err
			}
			a.Attnum = ac.Attrs[i].Attnum
			if ac.Retyped == "" && (a.Type != ac.Attrs[i].Type || a.Domain != ac.Attrs[i].Domain) {
				ac.Retyped = a.Name
			}
			ac.Attrs[i] = a
		default:
			return nil, b.refuse(as.Relation.Location, "ALTER TYPE … %s is not supported", strings.ReplaceAll(strings.TrimPrefix(cmd.Subtype.String(), "AT_"), "_", " "))
		}
	}
	return ac, nil
}

// bindRenameAttribute binds ALTER TYPE name RENAME ATTRIBUTE a TO b.
func (b *binder) bindRenameAttribute(rs *pg_query.RenameStmt) (Bound, error) {
	ct, err := b.compositeNamed(rs.Relation)
	if err != nil {
		return nil, err
	}
	ac := &AlterComposite{Name: ct.Name, Attrs: slices.Clone(ct.Attrs), Dropped: ct.Dropped}
	i := slices.IndexFunc(ac.Attrs, func(a ColumnDef) bool { return a.Name == rs.Subname })
	if i < 0 {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", rs.Subname)
	}
	if slices.ContainsFunc(ac.Attrs, func(a ColumnDef) bool { return a.Name == rs.Newname }) {
		return nil, colErr(pgerr.DuplicateColumn, "column %q of relation %q already exists", rs.Newname, ct.Name)
	}
	ac.Attrs[i].Name = rs.Newname
	if rs.Behavior == pg_query.DropBehavior_DROP_CASCADE {
		ac.cascadeTables(&pg_query.Node{Node: &pg_query.Node_RenameStmt{RenameStmt: rs}})
	}
	return ac, nil
}

// rowTypeNamed returns the relation whose row type name names: a table's
// or view's, or a composite type's (a relation of kind KindComposite
// with its attributes as columns).
func (b *binder) rowTypeNamed(name string) (*Relation, bool) {
	if rel, ok := b.rowTypeRelation(name); ok {
		return rel, rel.Kind != KindSequence
	}
	if _, ok := b.userType([]string{name}); !ok {
		return nil, false
	}
	cc, ok := b.cat.(CompositeCatalog)
	if !ok {
		return nil, false
	}
	ct, ok := cc.CompositeType(name)
	if !ok {
		return nil, false
	}
	return ct.Relation(), true
}

// RowTypeCatalog is a Catalog that tells a relation used for its row
// type (a cast, a column's type) from one the statement reads: using a
// row type needs no privilege on its relation, as in PostgreSQL.
type RowTypeCatalog interface {
	RowTypeRelation(name string) (*Relation, bool)
}

// rowTypeRelation looks up the relation name for its row type. An
// unqualified name is first a system catalog's or view's (NULL::pg_class):
// pg_catalog comes first in PostgreSQL's search path for types too.
func (b *binder) rowTypeRelation(name string) (*Relation, bool) {
	rc, ok := b.cat.(RowTypeCatalog)
	if !ok {
		return b.cat.Relation(name)
	}
	if !strings.Contains(name, ".") {
		if rel, ok := rc.RowTypeRelation("pg_catalog." + name); ok && rel.System {
			return rel, true
		}
	}
	return rc.RowTypeRelation(name)
}

// Relation returns the composite type as the binder reads a relation's
// row type.
func (ct *CompositeType) Relation() *Relation {
	rel := &Relation{Name: ct.Name, Kind: KindComposite, RowType: ct.Type, Def: &CreateTable{Name: ct.Name, Cols: ct.Attrs}}
	for _, a := range ct.Attrs {
		rel.Cols = append(rel.Cols, plan.Column{Name: a.Name, Type: a.Type})
	}
	return rel
}

// relationTypeName resolves a type name that names a table: its row type,
// as a column's or an attribute's type. A view's row type is refused
// (0A000): a view's columns change with CREATE OR REPLACE, which would
// leave such a column behind. ok is false for any other name.
func (b *binder) relationTypeName(names []string, mods []int32, loc int32) (value.Type, bool, error) {
	if len(names) == 2 && names[0] == "information_schema" {
		names = []string{names[0] + "." + names[1]} // a system view's row type, keyed so
	}
	if len(names) != 1 || len(mods) > 0 {
		return value.Type{}, false, nil
	}
	rel, ok := b.rowTypeRelation(names[0])
	switch {
	case !ok:
		return value.Type{}, false, nil
	case rel.Kind != KindTable:
		return value.Type{}, true, b.refuse(loc, "a column of the row type of view %s is not supported", rel.Name)
	}
	return relRowType(rel), true, nil
}

// isRowType reports whether t is a named row type: a composite type's or
// a table's.
func isRowType(t value.Type) bool {
	return t.Kind == value.Record && !t.IsAnonymousRecord()
}

// fieldsQuery is SELECT (s.v).* FROM (q) AS s(v): the fields of the
// records q's one column holds, as a function returning a composite type
// gives them in FROM.
func fieldsQuery(q *pg_query.Node) *pg_query.Node {
	star := &pg_query.Node{Node: &pg_query.Node_AIndirection{AIndirection: &pg_query.A_Indirection{
		Arg: columnRef(-1, "s", "v"), Indirection: []*pg_query.Node{{Node: &pg_query.Node_AStar{AStar: &pg_query.A_Star{}}}}}}}
	from := &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Subquery: q, Alias: &pg_query.Alias{Aliasname: "s", Colnames: []*pg_query.Node{pg_query.MakeStrNode("v")}}}}}
	return selectNode(&pg_query.SelectStmt{TargetList: []*pg_query.Node{resTarget(star, "")}, FromClause: []*pg_query.Node{from}})
}
