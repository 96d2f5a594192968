package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// catalogRelation is a relation of pg_catalog or information_schema:
// read-only, its rows computed from the engine's catalog each time it is
// read, as the system views are.
type catalogRelation struct {
	cols []plan.Column
	rows func(o *catalogObjects, r *catRows)
}

// catalogRelations are the catalog relations by schema-qualified name;
// their columns are catalogColumns'.
var catalogRelations = map[string]catalogRelation{}

// addCatalogRelation registers the catalog relation name (schema-qualified)
// with its columns, written as catalogColumns' are, and its rows: for the
// relations registered by their own files' init.
func addCatalogRelation(name, cols string, rows func(o *catalogObjects, r *catRows)) {
	catalogColumns[name], catalogRowFuncs[name] = cols, rows
	catalogRelations[name] = catalogRelation{cols: catalogCols(cols), rows: rows}
}

func init() {
	for _, funcs := range []map[string]func(o *catalogObjects, r *catRows){catalogRowFuncs, infoSchemaRowFuncs} {
		for name, rows := range funcs {
			spec, ok := catalogColumns[name]
			if !ok {
				panic("engine: no columns for catalog relation " + name)
			}
			catalogRelations[name] = catalogRelation{cols: catalogCols(spec), rows: rows}
		}
	}
}

// catalogTypes maps the types of catalogColumns to those that hold them
// here: the information_schema domains are their base types (name,
// character varying, integer, timestamptz: what PostgreSQL sends on the
// wire for them), the internal types are text, as they print; name,
// "char", int2vector and oidvector are themselves.
var catalogTypeNames = map[string]value.Type{
	"name": value.NameType, `"char"`: value.InternalCharType, "pg_node_tree": value.TextType, "xid": value.TextType,
	"int2vector": value.Int2VectorType, "oidvector": value.OidVectorType, "anyarray": value.TextType,
	"aclitem[]": value.ArrayType(value.ACLItem), `"char"[]`: value.ArrayType(value.InternalChar), "name[]": value.ArrayType(value.Name),
	"sql_identifier": value.NameType, "character_data": {Kind: value.Varchar, Mod: -1}, "yes_or_no": {Kind: value.Varchar, Mod: 3},
	"cardinal_number": value.Int4Type, "time_stamp": value.TimestampTZType,
}

func catalogCols(spec string) []plan.Column {
	var out []plan.Column
	for _, c := range strings.Split(spec, ",") {
		name, typ, _ := strings.Cut(c, ":")
		t, ok := catalogTypeNames[typ]
		if !ok {
			var err error
			if t, err = value.TypeFromName(strings.TrimSuffix(typ, "[]"), nil); err != nil {
				panic("engine: catalog column type " + typ)
			}
			if strings.HasSuffix(typ, "[]") {
				t = value.ArrayType(t.Kind)
			}
		}
		out = append(out, plan.Column{Name: name, Type: t})
	}
	return out
}

// catRows collects a catalog relation's rows.
type catRows struct {
	cols []plan.Column
	idx  map[string]int
	rows []value.Row
}

// add appends a row of the values named, in pairs (column, value); the
// columns not named are NULL. A value is converted to its column's type:
// a string, an integer of any size, a bool, a float64, a []string or a
// []int16, or a value.Value as it is; nil is NULL.
func (r *catRows) add(pairs ...any) {
	row := make(value.Row, len(r.cols))
	for i := 0; i < len(pairs); i += 2 {
		j, ok := r.idx[pairs[i].(string)]
		if !ok {
			panic("engine: no catalog column " + pairs[i].(string))
		}
		row[j] = catValue(pairs[i+1], r.cols[j].Type)
	}
	r.rows = append(r.rows, row)
}

func catValue(x any, t value.Type) value.Value {
	var n int64
	switch v := x.(type) {
	case nil:
		return value.Null
	case value.Value:
		if t.Kind == value.InternalChar && v.Kind().IsString() {
			return value.NewInternalChar(firstByte(v.Str()))
		}
		if t.Kind == value.Name && v.Kind().IsString() {
			return value.NewName(v.Str())
		}
		if t.Kind == value.Varchar && v.Kind() == value.Text {
			return value.NewText(value.Varchar, v.Str())
		}
		return v
	case string:
		if t.Kind == value.InternalChar {
			return value.NewInternalChar(firstByte(v))
		}
		if t.Kind.IsVector() {
			return catVector(v, t)
		}
		if t.Kind == value.Name {
			return value.NewName(v)
		}
		if t.Kind == value.Varchar {
			return value.NewText(value.Varchar, v)
		}
		return value.NewText(value.Text, v)
	case bool:
		return value.NewBool(v)
	case float64:
		return value.NewFloat(t.Kind, v)
	case []string:
		elems := make([]value.Value, len(v))
		for i, s := range v {
			elems[i] = value.NewText(value.Text, s)
			if t.Kind.Elem() == value.Name {
				elems[i] = value.NewName(s)
			}
			if t.Kind.Elem() == value.InternalChar {
				elems[i] = value.NewInternalChar(firstByte(s))
			}
			if t.Kind.Elem() == value.ACLItem {
				elems[i] = catACLItem(s)
			}
		}
		return value.NewArray(t.Kind, elems)
	case []int16:
		if t.Kind == value.Int2Vector {
			return value.NewInt2Vector(v)
		}
		elems := make([]value.Value, len(v))
		for i, s := range v {
			elems[i] = value.NewInt(t.Kind.Elem(), int64(s))
		}
		return value.NewArray(t.Kind, elems)
	case []uint32:
		if t.Kind == value.OidVector {
			return value.NewOidVector(v)
		}
		elems := make([]value.Value, len(v))
		for i, s := range v {
			elems[i] = value.NewOid(s)
		}
		return value.NewArray(t.Kind, elems)
	case int:
		n = int64(v)
	case int16:
		n = int64(v)
	case int32:
		n = int64(v)
	case int64:
		n = v
	case uint32:
		n = int64(v)
	case byte:
		if t.Kind == value.InternalChar {
			return value.NewInternalChar(v)
		}
		return value.NewText(value.Text, string(rune(v)))
	default:
		panic("engine: catalog value of an unexpected type")
	}
	switch {
	case t.Kind == value.Oid:
		return value.NewOid(uint32(n))
	case t.Kind.IsReg():
		return value.NewReg(t.Kind, uint32(n), "")
	case t.Kind.IsFloat():
		return value.NewFloat(t.Kind, float64(n))
	}
	return value.NewInt(t.Kind, n)
}

// catVector is an int2vector or oidvector column's value of s, its text
// form (numbers separated by spaces).
func catVector(s string, t value.Type) value.Value {
	v, err := value.Parse(s, t)
	if err != nil {
		panic("engine: catalog " + t.String() + " " + s + ": " + err.Error())
	}
	return v
}

// firstByte is a "char" column's byte of the string s: its first, or
// zero for an empty string (attidentity ”, PostgreSQL's '\0').
func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

// catalogRows computes the rows of the catalog relation name as the
// session whose temporary schema is own reads them ("" for none). The
// caller holds e.mu.
func (e *Engine) catalogRows(name, own string) ([]value.Row, error) {
	cr, ok := catalogRelations[name]
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	r := &catRows{cols: cr.cols, idx: map[string]int{}}
	for i, c := range cr.cols {
		r.idx[c.Name] = i
	}
	cr.rows(e.catalogObjectsAs(own), r)
	return r.rows, nil
}

// catalogRelation resolves a catalog relation for the binder.
func catalogRelationOf(name string) (*sql.Relation, bool) {
	cr, ok := catalogRelations[name]
	if !ok {
		return nil, false
	}
	schema, rel, _ := strings.Cut(name, ".")
	var oid uint32
	if schema == "pg_catalog" {
		oid = catalogRelOIDs[rel]
	}
	return &sql.Relation{Name: name, Kind: sql.KindTable, Cols: cr.cols, System: true, CatalogOID: oid}, true
}

var _ sql.SystemCatalog = (*Engine)(nil)

// SysCatalog implements sql.SystemCatalog. The caller holds e.mu.
func (e *Engine) SysCatalog() *expr.SysCatalog { return e.sysCatalogFor(defaultPath, "") }

// sysCatalogFor is the catalog as a session of the search path and the
// temporary schema own ("" for none) sees it: a relation of a schema out
// of the path is named qualified. The caller holds e.mu.
func (e *Engine) sysCatalogFor(path []string, own string) *expr.SysCatalog {
	o := e.catalogObjectsAs(own)
	sc := &expr.SysCatalog{Names: map[value.Kind]map[uint32]string{}, OIDs: map[value.Kind]map[string]uint32{},
		Types: map[uint32]value.Type{}, IndexDefs: map[uint32]string{}, IndexPrettyDefs: map[uint32]string{}, ConstraintDefs: map[uint32]string{},
		ViewDefs: map[uint32]string{}, FuncArgs: map[uint32]string{}, FuncResults: map[uint32]string{}, FuncDefs: map[uint32]string{}, FuncIdentArgs: map[uint32]string{}, Serials: map[string]map[string]string{},
		Descriptions: o.descs, RelKinds: map[uint32]byte{}, RelCols: map[uint32][]string{}, Superusers: map[string]bool{},
		Grants: map[uint32]map[string]uint8{}, Owners: map[uint32]uint32{}, DatabaseOID: objectOID("database", DatabaseName),
		Size: e.relSize, DatabaseSize: e.databaseSize, Updatable: e.relUpdatable}
	sc.StatsDefs, sc.StatsColumns, sc.StatsExprs = e.statsTexts(path)
	sc.StatsVisible = e.statsVisible(path)
	name := func(k value.Kind, oid uint32, out, in string) {
		if sc.Names[k] == nil {
			sc.Names[k], sc.OIDs[k] = map[uint32]string{}, map[string]uint32{}
		}
		sc.Names[k][oid] = out
		if prev, dup := sc.OIDs[k][in]; dup && prev != oid {
			sc.OIDs[k][in] = 0 // ambiguous
			return
		}
		sc.OIDs[k][in] = oid
	}
	for _, r := range o.rels {
		schema := r.schema
		out := expr.QuoteIdent(r.name)
		if r.nsp == infoSchemaOID || r.nsp != publicOID && r.nsp != pgCatalogOID && !slices.Contains(path, schema) {
			out = expr.QuoteIdent(schema) + "." + out // not visible through the search path
		}
		name(value.RegClass, r.oid, out, schema+"."+r.name)
		sc.RelKinds[r.oid] = r.kind
		sc.RelCols[r.oid] = r.namesByNum()
		switch {
		case r.index != nil:
			sc.IndexDefs[r.oid] = r.index.def
			if r.index.pretty != "" {
				sc.IndexPrettyDefs[r.oid] = r.index.pretty
			}
		case r.kind == 'v' || r.kind == 'm':
			if r.pgDef != "" {
				sc.ViewDefs[r.oid] = r.pgDef
				if sc.ViewDefsPretty == nil {
					sc.ViewDefsPretty = map[uint32]string{}
				}
				sc.ViewDefsPretty[r.oid] = r.pgDefPretty
			} else if r.def != "" {
				sc.ViewDefs[r.oid] = " " + strings.TrimRight(strings.TrimSpace(r.def), ";") + ";"
			}
		}
	}
	for _, c := range o.cons {
		sc.ConstraintDefs[c.oid] = c.def
		if c.pretty != "" {
			if sc.ConstraintPrettyDefs == nil {
				sc.ConstraintPrettyDefs = map[uint32]string{}
			}
			sc.ConstraintPrettyDefs[c.oid] = c.pretty
		}
	}
	o.nameDomainConstraints(sc)
	sc.TriggerDefs = triggerDefs(o)
	sc.RuleDefs, sc.RuleDefsPretty = ruleDefs(o)
	sc.PartitionConstraints = o.partitionConstraints()
	sc.PartitionKeyDefs = o.partitionKeyDefs()
	sc.PartitionParents = o.partitionParents()
	for _, r := range o.rels {
		if r.kind == 'r' && r.key != "" {
			sc.Serials[r.key] = map[string]string{}
			for _, c := range r.cols {
				sc.Serials[r.key][c.name] = ""
			}
		}
	}
	for _, r := range o.rels {
		if s := r.seq; s != nil && s.owner[0] != "" && sc.Serials[s.owner[0]] != nil {
			sc.Serials[s.owner[0]][s.owner[1]] = expr.QuoteIdent(r.schema) + "." + expr.QuoteIdent(r.name)
		}
	}
	for _, t := range o.types {
		if t.nsp == infoSchemaOID { // information_schema's domains, never in the search path
			n := "information_schema." + strings.TrimPrefix(t.name, "_")
			if t.kind.IsArray() {
				n += "[]"
			}
			name(value.RegType, t.oid, n, n)
			continue
		}
		out := t.name
		switch {
		case t.builtin != nil:
			out = t.kind.String()
			if t.kind.IsArray() && !t.kind.IsVector() {
				out = t.builtin.Kind.String() + "[]"
			}
			sc.Types[t.oid] = value.Type{Kind: t.kind, Mod: -1}
		case t.kind.IsArray() && t.typtype != 'd': // a domain over an array is named as itself
			out = o.objectText(arrayElemKey(t.name), path) + "[]"
		default:
			out = o.objectText(t.name, path)
		}
		in := out
		if t.builtin == nil {
			in = arrayElemKey(t.name)
			if t.kind.IsArray() && t.typtype != 'd' {
				in += "[]"
			}
		}
		name(value.RegType, t.oid, out, in)
		if t.builtin != nil || t.kind.IsArray() && t.typtype != 'd' {
			sc.OIDs[value.RegType][t.name] = t.oid // the internal name: _int4, _mood
		}
	}
	for _, p := range o.procs {
		name(value.RegProc, p.oid, o.objectText(p.name, path), p.name)
		name(value.RegProcedure, p.oid, o.objectText(p.name, path)+p.signature()[len(expr.QuoteIdent(p.name)):], p.name+"("+strings.Join(p.argKeys(), ",")+")")
		sc.FuncArgs[p.oid], sc.FuncDefs[p.oid] = p.argText, p.def
		if p.identArgText != p.argText {
			sc.FuncIdentArgs[p.oid] = p.identArgText
		}
		if p.kind != "p" { // a procedure's result is NULL
			sc.FuncResults[p.oid] = p.resultText
		}
	}
	// The extensions' functions print as regprocedure (psql's \dx+ names
	// them); their names are read as the built-in ones are.
	if sc.Names[value.RegProcedure] == nil {
		sc.Names[value.RegProcedure] = map[uint32]string{}
	}
	for _, x := range o.exts {
		for _, f := range x.x.Funcs {
			args := make([]string, len(f.Params))
			for i, k := range f.Params {
				args[i] = sc.FormatType(o.e.typeOID(value.Type{Kind: k, Mod: -1}, nil), -1, false)
			}
			key := f.Name
			if x.schema != "public" {
				key = x.schema + "." + f.Name
			}
			sc.Names[value.RegProcedure][extProcOID(f)] = o.objectText(key, path) + "(" + strings.Join(args, ",") + ")"
		}
	}
	for oid, n := range languageHandlers {
		sc.Names[value.RegProcedure][oid] = n
	}
	if sc.OIDs[value.RegProcedure] == nil {
		sc.OIDs[value.RegProcedure] = map[string]uint32{}
	}
	for _, f := range arrayIOFuncs { // an array type's typinput, … (syscat_array_io.go)
		name(value.RegProc, f.oid, f.name, f.name)
		name(value.RegProcedure, f.oid, f.sig, f.sig)
	}
	for _, f := range recordIOFuncs { // a row type's (syscat_composite.go)
		name(value.RegProc, f.oid, f.name, f.name)
	}
	for _, op := range o.opers {
		name(value.RegOper, op.oid, op.name, op.name)
		name(value.RegOperator, op.oid, operatorText(o.opers, op, path), op.sig)
	}
	for _, n := range append(e.schemaNames(), e.tempSchemaNames()...) {
		name(value.RegNamespace, schemaOID(n), expr.QuoteIdent(n), n)
	}
	nameCollations(sc)
	e.nameUserCollations(sc, path)
	sc.SearchPath = path
	dbACL, _ := e.databaseACL()
	dbGrants := map[string]uint8{}
	for r, p := range granteeUnion(dbACL) {
		dbGrants[r] = uint8(p)
		addGrantOption(sc, sc.DatabaseOID, "", r, p)
	}
	sc.Grants[sc.DatabaseOID] = dbGrants
	// The schemas' privileges: USAGE on the system schemas and public
	// for PUBLIC, as PostgreSQL grants; a schema's own to its owner.
	for _, n := range e.schemaNames() {
		g := map[string]uint8{}
		if s := e.schemaNamed(n); s != nil {
			for role, p := range s.heldGrants() {
				if role == ownItemMark {
					continue
				}
				g[role] = uint8(p)
				addGrantOption(sc, schemaOID(n), "", role, p)
			}
			if !s.ownExplicit() {
				g[s.owner] |= uint8(schemaPrivs)
			}
		} else {
			g[""] = uint8(sql.PrivUsage)
		}
		sc.Grants[schemaOID(n)] = g
		sc.Owners[schemaOID(n)] = e.roleOID(e.schemaOwner(n))
	}
	name(value.RegRole, databaseOwnerOID, databaseOwnerRole, databaseOwnerRole) // public's owner
	for _, r := range o.roles {
		name(value.RegRole, r.oid, expr.QuoteIdent(r.name), r.name)
		if r.super {
			sc.Superusers[r.name] = true
		}
	}
	sc.HeldRoles, sc.MemberRoles, sc.AdminRoles = map[string][]string{}, map[string][]string{}, map[string][]string{}
	for name := range e.roles {
		sc.HeldRoles[name] = e.heldRoles(name)
		sc.MemberRoles[name] = e.memberRoles(name)
		for other := range e.roles {
			if e.isAdminOf(name, other) {
				sc.AdminRoles[name] = append(sc.AdminRoles[name], other)
			}
		}
	}
	// A type's USAGE once a GRANT or REVOKE named it, its array type's
	// the same; PUBLIC's by default (sql.privilegeHeld).
	for _, t := range o.types {
		sc.Owners[t.oid] = o.typeOwnerOID(t)
		if len(e.typeACLs) == 0 {
			continue
		}
		if _, ok := e.typeACLs[t.name]; !ok || t.kind.IsArray() {
			continue
		}
		g := map[string]uint8{}
		for _, it := range e.typeItems(t.name) {
			g[it.grantee] = uint8(sql.PrivUsage)
			if it.privs.Options() != 0 {
				addGrantOption(sc, t.oid, "", it.grantee, sql.PrivUsage.WithOption())
				if t.array != 0 {
					addGrantOption(sc, t.array, "", it.grantee, sql.PrivUsage.WithOption())
				}
			}
		}
		sc.Grants[t.oid] = g
		if t.array != 0 {
			sc.Grants[t.array] = g
		}
	}
	// A routine's EXECUTE once a GRANT or REVOKE named it; PUBLIC's
	// by default (sql.privilegeHeld).
	for _, p := range o.procs {
		sc.Owners[p.oid] = p.owner
		if p.owner == 0 {
			sc.Owners[p.oid] = superuserOID
		}
		if p.acl != nil {
			g := map[string]uint8{}
			for _, it := range p.execs {
				g[it.grantee] = uint8(sql.PrivExecute)
				addGrantOption(sc, p.oid, "", it.grantee, it.privs)
			}
			sc.Grants[p.oid] = g
		}
	}
	for _, r := range o.rels {
		sc.Owners[r.oid] = e.roleOID(e.relOrTypeOwner(r.key))
		if g, ok := e.grants[r.key]; ok && r.key != "" {
			g = e.relGrants(r.key)
			sc.Grants[r.oid] = map[string]uint8{}
			for role, p := range g {
				sc.Grants[r.oid][role] = uint8(p)
				addGrantOption(sc, r.oid, "", role, p)
			}
		}
		if role, ok := e.owners[r.key]; ok && r.key != "" && e.ownerHoldsAll(r.key) {
			// The owner holds every privilege (owner.go).
			if sc.Grants[r.oid] == nil {
				sc.Grants[r.oid] = map[string]uint8{}
			}
			sc.Grants[r.oid][role] |= uint8(sql.PrivTableAll | sql.PrivUsage) // a sequence's USAGE too
		}
		if a := e.colGrants[r.key]; a != nil && r.key != "" {
			if sc.ColGrants == nil {
				sc.ColGrants = map[uint32]map[string]map[string]uint8{}
			}
			m := map[string]map[string]uint8{}
			for col, items := range a {
				m[col] = map[string]uint8{}
				held := map[string]sql.Privilege{} // from every grantor
				for _, it := range items {
					held[it.grantee] |= it.privs
				}
				for role, p := range held {
					m[col][role] = uint8(p)
					addGrantOption(sc, r.oid, col, role, p)
				}
			}
			sc.ColGrants[r.oid] = m
		}
	}
	return sc
}

// argKeys are the function's argument types as regprocedure's input
// names them (expr.SysCatalog.RegIn).
func (p *catProc) argKeys() []string {
	out := make([]string, len(p.argStr))
	for i, a := range p.argStr {
		out[i] = strings.Split(a, "(")[0]
	}
	return out
}

func nspName(oid uint32) string {
	switch oid {
	case pgCatalogOID:
		return "pg_catalog"
	case infoSchemaOID:
		return "information_schema"
	}
	return "public"
}
