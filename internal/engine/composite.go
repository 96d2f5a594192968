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

// Composite types (CREATE TYPE … AS (…)) are user types whose values are
// records (value.CompositeTypeOf), kept beside the enums in e.userTypes
// with their attributes in e.composites. A value holds only its fields,
// so a type whose fields change is another value.Type: ALTER TYPE changes
// a type that nothing uses, and refuses (0A000) to change one that a
// column, another composite type or a relation's statement uses, where
// PostgreSQL would read the stored values under the new attributes. For
// the same reason a table whose row type a column uses cannot be altered
// (refuseRowTypeChange). A store records a composite type as the CREATE
// TYPE statement of its attributes, run again at open with the object
// numbers it had (restoreOIDs).

// StoredTypeComposite is StoredType.Kind of a composite type.
const StoredTypeComposite = "composite"

// CompositeType implements sql.CompositeCatalog.
func (e *Engine) CompositeType(name string) (*sql.CompositeType, bool) {
	ct, ok := e.composites[name]
	return ct, ok
}

// CompositeType implements sql.CompositeCatalog.
func (r *recorder) CompositeType(name string) (*sql.CompositeType, bool) {
	cc, ok := r.cat.(sql.CompositeCatalog)
	if !ok {
		return nil, false
	}
	return cc.CompositeType(name)
}

// CompositeType implements sql.CompositeCatalog.
func (v viewRecorder) CompositeType(name string) (*sql.CompositeType, bool) {
	return v.r.CompositeType(name)
}

func (e *Engine) createComposite(c *sql.CreateComposite) (Result, error) {
	if _, dom := e.domains.byName[c.Name]; dom || e.typeNameTaken(c.Name) {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "type %q already exists", e.bareName(c.Name))
	}
	oids, restored := e.restoreOIDs[c.Name]
	if restored {
		delete(e.restoreOIDs, c.Name)
	} else {
		if e.nextOID < firstUserOID {
			e.nextOID = firstUserOID
		}
		oids = [2]uint32{e.nextOID, e.nextOID + 1}
	}
	ct := &sql.CompositeType{Name: c.Name, Attrs: c.Attrs,
		Type: value.CompositeTypeOf(c.Name, oids[0], oids[1], sql.CompositeTypeFields(c.Attrs))}
	if err := e.saveComposite("", ct); err != nil {
		return Result{}, err
	}
	if !restored {
		e.nextOID += 2
	}
	e.putComposite(ct)
	return Result{Tag: "CREATE TYPE"}, nil
}

// putComposite enters ct in the catalog under its name.
func (e *Engine) putComposite(ct *sql.CompositeType) {
	if e.userTypes == nil {
		e.userTypes = map[string]value.Type{}
	}
	if e.composites == nil {
		e.composites = map[string]*sql.CompositeType{}
	}
	e.userTypes[ct.Name] = ct.Type
	e.composites[ct.Name] = ct
}

// saveComposite records ct in the store, replacing the type named old.
func (e *Engine) saveComposite(old string, ct *sql.CompositeType) error {
	ts, ok := e.store.(TypeStore)
	if !ok || e.store == nil || isTemp(ct.Name) { // a session's temporary type is never stored
		return nil
	}
	d := ct.Type.RecordDesc()
	return ts.SaveType(old, StoredType{Name: ct.Name, Kind: StoredTypeComposite, OID: d.OID, ArrayOID: d.ArrayOID,
		SQL: sql.CompositeSQL(ct.Name, ct.Attrs, ct.Dropped)})
}

func (e *Engine) alterComposite(a *sql.AlterComposite) (Result, error) {
	ct := e.composites[a.Name]
	typed := e.typedTables(a.Name)
	if !a.Cascade {
		if err := e.refuseTypedAlter(a); err != nil {
			return Result{}, err
		}
	}
	deps := e.typeDependents(a.Name, ct.Type)
	if a.Cascade {
		lines := e.typedTableLines(a.Name)
		deps = slices.DeleteFunc(deps, func(d string) bool { return slices.Contains(lines, d) })
	}
	if len(deps) > 0 {
		if a.Retyped != "" {
			if col := e.rowTypeColumn(a.Name); col != "" {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot alter type %q because column %q uses it", a.Name, col)
			}
		}
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … ATTRIBUTE of type %s, which other objects use, is not supported", a.Name).
			WithDetail("%s", strings.Join(deps, "\n")).
			WithHint("alter it before a table, view or type uses it")
	}
	var alters []*sql.AlterTable
	if a.Cascade && len(typed) > 0 {
		var err error
		if alters, err = e.typedTableAlters(a, typed); err != nil {
			return Result{}, err
		}
	}
	d := ct.Type.RecordDesc()
	next := &sql.CompositeType{Name: a.Name, Attrs: a.Attrs, Dropped: a.Dropped,
		Type: value.CompositeTypeOf(a.Name, d.OID, d.ArrayOID, sql.CompositeTypeFields(a.Attrs))}
	if err := e.saveComposite(a.Name, next); err != nil {
		return Result{}, err
	}
	e.putComposite(next)
	res := Result{Tag: "ALTER TYPE", Notices: a.Notices}
	for _, at := range alters {
		r, err := e.alterTable(at)
		res.Notices = append(res.Notices, r.Notices...)
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// renameComposite is ALTER TYPE name RENAME TO new of a composite type.
func (e *Engine) renameComposite(name, new string) error {
	ct := e.composites[name]
	next := &sql.CompositeType{Name: new, Attrs: ct.Attrs, Dropped: ct.Dropped, Type: ct.Type}
	// The type is renamed in place (value.RenameCompositeType): what holds
	// it follows, as PostgreSQL's follow its oid.
	rename := func() error {
		value.RenameCompositeType(ct.Type, new)
		delete(e.userTypes, name)
		delete(e.composites, name)
		e.putComposite(next)
		return nil
	}
	if e.renamesInUse(name, ct.Type) {
		// Its users' texts are written again under the new name
		// (enum_rename.go).
		undo := func() {
			value.RenameCompositeType(ct.Type, name)
			delete(e.userTypes, new)
			delete(e.composites, new)
			e.putComposite(ct)
		}
		if err := e.renameEnumInUse(enumRename{t: ct.Type, key: name, newKey: new}, rename, undo); err != nil {
			return err
		}
		e.renameTypeUses(name, new)
	} else if err := rename(); err != nil {
		return err
	}
	return e.saveComposite(name, next)
}

// rowTypeColumn names the first table column ("table.column", in name
// order) whose values hold records of the row type called name.
func (e *Engine) rowTypeColumn(name string) string {
	var cols []string
	for tn, tb := range e.tables {
		for _, c := range tb.def.Cols {
			if sql.HoldsRowType(c.Type, name) {
				cols = append(cols, tn+"."+c.Name)
			}
		}
	}
	sort.Strings(cols)
	if len(cols) == 0 {
		return ""
	}
	return cols[0]
}

// compositeDependents names the attributes of other composite types
// whose types uses (the type called name) holds, as PostgreSQL's DETAIL
// lines.
func (e *Engine) compositeDependents(name string, uses func(value.Type) bool) []string {
	var out []string
	for cn, ct := range e.composites {
		if cn == name {
			continue
		}
		for _, a := range ct.Attrs {
			if uses(a.Type) {
				out = append(out, fmt.Sprintf("column %s of composite type %s depends on type %s", a.Name, cn, typeDisplayName(a.Type, name)))
			}
		}
	}
	return out
}

// typeDisplayName is the name of the type, of those t holds, that is
// called name or an array of it: name[] when t is such an array.
func typeDisplayName(t value.Type, name string) string {
	if t.Kind.IsArray() {
		if d := t.RecordDesc(); d != nil && d.Name == name || t.RecordDesc() == nil {
			return name + "[]"
		}
	}
	return name
}

// refuseRowTypeChange refuses ALTER TABLE of a table whose row type a
// column or a composite type's attribute holds (0A000: its records there
// keep the table's columns as they are), and DROP TABLE (2BP01) when drop
// is set, unless the tables holding it are dropped too (dropping).
func (e *Engine) refuseRowTypeChange(table string, drop bool, dropping []string) error {
	var deps []string
	for tn, tb := range e.tables {
		for _, c := range tb.def.Cols {
			if tn != table && !slices.Contains(dropping, tn) && sql.HoldsRowType(c.Type, table) {
				deps = append(deps, fmt.Sprintf("column %s of table %s depends on type %s", c.Name, tn, typeDisplayName(c.Type, table)))
			}
		}
	}
	deps = append(deps, e.compositeDependents(table, func(t value.Type) bool { return sql.HoldsRowType(t, table) })...)
	if len(deps) == 0 {
		return nil
	}
	sort.Strings(deps)
	if drop {
		return pgerr.New(pgerr.DependentObjects, "cannot drop table %s because other objects depend on it", table).
			WithDetail("%s", strings.Join(deps, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	return pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE of table %s, whose row type other objects use, is not supported", table).
		WithDetail("%s", strings.Join(deps, "\n")).
		WithHint("alter it before another table or a type uses its row type")
}

// compositesOfDomain names the attributes of composite types of domain d,
// as PostgreSQL's DETAIL lines.
func (e *Engine) compositesOfDomain(d *expr.Domain) []string {
	var out []string
	for cn, ct := range e.composites {
		for _, a := range ct.Attrs {
			if ofDomain(a.Domain, d) {
				out = append(out, fmt.Sprintf("column %s of composite type %s depends on type %s", a.Name, cn, dependedName(a.Domain)))
			}
		}
	}
	sort.Strings(out)
	return out
}

// saveCompositesOf records again the composite types with an attribute
// of domain d, whose statements name it: d was renamed.
func (e *Engine) saveCompositesOf(d *expr.Domain) error {
	for _, ct := range e.composites {
		if slices.ContainsFunc(ct.Attrs, func(a sql.ColumnDef) bool { return ofDomain(a.Domain, d) }) {
			if err := e.saveComposite(ct.Name, ct); err != nil {
				return err
			}
		}
	}
	return nil
}

// refuseDomainInRecords refuses a constraint added to domain d while a
// table column holds records with a field of it, as PostgreSQL (0A000):
// those fields are not checked.
func (e *Engine) refuseDomainInRecords(d *expr.Domain) error {
	for cn, ct := range e.composites {
		if !slices.ContainsFunc(ct.Attrs, func(a sql.ColumnDef) bool { return a.Domain.Over(d) }) {
			continue
		}
		if col := e.rowTypeColumn(cn); col != "" {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot alter type %q because column %q uses it", d.Name(), col)
		}
	}
	return nil
}
