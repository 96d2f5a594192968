package engine

import (
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Object identifiers. Built-in types keep PostgreSQL's oids, the system
// catalogs theirs where PostgreSQL fixes them; the namespaces and the
// built-in superuser are PostgreSQL's. An enum type has the oids CREATE
// TYPE gave it. Every other object's oid is derived from its kind and
// name (RelationOID, objectOID), above the oids PostgreSQL reserves for
// its own objects: it is the same in every session and after a restart,
// and changes when the object is renamed.
const (
	pgCatalogOID   = 11
	publicOID      = 2200
	infoSchemaOID  = 13207
	superuserOID   = 10
	heapAMOID      = 2
	btreeAMOID     = 403
	defaultCollOID = 100
	cCollOID       = 950 // the "C" collation, name's
)

// RelationOID is the oid of the relation (table, view, materialized view,
// sequence or index) named name in schema public.
func RelationOID(name string) uint32 { return objectOID("", name) }

// objectOID is the oid of the object of a class ("" for a relation) and
// name: a hash, above PostgreSQL's reserved oids.
func objectOID(class, name string) uint32 {
	h := fnv.New32a()
	if class != "" {
		h.Write([]byte(class))
		h.Write([]byte{0})
	}
	h.Write([]byte(name))
	return firstUserOID + h.Sum32()%(1<<30)
}

// catalogObjects is the database's objects as the system catalogs list
// them, gathered from the engine's catalog when a statement reads one.
type catalogObjects struct {
	e        *Engine
	rels     []*catRel
	cons     []*catCon
	types    []catType
	procs    []catProc
	roles    []catRole
	opers    []catOper
	descs    map[expr.DescKey]string
	locks    []lockRow            // pg_locks' (advisory.go)
	activity []activityRow        // pg_stat_activity's (activity.go)
	exts     []catExt             // the installed extensions (syscat_extension.go)
	rls      map[string]*tableRLS // row-level security (rowsecurity.go)

	// stats are pg_statistic_ext's (statistics.go).
	stats []*statsObject
	// own is the temporary schema of the session reading, "" for none
	// (temp_catalog.go).
	own string
}

// catRel is a relation: a table, view, materialized view, sequence,
// index or system catalog.
type catRel struct {
	oid  uint32
	name string // without its schema
	// key is the engine's name of a relation a statement made ("" for a
	// system catalog's), schema its schema's name.
	key, schema string
	nsp         uint32
	kind        byte // r, v, m, S, i
	cols        []catCol
	t           *table    // a table, or an index's table
	on          *catRel   // an index's table
	index       *catIndex // an index
	def         string    // a view's query
	// pgDef and pgDefPretty are a view's query as pg_get_viewdef prints
	// it, "" where its text is shown as kept (syscat_exprtext.go).
	pgDef, pgDefPretty string
	rows               float64
	seq                *sequence
	checks             int
	trig               []*trigger // a view's triggers (a table's are t.trig)
	// unpopulated: a materialized view WITH NO DATA (refresh.go)
	unpopulated bool
	// opts are a materialized view's storage parameters (matview_options.go).
	opts []string
	// part is a partition's; partBy a partitioned table's key.
	part   *partition
	partBy *expr.PartitionKey
	// reltype is the oid of the relation's row type, 0 for none
	// (syscat_composite.go).
	reltype uint32
	// dropped are a table's dropped columns (attnum.go).
	dropped []sql.DroppedColumn
}

type catCol struct {
	name    string
	typ     value.Type
	typOID  uint32
	notNull bool
	def     string // the default's text, "" for none
	// gen is set on a stored generated column, whose expression def is.
	gen bool
	// identity is pg_attribute.attidentity: 'a', 'd' or 0.
	identity byte
	// num is its attnum when a column of its table was dropped, 0 for
	// its position from 1 (attnum.go).
	num int16
	// coll is a view's or materialized view's column's collation
	// (attcollation), 0 for its type's.
	coll uint32
}

type catIndex struct {
	cols            []int16 // attnums, 0 for an expression
	unique, primary bool
	def             string
	// x is what the index keys beyond columns (index_ext.go), nil for
	// none; pretty is pg_get_indexdef's pretty text when it differs.
	x      *keyExt
	pretty string
	// deferrable is a DEFERRABLE key's index: pg_index.indimmediate false.
	deferrable bool
	// excl is the EXCLUDE constraint whose index this is, nil for none.
	excl *sql.Exclusion
	// method is the access method CREATE INDEX named ("btree" for a
	// key's index), opts and options its elements' options as
	// pg_get_indexdef prints them and their indoption bits (nil for
	// none).
	method  string
	opts    []string
	options []int16
}

// partial reports whether the index has a predicate (WHERE), whose rows
// it does not count; a nil index (no detail) counts as partial.
func (ci *catIndex) partial() bool {
	return ci == nil || ci.x != nil && ci.x.where != nil || ci.excl != nil && ci.excl.Where != nil
}

// catCon is a constraint: a primary key, unique, check or foreign key.
type catCon struct {
	// notValid is a constraint added NOT VALID, not validated since;
	// deferrable and deferred are DEFERRABLE [INITIALLY DEFERRED].
	notValid, deferrable, deferred bool
	oid                            uint32
	name                           string
	kind                           byte // p, u, c, f
	rel                            *catRel
	cols                           []int16
	index                          uint32
	ref                            *catRel
	refCols                        []int16
	upd                            byte
	del                            byte
	match                          byte
	check                          string
	def                            string
	exclop                         []uint32 // an EXCLUDE constraint's operators
	pretty                         string   // pg_get_constraintdef's pretty text when it differs
	// inherited is a partition's constraint from the tables above it
	// (conislocal false, coninhcount 1).
	inherited bool
	// nullsNotDistinct is UNIQUE NULLS NOT DISTINCT.
	nullsNotDistinct bool
	// parent is the constraint it was made from, conparentid: a foreign
	// key's on a partition of either of its tables.
	parent uint32
}

type catType struct {
	oid, array uint32
	name       string
	nsp        uint32
	kind       value.Kind
	typtype    byte
	builtin    *value.BuiltinType
	base       uint32 // a domain's base type; an enum's array type's element type
	baseMod    int32
	notNull    bool
	def        string
	defBin     string // a domain's default as typdefaultbin keeps it (syscat_domain_default.go)
	labels     []string
	sorts      []float64
	// relid is a row type's relation (pg_type.typrelid), 0 for others.
	relid uint32
	// collation is a domain's COLLATE clause's collation, "" for none;
	// collOID its oid when CREATE COLLATION made it.
	collation string
	collOID   uint32
}

type catProc struct {
	oid    uint32
	name   string
	args   []uint32
	argStr []string
	ret    uint32
	set    bool
	strict bool
	// cost and rows are procost and prorows when COST and ROWS gave them
	// (0: the default).
	cost, rows float64
	// volatile is pg_proc.provolatile: "i", "s" or "v" ("" for "v").
	volatile string
	src      string
	names    []string
	// argText, identArgText and resultText are the arguments and the
	// result as pg_get_function_arguments, …_identity_arguments and
	// pg_get_function_result print them.
	argText, identArgText, resultText string
	// kind is pg_proc.prokind: "" for a function ('f'), "a" for an
	// aggregate, "p" for a procedure (which returns nothing).
	kind string
	// lang is pg_proc.prolang, a pg_language oid (languageOID).
	lang uint32
	agg  *catAgg // an aggregate's pg_aggregate row
	// defaults is pronargdefaults; def is pg_get_functiondef's text.
	defaults int
	def      string
	// key is the routine's signature as the engine keys it, which its
	// comment is kept under (comment_objects.go).
	key string
	// owner is proowner (0 for the built-in superuser), secdef
	// prosecdef, config proconfig (routine_security.go).
	owner  uint32
	secdef bool
	config []string
	// acl is proacl (routine_acl.go): nil for the default; execs are
	// its items then (routine_grantor.go).
	acl   any
	execs []aclItem
	// all are the parameters of every mode (syscat_proc_args.go).
	all procArgs
}

type catRole struct {
	oid          uint32
	name         string
	super, login bool
	bypassRLS    bool
	noInherit    bool
	memberOf     []roleGrant // role_members.go
}

// catalogRelOIDs are the oids PostgreSQL fixes for its catalogs.
var catalogRelOIDs = map[string]uint32{
	"pg_type": 1247, "pg_authid": 1260, "pg_attribute": 1249, "pg_proc": 1255, "pg_class": 1259,
	"pg_attrdef": 2604, "pg_constraint": 2606, "pg_inherits": 2611, "pg_index": 2610, "pg_am": 2601,
	"pg_trigger": 2620, "pg_description": 2609, "pg_enum": 3501, "pg_namespace": 2615, "pg_depend": 2608,
	"pg_database": 1262, "pg_collation": 3456, "pg_range": 3541, "pg_sequence": 2224,
	"pg_operator": 2617, "pg_aggregate": 2600, "pg_extension": pgExtensionOID, "pg_shdescription": 2396,
	"pg_policy": 3256, "pg_rewrite": 2618,
}

var builtinByKind = func() map[value.Kind]*value.BuiltinType {
	m := map[value.Kind]*value.BuiltinType{}
	for i := range value.BuiltinTypes {
		m[value.BuiltinTypes[i].Kind] = &value.BuiltinTypes[i]
	}
	return m
}()

// typeOID is the oid of t's type, or of its domain.
func (e *Engine) typeOID(t value.Type, dom *expr.Domain) uint32 {
	if dom != nil {
		return objectOID("type", dom.Name())
	}
	if oid := extTypeOID(t); oid != 0 {
		return oid
	}
	if d := t.Enum(); d != nil {
		if t.Kind.IsArray() {
			return d.ArrayOID
		}
		return d.OID
	}
	if oid := e.compositeTypeOID(t); oid != 0 {
		return oid
	}
	if oid := userRangeTypeOID(t); oid != 0 {
		return oid
	}
	if t.Kind.IsArray() && !t.Kind.IsVector() {
		if b := builtinByKind[t.Kind.Elem()]; b != nil {
			return b.ArrayOID
		}
		return 0
	}
	if b := builtinByKind[t.Kind]; b != nil {
		return b.OID
	}
	return 0
}

// catalogObjects gathers the engine's objects. The caller holds e.mu.
func (e *Engine) catalogObjects() *catalogObjects { return e.catalogObjectsAs("") }

// catalogObjectsAs gathers the engine's objects as the session whose
// temporary schema is own reads them ("" for none, temp_catalog.go).
// The caller holds e.mu.
func (e *Engine) catalogObjectsAs(own string) *catalogObjects {
	o := &catalogObjects{e: e, descs: maps.Clone(builtinDescriptions), locks: e.advisoryRows(), activity: e.activityRows(), rls: e.rls, own: own}
	byName := map[string]*catRel{}
	add := func(r *catRel) {
		o.rels = append(o.rels, r)
		byName[r.name] = r
	}
	serials := map[[2]string]string{} // a serial column's sequence, by table and column
	for name, q := range e.seqs {
		if q.owner[0] != "" && !q.identity {
			serials[q.owner] = name
		}
	}
	for _, name := range sortedKeys(e.tables) {
		t := e.tables[name] // a session's temporary one under its pg_temp_N schema, as PostgreSQL lists every session's
		r := &catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'r', t: t, rows: float64(t.rows.Len()),
			checks: len(t.def.Checks), dropped: t.def.Dropped}
		if t.def.PartitionBy != nil {
			r.kind, r.partBy, r.rows = 'p', t.def.PartitionBy, -1
		}
		texts := newExprTexts(t.def.Cols, e)
		for i, c := range t.def.Cols {
			def := texts.columnDefault(c, c.DefaultSQL)
			if k, ok := serials[[2]string{name, c.Name}]; ok && (c.DefaultSQL == "" || c.DefaultSQL == sql.SerialDefault(k)) {
				// Its sequence as regclass prints it, not by its key.
				def = "nextval('" + strings.ReplaceAll(o.relText(k), "'", "''") + "'::regclass)"
			}
			cc := catCol{name: c.Name, typ: c.Type, typOID: e.typeOID(c.Type, c.Domain), notNull: c.NotNull, def: def, identity: c.Identity, num: c.Attnum}
			if c.Attnum == 0 {
				cc.num = t.def.Attnum(i)
			}
			if c.GeneratedSQL != "" {
				cc.def, cc.gen = texts.columnDefault(c, c.GeneratedSQL), true
			}
			r.cols = append(r.cols, cc)
		}
		for _, u := range t.uniques {
			if u.primary {
				for _, c := range u.cols {
					r.cols[c].notNull = true
				}
			}
		}
		add(r)
	}
	for _, name := range sortedKeys(e.parts) {
		p := e.parts[name]
		r := &catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'r', part: p, rows: -1, dropped: p.def.Dropped}
		if root := byName[p.root.name]; root != nil {
			r.cols = partitionCols(root.cols, p.def)
		}
		if p.def.PartitionBy != nil {
			r.kind, r.partBy = 'p', p.def.PartitionBy
		}
		add(r)
		o.partitionChecks(r, p)
	}
	for _, name := range sortedKeys(e.views) {
		m := e.views[name].meta()
		r := &catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'm', def: m.def.Definition,
			rows: float64(e.views[name].rowCount()), opts: e.viewStmts[name].relOpts}
		r.cols = e.viewColCollations(domainCols(e, plainCols(e, m.cols), m.def.Domains), m.def.Collations)
		add(r)
	}
	for _, name := range sortedKeys(e.unpopulated) {
		cv := e.unpopulated[name]
		add(&catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'm', def: cv.Definition,
			cols: e.viewColCollations(domainCols(e, plainCols(e, cv.Plan.Columns()), cv.Domains), cv.Collations), unpopulated: true, opts: e.viewStmts[name].relOpts})
	}
	for _, name := range sortedKeys(e.named) {
		v := e.named[name]
		r := &catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'v', cols: e.viewColCollations(domainCols(e, plainCols(e, v.cols), v.domains), v.colls), trig: e.triggers[name]}
		if v.query != nil {
			r.def = v.query.SQL
		}
		for i, d := range v.defaultTexts { // ALTER VIEW … SET DEFAULT
			r.cols[i].def = d
		}
		add(r)
	}
	for _, name := range sortedKeys(e.seqs) {
		add(&catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'S', seq: e.seqs[name], rows: 1,
			cols: plainCols(e, sql.SequenceColumns)})
	}
	o.compositeRels(add)
	tables := slices.Clone(o.rels)
	for _, r := range tables {
		if (r.kind == 'r' || r.kind == 'p') && r.t != nil {
			o.indexesOf(r, add)
		}
		if r.kind == 'm' && len(e.matIndexes) > 0 {
			o.viewIndexRels(r, add)
		}
	}
	fkParts := e.fkPartitionNames()
	for _, r := range tables {
		if (r.kind == 'r' || r.kind == 'p') && r.t != nil {
			o.foreignKeysOf(r, byName, fkParts)
		}
	}
	for _, name := range sortedKeys(catalogRelations) {
		cr := catalogRelations[name]
		schema, rel, _ := strings.Cut(name, ".")
		oid, ok := catalogRelOIDs[rel]
		if !ok {
			oid = objectOID(schema, rel)
		}
		nsp := uint32(pgCatalogOID)
		if schema == "information_schema" {
			nsp = infoSchemaOID
		}
		kind := byte('v')
		if catalogRelOIDs[rel] != 0 {
			kind = 'r'
		}
		o.rels = append(o.rels, &catRel{oid: oid, name: rel, nsp: nsp, kind: kind, cols: plainCols(e, cr.cols)})
	}
	for _, name := range sortedKeys(e.stats) {
		o.stats = append(o.stats, e.stats[name])
	}
	if len(e.tempPending) > 0 {
		// Another session's temporary relations made in its open block
		// are not committed: PostgreSQL's snapshot does not see them.
		pending := func(key string) bool {
			p, ok := e.tempPending[key]
			return ok && p != own+"."
		}
		o.rels = slices.DeleteFunc(o.rels, func(r *catRel) bool { return pending(r.name) || r.on != nil && pending(r.on.name) })
		o.cons = slices.DeleteFunc(o.cons, func(c *catCon) bool { return c.rel != nil && pending(c.rel.name) })
	}
	// The relations statements made: their schemas, their names
	// without them.
	for _, r := range o.rels {
		if r.nsp == publicOID {
			r.key = r.name
			r.schema, r.name = e.splitKey(r.key)
			r.nsp = schemaOID(r.schema)
		} else {
			r.schema = nspName(r.nsp)
		}
	}
	for _, c := range o.cons {
		c.name = e.bareName(c.name)
	}
	o.printViews()
	o.types = append(e.catalogTypes(), o.rowTypes()...)
	o.procs = append(e.catalogProcs(), e.catalogAggregates()...)
	o.roles = e.catalogRoles()
	o.opers = e.catalogOperators()
	o.exts = e.catalogExtensions()
	o.describeExtensions()
	for _, r := range o.rels {
		for col, text := range e.comments[r.key] {
			if r.key == "" {
				continue
			}
			k := expr.DescKey{ClassOID: expr.PgClassOID, ObjOID: r.oid}
			if col != "" {
				k.SubID = int32(r.attnum(col))
			}
			if k.SubID >= 0 {
				o.descs[k] = text
			}
		}
	}
	o.describeObjects()
	return o
}

func plainCols(e *Engine, cols []plan.Column) []catCol {
	out := make([]catCol, len(cols))
	for i, c := range cols {
		out[i] = catCol{name: c.Name, typ: c.Type, typOID: e.typeOID(c.Type, nil)}
	}
	return out
}

// domainCols gives cols, a view's or materialized view's, the types of the domains
// PostgreSQL types them as (sql.CreateView.Domains).
func domainCols(e *Engine, cols []catCol, doms []*expr.Domain) []catCol {
	for i, d := range doms {
		if d != nil && i < len(cols) {
			cols[i].typOID = e.typeOID(cols[i].typ, d)
		}
	}
	return cols
}

// attnum is a column's number (from 1), -1 when there is none so named.
func (r *catRel) attnum(col string) int {
	for i, c := range r.cols {
		if c.name == col {
			return int(r.num(i))
		}
	}
	return -1
}

func (r *catRel) colList(nums []int16) string {
	names := make([]string, len(nums))
	for i, n := range nums {
		names[i] = expr.QuoteIdent(r.cols[r.colByNum(n)].name)
	}
	return strings.Join(names, ", ")
}

// indexesOf adds table r's indexes: those of its primary key and UNIQUE
// constraints, each with its constraint, and those CREATE INDEX made.
func (o *catalogObjects) indexesOf(r *catRel, add func(*catRel)) {
	t := r.t
	made := map[*uniqueIndex]bool{}
	for _, ix := range t.indexes {
		if ix.unique != nil {
			made[ix.unique] = true
		}
	}
	// index adds an index of r; made is the CREATE INDEX that made it,
	// nil for a key's.
	index := func(name string, cols []int16, unique, primary bool, x *keyExt, made *sql.CreateIndex) *catRel {
		name = tempIndexKey(r.name, name)
		def := "CREATE INDEX "
		if unique {
			def = "CREATE UNIQUE INDEX "
		}
		ci := &catIndex{cols: cols, unique: unique, primary: primary, x: x, method: "btree"}
		if made != nil {
			ci.method, ci.opts, ci.options = made.Method, made.KeyOpts, made.KeyOptions
		}
		sc, n := o.e.splitKey(r.name)
		sc = o.schemaText(sc)
		def += expr.QuoteIdent(o.e.bareName(name)) + " ON " + expr.QuoteIdent(sc) + "." + expr.QuoteIdent(n) + " USING " + ci.method
		elem := func(i int) string { return r.colList(cols[i : i+1]) }
		colName := func(c int) string { return expr.QuoteIdent(r.cols[c].name) }
		var texts *exprTexts
		if t != nil && x != nil && (x.exprs != nil || x.where != nil) {
			texts = newExprTexts(t.def.Cols, o.e)
		}
		ci.def = x.indexDefPG(texts, def, len(cols), elem, ci.opts, colName, false)
		if p := x.indexDefPG(texts, def, len(cols), elem, ci.opts, colName, true); p != ci.def {
			ci.pretty = p
		}
		ir := &catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'i', t: t, on: r, index: ci}
		for i, n := range cols {
			if n == 0 {
				typ := x.exprs[i].Type()
				ir.cols = append(ir.cols, catCol{name: exprColName(x.keySQL[i]), typ: typ, typOID: o.e.typeOID(typ, nil)})
				continue
			}
			ir.cols = append(ir.cols, r.indexCol(r.colByNum(n)))
		}
		if x != nil {
			for _, c := range x.include {
				ir.cols = append(ir.cols, r.indexCol(c))
			}
		}
		uniqueColNames(ir.cols)
		add(ir)
		return ir
	}
	for _, u := range t.uniques {
		if made[u] {
			continue
		}
		cols := r.attnums(u.cols)
		ir := index(u.name, cols, true, u.primary, u.x, nil)
		c := &catCon{oid: objectOID("constraint", r.name+"."+u.name), name: u.name, kind: 'u', rel: r, cols: cols, index: ir.oid}
		c.def = "UNIQUE (" + r.colList(cols) + ")"
		if u.x != nil && u.x.nulls {
			c.def = "UNIQUE NULLS NOT DISTINCT (" + r.colList(cols) + ")"
			c.nullsNotDistinct = true
		}
		if u.primary {
			c.kind, c.def = 'p', "PRIMARY KEY ("+r.colList(cols)+")"
		}
		if u.deferrable {
			c.deferrable, c.deferred = true, u.initDeferred
			c.def += deferralSQL(u)
			ir.index.deferrable = true
		}
		o.cons = append(o.cons, c)
	}
	for _, ix := range t.indexes {
		index(ix.name, r.attnums(ix.cols), ix.unique != nil, false, ix.x, ix.def)
	}
	for _, ix := range t.xindexes {
		index(ix.name, r.attnums(ix.cols), ix.unique != nil, false, ix.x, ix.def)
	}
	for _, x := range t.excl {
		o.exclusionOf(r, x.x, add)
	}
	texts := newExprTexts(t.def.Cols, o.e)
	for _, ch := range t.def.Checks {
		text, pretty := texts.check(ch.SQL)
		c := &catCon{oid: objectOID("constraint", r.name+"."+ch.Name), name: ch.Name, kind: 'c', rel: r,
			check: text, def: "CHECK (" + text + ")", notValid: ch.NotValid, cols: r.checkAttnums(ch.Expr)}
		if pretty != "" {
			c.pretty = "CHECK (" + pretty + ")"
		}
		if ch.NotValid {
			c.def += " NOT VALID"
			if c.pretty != "" {
				c.pretty += " NOT VALID"
			}
		}
		o.cons = append(o.cons, c)
	}
}

// checkAttnums is a CHECK's pg_constraint.conkey: the attnums of the
// columns its expression reads, once each, in the order they appear, as
// PostgreSQL records them; nil for none.
func (r *catRel) checkAttnums(e expr.Expr) []int16 {
	var out []int16
	expr.Walk(e, func(x expr.Expr) bool {
		if c, ok := x.(*expr.Col); ok && c.Idx < len(r.cols) && !slices.Contains(out, r.num(c.Idx)) {
			out = append(out, r.num(c.Idx))
		}
		return true
	})
	return out
}

// foreignKeysOf adds table r's FOREIGN KEY constraints, and those
// PostgreSQL makes from each on the partitions of either table
// (fkey_partition.go): parts names them on the referenced table's.
func (o *catalogObjects) foreignKeysOf(r *catRel, byName map[string]*catRel, parts map[*fkLink]map[*partition]string) {
	for i, fk := range r.t.def.ForeignKeys {
		ref := byName[fk.RefTable]
		if ref == nil {
			continue
		}
		c := &catCon{oid: objectOID("constraint", r.name+"."+fk.Name), name: fk.Name, kind: 'f', rel: r, cols: r.attnums(fk.Cols),
			ref: ref, refCols: ref.attnums(fk.RefCols), upd: byte(fk.OnUpdate), del: byte(fk.OnDelete), match: 's'}
		if fk.MatchFull {
			c.match = 'f'
		}
		c.def = "FOREIGN KEY (" + r.colList(c.cols) + ") REFERENCES " + o.relText(ref.name) + "(" + ref.colList(c.refCols) + ")"
		if fk.MatchFull {
			c.def += " MATCH FULL"
		}
		if fk.OnUpdate != sql.FKNoAction {
			c.def += " ON UPDATE " + fk.OnUpdate.SQL()
		}
		if fk.OnDelete != sql.FKNoAction {
			c.def += " ON DELETE " + fk.OnDelete.SQL()
		}
		if fk.Deferrable {
			c.def, c.deferrable = c.def+" DEFERRABLE", true
		}
		if fk.InitDeferred {
			c.def, c.deferred = c.def+" INITIALLY DEFERRED", true
		}
		if fk.NotValid {
			c.def, c.notValid = c.def+" NOT VALID", true
		}
		for _, ix := range o.rels {
			if ix.kind == 'i' && ix.on == ref && slices.Equal(ix.index.cols, c.refCols) {
				c.index = ix.oid // the referenced key's index
			}
		}
		o.cons = append(o.cons, c)
		o.partitionForeignKeys(c, &r.t.def.ForeignKeys[i], byName, parts)
	}
}

// partitionForeignKeys adds the constraints PostgreSQL makes from c,
// a constraint of a table: one of the same name on each partition of a
// partitioned table that has it, and one on the table for each partition
// of the partitioned table it references, each with the constraint of
// the level above as its parent.
func (o *catalogObjects) partitionForeignKeys(c *catCon, fk *sql.ForeignKey, byName map[string]*catRel, parts map[*fkLink]map[*partition]string) {
	var walk func(kids []*partition, up *catCon, on func(p *partition, r *catRel, up *catCon) *catCon)
	walk = func(kids []*partition, up *catCon, on func(p *partition, r *catRel, up *catCon) *catCon) {
		for _, k := range kids {
			r := byName[k.def.Name]
			if r == nil {
				continue
			}
			walk(k.kids, on(k, r, up), on)
		}
	}
	walk(c.rel.t.kids, c, func(_ *partition, r *catRel, up *catCon) *catCon {
		d := *c
		d.oid, d.rel, d.parent, d.inherited = objectOID("constraint", r.name+"."+fk.Name), r, up.oid, true
		o.cons = append(o.cons, &d)
		return &d
	})
	if c.ref.t == nil || len(c.ref.t.kids) == 0 {
		return
	}
	var names map[*partition]string
	for l, ns := range parts {
		if l.fk == fk {
			names = ns
		}
	}
	walk(c.ref.t.kids, c, func(p *partition, r *catRel, up *catCon) *catCon {
		d := *c
		d.name = names[p]
		d.oid, d.ref, d.parent, d.inherited, d.index = objectOID("constraint", c.rel.name+"."+d.name), r, up.oid, true, 0
		d.def = strings.Replace(c.def, " REFERENCES "+o.relText(c.ref.name)+"(", " REFERENCES "+o.relText(r.name)+"(", 1)
		o.cons = append(o.cons, &d)
		return &d
	})
}

// catalogTypes lists the built-in types, their array types, and the
// enum types and domains CREATE TYPE and CREATE DOMAIN made.
func (e *Engine) catalogTypes() []catType {
	var out []catType
	for i := range value.BuiltinTypes {
		b := &value.BuiltinTypes[i]
		typtype := byte('b')
		switch {
		case b.Kind == value.Record || b.Kind == value.Void || b.Kind == value.Cstring || b.Kind.IsValueless():
			typtype = 'p'
		case b.Kind.IsRange():
			typtype = 'r'
		case b.Kind.IsMultirange():
			typtype = 'm'
		}
		out = append(out, catType{oid: b.OID, array: b.ArrayOID, name: b.Name, nsp: pgCatalogOID, kind: b.Kind, typtype: typtype, builtin: b})
		if b.ArrayOID != 0 { // void has no array type
			out = append(out, catType{oid: b.ArrayOID, name: "_" + b.Name, nsp: pgCatalogOID, kind: value.ArrayOf(b.Kind), typtype: 'b', builtin: b})
		}
	}
	for _, name := range sortedKeys(e.userTypes) {
		d := e.userTypes[name].Enum()
		if d == nil {
			continue
		}
		out = append(out, catType{oid: d.OID, array: d.ArrayOID, name: name, nsp: publicOID, kind: value.Enum, typtype: 'e',
			labels: d.Labels, sorts: d.Sorts},
			catType{oid: d.ArrayOID, name: "_" + name, nsp: publicOID, kind: value.ArrayOf(value.Enum), typtype: 'b', base: d.OID})
	}
	out = append(out, e.catalogRangeTypes()...)
	for _, name := range sortedKeys(e.domains.byName) {
		dom := e.domains.byName[name]
		def := dom.Def()
		base := e.typeOID(def.Base, def.Parent)
		text, bin := e.domainDefaultTexts(def)
		ct := catType{oid: objectOID("type", name), name: name, nsp: publicOID, kind: def.Base.Kind, typtype: 'd',
			base: base, baseMod: def.Base.Typmod(), notNull: def.NotNull, def: text, defBin: bin, collation: def.Collation}
		if def.UserColl != nil {
			ct.collOID = def.UserColl.OID
		}
		if arr := dom.ArrayOf(); arr != nil {
			// Its array type, _d, as CREATE DOMAIN makes it in PostgreSQL.
			ct.array = objectOID("type", arr.Name())
			out = append(out, ct, catType{oid: ct.array, name: arr.Name(), nsp: publicOID, kind: arr.Def().Base.Kind, typtype: 'b',
				base: ct.oid, collation: def.Collation, collOID: ct.collOID})
			continue
		}
		out = append(out, ct)
	}
	out = append(out, infoSchemaTypes...)
	return append(out, e.extCatalogTypes()...)
}

// catalogProcs lists the SQL functions CREATE FUNCTION made.
func (e *Engine) catalogProcs() []catProc {
	var out []catProc
	for _, name := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[name] {
			p := catProc{name: f.Name, set: f.Set, strict: f.Strict, cost: f.Cost, rows: f.Rows, src: f.BodyText(), defaults: f.DefaultCount(), lang: languageOID(f.LanguageName())}
			if f.Volatility != "" {
				p.volatile = f.Volatility[:1]
			}
			for i, a := range f.Params {
				if f.Procedure && f.ArgModes[i] == 'o' {
					continue // pg_proc's arguments are the input ones
				}
				if a.Poly != sql.PolyNone {
					p.args = append(p.args, pseudoTypeOID(a.TypeString()))
				} else {
					p.args = append(p.args, e.typeOID(a.Type, a.Domain))
				}
				p.argStr = append(p.argStr, a.TypeString())
				p.names = append(p.names, a.Name)
			}
			p.argText, p.identArgText = f.ArgumentsText(false), f.ArgumentsText(true)
			if f.Trigger {
				t := f.TriggerType()
				p.ret, p.resultText = e.typeOID(t, nil), t.String()
			} else if len(f.Cols) == 0 {
				p.ret, p.resultText = 2278, "void" // RETURNS void (a procedure's is set below)
			} else if len(f.Cols) == 1 && f.BaseType {
				p.ret = e.typeOID(f.Cols[0].Type, f.ColDomain(0))
				if len(f.ColPoly) > 0 && f.ColPoly[0] != sql.PolyNone {
					p.ret = pseudoTypeOID(f.ColTypeString(0))
				}
				p.resultText = f.ColTypeString(0)
				if f.Set {
					p.resultText = "SETOF " + p.resultText
				}
			} else {
				p.ret = 2249 // record
				cols := make([]string, len(f.Cols))
				for i, c := range f.Cols {
					cols[i] = expr.QuoteIdent(c.Name) + " " + f.ColTypeString(i)
				}
				p.resultText = "record"
				if f.Set {
					p.resultText = "TABLE(" + strings.Join(cols, ", ") + ")"
				}
			}
			p.all = e.routineArgs(f)
			if len(p.all.outs) == 1 && !f.Procedure && !f.Trigger {
				// One output parameter is the result's type, as
				// PostgreSQL has it.
				p.ret = e.typeOID(p.all.outs[0], p.all.outDoms[0])
				if !strings.Contains(f.Modes(), "t") {
					p.resultText = outTypeString(p.all.outs[0], p.all.outDoms[0])
					if f.Set {
						p.resultText = "SETOF " + p.resultText
					}
				}
			} else if len(p.all.outs) > 1 && f.Set && !strings.Contains(f.Modes(), "t") {
				p.resultText = "SETOF record"
			}
			if f.Procedure {
				// void, or record when it has output parameters
				p.kind, p.ret, p.resultText = "p", 2278, ""
				if len(p.all.outs) > 0 {
					p.ret = 2249
				}
			}
			p.oid = objectOID("function", p.signature())
			p.def = e.functionDef(f, &p)
			p.key = f.Signature()
			p.owner, p.secdef, p.config = e.roleOID(routineOwnerName(f)), f.SecDef, f.Config
			if f.HasACL {
				p.acl, p.execs = routineProACL(f), execItems(true, f.ACL, f.ACLOptions, routineOwnerName(f))
			}
			out = append(out, p)
		}
	}
	return out
}

// signature is the function's name and argument types, as regprocedure
// prints them.
func (p *catProc) signature() string {
	return expr.QuoteIdent(p.name) + "(" + strings.Join(p.argStr, ",") + ")"
}

// catalogRoles lists the built-in superuser and the roles CREATE ROLE
// made.
func (e *Engine) catalogRoles() []catRole {
	out := []catRole{{oid: superuserOID, name: SuperuserName, super: true, login: true, bypassRLS: true}}
	for _, name := range sortedKeys(e.roles) {
		r := e.roles[name]
		out = append(out, catRole{oid: objectOID("role", r.name), name: r.name, super: r.superuser, login: r.login, bypassRLS: r.bypassRLS, noInherit: r.noInherit, memberOf: r.memberOf})
	}
	return out
}

// relText is the relation keyed key as SQL text names it: qualified by
// its schema unless it is public's.
func (o *catalogObjects) relText(key string) string {
	sc, n := o.e.splitKey(key)
	if sc == "public" || sc == o.own {
		return expr.QuoteIdent(n)
	}
	return expr.QuoteIdent(sc) + "." + expr.QuoteIdent(n)
}

// functionDef is pg_get_functiondef of f, whose catalog row is p: the
// CREATE OR REPLACE statement PostgreSQL 15 prints, its attributes on one
// line and its body dollar-quoted.
func (e *Engine) functionDef(f *sql.Function, p *catProc) string {
	kind, tag := "FUNCTION", "$function"
	if f.Procedure {
		kind, tag = "PROCEDURE", "$procedure"
	}
	sc, n := e.splitKey(f.Name)
	var b strings.Builder
	b.WriteString("CREATE OR REPLACE " + kind + " " + expr.QuoteIdent(sc) + "." + expr.QuoteIdent(n) + "(" + p.argText + ")\n")
	if !f.Procedure {
		b.WriteString(" RETURNS " + p.resultText + "\n")
	}
	b.WriteString(" LANGUAGE " + f.LanguageName() + "\n")
	var attrs string
	switch p.volatile {
	case "i":
		attrs += " IMMUTABLE"
	case "s":
		attrs += " STABLE"
	}
	if f.Strict {
		attrs += " STRICT"
	}
	if attrs != "" {
		b.WriteString(attrs + "\n")
	}
	for strings.Contains(p.src, tag) { // as PostgreSQL picks the quote
		tag += "x"
	}
	tag += "$"
	b.WriteString("AS " + tag + p.src + tag + "\n")
	return b.String()
}
