package engine

import (
	"maps"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Comments on objects other than relations (COMMENT ON TYPE, DOMAIN,
// SCHEMA, FUNCTION, PROCEDURE, AGGREGATE, ROLE, DATABASE, CONSTRAINT,
// TRIGGER, RULE, POLICY, EXTENSION) are kept in e.comments beside the
// relations', under a key naming the object's class and name
// (commentKey): the object's own under column "", a constraint's,
// trigger's, rule's or policy's under its relation's (or domain's) key
// with its name as the column. They reach pg_description (or, a role's
// and the database's, pg_shdescription) through the object's oid as the
// catalogs give it (commentOID), and go when that finds the object no
// more.

// commentSep separates a comment key's class from its name: a character
// no statement's name holds in practice.
const commentSep = "\x1f"

// commentRemoved is the text of a comment COMMENT … IS NULL removed
// where the object had one of its own (an extension's, from its control
// file).
const commentRemoved = commentSep

// The catalogs a comment's object is in, beyond expr's and
// pgConstraintOID.
const (
	pgOperatorOID = 2617
	pgTriggerOID  = 2620
	pgRewriteOID  = 2618
	pgPolicyOID   = 3256
	pgAuthidOID   = 1260
	pgDatabaseOID = 1262
	// pgStatisticExtOID is pg_statistic_ext's.
	pgStatisticExtOID = 3381
)

func commentKey(class, name string) string { return class + commentSep + name }

// splitCommentKey returns the class and name of a key commentKey made;
// ok is false for a relation's.
func splitCommentKey(key string) (class, name string, ok bool) {
	return strings.Cut(key, commentSep)
}

// commentObject checks the object COMMENT ON names, other than a
// relation, and returns the key and column its comment is kept under.
func (e *Engine) commentObject(c *sql.Comment) (string, string, error) {
	o := e.catalogObjects()
	var key, col string
	switch c.Kind {
	case sql.CommentType, sql.CommentDomain:
		_, dom := e.domains.byName[c.Object]
		if c.Kind == sql.CommentDomain && !dom {
			if _, ok := o.typeNamed(c.Object); ok {
				return "", "", pgerr.New(pgerr.WrongObjectType, "%q is not a domain", e.bareName(c.Object))
			}
		}
		key = commentKey("type", c.Object)
		if _, _, ok := o.commentOID(key, ""); !ok {
			return "", "", pgerr.New(pgerr.UndefinedObject, "type %q does not exist", e.bareName(c.Object))
		}
	case sql.CommentSchema:
		key = commentKey("schema", c.Object)
		if _, _, ok := o.commentOID(key, ""); !ok {
			return "", "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", c.Object)
		}
	case sql.CommentRole:
		key = commentKey("role", c.Object)
		if _, _, ok := o.commentOID(key, ""); !ok {
			return "", "", pgerr.New(pgerr.UndefinedObject, "role %q does not exist", c.Object)
		}
	case sql.CommentDatabase:
		key = commentKey("database", c.Object)
		if _, _, ok := o.commentOID(key, ""); !ok {
			return "", "", pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", c.Object)
		}
	case sql.CommentExtension:
		key = commentKey("extension", c.Object)
		if _, _, ok := o.commentOID(key, ""); !ok {
			return "", "", pgerr.New(pgerr.UndefinedObject, "extension %q does not exist", c.Object)
		}
	case sql.CommentStatistics:
		key = commentKey("statistics", c.Object)
		if e.stats[c.Object] == nil {
			return "", "", pgerr.New(pgerr.UndefinedObject, "statistics object %q does not exist", c.Object)
		}
	case sql.CommentOperator:
		op := e.operator(c.Operator)
		if op == nil {
			return "", "", e.noOperator(c.Operator)
		}
		key = commentKey("operator", op.Signature())
	case sql.CommentFunction, sql.CommentProcedure, sql.CommentAggregate:
		sig, err := e.commentRoutine(c)
		if err != nil {
			return "", "", err
		}
		key = commentKey("routine", sig)
	case sql.CommentDomainConstraint:
		d, ok := e.domains.byName[c.Object]
		if !ok {
			return "", "", pgerr.New(pgerr.UndefinedObject, "type %q does not exist", e.bareName(c.Object))
		}
		key, col = commentKey("domconstraint", c.Object), c.Member
		if !domainHasCheck(d, c.Member) {
			return "", "", pgerr.New(pgerr.UndefinedObject, "constraint %q for domain %s does not exist", c.Member, e.bareName(c.Object))
		}
	default:
		class := map[sql.CommentKind]string{sql.CommentConstraint: "constraint", sql.CommentTrigger: "trigger",
			sql.CommentRule: "rule", sql.CommentPolicy: "policy"}[c.Kind]
		if o.relKeyed(c.Object) == nil {
			return "", "", pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", e.bareName(c.Object))
		}
		key, col = commentKey(class, c.Object), c.Member
		if _, _, ok := o.commentOID(key, col); !ok {
			what := map[string]string{"constraint": "constraint", "trigger": "trigger", "rule": "rule", "policy": "policy"}[class]
			return "", "", pgerr.New(pgerr.UndefinedObject, "%s %q for table %q does not exist", what, c.Member, e.bareName(c.Object))
		}
	}
	return key, col, nil
}

// commentRoutine finds the function, procedure or aggregate COMMENT ON
// names and returns its signature, as catalogProcs keys it.
func (e *Engine) commentRoutine(c *sql.Comment) (string, error) {
	if c.Kind == sql.CommentAggregate {
		a := e.aggregateNamed(c.Routine)
		if a == nil {
			return "", pgerr.New(pgerr.UndefinedFunction, "aggregate %s does not exist", c.Routine.ArgsString())
		}
		return a.Signature(), nil
	}
	f, err := e.lookupRoutine(c.Routine, c.Kind == sql.CommentProcedure)
	if err != nil {
		return "", err
	}
	return f.Signature(), nil
}

func domainHasCheck(d *expr.Domain, name string) bool {
	for _, ch := range d.Def().Checks {
		if ch.Name == name {
			return true
		}
	}
	return false
}

// relKeyed returns the relation keyed key among o's, nil for none.
func (o *catalogObjects) relKeyed(key string) *catRel {
	for _, r := range o.rels {
		if r.key == key && key != "" {
			return r
		}
	}
	return nil
}

// typeNamed returns the type keyed name (not an array type) among o's.
func (o *catalogObjects) typeNamed(name string) (catType, bool) {
	for _, t := range o.types {
		if t.name == name && t.builtin == nil && !(t.typtype == 'b' && t.base != 0) {
			return t, true
		}
	}
	return catType{}, false
}

// commentOID finds the object a comment key (not a relation's) and column
// name: its catalog's oid and its own; ok is false when it is gone.
func (o *catalogObjects) commentOID(key, col string) (classOID, oid uint32, ok bool) {
	class, name, isObj := splitCommentKey(key)
	if !isObj {
		return 0, 0, false
	}
	e := o.e
	switch class {
	case "type":
		if t, ok := o.typeNamed(name); ok {
			return expr.PgTypeOID, t.oid, true
		}
	case "schema":
		for _, n := range e.schemaNames() {
			if n == name {
				return expr.PgNamespaceOID, schemaOID(n), true
			}
		}
	case "routine":
		for _, p := range o.procs {
			if p.key == name {
				return expr.PgProcOID, p.oid, true
			}
		}
	case "operator":
		for _, op := range o.opers {
			if op.sig == name {
				return pgOperatorOID, op.oid, true
			}
		}
	case "role":
		for _, r := range o.roles {
			if r.name == name {
				return pgAuthidOID, r.oid, true
			}
		}
	case "database":
		if name == DatabaseName {
			return pgDatabaseOID, objectOID("database", DatabaseName), true
		}
	case "extension":
		for _, x := range o.exts {
			if x.x.Name == name {
				return pgExtensionOID, x.oid, true
			}
		}
	case "statistics":
		if e.stats[name] != nil {
			return pgStatisticExtOID, objectOID("statistic_ext", name), true
		}
	case "domconstraint":
		if d, ok := e.domains.byName[name]; ok && domainHasCheck(d, col) {
			return pgConstraintOID, objectOID("constraint", name+"."+col), true
		}
	case "constraint":
		for _, c := range o.cons {
			if c.rel.key == name && c.name == col {
				return pgConstraintOID, c.oid, true
			}
		}
	case "trigger":
		if r := o.relKeyed(name); r != nil {
			for _, tr := range r.triggers() {
				if tr.name == col {
					return pgTriggerOID, objectOID("trigger", tr.table+"."+tr.name), true
				}
			}
		}
	case "rule":
		for _, ru := range e.rules[name] {
			if ru.name == col {
				return pgRewriteOID, ruleOID(name, col), true
			}
		}
	case "policy":
		if r := o.relKeyed(name); r != nil {
			for _, p := range o.rowSecurity(r).policies {
				if p.Name == col {
					return pgPolicyOID, objectOID("policy", p.table+"."+p.Name), true
				}
			}
		}
	}
	return 0, 0, false
}

// describeObjects enters the comments on objects other than relations in
// o.descs.
func (o *catalogObjects) describeObjects() {
	for key, m := range o.e.comments {
		if _, _, ok := splitCommentKey(key); !ok {
			continue
		}
		for col, text := range m {
			class, oid, ok := o.commentOID(key, col)
			if !ok {
				continue
			}
			k := expr.DescKey{ClassOID: class, ObjOID: oid}
			if text == commentRemoved {
				delete(o.descs, k)
				continue
			}
			o.descs[k] = text
		}
	}
}

// commentObjectsGone reports, for a comment key of an object other than
// a relation, whether the object (or the column's member) is gone; o is
// made on first use.
func (e *Engine) commentObjectGone(o **catalogObjects, key, col string) bool {
	if *o == nil {
		*o = e.catalogObjects()
	}
	_, _, ok := (*o).commentOID(key, col)
	return !ok
}

// moveObjectComments gives the comments kept under the keys of the
// classes named for old to new: an object renamed keeps them.
func (e *Engine) moveObjectComments(old, new string, classes ...string) error {
	for _, class := range classes {
		if err := e.moveComments(commentKey(class, old), commentKey(class, new)); err != nil {
			return err
		}
	}
	return nil
}

// renameMemberComment gives the comment on the member old of the
// class's objects of table (a policy renamed) to its new name: the
// object keeps its oid, and its comment.
func (e *Engine) renameMemberComment(class, table, old, new string) error {
	key := commentKey(class, table)
	text, ok := e.comments[key][old]
	if !ok || old == new {
		return nil
	}
	m := maps.Clone(e.comments[key])
	delete(m, old)
	m[new] = text
	return e.setComments(key, m)
}

// pruningObjectComments is the DDL statement fn, after which the
// comments on what it removed (or renamed without moving their comments)
// go, as a DROP's do.
func (e *Engine) pruningObjectComments(fn func() (Result, error)) func() (Result, error) {
	return func() (Result, error) {
		res, err := fn()
		if err == nil && len(e.comments) > 0 {
			err = e.pruneComments()
		}
		return res, err
	}
}

// isSharedDesc reports whether a comment's catalog is a shared one,
// whose comments pg_shdescription holds.
func isSharedDesc(classOID uint32) bool { return classOID == pgAuthidOID || classOID == pgDatabaseOID }

// hasBuiltinDescription reports whether the object of a comment key has
// a description of PostgreSQL's own (builtinDescriptions), which
// COMMENT … IS NULL removes as PostgreSQL removes its row.
func (e *Engine) hasBuiltinDescription(key, col string) bool {
	class, oid, ok := e.catalogObjects().commentOID(key, col)
	if !ok {
		return false
	}
	_, has := builtinDescriptions[expr.DescKey{ClassOID: class, ObjOID: oid}]
	return has
}
