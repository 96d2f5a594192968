package engine

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Event triggers on ddl_command_end and sql_drop run after the DDL
// statement's change, with the objects it made, altered or dropped: what
// pg_event_trigger_ddl_commands() and pg_event_trigger_dropped_objects()
// return. The engine keeps no record of a statement's sub-commands, so
// those lists come from the catalog as it was before the statement and as
// it is after: the objects that appeared, changed or went, named as
// PostgreSQL names them. This costs two walks of the catalog per DDL
// statement, and only while such a trigger exists.

// evtObject is an object of the catalog as the event trigger functions
// describe it.
type evtObject struct {
	classid, objid uint32
	subid          int32
	typ            string // object_type: table, table column, index, …
	schema, name   string // name: object_name, "" for NULL
	ident          string // object_identity
	names, args    []string
	// root is the key of the object this one belongs to (a column's
	// table, an array type's type), "" for one of its own; rank orders
	// the objects of one root as PostgreSQL lists them.
	root string
	rank int
	// version changes when an ALTER changes the object.
	version string
	// ownedBy is a sequence's table's key (serial, identity).
	ownedBy string
	// normalDep says that the object depends on others by a normal
	// dependency (a check constraint on its columns, a default calling
	// nextval of its sequence, a view's rule), so that a DROP reaches it
	// as one: dropped objects' normal.
	normalDep bool
}

// evtCatalog is the objects of the catalog at a moment, by key, and
// their keys in the catalog's order.
type evtCatalog struct {
	objs  map[string]*evtObject
	order []string
}

func (c *evtCatalog) add(key string, o *evtObject) {
	if c.objs[key] == nil {
		c.order = append(c.order, key)
	}
	c.objs[key] = o
}

// Classes of pg_event_trigger_*'s classid.
const (
	pgClassOID      = 1259
	pgTypeOID       = 1247
	pgProcOID       = 1255
	pgNamespaceOID  = 2615
	pgConstraintOID = 2606
	pgAttrdefOID    = 2604
)

func qualIdent(schema, name string) string {
	return expr.QuoteIdent(schema) + "." + expr.QuoteIdent(name)
}

// evtSnapshot gathers the catalog's objects. The caller holds e.mu.
func (e *Engine) evtSnapshot() *evtCatalog {
	c := &evtCatalog{objs: map[string]*evtObject{}}
	for _, name := range sortedKeys(e.schemas) {
		c.add("schema:"+name, &evtObject{classid: pgNamespaceOID, objid: schemaOID(name), typ: "schema", name: name,
			ident: expr.QuoteIdent(name), names: []string{name}, version: e.schemas[name].owner})
	}
	o := e.catalogObjects()
	arrayOf := map[uint32]uint32{} // a row type's array type
	for _, t := range o.types {
		arrayOf[t.oid] = t.array
	}
	relType := map[byte]string{'r': "table", 'p': "table", 'v': "view", 'm': "materialized view", 'S': "sequence", 'i': "index"}
	for _, r := range o.rels {
		if r.key == "" || relType[r.kind] == "" {
			continue
		}
		key := "rel:" + r.key
		obj := &evtObject{classid: pgClassOID, objid: r.oid, typ: relType[r.kind], schema: r.schema, name: r.name,
			ident: qualIdent(r.schema, r.name), names: []string{r.schema, r.name}}
		var ver strings.Builder
		ver.WriteString(r.def)
		for _, col := range r.cols {
			fmt.Fprintf(&ver, "|%s %d %v %s", col.name, col.typOID, col.notNull, col.def)
		}
		if r.seq != nil {
			fmt.Fprintf(&ver, "|%d %d %d %d %d %v %v", r.seq.typ, r.seq.inc, r.seq.min, r.seq.max, r.seq.start, r.seq.cycle, r.seq.owner)
			if r.seq.owner[0] != "" {
				obj.ownedBy, obj.root, obj.rank = "rel:"+r.seq.owner[0], "rel:"+r.seq.owner[0], 1
			}
		}
		if r.on != nil {
			obj.root, obj.rank = "rel:"+r.on.key, 5
		}
		obj.version = ver.String()
		c.add(key, obj)
		if r.kind == 'i' || r.kind == 'S' {
			continue
		}
		if r.reltype != 0 {
			// The relation's row type and its array type go with it.
			c.add("rowtype:"+r.key, &evtObject{classid: pgTypeOID, objid: r.reltype, typ: "type", schema: r.schema, name: r.name,
				ident: obj.ident, names: []string{obj.ident}, root: key, rank: 2})
			if a := arrayOf[r.reltype]; a != 0 {
				c.add("rowarray:"+r.key, &evtObject{classid: pgTypeOID, objid: a, typ: "type", schema: r.schema, name: "_" + r.name,
					ident: obj.ident + "[]", names: []string{obj.ident + "[]"}, root: key, rank: 2})
			}
		}
		if r.kind == 'v' || r.kind == 'm' {
			c.add("rule:"+r.key, &evtObject{classid: pgRewriteOID, objid: objectOID("rule", r.key), typ: "rule",
				ident: `"_RETURN" on ` + obj.ident, names: []string{r.schema, r.name, "_RETURN"}, root: key, rank: 6, normalDep: true})
		}
		if r.kind != 'r' && r.kind != 'p' {
			continue
		}
		for i, col := range r.cols {
			c.add(fmt.Sprintf("col:%s.%s", r.key, col.name), &evtObject{classid: pgClassOID, objid: r.oid, subid: int32(i + 1),
				typ: "table column", schema: r.schema, ident: obj.ident + "." + expr.QuoteIdent(col.name),
				names: []string{r.schema, r.name, col.name}, root: key, rank: -1})
			if col.def != "" {
				c.add(fmt.Sprintf("def:%s.%s", r.key, col.name), &evtObject{classid: pgAttrdefOID,
					objid: objectOID("attrdef", r.key+"."+col.name), typ: "default value", schema: r.schema,
					ident: "for " + obj.ident + "." + expr.QuoteIdent(col.name), names: []string{r.schema, r.name, col.name},
					root: key, rank: 3, normalDep: strings.Contains(col.def, "nextval(")})
			}
		}
	}
	for _, con := range o.cons {
		if con.rel == nil || con.rel.key == "" {
			continue
		}
		// A check constraint, made with the table, comes before those of
		// indexes, after the defaults; it depends on its columns.
		rank, check := 4, con.kind == 'c'
		if check {
			rank = 3
		}
		c.add("con:"+con.rel.key+"."+con.name, &evtObject{classid: pgConstraintOID, objid: con.oid, typ: "table constraint",
			schema: con.rel.schema, ident: expr.QuoteIdent(con.name) + " on " + qualIdent(con.rel.schema, con.rel.name),
			names: []string{con.rel.schema, con.rel.name, con.name}, root: "rel:" + con.rel.key, rank: rank, version: con.def,
			normalDep: check})
	}
	composites := map[uint32]*catRel{} // CREATE TYPE … AS (…)'s relations
	for _, r := range o.rels {
		if r.kind == 'c' {
			composites[r.oid] = r
		}
	}
	for _, t := range o.types {
		if t.builtin != nil || t.oid < firstUserOID || t.kind.IsArray() || t.typtype == 'c' && composites[t.relid] == nil {
			continue // a row type is its relation's (above)
		}
		schema, name := e.splitKey(t.name)
		ident := qualIdent(schema, name)
		key := "type:" + t.name
		c.add(key, &evtObject{classid: pgTypeOID, objid: t.oid, typ: "type", schema: schema, name: name, ident: ident,
			names: []string{ident}, version: fmt.Sprintf("%v %v %d %v %s", t.labels, t.notNull, t.base, t.baseMod, t.def)})
		if r := composites[t.relid]; r != nil {
			// Its relation goes with it, listed as PostgreSQL lists it;
			// ALTER TYPE … ATTRIBUTE changes the relation.
			var ver strings.Builder
			for _, col := range r.cols {
				fmt.Fprintf(&ver, "|%s %d", col.name, col.typOID)
			}
			c.add("comprel:"+t.name, &evtObject{classid: pgClassOID, objid: t.relid, typ: "composite type", schema: schema,
				name: name, ident: ident, names: []string{schema, name}, root: key, rank: 1, version: ver.String()})
		}
		if t.array != 0 {
			c.add("array:"+t.name, &evtObject{classid: pgTypeOID, objid: t.array, typ: "type", schema: schema,
				name: "_" + name, ident: ident + "[]", names: []string{ident + "[]"}, root: key, rank: 2})
		}
	}
	for _, p := range o.procs {
		if p.oid < firstUserOID {
			continue
		}
		schema, name := e.splitKey(p.name)
		typ := map[string]string{"": "function", "a": "aggregate", "p": "procedure"}[p.kind]
		args := slices.Clone(p.argStr)
		if args == nil {
			args = []string{}
		}
		c.add(fmt.Sprintf("proc:%d", p.oid), &evtObject{classid: pgProcOID, objid: p.oid, typ: typ, schema: schema,
			ident: qualIdent(schema, name) + "(" + strings.Join(args, ",") + ")", names: []string{schema, name}, args: args,
			version: p.src + "|" + p.argText + "|" + p.resultText + "|" + p.volatile + fmt.Sprint(p.strict)})
	}
	return c
}

// evtEndTriggers are the enabled triggers on event for tag, in name
// order.
func (s *Session) evtTriggersFor(event, tag string) []*evtTrigger {
	e := s.e
	role := s.replicationRole()
	var fire []*evtTrigger
	for _, name := range sortedKeys(e.evtTriggers) {
		t := e.evtTriggers[name]
		if t.event != event || t.tags != nil && !slices.Contains(t.tags, tag) {
			continue
		}
		switch t.enabled {
		case 'D':
			continue
		case 'O':
			if role == "replica" {
				continue
			}
		case 'R':
			if role != "replica" {
				continue
			}
		}
		fire = append(fire, t)
	}
	return fire
}

// ddlAfter runs fn, a DDL statement's change, then its sql_drop and
// ddl_command_end event triggers, as PostgreSQL does: sql_drop when it
// dropped objects, then ddl_command_end. node is the statement, tag its
// command tag. An error of a function is the statement's; the change,
// done before, stays (the catalog's changes are not transactional here).
func (s *Session) ddlAfter(node *pg_query.Node, tag string, fn func() (Result, error)) (Result, error) {
	e := s.e
	drops, ends := s.evtTriggersFor("sql_drop", tag), s.evtTriggersFor("ddl_command_end", tag)
	if len(drops) == 0 && len(ends) == 0 || s.restoring {
		return e.afterNotices(fn)
	}
	before := e.evtSnapshot()
	res, err := e.afterNotices(fn)
	if err != nil {
		return res, err
	}
	after := e.evtSnapshot()
	var dropped []value.Row
	if len(drops) > 0 {
		dropped = evtDropped(node, tag, before, after)
	}
	commands := evtCommands(node, tag, before, after)
	fire := func(ts []*evtTrigger, event string, rows []value.Row) error {
		if len(ts) == 0 {
			return nil
		}
		s.evtEvent, s.evtRows = event, rows
		defer func() { s.evtEvent, s.evtRows = "", nil }()
		_, err := e.autocommit(func() (Result, error) {
			for _, t := range ts {
				if err := s.callEventTrigger(t, tag); err != nil {
					return Result{}, err
				}
			}
			return Result{}, nil
		})
		return err
	}
	if len(dropped) > 0 {
		err = fire(drops, "sql_drop", dropped)
	}
	if err == nil {
		err = fire(ends, "ddl_command_end", commands)
	}
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok && pe.Detail == "" {
			pe.Detail = fmt.Sprintf("The %s command was done before the event trigger's function ran, and stays done.", tag)
		}
		return Result{}, err
	}
	e.takeNoticesInto(&res)
	return res, nil
}

// EventTriggerRows implements expr.EventTriggerBackend.
func (s *Session) EventTriggerRows(fn string) ([]value.Row, error) {
	switch fn {
	case "pg_event_trigger_table_rewrite_oid", "pg_event_trigger_table_rewrite_reason":
		return s.tableRewriteRows(fn)
	case "pg_event_trigger_dropped_objects":
		if s.evtEvent != "sql_drop" {
			return nil, pgerr.New("39P03", "pg_event_trigger_dropped_objects() can only be called in a sql_drop event trigger function")
		}
		return s.evtRows, nil
	}
	switch s.evtEvent {
	case "ddl_command_end":
		return s.evtRows, nil
	case "ddl_command_start", "sql_drop":
		return nil, nil
	}
	return nil, pgerr.New("39P03", "pg_event_trigger_ddl_commands() can only be called in an event trigger function")
}

func nullText(s string) value.Value {
	if s == "" {
		return value.Null
	}
	return value.NewText(value.Text, s)
}

func textArray(ss []string) value.Value {
	elems := make([]value.Value, len(ss))
	for i, s := range ss {
		elems[i] = value.NewText(value.Text, s)
	}
	return value.NewArray(value.ArrayOf(value.Text), elems)
}

// commandRow is a row of pg_event_trigger_ddl_commands().
func commandRow(tag string, o *evtObject) value.Row {
	schema := o.schema
	if o.typ == "schema" {
		schema = ""
	}
	typ := o.typ
	return value.Row{value.NewOid(o.classid), value.NewOid(o.objid), value.NewInt(value.Int4, int64(o.subid)),
		value.NewText(value.Text, tag), value.NewText(value.Text, typ), nullText(schema), value.NewText(value.Text, o.ident),
		value.NewBool(false)}
}

// createRank orders the objects a CREATE made as PostgreSQL reports
// them: a schema, then sequences, the relations and types, and indexes.
func createRank(o *evtObject) int {
	switch o.typ {
	case "schema":
		return 0
	case "sequence":
		return 1
	case "index":
		return 3
	}
	return 2
}

var createTags = map[string]string{"table": "CREATE TABLE", "view": "CREATE VIEW", "materialized view": "CREATE MATERIALIZED VIEW",
	"sequence": "CREATE SEQUENCE", "index": "CREATE INDEX", "type": "CREATE TYPE", "function": "CREATE FUNCTION",
	"procedure": "CREATE PROCEDURE", "aggregate": "CREATE AGGREGATE", "schema": "CREATE SCHEMA"}

// evtCommands are the rows of pg_event_trigger_ddl_commands() for the
// statement: what it made (CREATE), or the object it altered.
func evtCommands(node *pg_query.Node, tag string, before, after *evtCatalog) []value.Row {
	var rows []value.Row
	if strings.HasPrefix(tag, "DROP ") {
		return nil // PostgreSQL lists drops in sql_drop only
	}
	if strings.HasPrefix(tag, "CREATE ") || tag == "SELECT INTO" {
		var made []*evtObject
		for _, k := range after.order {
			o := after.objs[k]
			if before.objs[k] == nil && createTags[o.typ] != "" && o.rank != 2 {
				made = append(made, o)
			}
		}
		slices.SortStableFunc(made, func(a, b *evtObject) int { return createRank(a) - createRank(b) })
		for _, o := range made {
			t := createTags[o.typ]
			if o.typ == "type" && (tag == "CREATE DOMAIN" || tag == "CREATE TYPE") {
				t = tag
			}
			if (o.typ == "table" || o.typ == "materialized view") && (tag == "CREATE TABLE AS" || tag == "SELECT INTO") {
				t = tag
			}
			rows = append(rows, commandRow(t, o))
		}
		for _, o := range made {
			if o.ownedBy != "" && slices.ContainsFunc(made, func(m *evtObject) bool { return after.objs[o.ownedBy] == m }) {
				rows = append(rows, commandRow("ALTER SEQUENCE", o))
			}
		}
		if len(rows) > 0 {
			return rows
		}
		// CREATE OR REPLACE of an object that was there: a view twice
		// (PostgreSQL replaces its rule, then its options), a function
		// once.
		if v := node.GetViewStmt(); v != nil && v.Replace {
			if o := evtTarget(&pg_query.Node{Node: &pg_query.Node_AlterTableStmt{AlterTableStmt: &pg_query.AlterTableStmt{Relation: v.View}}}, after); o != nil {
				return []value.Row{commandRow(tag, o), commandRow(tag, o)}
			}
		}
		if f := node.GetCreateFunctionStmt(); f != nil && f.Replace && len(f.Funcname) > 0 {
			name := f.Funcname[len(f.Funcname)-1].GetString_().GetSval()
			var same []*evtObject
			for _, k := range after.order {
				o, was := after.objs[k], before.objs[k]
				if (o.typ == "function" || o.typ == "procedure") && o.names[1] == name {
					if was != nil && o.version != was.version {
						return []value.Row{commandRow(tag, o)}
					}
					same = append(same, o)
				}
			}
			if len(same) == 1 {
				return []value.Row{commandRow(tag, same[0])}
			}
		}
		return nil
	}
	if o := evtTarget(node, after); o != nil {
		return []value.Row{commandRow(tag, o)}
	}
	if strings.HasPrefix(tag, "GRANT") || strings.HasPrefix(tag, "REVOKE") {
		word := "TABLE"
		if g := node.GetGrantStmt(); g != nil {
			word = strings.TrimPrefix(g.Objtype.String(), "OBJECT_")
		}
		return []value.Row{{value.Null, value.Null, value.Null, value.NewText(value.Text, tag), value.NewText(value.Text, word),
			value.Null, value.Null, value.NewBool(false)}}
	}
	// Another ALTER: the objects it changed.
	for _, k := range after.order {
		if o, was := after.objs[k], before.objs[k]; (o.root == "" || o.typ == "composite type") && (was == nil || o.version != was.version) {
			rows = append(rows, commandRow(tag, o))
		}
	}
	return rows
}

// evtTarget is the relation (or its column) that an ALTER TABLE,
// ALTER SEQUENCE, a rename or a COMMENT names, as it is after the
// statement; nil when it names none of these.
func evtTarget(node *pg_query.Node, after *evtCatalog) *evtObject {
	rel := func(rv *pg_query.RangeVar, name string) *evtObject {
		if rv == nil {
			return nil
		}
		if name == "" {
			name = rv.Relname
		}
		key := "rel:" + name
		if rv.Schemaname != "" && rv.Schemaname != "public" {
			key = "rel:" + rv.Schemaname + "." + name
		}
		return after.objs[key]
	}
	col := func(r *evtObject, name string) *evtObject {
		if r == nil {
			return nil
		}
		for _, k := range after.order {
			if o := after.objs[k]; o.typ == "table column" && o.objid == r.objid && o.names[2] == name {
				return o
			}
		}
		return nil
	}
	switch {
	case node.GetAlterTableStmt() != nil:
		return rel(node.GetAlterTableStmt().Relation, "")
	case node.GetAlterSeqStmt() != nil:
		return rel(node.GetAlterSeqStmt().Sequence, "")
	case node.GetRenameStmt() != nil:
		r := node.GetRenameStmt()
		if r.Relation == nil {
			return nil
		}
		if r.RenameType == pg_query.ObjectType_OBJECT_COLUMN {
			return col(rel(r.Relation, ""), r.Newname)
		}
		return rel(r.Relation, r.Newname)
	case node.GetCommentStmt() != nil:
		c := node.GetCommentStmt()
		var parts []string
		for _, it := range c.Object.GetList().GetItems() {
			parts = append(parts, it.GetString_().GetSval())
		}
		if len(parts) == 0 {
			return nil
		}
		switch c.Objtype {
		case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW, pg_query.ObjectType_OBJECT_MATVIEW,
			pg_query.ObjectType_OBJECT_SEQUENCE, pg_query.ObjectType_OBJECT_INDEX:
			rv := &pg_query.RangeVar{Relname: parts[len(parts)-1]}
			if len(parts) > 1 {
				rv.Schemaname = parts[len(parts)-2]
			}
			return rel(rv, "")
		case pg_query.ObjectType_OBJECT_COLUMN:
			if len(parts) < 2 {
				return nil
			}
			rv := &pg_query.RangeVar{Relname: parts[len(parts)-2]}
			if len(parts) > 2 {
				rv.Schemaname = parts[len(parts)-3]
			}
			return col(rel(rv, ""), parts[len(parts)-1])
		}
	}
	return nil
}

// dropWords are the object types a DROP statement's tag names, as
// pg_event_trigger_dropped_objects() writes them.
var dropWords = map[string]string{"DROP TABLE": "table", "DROP VIEW": "view", "DROP MATERIALIZED VIEW": "materialized view",
	"DROP SEQUENCE": "sequence", "DROP INDEX": "index", "DROP TYPE": "type", "DROP DOMAIN": "type",
	"DROP FUNCTION": "function", "DROP PROCEDURE": "procedure", "DROP AGGREGATE": "aggregate", "DROP SCHEMA": "schema",
	"DROP ROUTINE": "function"}

// evtDropped are the rows of pg_event_trigger_dropped_objects() for a
// DROP statement or an ALTER that dropped a column or a constraint: the
// objects gone, those the statement names first (original), each
// followed by what belonged to it.
func evtDropped(node *pg_query.Node, tag string, before, after *evtCatalog) []value.Row {
	if node.GetRenameStmt() != nil || node.GetAlterObjectSchemaStmt() != nil {
		return nil // the object is there under another name
	}
	named := map[string]bool{}
	if d := node.GetDropStmt(); d != nil {
		for _, ob := range d.Objects {
			var last string
			if l := ob.GetList(); l != nil && len(l.Items) > 0 {
				last = l.Items[len(l.Items)-1].GetString_().GetSval()
			} else if tn := ob.GetTypeName(); tn != nil && len(tn.Names) > 0 {
				last = tn.Names[len(tn.Names)-1].GetString_().GetSval()
			} else if ow := ob.GetObjectWithArgs(); ow != nil && len(ow.Objname) > 0 {
				last = ow.Objname[len(ow.Objname)-1].GetString_().GetSval()
			} else if s := ob.GetString_(); s != nil {
				last = s.Sval
			}
			named[last] = true
		}
	}
	var alterDrops map[string]bool // ALTER TABLE … DROP COLUMN c, DROP CONSTRAINT k
	if a := node.GetAlterTableStmt(); a != nil {
		alterDrops = map[string]bool{}
		for _, c := range a.Cmds {
			if cmd := c.GetAlterTableCmd(); cmd != nil && (cmd.Subtype == pg_query.AlterTableType_AT_DropColumn ||
				cmd.Subtype == pg_query.AlterTableType_AT_DropConstraint) {
				alterDrops[cmd.Name] = true
			}
		}
	}
	word := dropWords[tag]
	type gone struct {
		o        *evtObject
		original bool
		group    int
	}
	var list []gone
	groupOf := map[string]int{}
	for i, k := range before.order {
		if after.objs[k] != nil {
			continue
		}
		o := before.objs[k]
		original := false
		switch {
		case alterDrops != nil:
			original = (o.typ == "table column" || o.typ == "table constraint") && alterDrops[o.names[len(o.names)-1]] &&
				after.objs[o.root] != nil
		case o.root == "" && o.typ == word:
			original = named[o.name] || o.typ == "function" || o.typ == "procedure" || o.typ == "aggregate"
		}
		if o.typ == "table column" && !original {
			continue // a column goes with its table, which PostgreSQL lists alone
		}
		g := i
		if o.root != "" && before.objs[o.root] != nil && after.objs[o.root] == nil {
			if j, ok := groupOf[o.root]; ok {
				g = j
			} else {
				g = slices.Index(before.order, o.root)
			}
		}
		groupOf[k] = g
		list = append(list, gone{o, original, g})
	}
	cons := map[string]int{} // a constraint's index follows it
	for i, k := range before.order {
		if o := before.objs[k]; o.typ == "table constraint" {
			cons[o.root+"."+o.names[2]] = i
		}
	}
	rank := func(x gone) (int, int) {
		switch {
		case x.o.rank < 0:
			return 0, 0
		case x.o.typ == "table constraint" && x.o.rank == 3:
			return 3, 0 // a check constraint
		case x.o.typ == "table constraint":
			return 4, 2 * cons[x.o.root+"."+x.o.names[2]]
		case x.o.typ == "index":
			if i, ok := cons[x.o.root+"."+x.o.name]; ok {
				return 4, 2*i + 1
			}
		}
		return x.o.rank, 0
	}
	slices.SortStableFunc(list, func(a, b gone) int {
		if a.original != b.original {
			if a.original {
				return -1
			}
			return 1
		}
		if a.group != b.group {
			return a.group - b.group
		}
		ra, na := rank(a)
		rb, nb := rank(b)
		if ra != rb {
			return ra - rb
		}
		return na - nb
	})
	rows := make([]value.Row, len(list))
	for i, x := range list {
		o := x.o
		normal := !x.original && (o.root == "" || o.normalDep)
		schema := o.schema
		if o.typ == "schema" {
			schema = ""
		}
		args := o.args
		if args == nil {
			args = []string{}
		}
		rows[i] = value.Row{value.NewOid(o.classid), value.NewOid(o.objid), value.NewInt(value.Int4, int64(o.subid)),
			value.NewBool(x.original), value.NewBool(normal), value.NewBool(false), value.NewText(value.Text, o.typ),
			nullText(schema), nullText(o.name), value.NewText(value.Text, o.ident), textArray(o.names), textArray(args)}
	}
	return rows
}
