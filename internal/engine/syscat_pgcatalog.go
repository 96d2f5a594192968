package engine

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// catalogRowFuncs compute the rows of each catalog relation.
var catalogRowFuncs = map[string]func(o *catalogObjects, r *catRows){
	"pg_catalog.pg_namespace": func(o *catalogObjects, r *catRows) {
		for _, n := range o.e.schemaNames() {
			r.add("oid", schemaOID(n), "nspname", n, "nspowner", o.e.roleOID(o.e.schemaOwner(n)), "nspacl", o.nspACL(n))
		}
		for _, n := range o.e.tempSchemaNames() { // owned by the bootstrap superuser, as PostgreSQL makes them
			r.add("oid", schemaOID(n), "nspname", n, "nspowner", uint32(superuserOID))
		}
	},
	"pg_catalog.pg_class":         pgClass,
	"pg_catalog.pg_locks":         pgLocks,
	"pg_catalog.pg_stat_activity": pgStatActivity,
	"pg_catalog.pg_attribute":     pgAttribute,
	"pg_catalog.pg_type":          pgType,
	"pg_catalog.pg_index":         pgIndex,
	"pg_catalog.pg_constraint":    pgConstraint,
	"pg_catalog.pg_attrdef":       pgAttrdef,
	"pg_catalog.pg_proc":          pgProc,
	"pg_catalog.pg_aggregate":     pgAggregate,
	"pg_catalog.pg_operator":      pgOperator,
	"pg_catalog.pg_enum":          pgEnum,
	"pg_catalog.pg_range":         pgRange,
	"pg_catalog.pg_description":   pgDescription,
	"pg_catalog.pg_shdescription": pgShdescription,
	"pg_catalog.pg_database": func(o *catalogObjects, r *catRows) {
		r.add("datacl", o.e.databaseACLText(), "oid", objectOID("database", DatabaseName), "datname", DatabaseName, "datdba", uint32(superuserOID), "encoding", 6,
			"datlocprovider", "c", "datistemplate", false, "datallowconn", true, "datconnlimit", -1, "datfrozenxid", "0",
			"datminmxid", "1", "dattablespace", uint32(1663), "datcollate", "C", "datctype", "C")
	},
	"pg_catalog.pg_authid": func(o *catalogObjects, r *catRows) {
		for _, ro := range o.roles {
			r.add("oid", ro.oid, "rolname", ro.name, "rolsuper", ro.super, "rolinherit", !ro.noInherit, "rolcreaterole", ro.super,
				"rolcreatedb", ro.super, "rolcanlogin", ro.login, "rolreplication", ro.super, "rolbypassrls", ro.bypassRLS, "rolconnlimit", -1)
		}
	},
	"pg_catalog.pg_roles": func(o *catalogObjects, r *catRows) {
		for _, ro := range o.roles {
			r.add("rolname", ro.name, "rolsuper", ro.super, "rolinherit", !ro.noInherit, "rolcreaterole", ro.super, "rolcreatedb", ro.super,
				"rolcanlogin", ro.login, "rolreplication", ro.super, "rolconnlimit", -1, "rolpassword", "********",
				"rolbypassrls", ro.bypassRLS, "oid", ro.oid)
		}
	},
	"pg_catalog.pg_user": func(o *catalogObjects, r *catRows) {
		for _, ro := range o.roles {
			if ro.login {
				r.add("usename", ro.name, "usesysid", ro.oid, "usecreatedb", ro.super, "usesuper", ro.super, "userepl", ro.super,
					"usebypassrls", ro.bypassRLS, "passwd", "********")
			}
		}
	},
	"pg_catalog.pg_tables": func(o *catalogObjects, r *catRows) {
		for _, rel := range o.rels {
			if rel.kind == 'r' || rel.kind == 'p' {
				r.add("schemaname", rel.schema, "tablename", rel.name, "tableowner", o.e.relOwner(rel.key),
					"hasindexes", o.hasIndex(rel), "hasrules", len(o.e.rules[rel.key]) > 0, "hastriggers", rel.hasTriggers(), "rowsecurity", o.rowSecurity(rel).enabled)
			}
		}
	},
	"pg_catalog.pg_views": func(o *catalogObjects, r *catRows) {
		for _, rel := range o.rels {
			if rel.kind == 'v' && rel.key != "" {
				r.add("schemaname", rel.schema, "viewname", rel.name, "viewowner", o.e.relOwner(rel.key), "definition", rel.viewDefinition())
			}
		}
	},
	"pg_catalog.pg_matviews": func(o *catalogObjects, r *catRows) {
		for _, rel := range o.rels {
			if rel.kind == 'm' {
				r.add("schemaname", rel.schema, "matviewname", rel.name, "matviewowner", o.e.relOwner(rel.key), "hasindexes", o.hasIndex(rel),
					"ispopulated", !rel.unpopulated, "definition", rel.viewDefinition())
			}
		}
	},
	"pg_catalog.pg_indexes": func(o *catalogObjects, r *catRows) {
		for _, rel := range o.rels {
			if rel.kind == 'i' {
				r.add("schemaname", rel.schema, "tablename", rel.on.name, "indexname", rel.name, "indexdef", rel.index.def)
			}
		}
	},
	"pg_catalog.pg_sequence": func(o *catalogObjects, r *catRows) {
		for _, rel := range o.rels {
			if s := rel.seq; s != nil {
				r.add("seqrelid", rel.oid, "seqtypid", builtinByKind[s.typ].OID, "seqstart", s.start, "seqincrement", s.inc,
					"seqmax", s.max, "seqmin", s.min, "seqcache", s.cache, "seqcycle", s.cycle)
			}
		}
	},
	"pg_catalog.pg_settings": func(_ *catalogObjects, r *catRows) {
		pgSettings(r, func(name string) string { return gucDefs[name].boot })
	},
	"pg_catalog.pg_sequences": func(o *catalogObjects, r *catRows) {
		for _, rel := range o.rels {
			if s := rel.seq; s != nil {
				last := any(nil)
				if s.called {
					last = s.last
				}
				r.add("schemaname", rel.schema, "sequencename", rel.name, "sequenceowner", o.e.relOwner(rel.key),
					"data_type", value.NewReg(value.RegType, builtinByKind[s.typ].OID, s.typ.String()), "start_value", s.start,
					"min_value", s.min, "max_value", s.max, "increment_by", s.inc, "cycle", s.cycle, "cache_size", s.cache, "last_value", last)
			}
		}
	},
	"pg_catalog.pg_am": func(_ *catalogObjects, r *catRows) {
		r.add("oid", uint32(heapAMOID), "amname", "heap", "amhandler", value.NewReg(value.RegProc, 3, "heap_tableam_handler"), "amtype", "t")
		r.add("oid", uint32(btreeAMOID), "amname", "btree", "amhandler", value.NewReg(value.RegProc, 330, "bthandler"), "amtype", "i")
		// The index methods CREATE INDEX and EXCLUDE constraints name.
		r.add("oid", uint32(405), "amname", "hash", "amhandler", value.NewReg(value.RegProc, 331, "hashhandler"), "amtype", "i")
		r.add("oid", uint32(783), "amname", "gist", "amhandler", value.NewReg(value.RegProc, 332, "gisthandler"), "amtype", "i")
		r.add("oid", uint32(2742), "amname", "gin", "amhandler", value.NewReg(value.RegProc, 333, "ginhandler"), "amtype", "i")
		r.add("oid", uint32(3580), "amname", "brin", "amhandler", value.NewReg(value.RegProc, 335, "brinhandler"), "amtype", "i")
		r.add("oid", uint32(4000), "amname", "spgist", "amhandler", value.NewReg(value.RegProc, 334, "spghandler"), "amtype", "i")
	},
	"pg_catalog.pg_collation":         pgCollation,
	"pg_catalog.pg_inherits":          pgInherits,
	"pg_catalog.pg_partitioned_table": pgPartitionedTable,
	"pg_catalog.pg_trigger":           pgTrigger,
	"pg_catalog.pg_depend":            pgDepend,
}

// viewDef is a view's query as pg_views prints it: on a line of its own
// after a space, ended by a semicolon.
func viewDef(def string) string {
	return " " + strings.TrimRight(strings.TrimSpace(def), ";") + ";"
}

func (o *catalogObjects) hasIndex(rel *catRel) bool {
	for _, r := range o.rels {
		if r.kind == 'i' && r.on == rel {
			return true
		}
	}
	return false
}

func pgClass(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		am := uint32(heapAMOID)
		switch rel.kind {
		case 'i':
			am = btreeAMOID
			switch ix := rel.index; {
			case ix != nil && ix.excl != nil:
				am = exclusionAMOID[ix.excl.Method]
			case ix != nil && ix.method != "":
				am = indexAMOID[ix.method]
			}
		case 'v', 'c', 'S', 'p': // as in PostgreSQL 15, they have no access method
			am = 0
		}
		replident, persistence := "d", "p"
		if rel.kind == 'i' || rel.kind == 'v' || rel.kind == 'S' || rel.kind == 'c' {
			replident = "n"
		}
		if q := o.e.seqs[rel.key]; rel.kind == 'S' && q != nil && q.unlogged {
			persistence = "u"
		}
		if rel.temp() {
			persistence = "t"
		}
		if def := rel.tableDef(); def != nil {
			replident = string(rune(def.ReplIdent()))
			if def.Unlogged {
				persistence = "u"
			}
		}
		tuples := -1.0
		if rel.kind == 'r' || rel.kind == 'm' || rel.kind == 'S' || rel.kind == 'i' {
			tuples = rel.rows
		}
		if rel.kind == 'i' && rel.on != nil && rel.on.rows >= 0 && !rel.index.partial() {
			// An entry per row of its table, as ANALYZE counts them
			// (JDBC's getIndexInfo CARDINALITY): a table's count is
			// kept current, so its indexes' are.
			tuples = rel.on.rows
		}
		r.add("oid", rel.oid, "relname", rel.name, "relnamespace", rel.nsp, "reltype", rel.reltype, "reloftype", o.relOfType(rel),
			"relowner", o.e.roleOID(o.e.relOrTypeOwner(rel.key)), "relam", am, "relfilenode", rel.oid, "reltablespace", uint32(0), "relpages", 0,
			"reltuples", tuples, "relallvisible", 0, "reltoastrelid", uint32(0), "relhasindex", o.hasIndex(rel), "relisshared", false,
			"relpersistence", persistence, "relkind", relKind(rel), "relnatts", rel.natts(), "relchecks", rel.checks,
			"relhasrules", rel.kind == 'v' || len(o.e.rules[rel.key]) > 0, "relhastriggers", rel.hasTriggers(), "relhassubclass", o.hasPartitions(rel) || o.hasChildren(rel), "relrowsecurity", o.rowSecurity(rel).enabled,
			"relforcerowsecurity", o.rowSecurity(rel).forced, "relispopulated", !rel.unpopulated, "relreplident", replident, "relispartition", rel.part != nil,
			"relrewrite", uint32(0), "relfrozenxid", "0", "relminmxid", "0", "relpartbound", partBound(rel), "reloptions", relOptions(rel), "relacl", o.relACL(rel))
	}
}

func pgAttribute(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		def := rel.tableDef()
		for i, c := range rel.cols {
			var cd *sql.ColumnDef
			stats, options := -1, any(nil)
			if def != nil && i < len(def.Cols) {
				cd = &def.Cols[i]
				stats, options = cd.Attrs.StatTarget(), attOptions(cd.Attrs.Options)
			}
			a := columnAttr(c.typ, cd)
			if col := rel.columnDef(i); cd == nil && col != nil { // a partitioned table's or a partition's
				a.Collation = columnAttr(c.typ, col).Collation
			}
			if c.coll != 0 && a.Collation != 0 {
				a.Collation = c.coll
			}
			compression := ""
			if a.Compression != 0 {
				compression = string(rune(a.Compression))
			}
			r.add("attrelid", rel.oid, "attname", c.name, "atttypid", c.typOID, "attstattarget", stats, "attlen", a.Len,
				"attnum", rel.num(i), "attndims", a.Ndims, "attcacheoff", -1, "atttypmod", a.Typmod, "attbyval", a.ByVal,
				"attalign", string(rune(a.Align)), "attstorage", string(rune(a.Storage)), "attcompression", compression, "attnotnull", c.notNull, "atthasdef", c.def != "",
				"atthasmissing", false, "attidentity", identityFlag(c.identity), "attgenerated", genFlag(c.gen), "attisdropped", false, "attislocal", true,
				"attinhcount", 0, "attcollation", a.Collation, "attoptions", options, "attacl", o.e.columnACL(rel.key, c.name))
		}
		pgAttributeDropped(rel, r)
		if rel.kind == 'r' && rel.t != nil {
			pgAttributeSystem(rel, r)
		}
	}
}

// pgAttributeSystem lists a table's system columns, with attnum from -1.
func pgAttributeSystem(rel *catRel, r *catRows) {
	for i, c := range plan.SystemColumns {
		b := builtinByKind[c.Type.Kind]
		r.add("attrelid", rel.oid, "attname", c.Name, "atttypid", b.OID, "attstattarget", 0, "attlen", b.Len,
			"attnum", -1-i, "attndims", 0, "attcacheoff", -1, "atttypmod", -1, "attbyval", b.ByVal,
			"attalign", string(rune(b.Align)), "attstorage", string(rune(b.Storage)), "attcompression", "", "attnotnull", true, "atthasdef", false,
			"atthasmissing", false, "attidentity", "", "attgenerated", "", "attisdropped", false, "attislocal", true,
			"attinhcount", 0, "attcollation", uint32(0))
	}
}

func pgType(o *catalogObjects, r *catRows) {
	for _, t := range o.types {
		length, byval, category, align, storage := int16(-1), false, "U", "i", "x"
		elem, array := uint32(0), t.array
		switch {
		case t.builtin != nil && t.kind.IsVector():
			b := t.builtin
			length, byval, category, align, storage = b.Len, b.ByVal, string(rune(b.Category)), string(rune(b.Align)), string(rune(b.Storage))
			elem = builtinByKind[t.kind.Elem()].OID
		case t.builtin != nil && !t.kind.IsArray():
			b := t.builtin
			length, byval, category, align, storage = b.Len, b.ByVal, string(rune(b.Category)), string(rune(b.Align)), string(rune(b.Storage))
			if t.kind == value.Name {
				elem = builtinByKind[value.InternalChar].OID // name is subscriptable as a fixed array of "char"
			}
		case t.builtin != nil:
			category, elem, align = "A", t.builtin.OID, string(rune(t.builtin.Align))
			if align == "c" || align == "s" {
				align = "i"
			}
		case t.kind == value.ArrayOf(value.Record):
			category, elem, align = "A", t.base, "d" // a row type's array
		case t.kind.IsArray():
			category, elem = "A", t.base
			if ut, ok := o.e.userTypes[strings.TrimPrefix(t.name, "_")]; ok && ut.UserRange() != nil {
				align = rangeAlign(ut) // an array aligns as its element
			}
		case t.typtype == 'c':
			category, align = "C", "d"
		case t.typtype == 'e':
			length, byval, category, storage = 4, true, "E", "p"
		case t.typtype == 'r' || t.typtype == 'm':
			category, align = "R", rangeAlign(o.e.userTypes[t.name])
		case t.kind == value.CIText:
			category = "S" // citext's CREATE TYPE says CATEGORY = 'S'
		case t.typtype == 'd':
			if b := builtinByKind[t.kind]; b != nil {
				length, byval, category, align, storage = b.Len, b.ByVal, string(rune(b.Category)), string(rune(b.Align)), string(rune(b.Storage))
			}
		}
		coll := uint32(0)
		if t.kind.IsString() || t.kind.IsArray() && t.kind.Elem().IsString() {
			coll = defaultCollOID
		}
		if t.kind == value.Name || t.kind == value.ArrayOf(value.Name) || coll != 0 && t.nsp == infoSchemaOID {
			coll = cCollOID // name's collation is always "C", as information_schema's domains'
		}
		if oid := collationOID(t.collation); oid != 0 {
			coll = oid
		}
		if t.collOID != 0 {
			coll = t.collOID
		}
		typmod, def, defBin, base := int32(-1), any(nil), any(nil), uint32(0)
		if t.typtype == 'd' {
			typmod, base = t.baseMod, t.base
			if t.def != "" {
				def = t.def
			}
			if t.defBin != "" {
				defBin = t.defBin
			}
		}
		none := value.NewReg(value.RegProc, 0, "")
		io := [4]value.Value{none, none, none, none}
		if t.kind.IsVector() {
			io = vectorIORegs(t.kind)
		} else if t.kind.IsArray() {
			io = arrayIORegs()
		} else if t.typtype == 'c' {
			io = recordIORegs()
		} else if t.typtype == 'p' && t.nsp == pgCatalogOID {
			io = pseudoIORegs(t.name) // syscat_pseudo_io.go
		}
		acl := o.e.typeACLText(t.name)
		if key, ok := catalogTypeKey(&t); ok {
			acl = o.e.typeACLText(key)
		}
		typname, nsp := t.name, t.nsp
		if nsp == publicOID {
			var sc string
			sc, typname = o.e.splitObject(t.name)
			nsp = schemaOID(sc)
		}
		r.add("oid", t.oid, "typname", typname, "typnamespace", nsp, "typowner", o.typeOwnerOID(t), "typlen", length,
			"typbyval", byval, "typtype", string(rune(t.typtype)), "typcategory", category, "typispreferred", false,
			"typisdefined", true, "typdelim", ",", "typrelid", t.relid, "typsubscript", none, "typelem", elem,
			"typarray", array, "typinput", io[0], "typoutput", io[1], "typreceive", io[2], "typsend", io[3], "typmodin", none,
			"typmodout", none, "typanalyze", none, "typalign", align, "typstorage", storage, "typnotnull", t.notNull,
			"typbasetype", base, "typtypmod", typmod, "typndims", 0, "typcollation", coll,
			"typdefault", def, "typdefaultbin", defBin, "typacl", acl)
	}
	pgTypeBuiltins(o.e, r)
}

func pgIndex(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		ix := rel.index
		if ix == nil {
			continue
		}
		zeros := strings.TrimSpace(strings.Repeat("0 ", len(ix.cols)))
		classes, colls := make([]uint32, len(ix.cols)), make([]uint32, len(ix.cols))
		for i := range classes {
			opts := ""
			if i < len(ix.opts) {
				opts = ix.opts[i]
			}
			if i < len(rel.cols) {
				c := rel.cols[i]
				classes[i], colls[i] = indexOpclass(ix.method, opts, c.typ, c.typOID), indexCollation(opts, c.typ)
				// An element without COLLATE has its column's collation.
				if def := rel.on.tableDef(); def != nil && !strings.Contains(opts, "COLLATE") && ix.cols[i] > 0 {
					if k := rel.on.colByNum(ix.cols[i]); k >= 0 && k < len(def.Cols) {
						colls[i] = columnCollationOID(&def.Cols[k], colls[i])
					}
				}
			}
		}
		keys := ix.cols
		var exprs, pred any
		nnd := false
		if x := ix.x; x != nil {
			for _, c := range x.include {
				keys = append(slices.Clip(keys), rel.on.num(c))
			}
			var texts []string
			for i, e := range x.exprs {
				if e != nil {
					texts = append(texts, x.keySQL[i])
				}
			}
			if texts != nil {
				exprs = strings.Join(texts, ", ") // as pg_get_expr prints PostgreSQL's list of them
			}
			if x.where != nil {
				pred = "(" + x.whereSQL + ")"
			}
			nnd = x.nulls
		}
		r.add("indexrelid", rel.oid, "indrelid", rel.on.oid, "indnatts", len(keys), "indnkeyatts", len(ix.cols),
			"indexprs", exprs, "indpred", pred,
			"indisunique", ix.unique, "indnullsnotdistinct", nnd, "indisprimary", ix.primary, "indisexclusion", ix.excl != nil,
			"indimmediate", !ix.deferrable, "indisclustered", rel.t != nil && rel.t.clustered == rel.key, "indisvalid", true, "indcheckxmin", false, "indisready", true,
			"indislive", true, "indisreplident", rel.on != nil && rel.on.t != nil && rel.on.t.isReplicaIndex(rel.key), "indkey", keys, "indcollation", colls,
			"indclass", classes, "indoption", indOption(ix, zeros))
	}
}

func pgConstraint(o *catalogObjects, r *catRows) {
	for _, c := range o.cons {
		var ref uint32
		var refCols any
		upd, del, match := " ", " ", " "
		if c.ref != nil {
			ref, refCols = c.ref.oid, c.refCols
			upd, del, match = string(rune(c.upd)), string(rune(c.del)), string(rune(c.match))
		}
		var cols any = c.cols
		if c.kind == 'c' && len(c.cols) == 0 {
			cols = nil
		}
		var bin, exclop any
		if c.check != "" {
			bin = c.check
		}
		if c.exclop != nil {
			exclop = c.exclop
		}
		r.add("oid", c.oid, "conname", c.name, "connamespace", c.rel.nsp, "contype", string(rune(c.kind)),
			"condeferrable", c.deferrable, "condeferred", c.deferred, "convalidated", !c.notValid, "conrelid", c.rel.oid, "contypid", uint32(0),
			"conindid", c.index, "conparentid", c.parent, "confrelid", ref, "confupdtype", upd, "confdeltype", del,
			"confmatchtype", match, "conislocal", !c.inherited, "coninhcount", inhCount(c), "connoinherit", c.kind == 'p' || c.kind == 'u' || c.kind == 'x' || c.kind == 'f' && c.parent == 0 && c.rel.kind != 'p',
			"conkey", cols, "confkey", refCols, "conbin", bin, "conexclop", exclop)
	}
	pgDomainConstraints(o, r)
}

func pgAttrdef(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.kind != 'r' && rel.kind != 'p' { // a partitioned table has its defaults too
			continue
		}
		for i, c := range rel.cols {
			if c.def != "" {
				r.add("oid", objectOID("attrdef", rel.name+"."+c.name), "adrelid", rel.oid, "adnum", rel.num(i), "adbin", c.def)
			}
		}
	}
}

func pgProc(o *catalogObjects, r *catRows) {
	for _, p := range o.procs {
		args := make([]string, len(p.args))
		for i, a := range p.args {
			args[i] = strconv.FormatUint(uint64(a), 10)
		}
		var names any
		for _, n := range p.names {
			if n != "" {
				names = p.names
			}
		}
		volatile, rows, kind := "v", 0.0, "f"
		if p.volatile != "" {
			volatile = p.volatile
		}
		if p.kind != "" {
			kind = p.kind
		}
		if p.set {
			rows = 1000
		}
		if p.rows > 0 {
			rows = p.rows
		}
		cost := 100.0
		if p.cost > 0 {
			cost = p.cost
		}
		sc, proname := o.e.splitObject(p.name)
		owner := p.owner
		if owner == 0 {
			owner = superuserOID
		}
		var config any
		if p.config != nil {
			config = p.config
		}
		var allTypes, modes any
		if p.all.modes != nil {
			allTypes, modes, names = p.all.types, p.all.modes, p.all.names
		}
		r.add("oid", p.oid, "proname", proname, "pronamespace", schemaOID(sc), "proowner", owner, "proconfig", config,
			"prolang", p.lang, "procost", cost, "prorows", rows, "provariadic", uint32(0),
			"prosupport", value.NewReg(value.RegProc, 0, ""), "prokind", kind, "prosecdef", p.secdef, "proleakproof", false,
			"proisstrict", p.strict, "proretset", p.set, "provolatile", volatile, "proparallel", "u", "pronargs", len(p.args),
			"pronargdefaults", p.defaults, "prorettype", p.ret, "proargtypes", strings.Join(args, " "), "proargnames", names, "proallargtypes", allTypes, "proargmodes", modes, "prosrc", p.src,
			"proacl", p.acl)
	}
	pgProcExtensions(o, r)
	pgProcBuiltins(r)
}

func pgEnum(o *catalogObjects, r *catRows) {
	for _, t := range o.types {
		for i, l := range t.labels {
			r.add("oid", objectOID("enum", t.name+"."+l), "enumtypid", t.oid, "enumsortorder", t.sorts[i], "enumlabel", l)
		}
	}
}

func pgDescription(o *catalogObjects, r *catRows) {
	keys := make([]expr.DescKey, 0, len(o.descs))
	for k := range o.descs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b expr.DescKey) int {
		return cmp.Or(cmp.Compare(a.ObjOID, b.ObjOID), cmp.Compare(a.ClassOID, b.ClassOID), cmp.Compare(a.SubID, b.SubID))
	})
	for _, k := range keys {
		if !isSharedDesc(k.ClassOID) {
			r.add("objoid", k.ObjOID, "classoid", k.ClassOID, "objsubid", k.SubID, "description", o.descs[k])
		}
	}
}

// pgShdescription lists the comments on roles and the database.
func pgShdescription(o *catalogObjects, r *catRows) {
	for k, text := range o.descs {
		if isSharedDesc(k.ClassOID) {
			r.add("objoid", k.ObjOID, "classoid", k.ClassOID, "description", text)
		}
	}
}

// relOptions is a table's reloptions, its storage parameters as written;
// nil for none.
func relOptions(rel *catRel) any {
	if rel.kind == 'm' && len(rel.opts) > 0 {
		return rel.opts
	}
	if rel.kind != 'r' || rel.t == nil || len(rel.t.def.RelOptions) == 0 {
		return nil
	}
	return rel.t.def.RelOptions
}

// indexAMOID are pg_am's oids of the index access methods.
var indexAMOID = map[string]uint32{"btree": btreeAMOID, "hash": 405, "gist": 783, "gin": 2742, "spgist": 4000, "brin": 3580}

// indOption is pg_index.indoption of ix: its elements' DESC and NULLS
// FIRST bits, zeros when it has none.
func indOption(ix *catIndex, zeros string) string {
	if ix.options == nil {
		return zeros
	}
	parts := make([]string, len(ix.options))
	for i, o := range ix.options {
		parts[i] = strconv.Itoa(int(o))
	}
	return strings.Join(parts, " ")
}
