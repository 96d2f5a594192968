package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
)

// objectCats keeps, for one catalog image (txddl_image.go), a copy of each
// catalog object that catalog changes edit in place rather than replace:
// policies (ALTER POLICY), triggers and rules (ENABLE/DISABLE, RENAME),
// partitions (their partitions' lists), domains (ALTER DOMAIN stores a new
// definition), statistics objects, event triggers, extensions, the
// indexes of materialized views (REFRESH … WITH NO DATA lets go of their
// rows), plain views (renames of their tables' columns, ALTER VIEW) and
// materialized views' names, definitions and indexes (SET SCHEMA, CREATE
// INDEX).
// Restoring writes each copy back over its object. Its cost is one
// struct copy per object, never rows.
type objectCats struct {
	policies map[*policy]policy
	triggers map[*trigger]trigger
	rules    map[*rule]rule
	parts    map[*partition]partition
	domains  map[*expr.Domain]*expr.DomainDef
	stats    map[*statsObject]statsObject
	evts     map[*evtTrigger]evtTrigger
	exts     map[*installedExt]installedExt
	viewIdx  map[*matIndex]matIndex
	tableIdx map[*namedIndex]indexName
	named    map[*namedView]namedView
	metas    map[*viewMeta]viewCatalog
	// subViews are the views the subscriptions follow by name, which a
	// view's SET SCHEMA renames.
	subViews map[*subscription]string
}

// viewCatalog is what catalog changes edit in place in a materialized
// view: its name and definition (SET SCHEMA, a column renamed under it),
// its budget and the indexes CREATE INDEX made on it.
type viewCatalog struct {
	name      string
	cols      []plan.Column
	def       *sql.CreateView
	maxMemory int64
	indexes   []*matIndex
}

// takeObjects copies the objects of the engine's catalog edited in place.
func (e *Engine) takeObjects() objectCats {
	var o objectCats
	o.policies = map[*policy]policy{}
	for _, r := range e.rls {
		for _, p := range r.policies {
			o.policies[p] = *p
		}
	}
	o.triggers = map[*trigger]trigger{}
	for _, list := range e.triggers {
		for _, t := range list {
			o.triggers[t] = *t
		}
	}
	o.rules = map[*rule]rule{}
	for _, list := range e.rules {
		for _, r := range list {
			o.rules[r] = *r
		}
	}
	o.parts = make(map[*partition]partition, len(e.parts))
	for _, p := range e.parts {
		c := *p
		c.kids = slices.Clone(p.kids)
		o.parts[p] = c
	}
	o.domains = make(map[*expr.Domain]*expr.DomainDef, len(e.domains.byName))
	for _, d := range e.domains.byName {
		o.domains[d] = d.Def()
	}
	o.stats = make(map[*statsObject]statsObject, len(e.stats))
	for _, s := range e.stats {
		o.stats[s] = *s
	}
	o.evts = make(map[*evtTrigger]evtTrigger, len(e.evtTriggers))
	for _, t := range e.evtTriggers {
		o.evts[t] = *t
	}
	o.exts = make(map[*installedExt]installedExt, len(e.exts))
	for _, x := range e.exts {
		o.exts[x] = *x
	}
	o.viewIdx = make(map[*matIndex]matIndex, len(e.matIndexes))
	for _, ix := range e.matIndexes {
		o.viewIdx[ix] = *ix
	}
	o.tableIdx = e.takeIndexNames()
	o.metas = make(map[*viewMeta]viewCatalog, len(e.views))
	for _, v := range e.views {
		m := v.meta()
		o.metas[m] = viewCatalog{name: m.name, cols: m.cols, def: m.def, maxMemory: m.maxMemory, indexes: slices.Clone(m.indexes)}
	}
	o.subViews = make(map[*subscription]string, len(e.subs))
	for _, sub := range e.subs {
		o.subViews[sub] = sub.view
	}
	o.named = make(map[*namedView]namedView, len(e.named))
	for _, v := range e.named {
		o.named[v] = *v
	}
	return o
}

// restore writes each copy back over its object.
func (o *objectCats) restore() {
	for p, c := range o.policies {
		*p = c
	}
	for t, c := range o.triggers {
		*t = c
	}
	for r, c := range o.rules {
		*r = c
	}
	restoreIndexNames(o.tableIdx)
	for p, c := range o.parts {
		*p = c
	}
	for d, def := range o.domains {
		if d.Def() != def {
			d.Set(*def)
		}
	}
	for s, c := range o.stats {
		*s = c
	}
	for t, c := range o.evts {
		*t = c
	}
	for x, c := range o.exts {
		*x = c
	}
	for ix, c := range o.viewIdx {
		*ix = c
	}
	for v, c := range o.named {
		*v = c
	}
	for sub, view := range o.subViews {
		sub.view = view
	}
	for m, c := range o.metas {
		m.name, m.cols, m.def, m.maxMemory, m.indexes = c.name, c.cols, c.def, c.maxMemory, c.indexes
	}
}
