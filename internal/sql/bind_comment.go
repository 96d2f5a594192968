package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// CommentKind is the kind of object COMMENT ON names.
type CommentKind byte

// The objects a comment may describe.
const (
	CommentTable CommentKind = iota
	CommentView
	CommentMatView
	CommentIndex
	CommentColumn
	CommentSequence
	// The objects other than relations (bind_comment_objects.go).
	CommentType
	CommentDomain
	CommentSchema
	CommentFunction
	CommentProcedure
	CommentAggregate
	CommentRole
	CommentDatabase
	CommentConstraint
	CommentDomainConstraint
	CommentTrigger
	CommentRule
	CommentPolicy
	CommentExtension
	CommentStatistics
	CommentOperator
)

// Comment is COMMENT ON TABLE | VIEW | MATERIALIZED VIEW | INDEX | COLUMN
// | SEQUENCE … IS 'text' | NULL: the object's description. Text "" (NULL, or an
// empty string) removes it. The object is checked where the catalog is
// kept (an index is not a relation the binder sees).
type Comment struct {
	Kind     CommentKind
	Relation string
	Column   string // COMMENT ON COLUMN only
	Text     string
	// Object names an object other than a relation: a type's, a schema's,
	// a role's, a database's or an extension's name, or, with Member, the
	// relation or domain whose constraint, trigger, rule or policy Member
	// names; Routine a function, procedure or aggregate; Operator an
	// operator.
	Object, Member string
	Routine        FuncRef
	Operator       OperRef
}

func (*Comment) bound() {}

func (b *binder) bindComment(cs *pg_query.CommentStmt) (Bound, error) {
	kind, ok := map[pg_query.ObjectType]CommentKind{pg_query.ObjectType_OBJECT_TABLE: CommentTable,
		pg_query.ObjectType_OBJECT_VIEW: CommentView, pg_query.ObjectType_OBJECT_MATVIEW: CommentMatView,
		pg_query.ObjectType_OBJECT_INDEX: CommentIndex, pg_query.ObjectType_OBJECT_COLUMN: CommentColumn,
		pg_query.ObjectType_OBJECT_SEQUENCE: CommentSequence}[cs.Objtype]
	if !ok {
		if c, ok, err := b.bindCommentObject(cs); ok {
			return c, err
		}
		what := strings.ReplaceAll(strings.TrimPrefix(cs.Objtype.String(), "OBJECT_"), "_", " ")
		return nil, b.refuse(-1, "COMMENT ON %s is not supported", what).
			WithHint("comments are kept on relations and their columns, types, domains, schemas, routines, operators, roles, the database, constraints, triggers, rules, policies and extensions")
	}
	var names []string
	for _, it := range cs.Object.GetList().GetItems() {
		names = append(names, it.GetString_().Sval)
	}
	c := &Comment{Kind: kind, Text: cs.Comment}
	if kind == CommentColumn {
		if len(names) < 2 {
			return nil, pgerr.New(pgerr.SyntaxError, "column name must be qualified")
		}
		c.Column, names = names[len(names)-1], names[:len(names)-1]
	}
	if len(names) == 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "COMMENT ON names no object")
	}
	c.Relation = names[len(names)-1]
	return c, nil
}
