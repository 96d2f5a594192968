package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Domains (CREATE DOMAIN) are kept by name. A column of a domain holds
// values of the domain's base type and the domain itself
// (sql.ColumnDef.Domain): every write into the column checks the
// domain's constraints (table.checkRow), and a cast to the domain checks
// them where it is evaluated (expr.DomainCheck). ALTER DOMAIN replaces
// the domain's definition in place, so the columns and the casts that
// hold it see the change. A store that keeps domains (DomainStore)
// records each one's statements whole at each change.

// DomainStore is implemented by a Store that keeps domains.
type DomainStore interface {
	// SaveDomain records the domain old (a new one when old is ""),
	// named d.Name now, with the statements that create it, and sets
	// the statements of the tables given (name → CREATE TABLE), whose
	// columns name it.
	SaveDomain(old string, d StoredDomain, tables map[string]string) error
	// DropDomains records that the domains named are gone.
	DropDomains(names []string) error
}

// StoredDomain is a domain as a store records it: its name and the
// statements that create it (sql.DomainSQL).
type StoredDomain struct {
	Name, SQL string
	// TypDefault is pg_type.typdefault when it differs from the text
	// of the default the statements set: the text as it was set, which
	// PostgreSQL keeps when a function the default calls is renamed.
	// The store gives it back with SetDomainTypDefault.
	TypDefault string
}

// storedDomain is def as a store records it.
func storedDomain(def *expr.DomainDef) StoredDomain {
	return StoredDomain{Name: def.Name, SQL: sql.DomainSQL(def), TypDefault: def.DefaultText}
}

func (closedStore) SaveDomain(string, StoredDomain, map[string]string) error { return errClosedStore() }
func (closedStore) DropDomains([]string) error                               { return errClosedStore() }

// domainCatalog holds the domains and, per view whose query casts to a
// domain, the domains it names (a view's text names them).
type domainCatalog struct {
	byName map[string]*expr.Domain
	views  map[string][]string
}

var _ sql.DomainCatalog = (*Engine)(nil)

// Domain implements sql.DomainCatalog.
func (e *Engine) Domain(name string) (*expr.Domain, bool) {
	d, ok := e.domains.byName[name]
	return d, ok
}

// Domain implements sql.DomainCatalog, remembering the domains a
// statement names.
func (r *recorder) Domain(name string) (*expr.Domain, bool) {
	dc, ok := r.cat.(sql.DomainCatalog)
	if !ok {
		return nil, false
	}
	d, ok := dc.Domain(name)
	if ok && !slices.Contains(r.domains, name) {
		r.domains = append(r.domains, name)
	}
	return d, ok
}

// Domain implements sql.DomainCatalog.
func (v viewRecorder) Domain(name string) (*expr.Domain, bool) { return v.r.Domain(name) }

// noteViewDomains records the domains the query of the view being
// created names, which its stored text depends on.
func (e *Engine) noteViewDomains(view string, rec *recorder) {
	if len(rec.domains) == 0 {
		delete(e.domains.views, view)
		return
	}
	if e.domains.views == nil {
		e.domains.views = map[string][]string{}
	}
	e.domains.views[view] = slices.Clone(rec.domains)
}

// domainStore is the store's domain side; nil for an engine in memory.
func (e *Engine) domainStore() DomainStore {
	if ds, ok := e.store.(DomainStore); ok {
		return ds
	}
	return nil
}

// DomainDetail describes a domain for clients that introspect the
// catalog (psql's \dD): its type (the base type, or the domain it is
// over), and its constraints and default as written.
type DomainDetail struct {
	// Schema is the domain's schema; Visible reports whether the
	// session's search path holds it.
	Schema                string
	Visible               bool
	Name, Type, Collation string
	NotNull               bool
	Default               string   // "" for none
	Checks                []string // CHECK (…), NOT VALID when added so
}

// Domains lists the domains, by name.
func (s *Session) Domains() []DomainDetail {
	e := s.e
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []DomainDetail
	path := s.searchPath()
	for _, d := range e.domains.byName {
		def := d.Def()
		sc, name := e.splitKey(def.Name)
		dd := DomainDetail{Schema: sc, Visible: slices.Contains(path, sc), Name: name, Type: def.Base.String(), Collation: def.Collation,
			NotNull: def.NotNull, Default: def.TypDefault()}
		if def.Parent != nil {
			dd.Type = def.Parent.Name()
		}
		for _, c := range def.Checks {
			text := "CHECK (" + c.SQL + ")"
			if c.NotValid {
				text += " NOT VALID"
			}
			dd.Checks = append(dd.Checks, text)
		}
		out = append(out, dd)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Schema != out[j].Schema {
			return out[i].Schema < out[j].Schema
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func (e *Engine) createDomain(cd *sql.CreateDomain) (Result, error) {
	name := cd.Def.Name
	if _, ok := e.domains.byName[name]; ok || e.relationExists(name) {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "type %q already exists", e.bareName(name))
	}
	if ds := e.domainStore(); ds != nil && !isTemp(name) { // a session's temporary domain is never stored
		if err := ds.SaveDomain("", storedDomain(&cd.Def), nil); err != nil {
			return Result{}, err
		}
	}
	if e.domains.byName == nil {
		e.domains.byName = map[string]*expr.Domain{}
	}
	e.domains.byName[name] = expr.NewDomain(cd.Def)
	return Result{Tag: "CREATE DOMAIN"}, nil
}

func (e *Engine) alterDomain(ad *sql.AlterDomain) (Result, error) {
	d, ok := e.domains.byName[ad.Name]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", ad.Name)
	}
	if err := e.validateDomain(d, ad); err != nil {
		return Result{}, err
	}
	renamed := ad.Def.Name != ad.Name
	var tables map[string]string
	var routines []routineTypeRename // the routines naming the domain
	var rebuild []string             // the materialized views calling them
	var aggops []keptTextRename      // the aggregates and operators naming it
	var casts []castTypeRename       // the casts naming it
	if renamed {
		if views := e.domainTextViews(ad.Name, ad.Def.Name); len(views) > 0 {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot rename domain %s: view %s names it", ad.Name, views[0]).
				WithHint("drop the views that name the domain, rename it, and create them again")
		}
		var err error
		routines, err = e.routineTypeRenames(ad.Name, ad.Def.Name, func(p sql.FuncParam) bool { return ofDomain(p.Domain, d) },
			func(f *sql.Function, i int) bool { return i < len(f.ColDomains) && ofDomain(f.ColDomains[i], d) })
		if err != nil {
			return Result{}, err
		}
		if aggops, err = e.aggOpTypeRenames(ad.Name, ad.Def.Name); err != nil {
			return Result{}, err
		}
		if casts, err = e.castTypeRenames(ad.Name, ad.Def.Name, routines); err != nil {
			return Result{}, err
		}
		rebuild = e.routineCallerViews(routines)
		if err := e.refuseCallersWatched(ad.Name, rebuild); err != nil {
			return Result{}, err
		}
		if _, ok := e.domains.byName[ad.Def.Name]; ok || e.relationExists(ad.Def.Name) {
			return Result{}, pgerr.New(pgerr.DuplicateObject, "type %q already exists", e.bareName(ad.Def.Name))
		}
	}
	old := *d.Def()
	d.Set(ad.Def)
	if renamed {
		// The tables' statements name the domain: written again under
		// its new name.
		tables = map[string]string{}
		for _, t := range e.tables {
			if !t.temp && slices.ContainsFunc(t.def.Cols, func(c sql.ColumnDef) bool { return ofDomain(c.Domain, d) }) {
				tables[t.name] = t.def.SQL()
			}
		}
		// So are the composite types and the domains over it.
		if err := e.saveCompositesOf(d); err != nil {
			d.Set(old)
			return Result{}, err
		}
		for _, o := range e.domains.byName {
			if ofDomain(o.Def().Parent, d) {
				if err := e.saveDomain(o.Name(), o, nil); err != nil {
					d.Set(old)
					return Result{}, err
				}
			}
		}
	}
	if err := e.saveDomain(ad.Name, d, tables); err != nil {
		d.Set(old)
		return Result{}, err
	}
	if renamed {
		delete(e.domains.byName, ad.Name)
		e.domains.byName[ad.Def.Name] = d
		if err := e.moveObjectComments(ad.Name, ad.Def.Name, "type", "domconstraint"); err != nil {
			return Result{}, err
		}
		if err := e.applyRoutineTypeRenames(routines); err != nil {
			return Result{}, err
		}
		if err := e.applyCastTypeRenames(casts); err != nil {
			return Result{}, err
		}
		e.renameDomainViews(ad.Name, ad.Def.Name)
		if err := e.applyAggOpTypeRenames(aggops); err != nil {
			return Result{}, err
		}
	}
	res := Result{Tag: map[bool]string{false: "ALTER DOMAIN", true: "ALTER TYPE"}[ad.AsType]}
	if ad.Notice != "" {
		res.Notices = []string{ad.Notice}
	}
	notices, err := e.rebuildTypeofReaders(ad.Def.Name, rebuild, nil)
	res.Notices = append(res.Notices, notices...)
	return res, err
}

// saveDomain records d, named old until now, in the store.
func (e *Engine) saveDomain(old string, d *expr.Domain, tables map[string]string) error {
	if ds := e.domainStore(); ds != nil && !isTemp(d.Name()) { // a session's temporary domain is never stored
		return ds.SaveDomain(old, storedDomain(d.Def()), tables)
	}
	return nil
}

// validateDomain checks the values stored in the columns of d, or of a
// domain over d, against what ALTER DOMAIN adds: a constraint checked now
// or NOT NULL. A failure changes nothing.
func (e *Engine) validateDomain(d *expr.Domain, ad *sql.AlterDomain) error {
	if ad.Validate == nil && !ad.CheckNotNull {
		return nil
	}
	if err := e.refuseDomainInRecords(d); err != nil {
		return err
	}
	if err := e.refuseDomainInArrays(d); err != nil {
		return err
	}
	for _, t := range e.sortedTables() {
		for i, c := range t.def.Cols {
			if c.Domain.Elem() != nil || !c.Domain.Over(d) {
				continue
			}
			var err error
			t.rows.Scan(func(_ uint64, row value.Row) bool {
				v := row[i]
				switch {
				case ad.CheckNotNull && v.IsNull():
					err = &pgerr.Error{Code: pgerr.NotNullViolation, Message: fmt.Sprintf("column %q of table %q contains null values", c.Name, t.name)}
				case ad.Validate != nil:
					var holds bool
					if holds, err = ad.Validate.Holds(v); err == nil && !holds {
						err = &pgerr.Error{Code: pgerr.CheckViolation,
							Message: fmt.Sprintf("column %q of table %q contains values that violate the new constraint", c.Name, t.name)}
					}
				}
				return err == nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// sortedTables returns the tables by name, for a deterministic order of
// checks and messages.
func (e *Engine) sortedTables() []*table {
	out := make([]*table, 0, len(e.tables))
	for _, t := range e.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// domainViews returns the views whose query names the domain, sorted.
func (e *Engine) domainViews(name string) []string {
	var out []string
	for v, ds := range e.domains.views {
		if _, exists := e.kindOf(v); exists && slices.Contains(ds, name) {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

func (e *Engine) dropDomain(dd *sql.DropDomain) (Result, error) {
	return e.dropDomainListed(dd, nil, false)
}

// dropDomainListed drops the domains dd names; also are the other types
// the statement names besides, whose attributes of the domains go with
// them. With dry it only checks that the drop can run, changing nothing.
func (e *Engine) dropDomainListed(dd *sql.DropDomain, also []string, dry bool) (Result, error) {
	var notices, names []string
	var doms []*expr.Domain
	// Every name is looked up before any is checked, as PostgreSQL's.
	for _, name := range dd.Names {
		d, ok := e.domains.byName[name]
		if !ok {
			_, isType := e.userTypes[name]
			if _, isRel := e.kindOf(name); isRel || isType {
				return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a domain", name)
			}
			if dd.IfExists {
				notices = append(notices, fmt.Sprintf("type %q does not exist, skipping", name))
				continue
			}
			return Result{}, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
			doms = append(doms, d)
		}
	}
	if !dd.Cascade {
		// What is named in the same statement goes with it.
		if err := dependentsError(e.typeDropGroups(slices.Concat(names, also))); err != nil {
			return Result{}, err
		}
	}
	var drops domainDrops
	if dd.Cascade {
		for i := range doms {
			// PostgreSQL lists what the last named uses first.
			if err := drops.add(e, doms[len(doms)-1-i], slices.Concat(names, also)); err != nil {
				return Result{}, err
			}
		}
	}
	alters, err := drops.cols.bind(e)
	if err != nil {
		return Result{}, err
	}
	attrAlters, err := drops.attrs.check(e)
	if err != nil || dry {
		return Result{}, err
	}
	lines, err := drops.apply(e, attrAlters, alters)
	if err != nil {
		return Result{}, err
	}
	if len(alters) > 0 || len(attrAlters) > 0 || len(lines) > len(drops.domains) {
		e.pruneGrants() // of the views dropped
		if err := e.pruneComments(); err != nil {
			return Result{}, err
		}
	}
	notices = append(notices, cascadeNotice(lines)...)
	names = append(names, drops.domains...)
	stored := slices.DeleteFunc(slices.Clone(names), isTemp) // a session's temporary domains were never stored
	if ds := e.domainStore(); ds != nil && len(stored) > 0 {
		if err := ds.DropDomains(stored); err != nil {
			return Result{}, err
		}
	}
	for _, n := range names {
		delete(e.domains.byName, n)
	}
	return Result{Tag: "DROP DOMAIN", Notices: notices}, nil
}

// domainDependents describes, as PostgreSQL's DETAIL does, what depends
// on d directly: columns of it, domains over it, views that name it.
func (e *Engine) domainDependents(d *expr.Domain) []string {
	var out []string
	name := d.Name()
	for _, t := range e.sortedTables() {
		if ct := e.composites[t.def.OfType]; t.def.OfType != "" && ct != nil {
			continue // its columns follow the composite type's attributes
		}
		for _, c := range t.def.Cols {
			if ofDomain(c.Domain, d) {
				out = append(out, fmt.Sprintf("column %s of table %s depends on type %s", c.Name, t.name, dependedName(c.Domain)))
			}
		}
	}
	var over []string
	for n, o := range e.domains.byName {
		if p := o.Def().Parent; ofDomain(p, d) {
			over = append(over, fmt.Sprintf("type %s depends on type %s", n, dependedName(p)))
		}
	}
	sort.Strings(over)
	out = append(out, over...)
	for _, l := range e.compositesOfDomain(d) {
		out = append(out, l)
		attr, rest, _ := strings.Cut(l, " of composite type ")
		ct, typ, _ := strings.Cut(rest, " depends on ")
		for _, tt := range e.typedTables(ct) {
			out = append(out, attr+" of table "+tt+" depends on "+typ)
		}
	}
	var arrays []string // what depends on d[] comes first, as PostgreSQL reaches it through the array type
	for _, l := range e.domainRoutineLines(d) {
		if l.array {
			arrays = append(arrays, fmt.Sprintf("%s depends on type %s[]", l.what, name))
		} else {
			out = append(out, fmt.Sprintf("%s depends on type %s", l.what, name))
		}
	}
	out = append(arrays, out...)
	for _, v := range e.domainViews(name) {
		k, _ := e.kindOf(v)
		out = append(out, fmt.Sprintf("%s %s depends on type %s", map[sql.DropKind]string{sql.DropView: "view", sql.DropMatView: "materialized view"}[k], v, name))
	}
	return out
}

// alterDomainCheck checks a row of a table being altered against the
// domains of its columns that are new or of a new domain (ADD COLUMN,
// ALTER COLUMN … TYPE): the others' values are as they were.
func alterDomainCheck(old, next *table, a *sql.AlterTable, row value.Row) error {
	for i, c := range next.def.Cols {
		if c.Domain == nil {
			continue
		}
		if a.Columns && (a.Map[i] < 0 || old.def.Cols[a.Map[i]].Domain != c.Domain) {
			if err := c.Domain.Check(row[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkDomains checks row's values in columns of a domain against the
// domain's constraints; with old, the row it replaces, only the values
// that changed, as PostgreSQL coerces only the columns an UPDATE sets.
func (t *table) checkDomains(old, row value.Row) error {
	cols := t.def.Cols
	for i := range cols {
		d := cols[i].Domain
		if d == nil || old != nil && value.Compare(old[i], row[i]) == 0 && value.CompareRepr(old[i], row[i]) == 0 {
			continue
		}
		if t.copyBare != nil && t.copyBare[i] && row[i].IsNull() {
			continue
		}
		if err := d.Check(row[i]); err != nil {
			return err
		}
	}
	return nil
}
