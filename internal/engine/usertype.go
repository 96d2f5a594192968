package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// User-defined types (CREATE TYPE … AS ENUM) are kept by name
// (e.userTypes), each with the object numbers its type and array type
// have on the wire, given from firstUserOID up as PostgreSQL gives them.
// The relations that use a type are found from their columns' types and
// from the types their statements named (e.typeUses), so that DROP TYPE
// refuses to leave a relation whose statement no longer binds. A store
// that keeps types (TypeStore) records each type whole at each change;
// the types load before the tables.

// firstUserOID is PostgreSQL's FirstNormalObjectId.
const firstUserOID = 16384

// TypeStore is implemented by a Store that keeps user-defined types.
type TypeStore interface {
	// SaveType records a type, new or changed, replacing the one of
	// that name and old (its name before a rename, "" when new).
	SaveType(old string, t StoredType) error
	// DropTypes records that the types named are gone.
	DropTypes(names []string) error
}

// StoredType is a user-defined type as a store records it: an enum's
// labels in their order, a range type's definition, or a composite
// type's CREATE TYPE statement.
type StoredType struct {
	Name          string
	OID, ArrayOID uint32
	Labels        []string
	// Sorts are an enum's labels' sort positions (pg_enum.enumsortorder),
	// in the order of Labels; nil gives 1, 2, … (a file of a format
	// before 13).
	Sorts []float64
	Range *StoredRange // nil for an enum or a composite type
	// Kind is "" for an enum or a range type, StoredTypeComposite for a
	// composite type, whose statement SQL is.
	Kind string
	SQL  string
}

func (closedStore) SaveType(string, StoredType) error { return errClosedStore() }
func (closedStore) DropTypes([]string) error          { return errClosedStore() }

// userTypeState is the engine's part of user-defined types.
type userTypeState struct {
	userTypes map[string]value.Type
	// composites are the composite types among userTypes (composite.go);
	// restoreOIDs the object numbers of those a store holds, until their
	// statements run again.
	composites  map[string]*sql.CompositeType
	restoreOIDs map[string][2]uint32
	// typeUses are the user types each relation's statement named.
	typeUses map[string][]string
	nextOID  uint32
}

// UserType implements sql.TypeCatalog.
func (e *Engine) UserType(name string) (value.Type, bool) {
	t, ok := e.userTypes[name]
	return t, ok
}

// UserType implements sql.TypeCatalog, noting the type the statement
// names.
func (r *recorder) UserType(name string) (value.Type, bool) {
	tc, ok := r.cat.(sql.TypeCatalog)
	if !ok {
		return value.Type{}, false
	}
	t, ok := tc.UserType(name)
	if ok && !slices.Contains(r.types, name) {
		r.types = append(r.types, name)
	}
	return t, ok
}

// UserType implements sql.TypeCatalog.
func (v viewRecorder) UserType(name string) (value.Type, bool) { return v.r.UserType(name) }

// noteTypeUses records the user types the statement that made or
// changed the relation name named, replacing what it had.
func (e *Engine) noteTypeUses(name string, types []string) {
	if len(types) == 0 {
		delete(e.typeUses, name)
		return
	}
	if e.typeUses == nil {
		e.typeUses = map[string][]string{}
	}
	e.typeUses[name] = slices.Clone(types)
}

// typeNameTaken reports whether name is a type's name: a built-in
// type's, a user type's, or a relation's (whose row type it names).
func (e *Engine) typeNameTaken(name string) bool {
	if _, err := value.TypeFromName(name, nil); pgerr.Code(err) != pgerr.UndefinedObject {
		return true
	}
	_, user := e.userTypes[name]
	_, rel := e.kindOf(name)
	_, dom := e.domains.byName[name]
	return user || rel || dom || e.seqs[name] != nil
}

// checkRelationTypeName refuses a new relation named as a user type:
// its row type would take the name.
func (e *Engine) checkRelationTypeName(name string) error {
	if _, ok := e.composites[name]; ok {
		return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
	}
	if _, ok := e.userTypes[name]; ok {
		return pgerr.New(pgerr.DuplicateObject, "type %q already exists", e.bareName(name)).
			WithHint("A relation has an associated type of the same name, so you must use a name that doesn't conflict with any existing type.")
	}
	return nil
}

func (e *Engine) createEnum(c *sql.CreateEnum) (Result, error) {
	if e.typeNameTaken(c.Name) {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "type %q already exists", e.bareName(c.Name))
	}
	if e.nextOID < firstUserOID {
		e.nextOID = firstUserOID
	}
	t, err := value.NewEnumType(c.Name, e.nextOID, e.nextOID+1, c.Labels)
	if err != nil {
		return Result{}, err
	}
	if err := e.saveType("", t); err != nil {
		return Result{}, err
	}
	e.nextOID += 2
	if e.userTypes == nil {
		e.userTypes = map[string]value.Type{}
	}
	e.userTypes[c.Name] = t
	return Result{Tag: "CREATE TYPE"}, nil
}

// saveType records t in the store, replacing the type named old.
func (e *Engine) saveType(old string, t value.Type) error {
	ts, ok := e.store.(TypeStore)
	if !ok || e.store == nil {
		return nil
	}
	if d := t.UserRange(); d != nil {
		if isTemp(d.Name) { // a session's temporary type is never stored
			return nil
		}
		return ts.SaveType(old, storedRange(d))
	}
	d := t.Enum()
	if isTemp(d.Name) {
		return nil
	}
	return ts.SaveType(old, StoredType{Name: d.Name, OID: d.OID, ArrayOID: d.ArrayOID, Labels: d.OrderedLabels(), Sorts: d.OrderedSorts()})
}

// enumType returns the enum type ALTER TYPE … VALUE names.
func (e *Engine) enumType(name string) (value.Type, error) {
	t, err := e.userType(name)
	if err == nil && t.Enum() == nil {
		return value.Type{}, pgerr.New(pgerr.WrongObjectType, "%s is not an enum", name)
	}
	return t, err
}

// userType returns the user-defined type ALTER or DROP TYPE names.
func (e *Engine) userType(name string) (value.Type, error) {
	if t, ok := e.userTypes[name]; ok {
		return t, nil
	}
	if _, err := value.TypeFromName(name, nil); err == nil {
		return value.Type{}, pgerr.New(pgerr.WrongObjectType, "%s is not an enum", name)
	}
	return value.Type{}, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
}

func (e *Engine) alterEnum(a *sql.AlterEnum) (Result, error) {
	t, err := e.enumType(a.Name)
	if err != nil {
		return Result{}, err
	}
	if t.Enum() == nil {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%s is not an enum", a.Name)
	}
	res := Result{Tag: "ALTER TYPE"}
	if a.Rename {
		if err := e.renameEnumValue(a.Name, t, a.From, a.Label); err != nil {
			return Result{}, err
		}
	} else {
		added, err := value.EnumAddValue(t, a.Label, a.Neighbour, a.Before, a.IfNotExists)
		if err != nil {
			return Result{}, err
		}
		if !added {
			res.Notices = append(res.Notices, fmt.Sprintf("enum label %q already exists, skipping", a.Label))
			return res, nil
		}
	}
	return res, e.saveType(a.Name, t)
}

func (e *Engine) renameType(r *sql.RenameType) (Result, error) {
	typeofs := e.typeofReaders(r.Name)
	res, rebuild, err := e.renameTypeOnly(r, typeofs)
	if err != nil {
		return res, err
	}
	notices, err := e.rebuildTypeofReaders(r.New, rebuild, typeofs)
	res.Notices = append(res.Notices, notices...)
	return res, err
}

// renameTypeOnly renames the type; typeofs are the materialized views
// that print its name. It returns them with those that call a routine
// keyed anew, which the caller builds again.
func (e *Engine) renameTypeOnly(r *sql.RenameType, typeofs []string) (Result, []string, error) {
	t, err := e.userType(r.Name)
	if err != nil {
		return Result{}, nil, err
	}
	if _, composite := e.composites[r.New]; t.Kind == value.Record && (composite || e.relationExists(r.New)) {
		// A composite type is renamed as the relation PostgreSQL keeps it.
		return Result{}, nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", r.New)
	}
	if e.typeNameTaken(r.New) {
		return Result{}, nil, pgerr.New(pgerr.DuplicateObject, "type %q already exists", e.bareName(r.New))
	}
	if t.Enum() == nil && t.UserRange() == nil && t.Kind != value.Record {
		if err := e.refuseRenameInUse(r.Name, t, "RENAME TO"); err != nil {
			return Result{}, nil, err
		}
	}
	routines, err := e.routineTypeRenames(r.Name, r.New, typeParam(t), typeResult(t))
	if err != nil {
		return Result{}, nil, err
	}
	aggops, err := e.aggOpTypeRenames(r.Name, r.New)
	if err != nil {
		return Result{}, nil, err
	}
	casts, err := e.castTypeRenames(r.Name, r.New, routines)
	if err != nil {
		return Result{}, nil, err
	}
	if err := e.refuseTypeofWatched(r.Name, typeofs); err != nil {
		return Result{}, nil, err
	}
	if callers := e.routineCallerViews(routines); len(callers) > 0 {
		if err := e.refuseCallersWatched(r.Name, callers); err != nil {
			return Result{}, nil, err
		}
		typeofs = e.viewsOver(append(slices.Clone(typeofs), callers...))
	}
	if err := e.moveObjectComments(r.Name, r.New, "type"); err != nil {
		return Result{}, nil, err
	}
	// The views bound again with the type renamed call the routines as
	// written again.
	undo := e.putRoutineTypeRenames(routines)
	switch {
	case t.Kind == value.Record:
		if err := e.moveComments(r.Name, r.New); err != nil { // its attributes'
			return Result{}, nil, err
		}
		err = e.renameComposite(r.Name, r.New)
	case t.UserRange() != nil:
		err = e.renameRange(r.Name, r.New, t)
	default:
		if err = e.renameEnum(r.Name, r.New, t); err == nil {
			err = e.saveType(r.Name, t)
		}
	}
	if err != nil {
		undo()
		return Result{}, nil, err
	}
	if err := e.applyRoutineTypeRenames(routines); err != nil {
		return Result{}, nil, err
	}
	if err := e.applyCastTypeRenames(casts); err != nil {
		return Result{}, nil, err
	}
	return Result{Tag: "ALTER TYPE"}, typeofs, e.applyAggOpTypeRenames(aggops)
}

// refuseRenameInUse refuses to rename a type, or one of its labels, that
// a relation uses: the relation's statement, which the store keeps and
// runs again at open, and the rows it stores, name both as text.
func (e *Engine) refuseRenameInUse(name string, t value.Type, what string) error {
	deps := e.typeDependents(name, t)
	if len(deps) == 0 {
		return nil
	}
	return pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … %s of type %s, which other objects use, is not supported", what, name).
		WithDetail("%s", strings.Join(deps, "\n")).
		WithHint("rename it before a table or view uses it")
}

func (e *Engine) dropTypes(d *sql.DropType) (Result, error) {
	// DROP TYPE drops domains too, as PostgreSQL's.
	if doms := slices.DeleteFunc(slices.Clone(d.Names), func(n string) bool { return e.domains.byName[n] == nil }); len(doms) > 0 {
		if len(doms) < len(d.Names) {
			return e.dropTypesAndDomains(d)
		}
		res, err := e.dropDomain(&sql.DropDomain{Names: d.Names, IfExists: d.IfExists, Cascade: d.Cascade})
		res.Tag = "DROP TYPE"
		return res, err
	}
	return e.dropUserTypes(d, nil, false)
}

// dropUserTypes drops the types d names, none a domain; also are domains
// the statement names besides, which go after them. With dry it only
// checks that the drop can run, changing nothing.
func (e *Engine) dropUserTypes(d *sql.DropType, also []string, dry bool) (Result, error) {
	res := Result{Tag: "DROP TYPE"}
	var gone, typed []string
	var cols typeColumnDrops // the columns of the types, besides typed tables
	// Every name is looked up before any is checked, as PostgreSQL's.
	var names []string
	types := map[string]value.Type{}
	for _, name := range d.Names {
		t, err := e.userType(name)
		if pgerr.Code(err) == pgerr.UndefinedObject && d.IfExists {
			res.Notices = append(res.Notices, fmt.Sprintf("type %q does not exist, skipping", name))
			continue
		}
		if err != nil {
			if pgerr.Code(err) == pgerr.WrongObjectType {
				return Result{}, pgerr.New(pgerr.DependentObjects, "cannot drop type %s because it is required by the database system", name)
			}
			return Result{}, err
		}
		if err := refuseDropMultirange(name, t); err != nil {
			return Result{}, err
		}
		if _, ok := types[name]; !ok {
			names = append(names, name)
			types[name] = t
		}
	}
	if !d.Cascade {
		if err := dependentsError(e.typeDropGroups(slices.Concat(names, also))); err != nil {
			return Result{}, err
		}
	}
	var more typeCascade // what else the cascade drops
	for i := 0; i < len(names); i++ {
		name := names[i]
		t := types[name]
		// What is named in the same statement goes with it.
		if deps := slices.DeleteFunc(e.typeDependents(name, t), listedDependent(slices.Concat(names, also))); len(deps) > 0 {
			if d.Cascade {
				covered, err := more.add(e, name, t, slices.Concat(names, also))
				if err != nil {
					return Result{}, err
				}
				cols.skip = more.typedOf
				// The range types over it are dropped as if named.
				for _, r := range more.ranges {
					if _, ok := types[r]; !ok {
						names = append(names, r)
						types[r] = e.userTypes[r]
					}
				}
				rest := slices.DeleteFunc(deps, func(dep string) bool { return slices.Contains(covered, dep) })
				if len(rest) == 0 || e.typedCascade(name, rest) || cols.addType(e, name, t, rest) {
					typed = append(typed, e.typedTables(name)...)
					gone = append(gone, name)
					continue
				}
				deps = rest
			}
			// Without CASCADE dependentsError returned above.
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP TYPE … CASCADE of a type that other objects use is not supported").
				WithDetail("%s", strings.Join(deps, "\n")).
				WithHint("drop or alter the objects that use it first")
		}
		gone = append(gone, name)
	}
	if len(gone) == 0 {
		return res, nil
	}
	alters, err := cols.bind(e)
	if err != nil {
		return Result{}, err
	}
	attrAlters, err := more.check(e)
	if err != nil || dry {
		return Result{}, err
	}
	rangeLines := more.rangeLines(e)
	lines, err := e.dropTypedTables(typed)
	if err != nil {
		return Result{}, err
	}
	colLines, viewLines, err := cols.apply(e, alters)
	if err != nil {
		return Result{}, err
	}
	moreLines, err := more.apply(e, attrAlters)
	if err != nil {
		return Result{}, err
	}
	// What depends on a range type follows the range type's line.
	moved := func(l string) bool { return slices.Contains(rangeLines, l) }
	lines = append(lines, slices.DeleteFunc(slices.Concat(colLines, more.linesWithUsers()), moved)...)
	lines = append(lines, rangeLines...)
	lines = append(lines, slices.DeleteFunc(slices.Concat(moreLines, more.exprLines(), viewLines), moved)...)
	if len(colLines) > 0 || len(viewLines) > 0 || len(moreLines) > 0 || len(more.routines) > 0 {
		e.pruneGrants() // of the views dropped
		if err := e.pruneComments(); err != nil {
			return Result{}, err
		}
	}
	res.Notices = append(res.Notices, cascadeNotice(lines)...)
	stored := slices.DeleteFunc(slices.Clone(gone), isTemp) // a session's temporary types were never stored
	if ts, ok := e.store.(TypeStore); ok && e.store != nil && len(stored) > 0 {
		if err := ts.DropTypes(stored); err != nil {
			return Result{}, err
		}
	}
	for rel, uses := range e.typeUses {
		// Nothing left names them: what did went with them.
		if rest := slices.DeleteFunc(slices.Clone(uses), func(n string) bool { return slices.Contains(gone, n) }); len(rest) < len(uses) {
			e.noteTypeUses(rel, rest)
		}
	}
	for _, name := range gone {
		if d := e.userTypes[name].UserRange(); d != nil {
			delete(e.userTypes, d.MultiName)
		}
		delete(e.userTypes, name)
		delete(e.composites, name)
	}
	return res, nil
}

// typeDependents names what uses the user type t, called name: the
// columns of tables and views of that type or of arrays of it, and the
// relations whose statements name it, one line each, as PostgreSQL's
// DETAIL lists them.
func (e *Engine) typeDependents(name string, t value.Type) []string {
	var out []string
	uses := typeUser(name, t)
	names := []string{name}
	if d := t.UserRange(); d != nil {
		names = append(names, d.MultiName) // dropped with the range type
	}
	for un, ut := range e.userTypes {
		if ut.Kind == value.UserRange && rangeUsesType(ut, t) && un != name {
			out = append(out, fmt.Sprintf("type %s depends on type %s", un, name))
		}
	}
	for _, dn := range e.typeDomains(uses) {
		out = append(out, fmt.Sprintf("type %s depends on type %s", dn, typeDisplayName(e.domains.byName[dn].Def().Base, name)))
	}
	out = append(out, e.typedTableLines(name)...)
	byColumn := map[string]bool{}
	for _, u := range e.typeExprUses(name, uses) {
		out = append(out, u.dependsOn(name))
		byColumn[u.table] = true // a table depends on a type through its columns and constraints alone
	}
	for tn, tb := range e.tables {
		for _, c := range tb.def.Cols {
			if c.Domain == nil && uses(c.Type) {
				out = append(out, fmt.Sprintf("column %s of table %s depends on type %s", c.Name, tn, columnTypeName(c.Type, name, t)))
				byColumn[tn] = true
			}
		}
	}
	for rel, types := range e.typeUses {
		kind, ok := e.kindOf(rel)
		if !ok || byColumn[rel] || !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(types, n) }) {
			continue
		}
		what := map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}[kind]
		out = append(out, fmt.Sprintf("%s %s depends on type %s", what, rel, name))
	}
	out = append(out, e.compositeDependents(name, uses)...)
	for _, fns := range e.funcs {
		for _, f := range fns {
			if slices.ContainsFunc(f.Params, func(p sql.FuncParam) bool { return p.Domain == nil && uses(p.Type) }) ||
				slices.ContainsFunc(f.Cols, func(c plan.Column) bool { return uses(c.Type) }) {
				out = append(out, fmt.Sprintf("function %s depends on type %s", f.Signature(), routineTypeName(f, name, uses)))
			}
		}
	}
	sort.Strings(out)
	return out
}

// LoadTypes restores the user-defined types a store holds, before the
// relations that use them.
func (e *Engine) LoadTypes(types []StoredType) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, st := range types {
		e.nextOID = max(e.nextOID, st.ArrayOID+1)
		switch {
		case st.Kind == StoredTypeComposite:
			// Its statement runs again once the types and domains it
			// names are back.
			if e.restoreOIDs == nil {
				e.restoreOIDs = map[string][2]uint32{}
			}
			e.restoreOIDs[st.Name] = [2]uint32{st.OID, st.ArrayOID}
			continue
		case st.Range != nil:
			if err := e.loadRange(st); err != nil {
				return err
			}
			continue
		}
		t, err := value.NewEnumTypeAt(st.Name, st.OID, st.ArrayOID, st.Labels, st.Sorts)
		if err != nil {
			return err
		}
		if e.userTypes == nil {
			e.userTypes = map[string]value.Type{}
		}
		e.userTypes[st.Name] = t
	}
	return nil
}

// withTypeUses runs the statement that creates the relation name, once
// its name is checked against the user types', and records the user
// types the statement named.
func (e *Engine) withTypeUses(name string, rec *recorder, create func() (Result, error)) (Result, error) {
	if err := e.checkRelationTypeName(name); err != nil {
		return Result{}, err
	}
	res, err := create()
	if err == nil {
		e.noteTypeUses(name, rec.types)
	}
	return res, err
}
