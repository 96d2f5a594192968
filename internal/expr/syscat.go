package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// SysCatalog is the database's objects by oid and by name, as a statement
// sees them when it is bound: what the reg* types read and print, and what
// the functions over the system catalogs (format_type, pg_get_indexdef,
// obj_description, …) return. The engine builds it for a statement that
// needs it; the statement's calls read it, as a PostgreSQL statement reads
// the catalog of its snapshot. It is not changed once built.
type SysCatalog struct {
	// MyTempSchema is the oid of the session's temporary schema, 0 when
	// it has made no temporary object; TempSchemas holds every session's
	// (pg_is_other_temp_schema).
	MyTempSchema uint32
	TempSchemas  map[uint32]bool
	// NoUsage are the schemas on which the session's role holds no
	// USAGE: a reg* input qualified by one is 42501 (syscat_usage.go).
	NoUsage map[string]bool
	// TempHidden holds the names of the session's temporary relations
	// that a schema search_path lists before pg_temp hides: an
	// unqualified name finds that schema's.
	TempHidden map[string]bool
	// SearchPath is the session's search path's schemas, in which an
	// unqualified relation's name is looked for after pg_catalog; nil
	// for public alone.
	SearchPath []string
	// Names are the objects' names as the reg* types print them, by kind
	// and oid: a relation's unqualified when it is in the search path
	// (public, pg_catalog), a function's name for regproc and its name
	// and argument types for regprocedure, a type's as format_type
	// prints it.
	Names map[value.Kind]map[uint32]string
	// OIDs are the objects' oids by kind and the name the reg* types
	// read: a relation's schema-qualified, a function's name and its
	// name(argument types) as regprocedure prints it; a function name
	// several functions share maps to 0.
	OIDs map[value.Kind]map[string]uint32
	// Types are the types by oid, for format_type's modifiers.
	Types map[uint32]value.Type
	// Defs are pg_get_indexdef's, pg_get_constraintdef's and
	// pg_get_viewdef's texts, by the object's oid.
	IndexDefs, ConstraintDefs, ViewDefs map[uint32]string
	// ViewDefsPretty are pg_get_viewdef(…, true)'s texts where they
	// differ from ViewDefs'.
	ViewDefsPretty map[uint32]string
	// IndexPrettyDefs are pg_get_indexdef's pretty texts where they
	// differ from IndexDefs' beyond the table's schema (an expression or
	// predicate's parentheses).
	IndexPrettyDefs map[uint32]string
	// ConstraintPrettyDefs are pg_get_constraintdef's pretty texts where
	// they differ (an EXCLUDE constraint's expressions and predicate).
	ConstraintPrettyDefs map[uint32]string
	// TriggerDefs are pg_get_triggerdef's texts, by the trigger's oid.
	TriggerDefs map[uint32]string
	// RuleDefs and RuleDefsPretty are pg_get_ruledef's texts, by the
	// rule's oid.
	RuleDefs, RuleDefsPretty map[uint32]string
	// PartitionConstraints are pg_get_partition_constraintdef's texts,
	// by the partition's oid; "" for one whose text is not given here.
	PartitionConstraints map[uint32]string
	// PartitionParents are the partitions' parents, by the partition's
	// oid (pg_partition_tree, pg_partition_ancestors, pg_partition_root).
	PartitionParents map[uint32]uint32
	// PartitionKeyDefs are pg_get_partkeydef's texts, by the partitioned
	// table's oid.
	PartitionKeyDefs map[uint32]string
	// FuncArgs and FuncResults are pg_get_function_arguments' and
	// pg_get_function_result's texts, by the function's oid.
	FuncArgs, FuncResults map[uint32]string
	// FuncDefs are pg_get_functiondef's, of the functions CREATE made;
	// FuncIdentArgs pg_get_function_identity_arguments' where they differ
	// from FuncArgs' (defaults).
	FuncDefs, FuncIdentArgs map[uint32]string
	// Serials are, by table and column, the sequence a column owns
	// (schema-qualified), "" for a column that owns none.
	Serials map[string]map[string]string
	// Descriptions are the comments, by the catalog holding the object,
	// the object's oid and a column's number (0 for the object itself).
	Descriptions map[DescKey]string
	// RelKinds are the relations' kinds (pg_class.relkind) by oid, and
	// RelCols their columns' names, by oid then number from 1.
	RelKinds map[uint32]byte
	RelCols  map[uint32][]string
	// Superusers are the names of the roles that hold every privilege;
	// Grants the privileges granted on each relation (by its oid, then
	// the role's name, "" for PUBLIC), as sql.Privilege bits.
	Superusers map[string]bool
	Grants     map[uint32]map[string]uint8
	// Owners are the owners' role oids of the relations, schemas, routines
	// and types, by the object's oid: who holds the grant options on it,
	// with the roles GrantOptions names.
	Owners map[uint32]uint32
	// ColGrants are the privileges granted on columns: by the relation's
	// oid, the column's name, then the role's ("" for PUBLIC).
	ColGrants map[uint32]map[string]map[string]uint8
	// GrantOptions and ColGrantOptions are, as Grants and ColGrants, the
	// privileges granted WITH GRANT OPTION.
	GrantOptions    map[uint32]map[string]uint8
	ColGrantOptions map[uint32]map[string]map[string]uint8
	// HeldRoles are, by role name, the roles whose privileges it holds
	// as a member (itself included); MemberRoles those it is a member
	// of, inheriting or not; AdminRoles those it may grant.
	HeldRoles   map[string][]string
	MemberRoles map[string][]string
	AdminRoles  map[string][]string
	// DatabaseOID is the database's oid (pg_database.oid).
	DatabaseOID uint32
	// Size returns the bytes a relation holds, by its oid, as the size
	// functions report them (pg_relation_size); ok is false for an oid
	// that names no relation. It reads the engine's figures when the
	// statement runs.
	Size func(oid uint32) (s RelSize, ok bool)
	// DatabaseSize is the bytes every relation holds.
	DatabaseSize func() int64
	// Updatable is pg_relation_is_updatable's mask of a relation (by
	// oid) and, per column, whether INSERT and UPDATE can assign it
	// (pg_column_is_updatable); triggers counts a view's INSTEAD OF
	// triggers. It reads the engine's catalog when the statement runs.
	Updatable func(oid uint32, triggers bool) (mask int32, cols []bool)
	// StatsColumns are the statistics objects' columns as
	// pg_get_statisticsobjdef_columns prints them, by the object's oid.
	StatsColumns map[uint32]string
	// StatsDefs are their pg_get_statisticsobjdef texts and StatsExprs
	// their expressions' (pg_get_statisticsobjdef_expressions), by oid.
	StatsDefs  map[uint32]string
	StatsExprs map[uint32][]string
	// StatsVisible tells, by oid, whether the search path finds each
	// statistics object by its name (pg_statistics_obj_is_visible).
	StatsVisible map[uint32]bool
}

// RelSize is what a relation holds: its own bytes (a table's rows, a
// materialized view's state, an index's entries) and its indexes'.
type RelSize struct {
	Main, Indexes int64
}

// DescKey identifies a comment as pg_description does.
type DescKey struct {
	ClassOID, ObjOID uint32
	SubID            int32
}

// Oids of the catalogs pg_description's classoid names.
const (
	PgClassOID     = 1259
	PgTypeOID      = 1247
	PgProcOID      = 1255
	PgNamespaceOID = 2615
)

// RegIn reads s as the input of reg* kind k: a number is an oid, as it is,
// anything else a name looked up; an unknown name fails with the error
// PostgreSQL gives.
func (c *SysCatalog) RegIn(k value.Kind, s string) (value.Value, error) {
	if v, err := value.Parse(s, value.Type{Kind: k, Mod: -1}); err == nil {
		return c.RegOut(k, v.OID()), nil
	}
	if err := c.usageDenied(s); err != nil {
		return value.Null, err
	}
	var key string
	var err error
	switch k {
	case value.RegClass:
		key, err = qualifiedRelation(s)
		if err != nil {
			return value.Null, err
		}
		if sch, _, ok := strings.Cut(key, "."); !ok {
			key = c.visibleRelation(key)
		} else if _, known := c.OIDs[value.RegNamespace][sch]; !known && c.OIDs[value.RegNamespace] != nil && (sch != "pg_temp" || c.MyTempSchema == 0) {
			return value.Null, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", sch)
		}
	case value.RegType:
		if err := checkTypeNameSyntax(s); err != nil {
			return value.Null, err
		}
		key, err = c.typeKey(s)
	case value.RegProcedure:
		key, err = c.procedureKey(s)
	case value.RegProc:
		key, err = c.routineKey(s)
	case value.RegOperator:
		key, err = c.operatorKey(s)
	case value.RegOper:
		key, err = operatorName(s)
	case value.RegCollation:
		key, err = c.collationKey(s)
	default:
		key, err = unqualifiedName(s)
	}
	if err != nil {
		return value.Null, err
	}
	oid, ok := c.OID(k, key)
	switch {
	case !ok:
		return value.Null, errUndefined(k, s, key)
	case oid == 0 && k == value.RegOper:
		return value.Null, pgerr.New("42725", "more than one operator named %s", strings.TrimSpace(s))
	case oid == 0:
		return value.Null, pgerr.New("42725", "more than one function named %q", key)
	}
	return c.RegOut(k, oid), nil
}

// RegOut returns the reg* value of kind k naming the object oid; one
// without a name (no such object) prints its number.
func (c *SysCatalog) RegOut(k value.Kind, oid uint32) value.Value {
	name, _ := c.Name(k, oid)
	return value.NewReg(k, oid, name)
}

// Name returns the name the object oid of reg* kind k prints: the
// statement's objects', else the built-in ones'.
func (c *SysCatalog) Name(k value.Kind, oid uint32) (string, bool) {
	if n, ok := c.Names[k][oid]; ok {
		return n, true
	}
	if hasBuiltins(k) {
		return BuiltinCatalog().Name(k, oid)
	}
	return "", false
}

// OID returns the oid of the object of reg* kind k that key names (as
// OIDs holds them), 0 when several do: a function or operator name that
// a built-in one and a user-defined one share is ambiguous.
func (c *SysCatalog) OID(k value.Kind, key string) (uint32, bool) {
	oid, ok := c.OIDs[k][key]
	if !hasBuiltins(k) {
		return oid, ok
	}
	b, bok := BuiltinCatalog().OID(k, key)
	switch {
	case !bok:
		return oid, ok
	case !ok:
		return b, true
	case k == value.RegProc || k == value.RegOper:
		return 0, true
	}
	return oid, ok
}

// FuncArgText and FuncResultText are pg_get_function_arguments,
// pg_get_function_identity_arguments and pg_get_function_result of the
// function oid; ok is false for an oid that names none.
func (c *SysCatalog) FuncArgText(oid uint32, identity bool) (string, bool) {
	if s, ok := c.FuncIdentArgs[oid]; ok && identity {
		return s, true
	}
	if s, ok := c.FuncArgs[oid]; ok {
		return s, true
	}
	if p, ok := BuiltinCatalog().Proc(oid); ok {
		if identity {
			return p.IdentArgs, true
		}
		return p.Args, true
	}
	return "", false
}

// FuncResultText is pg_get_function_result of the function oid.
func (c *SysCatalog) FuncResultText(oid uint32) (string, bool) {
	if s, ok := c.FuncResults[oid]; ok {
		return s, true
	}
	if p, ok := BuiltinCatalog().Proc(oid); ok {
		return p.Result, true
	}
	return "", false
}

// hasBuiltins reports whether the built-in catalog names objects of reg*
// kind k.
func hasBuiltins(k value.Kind) bool {
	switch k {
	case value.RegProc, value.RegProcedure, value.RegOper, value.RegOperator, value.RegType:
		return true
	}
	return false
}

// routineName reads a function's name as regproc's input does: a name,
// maybe qualified by pg_catalog or public.
func routineName(s string) (string, error) {
	parts, err := qualifiedName(s)
	if err != nil {
		return "", err
	}
	if len(parts) == 2 && parts[0] != "pg_catalog" && parts[0] != "public" {
		return "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", parts[0])
	}
	return parts[len(parts)-1], nil
}

// qualifiedName splits a name, maybe qualified by a schema, as
// PostgreSQL's DeconstructQualifiedName reads it: a third part is a
// database (0A000), a fourth too many (42601).
func qualifiedName(s string) ([]string, error) {
	parts, err := splitQualified(s)
	switch {
	case err != nil:
		return nil, err
	case len(parts) > 3:
		return nil, pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
	case len(parts) == 3:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", strings.Join(parts, "."))
	}
	return parts, nil
}

// routineKey reads a routine's name as routineName does, and one of a
// schema the catalog has (other than public and pg_catalog) as its key,
// "schema.name".
func (c *SysCatalog) routineKey(s string) (string, error) {
	parts, err := splitQualified(s)
	if err != nil {
		return "", err
	}
	if len(parts) == 2 && parts[0] == "pg_temp" && c.MyTempSchema != 0 {
		// The session's temporary schema, by its name.
		if own, ok := c.Names[value.RegNamespace][c.MyTempSchema]; ok {
			parts[0] = own
		}
	}
	if len(parts) == 2 && parts[0] != "pg_catalog" && parts[0] != "public" {
		if _, known := c.OIDs[value.RegNamespace][parts[0]]; known {
			return parts[0] + "." + parts[1], nil
		}
	}
	return routineName(s)
}

// operatorName reads an operator's name as regoper's input does: its
// symbol, maybe qualified by pg_catalog or public.
func operatorName(s string) (string, error) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		if s == "" {
			return "", pgerr.New("42602", "invalid name syntax")
		}
		return s, nil
	}
	if _, err := routineName(s[:i] + ".x"); err != nil {
		return "", err
	}
	return strings.TrimSpace(s[i+1:]), nil
}

func errExpected(what string) error {
	return pgerr.New(pgerr.InvalidTextRep, "expected %s", what)
}

func errMissingArgument() error {
	return pgerr.New(pgerr.UndefinedParameter, "missing argument").
		WithHint("Use NONE to denote the missing argument of a unary operator.")
}

func errUndefined(k value.Kind, s, key string) error {
	switch k {
	case value.RegClass:
		return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", strings.TrimSpace(s))
	case value.RegType:
		return pgerr.New(pgerr.UndefinedObject, "type %q does not exist", strings.TrimSpace(s))
	case value.RegProc, value.RegProcedure:
		return pgerr.New(pgerr.UndefinedFunction, "function %q does not exist", strings.TrimSpace(s))
	case value.RegOper, value.RegOperator:
		return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", strings.TrimSpace(s))
	case value.RegNamespace:
		return pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", key)
	case value.RegCollation:
		return errUndefinedCollation(key)
	}
	return pgerr.New(pgerr.UndefinedObject, "role %q does not exist", key)
}

// qualifiedRelation reads a relation's name as regclass's input does,
// returning schema.name when it is qualified.
func qualifiedRelation(s string) (string, error) {
	parts, err := relationParts(s)
	if err != nil {
		return "", err
	}
	return strings.Join(parts, "."), nil
}

// RelationParts splits a relation's name as regclass's input does: a
// name, or a schema and a name.
func RelationParts(s string) ([]string, error) { return relationParts(s) }

func relationParts(s string) ([]string, error) {
	parts, err := splitQualified(s)
	switch {
	case err != nil:
		return nil, err
	case len(parts) > 3:
		return nil, pgerr.New(pgerr.SyntaxError, "improper relation name (too many dotted names): %s", strings.Join(parts, "."))
	case len(parts) == 3:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", strings.Join(parts, "."))
	}
	return parts, nil
}

func unqualifiedName(s string) (string, error) {
	parts, err := splitQualified(s)
	if err != nil {
		return "", err
	}
	if len(parts) != 1 {
		return "", pgerr.New("42602", "invalid name syntax")
	}
	return parts[0], nil
}

// typeKey is the name a type is known by in OIDs: a built-in type's as
// format_type prints it, whatever its spelling ("int4", "integer"), a
// user-defined type's as written, folded.
func (c *SysCatalog) typeKey(s string) (string, error) {
	name := strings.TrimSpace(s)
	array := strings.HasSuffix(name, "[]")
	name = strings.TrimSpace(strings.TrimSuffix(name, "[]"))
	var mods []int32
	if n, m, arr, ok := typeNameParts(s); ok {
		name, mods, array = n, m, arr
	} else if i := strings.IndexByte(name, '('); i > 0 && strings.HasSuffix(name, ")") {
		name = strings.TrimSpace(name[:i]) // a modifier: the type without it
	}
	key := ""
	if strings.EqualFold(name, "char") || strings.EqualFold(name, "character") {
		name = "bpchar" // SQL's char; the one-byte type is spelt "char"
	}
	if t, err := value.TypeFromName(name, mods); err == nil {
		key = t.Kind.String()
	} else if len(mods) > 0 && pgerr.Code(err) != pgerr.UndefinedObject {
		return "", err // a modifier the type does not take
	} else {
		parts, err := qualifiedName(name)
		if err != nil {
			return "", err
		}
		if len(parts) == 2 && (parts[0] == "public" || parts[0] == "pg_catalog") && !c.publicTypeKeyed(parts[1], array) {
			parts = parts[1:]
		}
		key = strings.Join(parts, ".")
	}
	if array {
		key += "[]"
	}
	return key, nil
}

// publicTypeKeyed reports whether public's type name (an array of it)
// is keyed public.name: when a temporary type of the same name takes its
// bare name, which the session's temporary schema, searched first, finds.
func (c *SysCatalog) publicTypeKeyed(name string, array bool) bool {
	if array {
		name += "[]"
	}
	_, ok := c.OIDs[value.RegType]["public."+name]
	return ok
}

// argTypeKey is typeKey of a function's or operator's argument type,
// which must exist (42704) when c has types: the built-in catalog is read
// with an empty SysCatalog.
func (c *SysCatalog) argTypeKey(a string) (string, error) {
	k, err := c.typeKey(a)
	if err != nil || c.OIDs == nil {
		return k, err
	}
	if _, ok := c.OID(value.RegType, k); !ok {
		return "", pgerr.New(pgerr.UndefinedObject, "type %q does not exist", strings.TrimSpace(a))
	}
	return k, nil
}

// procedureKey is regprocedure's input, name(type, …), as it prints.
func (c *SysCatalog) procedureKey(s string) (string, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return "", pgerr.New(pgerr.InvalidTextRep, "expected a left parenthesis")
	}
	if !strings.HasSuffix(strings.TrimSpace(s), ")") {
		return "", pgerr.New(pgerr.InvalidTextRep, "expected a right parenthesis")
	}
	name, err := c.routineKey(s[:open])
	if err != nil {
		return "", err
	}
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s[open+1:]), ")"))
	var types []string
	if inner != "" {
		for _, a := range strings.Split(inner, ",") {
			k, err := c.argTypeKey(a)
			if err != nil {
				return "", err
			}
			types = append(types, k)
		}
	}
	return name + "(" + strings.Join(types, ",") + ")", nil
}

// bpchar's oid and its array's, as PostgreSQL numbers them.
const bpcharOID, bpcharArrayOID = 1042, 1014

// FormatType is format_type(oid, typmod): the type's name with its
// modifier, "???" for an oid that names no type.
func (c *SysCatalog) FormatType(oid uint32, typmod int32, hasMod bool) string {
	t, ok := c.Types[oid]
	if hasMod && typmod < 0 && (oid == bpcharOID || oid == bpcharArrayOID) {
		// Given no length, bpchar is not character, which is
		// character(1): PostgreSQL prints it bpchar.
		return map[uint32]string{bpcharOID: "bpchar", bpcharArrayOID: "bpchar[]"}[oid]
	}
	if !ok || !hasMod || typmod < 0 {
		if name, ok := c.Name(value.RegType, oid); ok {
			return name
		}
		return "???"
	}
	if t.Kind.IsArray() {
		return value.WithTypmod(t.Kind.Elem(), typmod).String() + "[]"
	}
	return value.WithTypmod(t.Kind, typmod).String()
}

// SerialSequence is pg_get_serial_sequence(table, column): the sequence
// the column owns, ok false when it owns none; 42P01 or 42703 when there
// is no such table or column.
func (c *SysCatalog) SerialSequence(table, column string) (seq string, ok bool, err error) {
	key, err := qualifiedRelation(table)
	if err != nil {
		return "", false, err
	}
	if i := strings.IndexByte(key, '.'); i >= 0 && key[:i] == "public" {
		key = key[i+1:]
	}
	cols, found := c.Serials[key]
	if !found {
		return "", false, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", table)
	}
	seq, found = cols[column]
	if !found {
		return "", false, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", column, key)
	}
	return seq, seq != "", nil
}

// visibleRelation is the schema-qualified name of the relation an
// unqualified name finds: the session's temporary one (the engine names
// them pg_temp.name), else pg_catalog's, else the first of the search
// path's schemas holding one.
func (c *SysCatalog) visibleRelation(name string) string {
	if _, ok := c.OIDs[value.RegClass]["pg_temp."+name]; ok && !c.TempHidden[name] {
		return "pg_temp." + name
	}
	if _, ok := c.OIDs[value.RegClass]["pg_catalog."+name]; ok {
		return "pg_catalog." + name
	}
	path := c.SearchPath
	if path == nil {
		path = []string{"public"}
	}
	for _, s := range path {
		if _, ok := c.OIDs[value.RegClass][s+"."+name]; ok {
			return s + "." + name
		}
	}
	return "public." + name
}
