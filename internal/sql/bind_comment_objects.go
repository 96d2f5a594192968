package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// commentObjectKinds are the objects other than relations COMMENT ON
// describes.
var commentObjectKinds = map[pg_query.ObjectType]CommentKind{
	pg_query.ObjectType_OBJECT_TYPE: CommentType, pg_query.ObjectType_OBJECT_DOMAIN: CommentDomain,
	pg_query.ObjectType_OBJECT_SCHEMA: CommentSchema, pg_query.ObjectType_OBJECT_FUNCTION: CommentFunction,
	pg_query.ObjectType_OBJECT_PROCEDURE: CommentProcedure, pg_query.ObjectType_OBJECT_AGGREGATE: CommentAggregate,
	pg_query.ObjectType_OBJECT_ROLE: CommentRole, pg_query.ObjectType_OBJECT_DATABASE: CommentDatabase,
	pg_query.ObjectType_OBJECT_TABCONSTRAINT: CommentConstraint, pg_query.ObjectType_OBJECT_DOMCONSTRAINT: CommentDomainConstraint,
	pg_query.ObjectType_OBJECT_TRIGGER: CommentTrigger, pg_query.ObjectType_OBJECT_RULE: CommentRule,
	pg_query.ObjectType_OBJECT_POLICY: CommentPolicy, pg_query.ObjectType_OBJECT_EXTENSION: CommentExtension,
	pg_query.ObjectType_OBJECT_STATISTIC_EXT: CommentStatistics, pg_query.ObjectType_OBJECT_OPERATOR: CommentOperator,
}

// bindCommentObject binds COMMENT ON an object other than a relation or
// column; ok is false for another kind.
func (b *binder) bindCommentObject(cs *pg_query.CommentStmt) (*Comment, bool, error) {
	kind, ok := commentObjectKinds[cs.Objtype]
	if !ok {
		return nil, false, nil
	}
	c := &Comment{Kind: kind, Text: cs.Comment}
	var err error
	switch kind {
	case CommentType, CommentDomain:
		c.Object, err = b.typeObjectName(cs.Object.GetTypeName().GetNames())
	case CommentSchema, CommentRole, CommentDatabase, CommentExtension:
		c.Object = cs.Object.GetString_().GetSval()
	case CommentStatistics:
		c.Object = statsName(cs.Object.GetList().GetItems()).String()
	case CommentFunction, CommentProcedure, CommentAggregate:
		c.Routine, err = b.routineRef(cs.Object.GetObjectWithArgs(), kind == CommentProcedure)
	case CommentOperator:
		c.Operator, err = b.operatorRef(cs.Object.GetObjectWithArgs(), false)
	case CommentDomainConstraint:
		items := cs.Object.GetList().GetItems()
		if len(items) != 2 {
			return nil, true, pgerr.New(pgerr.SyntaxError, "COMMENT ON CONSTRAINT … ON DOMAIN names no domain")
		}
		c.Object, err = b.typeObjectName(items[0].GetTypeName().GetNames())
		c.Member = items[1].GetString_().GetSval()
	default: // a constraint, trigger, rule or policy: table names…, name
		items := cs.Object.GetList().GetItems()
		if len(items) < 2 {
			return nil, true, pgerr.New(pgerr.SyntaxError, "COMMENT ON names no relation")
		}
		c.Object = b.keyOfNames(items[:len(items)-1])
		c.Member = items[len(items)-1].GetString_().GetSval()
	}
	if err != nil {
		return nil, true, err
	}
	return c, true, nil
}
