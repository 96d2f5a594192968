package engine

import (
	"maps"
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// catalogImage keeps the engine's catalog as it was before one catalog
// change of a transaction block: a shallow copy of every catalog map and
// list, and of the catalog fields of the objects that catalog changes edit
// in place (a table's definition and indexes, a sequence's options, a
// schema's grants, an enum's labels). Restoring it undoes the change. Its
// cost is proportional to the number of catalog objects, never to rows:
// the objects a change replaces or drops are kept whole by the copy, rows
// and view state included, and the rows the block changed after the image
// are undone by the transaction's log before it is restored (txddl.go).
type catalogImage struct {
	rules        map[string][]*rule
	tables       map[string]*table
	tableCats    []tableCatalog
	seqs         map[string]*sequence
	seqCats      []sequenceCatalog
	views        map[string]matView
	named        map[string]*namedView
	viewSettings map[string]map[string]string
	unpopulated  map[string]*sql.CreateView
	viewStmts    map[string]viewStmt
	stats        map[string]*statsObject
	colls        map[string]*sql.UserCollation
	evtTriggers  map[string]*evtTrigger
	funcs        map[string][]*sql.Function
	funcDeps     map[string][]string
	routineText  map[string]string
	aggs         map[string][]*sql.Aggregate
	opers        map[string][]*sql.Operator
	triggers     map[string][]*trigger
	rls          map[string]*tableRLS
	rlsCats      map[*tableRLS]tableRLS
	comments     map[string]map[string]string
	owners       map[string]string
	typeOwners   map[string]string
	domainsBy    map[string]*expr.Domain
	domainViews  map[string][]string
	userTypes    map[string]value.Type
	enums        map[string]*value.EnumDesc
	recordNames  map[value.Type]string // a composite type's name, which RENAME TO changes in place
	rangeNames   map[value.Type]string // a range or multirange type's name, as recordNames
	composites   map[string]*sql.CompositeType
	restoreOIDs  map[string][2]uint32
	typeUses     map[string][]string
	nextOID      uint32
	exts         map[string]*installedExt
	casts        map[[2]string]*sql.UserCast
	inherits     []inheritLink
	inheritOnly  map[string][]string
	inheritChks  map[string][]string
	inheritChild bool
	schemas      map[string]*schema
	public       *schema
	schemaCats   map[*schema]schema
	indexes      map[string]*table
	matIndexes   map[string]*matIndex
	parts        map[string]*partition
	order        []matView
	deps         map[string][]string
	notes        map[string]string
	roles        map[string]*role
	roleCats     map[*role]role
	grants       map[string]map[string]sql.Privilege
	grantOrder   map[string][]string
	defACLs      map[defACLKey]map[string]sql.Privilege
	dbACL        map[string]sql.Privilege
	dbACLOrder   []string
	typeACLs     map[string][]string
	typeOptions  map[string][]string
	colGrants    map[string]colACL
	deferKeys    bool
	nextID       int
	shared       map[string]*sharedIndex
	sharedList   []*sharedIndex
	sharedCats   []sharedCatalog
	objs         objectCats
}

// tableCatalog is what catalog changes edit in place in a table.
type tableCatalog struct {
	t         *table
	def       *sql.CreateTable
	cols      []plan.Column
	uniques   []*uniqueIndex
	prefixes  []*prefixIndex
	indexes   []*namedIndex
	xindexes  []*namedIndex
	xuniques  []*uniqueIndex
	excl      []*exclusion
	keyOrders []*namedIndex
	clustered string
	fkeyed    bool
	trig      []*trigger
	kids      []*partition
	dkeys     []*uniqueIndex
	gen       generated
}

// sequenceCatalog is what ALTER SEQUENCE edits in place in a sequence:
// its options, not the numbers it handed out (nextval is not
// transactional).
type sequenceCatalog struct {
	s                    *sequence
	typ                  value.Kind
	inc, min, max, start int64
	cache                int64
	cycle                bool
	owner                [2]string
	identity             bool
	unlogged             bool
}

// sharedCatalog is a shared index's readers: dropping a view releases it
// from the indexes it read.
type sharedCatalog struct {
	si    *sharedIndex
	views []string
	refs  int
}

func cloneSlices[K comparable, V any](m map[K][]V) map[K][]V {
	if m == nil {
		return nil
	}
	out := make(map[K][]V, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

func cloneNested[K, K2 comparable, V any](m map[K]map[K2]V) map[K]map[K2]V {
	if m == nil {
		return nil
	}
	out := make(map[K]map[K2]V, len(m))
	for k, v := range m {
		out[k] = maps.Clone(v)
	}
	return out
}

// takeImage returns the engine's catalog as it is now.
func (e *Engine) takeImage() *catalogImage {
	im := &catalogImage{
		rules: cloneSlices(e.rules), tables: maps.Clone(e.tables), seqs: maps.Clone(e.seqs),
		views: maps.Clone(e.views), named: maps.Clone(e.named), viewSettings: cloneNested(e.viewSettings),
		unpopulated: maps.Clone(e.unpopulated), viewStmts: maps.Clone(e.viewStmts), stats: maps.Clone(e.stats), colls: maps.Clone(e.colls),
		evtTriggers: maps.Clone(e.evtTriggers), funcs: cloneSlices(e.funcs), funcDeps: cloneSlices(e.funcDeps),
		routineText: maps.Clone(e.routineText), aggs: cloneSlices(e.aggs), opers: cloneSlices(e.opers),
		triggers: cloneSlices(e.triggers), rls: maps.Clone(e.rls), comments: cloneNested(e.comments),
		owners: maps.Clone(e.owners), typeOwners: maps.Clone(e.typeOwners), domainsBy: maps.Clone(e.domains.byName), domainViews: cloneSlices(e.domains.views),
		userTypes: maps.Clone(e.userTypes), composites: maps.Clone(e.composites), restoreOIDs: maps.Clone(e.restoreOIDs),
		typeUses: cloneSlices(e.typeUses), nextOID: e.nextOID, exts: maps.Clone(e.exts), casts: maps.Clone(e.casts),
		inherits: slices.Clone(e.inherits), inheritOnly: cloneSlices(e.inheritOnly), inheritChks: cloneSlices(e.inheritChecks),
		inheritChild: e.inheritChild, schemas: maps.Clone(e.schemas), public: e.publicSchema, indexes: maps.Clone(e.indexes),
		matIndexes: maps.Clone(e.matIndexes), parts: maps.Clone(e.parts), order: slices.Clone(e.order),
		deps: cloneSlices(e.deps), notes: maps.Clone(e.notes), roles: maps.Clone(e.roles), grants: cloneNested(e.grants), grantOrder: cloneSlices(e.grantOrder), defACLs: e.defACLs, dbACL: e.dbACL, dbACLOrder: e.dbACLOrder, typeACLs: e.typeACLs, typeOptions: e.typeOptions, colGrants: maps.Clone(e.colGrants),
		deferKeys: e.deferKeys, nextID: e.nextID,
		shared: maps.Clone(e.shared.m), sharedList: slices.Clone(e.shared.list),
	}
	for _, t := range e.tables {
		im.tableCats = append(im.tableCats, tableCatalog{t: t, def: t.def, cols: slices.Clone(t.cols),
			uniques: slices.Clone(t.uniques), prefixes: slices.Clone(t.prefixes), indexes: slices.Clone(t.indexes),
			xindexes: slices.Clone(t.xindexes), xuniques: slices.Clone(t.xuniques), excl: slices.Clone(t.excl),
			keyOrders: slices.Clone(t.keyOrders), clustered: t.clustered, fkeyed: t.fkeyed, trig: slices.Clone(t.trig),
			kids: slices.Clone(t.kids), dkeys: slices.Clone(t.dkeys), gen: generated{of: t.gen.of, cols: slices.Clone(t.gen.cols)}})
	}
	for _, s := range e.seqs {
		im.seqCats = append(im.seqCats, sequenceCatalog{s: s, typ: s.typ, inc: s.inc, min: s.min, max: s.max,
			start: s.start, cache: s.cache, cycle: s.cycle, owner: s.owner, identity: s.identity, unlogged: s.unlogged})
	}
	for name, t := range e.userTypes {
		if d := t.Enum(); d != nil && t.Kind == value.Enum {
			if im.enums == nil {
				im.enums = map[string]*value.EnumDesc{}
			}
			im.enums[name] = d
		}
	}
	for _, t := range e.userTypes {
		if d := t.UserRange(); d != nil && (t.Kind == value.UserRange || t.Kind == value.UserMultirange) {
			if im.rangeNames == nil {
				im.rangeNames = map[value.Type]string{}
			}
			im.rangeNames[t] = map[bool]string{true: d.Name, false: d.MultiName}[t.Kind == value.UserRange]
		}
	}
	for _, ct := range e.composites {
		if d := ct.Type.RecordDesc(); d != nil {
			if im.recordNames == nil {
				im.recordNames = map[value.Type]string{}
			}
			im.recordNames[ct.Type] = d.Name
		}
	}
	im.rlsCats = make(map[*tableRLS]tableRLS, len(e.rls))
	for _, r := range e.rls {
		im.rlsCats[r] = tableRLS{enabled: r.enabled, forced: r.forced, policies: slices.Clone(r.policies)}
	}
	im.schemaCats = make(map[*schema]schema, len(e.schemas))
	for _, s := range append(slices.Collect(maps.Values(e.schemas)), e.publicSchema) {
		if s == nil {
			continue
		}
		im.schemaCats[s] = schema{name: s.name, owner: s.owner, grants: maps.Clone(s.grants), order: s.order}
	}
	im.roleCats = make(map[*role]role, len(e.roles))
	for _, r := range e.roles {
		im.roleCats[r] = *r
	}
	im.objs = e.takeObjects()
	for _, si := range e.shared.list {
		im.sharedCats = append(im.sharedCats, sharedCatalog{si: si, views: slices.Clone(si.views), refs: si.a.Refs()})
	}
	return im
}

// restoreImage puts the catalog back as im holds it. The caller has
// undone the rows changed since im was taken.
func (e *Engine) restoreImage(im *catalogImage) {
	e.rules, e.tables, e.seqs, e.views, e.named = im.rules, im.tables, im.seqs, im.views, im.named
	e.viewSettings, e.unpopulated, e.viewStmts, e.stats = im.viewSettings, im.unpopulated, im.viewStmts, im.stats
	e.colls = im.colls
	e.evtTriggers, e.funcs, e.funcDeps, e.routineText = im.evtTriggers, im.funcs, im.funcDeps, im.routineText
	e.aggs, e.opers, e.triggers, e.rls, e.comments = im.aggs, im.opers, im.triggers, im.rls, im.comments
	e.owners, e.domains.byName, e.domains.views = im.owners, im.domainsBy, im.domainViews
	e.typeOwners = im.typeOwners
	e.userTypes, e.composites, e.restoreOIDs, e.typeUses, e.nextOID = im.userTypes, im.composites, im.restoreOIDs, im.typeUses, im.nextOID
	e.exts, e.casts = im.exts, im.casts
	e.inherits, e.inheritOnly, e.inheritChecks, e.inheritChild = im.inherits, im.inheritOnly, im.inheritChks, im.inheritChild
	e.schemas, e.publicSchema, e.indexes, e.matIndexes, e.parts = im.schemas, im.public, im.indexes, im.matIndexes, im.parts
	e.order, e.deps, e.notes, e.roles, e.grants, e.grantOrder = im.order, im.deps, im.notes, im.roles, im.grants, im.grantOrder
	e.colGrants, e.defACLs, e.dbACL, e.dbACLOrder, e.typeACLs = im.colGrants, im.defACLs, im.dbACL, im.dbACLOrder, im.typeACLs
	e.typeOptions = im.typeOptions
	e.deferKeys, e.nextID = im.deferKeys, im.nextID
	for _, c := range im.tableCats {
		t := c.t
		t.def, t.cols, t.uniques, t.prefixes, t.indexes = c.def, c.cols, c.uniques, c.prefixes, c.indexes
		t.xindexes, t.xuniques, t.excl, t.keyOrders, t.clustered = c.xindexes, c.xuniques, c.excl, c.keyOrders, c.clustered
		t.fkeyed, t.trig, t.kids, t.dkeys, t.gen = c.fkeyed, c.trig, c.kids, c.dkeys, c.gen
	}
	for _, c := range im.seqCats {
		s := c.s
		s.mu.Lock()
		s.typ, s.inc, s.min, s.max, s.start = c.typ, c.inc, c.min, c.max, c.start
		s.cache, s.cycle, s.owner, s.identity, s.unlogged = c.cache, c.cycle, c.owner, c.identity, c.unlogged
		s.mu.Unlock()
	}
	for name, d := range im.enums {
		value.EnumRestore(im.userTypes[name], d)
	}
	for t, name := range im.recordNames {
		value.RenameCompositeType(t, name)
	}
	for t, name := range im.rangeNames {
		value.RenameRangeType(t, name)
	}
	for r, c := range im.rlsCats {
		r.enabled, r.forced, r.policies = c.enabled, c.forced, c.policies
	}
	for s, c := range im.schemaCats {
		s.name, s.owner, s.grants, s.order = c.name, c.owner, c.grants, c.order
	}
	for r, c := range im.roleCats {
		*r = c
	}
	im.objs.restore()
	// The constraints are linked again from the definitions restored:
	// a change of a referenced table's columns moved their positions in
	// the referencing definitions (linkForeignKeys).
	e.linkForeignKeys()
	// The shared indexes hold what they held: no commit ran since the
	// image (the block holds the database), so only their readers change.
	e.shared.m, e.shared.list = im.shared, im.sharedList
	for _, c := range im.sharedCats {
		c.si.views = c.views
		for c.si.a.Refs() < c.refs {
			c.si.a.Retain()
		}
		for c.si.a.Refs() > c.refs {
			c.si.a.Release()
		}
	}
	e.read, e.waves = nil, nil
	e.catalogGen++ // prepared statements bind again
}
