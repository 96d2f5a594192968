package pgwire

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// The system catalogs answer most of psql's describe queries as they are
// (\dT, \df, \di, \ds, the indexes of \d name). Some of psql's queries
// read what the catalogs lack (pg_table_size, pg_policy, …): psql's lists
// of relations (\d, \dt, \dv, \dm, with or without a pattern or +) are one
// query whose shape has been stable for many releases, recognised and
// answered from the engine's catalog, and so are the other queries below.
var (
	psqlRelList = regexp.MustCompile(`(?s)^SELECT n\.nspname as "Schema",\s+c\.relname as "Name",\s+CASE c\.relkind .*? END as "Type",\s+pg_catalog\.pg_get_userbyid\(c\.relowner\) as "Owner"(.*?)\s+FROM pg_catalog\.pg_class c\s.*\bWHERE c\.relkind IN \(([^)]*)\)(.*)ORDER BY 1,2;?\s*$`)
	psqlRelName = regexp.MustCompile(`c\.relname OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)'`)
	psqlNspName = regexp.MustCompile(`n\.nspname OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)'`)
)

var relKindNames = map[byte]string{engine.RelTable: "table", engine.RelView: "view", engine.RelMatView: "materialized view"}

// psqlRelations answers psql's list of relations q, if q is one.
func (c *conn) psqlRelations(q string) (engine.Result, bool, error) {
	m := psqlRelList.FindStringSubmatch(q)
	if m == nil {
		return engine.Result{}, false, nil
	}
	kinds := map[byte]bool{}
	extra := quotedAlias.FindAllStringSubmatch(m[1], -1) // \d+: Persistence, Access method, Size, Description
	m = m[1:]
	for _, k := range strings.Split(m[1], ",") {
		if k = strings.Trim(strings.TrimSpace(k), "'"); len(k) == 1 {
			kinds[k[0]] = true
		}
	}
	if (kinds['i'] || kinds['S']) && (!strings.Contains(q, `"Size"`) || !kinds['r'] && !kinds['v'] && !kinds['m']) {
		return engine.Result{}, false, nil // indexes and sequences alone (\di+, \ds+ too): the catalogs answer it
	}
	var name *regexp.Regexp
	if nm := psqlRelName.FindStringSubmatch(m[2]); nm != nil {
		re, err := regexp.Compile(strings.ReplaceAll(nm[1], "''", "'"))
		if err != nil {
			return engine.Result{}, true, pgerr.New(pgerr.InvalidParameter, "invalid regular expression: %v", err)
		}
		name = re
	}
	inSchema, err := psqlSchemaFilter(m[2])
	if err != nil {
		return engine.Result{}, true, err
	}
	text := value.TextType
	res := engine.Result{Columns: []plan.Column{{Name: "Schema", Type: text}, {Name: "Name", Type: text},
		{Name: "Type", Type: text}, {Name: "Owner", Type: text}}, HasRows: true}
	for _, a := range extra {
		res.Columns = append(res.Columns, plan.Column{Name: a[1], Type: text})
	}
	var sizes map[string]int64
	rels := c.psqlRelationList()
	slices.SortFunc(rels, func(a, b engine.RelationInfo) int {
		return strings.Compare(a.Schema+"\x00"+a.Rel, b.Schema+"\x00"+b.Rel)
	})
	for _, r := range rels {
		kind, kindName := psqlRelKind(c.sess, r)
		if !kinds[kind] || (name != nil && !name.MatchString(r.Rel)) || !inSchema(r) {
			continue
		}
		owner := r.Owner
		if owner == "" || owner == engine.SuperuserName {
			owner = User
		}
		row := value.Row{value.NewText(value.Text, r.Schema), value.NewText(value.Text, r.Rel),
			value.NewText(value.Text, kindName), value.NewText(value.Text, owner)}
		for _, a := range extra {
			v := value.Null
			switch a[1] {
			case "Persistence":
				v = value.NewText(value.Text, relPersistence(c.sess, r))
			case "Access method":
				if r.Kind != engine.RelView && kind != 'p' {
					v = value.NewText(value.Text, "heap")
				}
			case "Size":
				if sizes == nil {
					sizes = c.relationSizes()
				}
				v = value.NewText(value.Text, prettySize(sizes[r.Name]))
			case "Description":
				if r.Comment != "" {
					v = value.NewText(value.Text, r.Comment)
				}
			}
			row = append(row, v)
		}
		res.Rows = append(res.Rows, row)
	}
	return res, true, nil
}

// relationSizes are the bytes each table and materialized view holds, as
// the system views deltaview_tables and deltaview_views report them.
func (c *conn) relationSizes() map[string]int64 {
	sizes := map[string]int64{}
	for _, q := range []string{`SELECT name, bytes FROM deltaview_tables`, `SELECT name, state_bytes FROM deltaview_views`} {
		st, err := sql.Parse(q)
		if err != nil {
			continue
		}
		results, err := c.sess.Exec(st)
		if err != nil || len(results) == 0 {
			continue
		}
		for _, row := range results[0].Rows {
			if !row[1].IsNull() {
				sizes[string(value.AppendText(nil, row[0]))] = row[1].Int()
			}
		}
	}
	return sizes
}

// triggersOf is the query of the triggers of the relation of oid, as
// psql's \d lists them.
func triggersOf(oid string) string {
	return `SELECT t.tgname, pg_catalog.pg_get_triggerdef(t.oid, true), t.tgenabled, t.tgisinternal, NULL AS parent
		FROM pg_catalog.pg_trigger t WHERE t.tgrelid = ` + oid + ` ORDER BY 1`
}

// nativeRows runs q, a query of the engine's catalogs, in the session:
// its rows as text, nil for an error.
func (c *conn) nativeRows(q string) [][]*string {
	st, err := sql.Parse(q)
	if err != nil {
		return nil
	}
	results, err := c.sess.Exec(st)
	if err != nil || len(results) == 0 {
		return nil
	}
	var out [][]*string
	for _, row := range results[0].Rows {
		r := make([]*string, len(row))
		for i, v := range row {
			if !v.IsNull() {
				r[i] = s(string(value.AppendText(nil, v)))
			}
		}
		out = append(out, r)
	}
	return out
}

// prettySize spells n bytes as pg_size_pretty does: bytes below 10 kB,
// then kB, MB, GB and TB, each rounded half up, below 10 of the next unit.
func prettySize(n int64) string {
	if n < 10*1024 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	half := n >> 9 // in halves of the unit
	for _, unit := range []string{"kB", "MB", "GB", "TB"} {
		if half < 20*1024-1 || unit == "TB" {
			return strconv.FormatInt((half+1)/2, 10) + " " + unit
		}
		half >>= 10
	}
	return ""
}

// psql's \d name, \d+ name, \l and \du are a few more queries of
// stable shape: each is recognised by the catalogs it reads and answered
// from the engine's catalog. Every column is sent as text, which is how
// psql reads them. A relation's oid is derived from its name, so that the
// queries psql chains (a name's oid, then its columns, …) agree.
var (
	psqlLookup   = regexp.MustCompile(`(?s)^SELECT c\.oid,\s+n\.nspname,\s+c\.relname\s+FROM pg_catalog\.pg_class c\s+LEFT JOIN pg_catalog\.pg_namespace n ON n\.oid = c\.relnamespace\s+(.*)ORDER BY 2, 3;?\s*$`)
	psqlRelInfo  = regexp.MustCompile(`(?s)^SELECT c\.relchecks, c\.relkind, c\.relhasindex, .*\bFROM pg_catalog\.pg_class c\b.*\bWHERE c\.oid = '(\d+)';?\s*$`)
	psqlAttrs    = regexp.MustCompile(`(?s)^SELECT a\.attname,\s+pg_catalog\.format_type\(a\.atttypid, a\.atttypmod\),.*\bFROM pg_catalog\.pg_attribute a\s+WHERE a\.attrelid = '(\d+)' AND a\.attnum > 0 AND NOT a\.attisdropped\s+ORDER BY a\.attnum;?\s*$`)
	psqlTriggers = regexp.MustCompile(`(?s)^SELECT t\.tgname, pg_catalog\.pg_get_triggerdef\(t\.oid, true\), t\.tgenabled, t\.tgisinternal,.*\bFROM pg_catalog\.pg_trigger t\s+WHERE t\.tgrelid = '(\d+)' AND .*ORDER BY 1;?\s*$`)
	psqlRefdBy   = regexp.MustCompile(`(?s)^SELECT conname, conrelid::pg_catalog\.regclass AS ontable,.*\bFROM pg_catalog\.pg_constraint c\s+WHERE confrelid IN \(SELECT pg_catalog\.pg_partition_ancestors\('(\d+)'\).*ORDER BY conname;?\s*$`)
	psqlViewDef  = regexp.MustCompile(`(?s)^SELECT pg_catalog\.pg_get_viewdef\('(\d+)'::pg_catalog\.oid, true\);?\s*$`)
	psqlNone     = regexp.MustCompile(`(?s)^SELECT .*\bFROM pg_catalog\.pg_publication\b.*'\d+'`)
	psqlDatabase = regexp.MustCompile(`(?s)^SELECT d\.datname as "Name",.*\bFROM pg_catalog\.pg_database d\s.*ORDER BY 1;?\s*$`)
	psqlRoles    = regexp.MustCompile(`(?s)^SELECT r\.rolname, r\.rolsuper, r\.rolinherit,.*\bFROM pg_catalog\.pg_roles r\s+WHERE r\.rolname !~ '\^pg_'\s+ORDER BY 1;?\s*$`)
	quotedAlias  = regexp.MustCompile(`(?i)\bAS "([^"]+)"`)
	psqlDomains  = regexp.MustCompile(`(?s)^SELECT n\.nspname as "Schema",\s+t\.typname as "Name",.*\bFROM pg_catalog\.pg_type t\b.*\bWHERE t\.typtype = 'd'.*ORDER BY 1, 2;?\s*$`)
	psqlTypName  = regexp.MustCompile(`t\.typname OPERATOR\(pg_catalog\.~\) '((?:[^']|'')*)'`)
)

// psqlOtherRels lists the relations psqlRelationList leaves out, indexes
// and sequences, as the engine's pg_class has them.
const psqlOtherRels = `SELECT c.oid, n.nspname, c.relname, pg_catalog.pg_table_is_visible(c.oid)
	FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
	WHERE c.relkind IN ('i', 'S', 'c')`

// relOID is the oid a relation is known by, as pg_class has it.
func relOID(name string) uint32 { return engine.RelationOID(name) }

// relByOID returns the name of the relation whose oid is oid.
func (c *conn) relByOID(oid string) (string, bool) {
	for _, r := range c.psqlRelationList() {
		if strconv.FormatUint(uint64(relOID(r.Name)), 10) == oid {
			return r.Name, true
		}
	}
	return "", false
}

// textResult is a result of text columns named names; a nil *string in a
// row is NULL.
func textResult(names []string, rows [][]*string) engine.Result {
	res := engine.Result{HasRows: true}
	for _, n := range names {
		res.Columns = append(res.Columns, plan.Column{Name: n, Type: value.TextType})
	}
	for _, r := range rows {
		row := make(value.Row, len(r))
		for i, v := range r {
			if v == nil {
				row[i] = value.Null
			} else {
				row[i] = value.NewText(value.Text, *v)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res
}

func s(v string) *string { return &v }

func tf(b bool) *string {
	if b {
		return s("t")
	}
	return s("f")
}

// psqlCatalog answers the other catalog queries of psql's \d name, \l
// and \du, if q is one.
func (c *conn) psqlCatalog(q string) (engine.Result, bool, error) {
	if !strings.Contains(q, "pg_catalog.") {
		return engine.Result{}, false, nil
	}
	if m := psqlLookup.FindStringSubmatch(q); m != nil {
		var name *regexp.Regexp
		if nm := psqlRelName.FindStringSubmatch(m[1]); nm != nil {
			re, err := regexp.Compile(strings.ReplaceAll(nm[1], "''", "'"))
			if err != nil {
				return engine.Result{}, true, pgerr.New(pgerr.InvalidParameter, "invalid regular expression: %v", err)
			}
			name = re
		}
		inSchema, err := psqlSchemaFilter(m[1])
		if err != nil {
			return engine.Result{}, true, err
		}
		rels := c.psqlRelationList()
		slices.SortFunc(rels, func(a, b engine.RelationInfo) int {
			return strings.Compare(a.Schema+"\x00"+a.Rel, b.Schema+"\x00"+b.Rel)
		})
		var rows [][]*string
		for _, r := range rels {
			if inSchema(r) && (name == nil || name.MatchString(r.Rel)) {
				rows = append(rows, []*string{s(strconv.FormatUint(uint64(relOID(r.Name)), 10)), s(r.Schema), s(r.Rel)})
			}
		}
		// Indexes, sequences and composite types: psql's later queries
		// of them go to the engine's catalogs, which know them by these
		// oids.
		for _, r := range c.nativeRows(psqlOtherRels) {
			ri := engine.RelationInfo{Schema: *r[1], Rel: *r[2], Visible: *r[3] == "t"}
			if inSchema(ri) && (name == nil || name.MatchString(ri.Rel)) {
				rows = append(rows, r[:3])
			}
		}
		slices.SortStableFunc(rows, func(a, b []*string) int {
			return strings.Compare(*a[1]+"\x00"+*a[2], *b[1]+"\x00"+*b[2])
		})
		return textResult([]string{"oid", "nspname", "relname"}, rows), true, nil
	}
	if m := psqlRelInfo.FindStringSubmatch(q); m != nil {
		names := []string{"relchecks", "relkind", "relhasindex", "relhasrules", "relhastriggers", "relrowsecurity",
			"relforcerowsecurity", "relhasoids", "relispartition", "reloptions", "reltablespace", "reloftype",
			"relpersistence", "relreplident", "amname"}
		name, ok := c.relByOID(m[1])
		if !ok {
			return engine.Result{}, false, nil // an index or a sequence: the engine's pg_class has it
		}
		d, _ := c.sess.Describe(name)
		am := s("heap")
		if d.Kind == engine.RelView {
			am = nil
		}
		row := []*string{s(strconv.Itoa(d.Checks)), s(string(d.Kind)), tf(len(d.Indexes) > 0), c.relHasRules(m[1]), tf(d.ForeignKeys || len(c.nativeRows(triggersOf(m[1]))) > 0), s("f"),
			s("f"), s("f"), s("f"), s(strings.Join(d.Options, ", ")), s("0"), s(""), s(persistence(d)), s(replIdent(d)), am}
		psqlPartitionInfo(c.sess, name, row)
		enabled, forced := c.sess.RowSecurityOf(name) // psql then reads pg_policy
		row[5], row[6] = tf(enabled), tf(forced)
		return textResult(names, [][]*string{row}), true, nil
	}
	if m := psqlAttrs.FindStringSubmatch(q); m != nil {
		if _, ok := c.relByOID(m[1]); !ok {
			return engine.Result{}, false, nil // an index's columns: the engine's pg_attribute has them
		}
		// The columns psql asks for besides the first seven depend on its
		// version, the relation's kind and \d+.
		names := []string{"attname", "format_type", "default", "attnotnull", "attcollation", "attidentity", "attgenerated"}
		for _, extra := range []string{"a.attstorage", "attcompression", "attstattarget", "pg_catalog.col_description"} {
			if strings.Contains(q, extra) {
				names = append(names, strings.TrimPrefix(strings.TrimPrefix(extra, "a."), "pg_catalog."))
			}
		}
		var rows [][]*string
		if name, ok := c.relByOID(m[1]); ok {
			d, _ := c.sess.Describe(name)
			// Defaults, identity and collations other than the type's
			// as the engine's catalogs print them.
			defaults := map[string][]*string{}
			for _, r := range c.nativeRows(`SELECT a.attname, (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true) FROM pg_catalog.pg_attrdef d
				WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef), a.attidentity,
				(SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t
				WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation)
				FROM pg_catalog.pg_attribute a WHERE a.attrelid = '` + m[1] + `' AND a.attnum > 0`) {
				defaults[*r[0]] = r[1:]
			}
			for _, col := range d.Columns {
				typ := col.Type.String()
				if col.Domain != "" {
					typ = col.Domain
				}
				row := []*string{s(col.Name), s(typ), nil, tf(col.NotNull), nil, s(""), s("")}
				if def, ok := defaults[col.Name]; ok {
					row[2], row[5], row[4] = def[0], def[1], def[2]
				}
				if col.Generated != "" {
					// psql writes "generated always as (…) stored" around it.
					row[2], row[6] = s(col.Generated), s("s")
				}
				for _, n := range names[7:] {
					switch n {
					case "attstorage":
						if col.Storage != 0 {
							row = append(row, s(string(rune(col.Storage))))
						} else {
							row = append(row, s(storage(col.Type.Kind)))
						}
					case "attcompression":
						c := ""
						if col.Compression != 0 {
							c = string(rune(col.Compression))
						}
						row = append(row, s(c))
					case "attstattarget":
						if col.HasStats {
							row = append(row, s(strconv.Itoa(col.Stats)))
						} else {
							row = append(row, nil)
						}
					case "col_description":
						if col.Comment != "" {
							row = append(row, s(col.Comment))
						} else {
							row = append(row, nil)
						}
					default:
						row = append(row, nil)
					}
				}
				rows = append(rows, row)
			}
		}
		return textResult(names, rows), true, nil
	}
	if m := psqlViewDef.FindStringSubmatch(q); m != nil {
		// The catalog's text, as PostgreSQL's deparser prints the view.
		rows := c.nativeRows("SELECT pg_catalog.pg_get_viewdef(" + m[1] + "::pg_catalog.oid::pg_catalog.regclass, true)")
		if len(rows) == 1 && rows[0][0] == nil {
			rows = nil
		}
		if len(rows) == 0 {
			if name, ok := c.relByOID(m[1]); ok {
				d, _ := c.sess.Describe(name)
				def := strings.TrimRight(strings.TrimSpace(d.Definition), ";")
				rows = append(rows, []*string{s(" " + def + ";")})
			}
		}
		return textResult([]string{"pg_get_viewdef"}, rows), true, nil
	}
	if m := psqlTriggers.FindStringSubmatch(q); m != nil {
		// The query reads the partitions' ancestors too, which deltaview
		// has not: the same columns, without them.
		return textResult([]string{"tgname", "pg_get_triggerdef", "tgenabled", "tgisinternal", "parent"}, c.nativeRows(triggersOf(m[1]))), true, nil
	}
	if m := psqlRefdBy.FindStringSubmatch(q); m != nil {
		// The foreign keys that reference a table psql's \d asks for
		// when the table has triggers: those on the table and on the
		// partitioned tables above it (pg_partition_ancestors), not those
		// made from them on partitions.
		return textResult([]string{"conname", "ontable", "condef"}, c.nativeRows(`WITH RECURSIVE a(r) AS (
			SELECT `+m[1]+`::pg_catalog.oid UNION SELECT i.inhparent FROM pg_catalog.pg_inherits i, pg_catalog.pg_class k, a
			WHERE i.inhrelid = a.r AND k.oid = a.r AND k.relispartition)
			SELECT conname, conrelid::pg_catalog.regclass,
			pg_catalog.pg_get_constraintdef(oid, true) FROM pg_catalog.pg_constraint, a WHERE confrelid = a.r AND contype = 'f' AND conparentid = 0 ORDER BY conname`)), true, nil
	}
	if res, ok := c.psqlPartitions(q); ok {
		return res, true, nil
	}
	if res, ok := c.psqlRules(q); ok {
		return res, true, nil
	}
	if psqlNone.MatchString(q) {
		// The publications of a relation: deltaview has none.
		return textResult([]string{"?column?"}, nil), true, nil
	}
	if psqlDatabase.MatchString(q) {
		vals := map[string]string{"Name": Database, "Owner": User, "Encoding": "UTF8",
			"Collate": "C", "Ctype": "C", "Locale Provider": "libc"}
		for _, d := range c.psqlDescriptions(databaseDescriptions) {
			vals["Description"] = d
		}
		return aliasResult(q, vals), true, nil
	}
	if psqlRoles.MatchString(q) {
		return c.psqlRoleList(q), true, nil
	}
	if psqlDomains.MatchString(q) {
		return c.psqlDomainList(q)
	}
	return engine.Result{}, false, nil
}

// psqlDomainList answers psql's \dD [pattern]: the domains the search
// path holds, or those of the schemas the pattern names, their defaults
// and constraints as written.
func (c *conn) psqlDomainList(q string) (engine.Result, bool, error) {
	var name *regexp.Regexp
	if m := psqlTypName.FindStringSubmatch(q); m != nil {
		re, err := regexp.Compile(strings.ReplaceAll(m[1], "''", "'"))
		if err != nil {
			return engine.Result{}, true, pgerr.New(pgerr.InvalidParameter, "invalid regular expression: %v", err)
		}
		name = re
	}
	var schema *regexp.Regexp // nil: the domains the search path holds
	if nm := psqlNspName.FindStringSubmatch(q); nm != nil {
		re, err := regexp.Compile(strings.ReplaceAll(nm[1], "''", "'"))
		if err != nil {
			return engine.Result{}, true, pgerr.New(pgerr.InvalidParameter, "invalid regular expression: %v", err)
		}
		schema = re
	}
	names := []string{"Schema", "Name", "Type", "Collation", "Nullable", "Default", "Check"}
	plus := strings.Contains(q, `AS "Access privileges"`)
	if plus {
		names = append(names, "Access privileges", "Description")
	}
	var rows [][]*string
	descs := c.psqlDescriptions(domainDescriptions)
	for _, d := range c.sess.Domains() {
		if name != nil && !name.MatchString(d.Name) || schema != nil && !schema.MatchString(d.Schema) || schema == nil && !d.Visible {
			continue
		}
		row := []*string{s(d.Schema), s(d.Name), s(d.Type), nil, nil, nil, s(strings.Join(d.Checks, " "))}
		if d.Collation != "" {
			row[3] = s(d.Collation)
		}
		if d.NotNull {
			row[4] = s("not null")
		}
		if d.Default != "" {
			row[5] = s(d.Default)
		}
		if plus {
			var desc *string
			if t, ok := descs[d.Name]; ok {
				desc = s(t)
			}
			row = append(row, nil, desc)
		}
		rows = append(rows, row)
	}
	return textResult(names, rows), true, nil
}

// psqlRoleList answers psql's \du: the built-in superuser, which logs in
// only while no role exists, and the catalog's roles, by name. A superuser
// role may do anything, so it has every attribute the built-in has.
func (c *conn) psqlRoleList(q string) engine.Result {
	names := []string{"rolname", "rolsuper", "rolinherit", "rolcreaterole", "rolcreatedb", "rolcanlogin",
		"rolconnlimit", "rolvaliduntil", "memberof"}
	desc := strings.Contains(q, "AS description")
	if desc {
		names = append(names, "description")
	}
	var extra []string
	for _, n := range []string{"rolreplication", "rolbypassrls"} {
		if strings.Contains(q, "r."+n) {
			names, extra = append(names, n), append(extra, n)
		}
	}
	var descs map[string]string
	if desc {
		descs = c.psqlDescriptions(roleDescriptions)
	}
	row := func(name string, super, login bool) []*string {
		r := []*string{s(name), tf(super), s("t"), tf(super), tf(super), tf(login), s("-1"), nil, s("{}")}
		if desc {
			key := name
			if name == User {
				key = engine.SuperuserName
			}
			var d *string
			if t, ok := descs[key]; ok {
				d = s(t)
			}
			r = append(r, d)
		}
		for range extra {
			r = append(r, tf(super))
		}
		return r
	}
	roles := dbaccess.Engine(c.srv.db).Roles()
	builtin := !slices.ContainsFunc(roles, func(r engine.RoleInfo) bool { return r.Name == User })
	var rows [][]*string
	for _, r := range roles {
		if builtin && r.Name > User {
			rows, builtin = append(rows, row(User, true, len(roles) == 0)), false
		}
		rows = append(rows, row(r.Name, r.Superuser, r.Login))
	}
	if builtin {
		rows = append(rows, row(User, true, len(roles) == 0))
	}
	return textResult(names, rows)
}

// aliasResult is one row whose columns are the quoted aliases of q, in
// order, with the values given (NULL for those not given).
func aliasResult(q string, vals map[string]string) engine.Result {
	var names []string
	var row []*string
	for _, m := range quotedAlias.FindAllStringSubmatch(q, -1) {
		names = append(names, m[1])
		if v, ok := vals[m[1]]; ok {
			row = append(row, s(v))
		} else {
			row = append(row, nil)
		}
	}
	return textResult(names, [][]*string{row})
}

// storage is a type's pg_attribute.attstorage: plain for fixed-width
// types, extended for variable-width ones.
func storage(k value.Kind) string {
	switch k {
	case value.Text, value.Varchar, value.Char, value.Bytea, value.Bit, value.Varbit:
		return "x"
	case value.Numeric:
		return "m" // pg_type's typstorage for numeric: main
	}
	return "p"
}

// persistence and replIdent are a relation's pg_class.relpersistence
// and relreplident as psql's \d reads them.
// relPersistence is how psql's \d+ spells r's pg_class.relpersistence.
func relPersistence(sess *engine.Session, r engine.RelationInfo) string {
	if strings.HasPrefix(r.Schema, "pg_temp") {
		return "temporary"
	}
	if d, _ := sess.Describe(r.Name); d.Persistence == 'u' {
		return "unlogged"
	}
	return "permanent"
}

func persistence(d engine.RelationDetail) string {
	if d.Persistence == 'u' {
		return "u"
	}
	return "p"
}

func replIdent(d engine.RelationDetail) string {
	if d.ReplIdent == 0 {
		return "d"
	}
	return string(rune(d.ReplIdent))
}

// quoteIdentIfNeeded quotes a name that is not a lower-case identifier, as
// PostgreSQL's quote_ident does.
var plainIdent = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

func quoteIdentIfNeeded(n string) string {
	if plainIdent.MatchString(n) {
		return n
	}
	return quoteIdent(n)
}

// psqlSchemaFilter reads the schema condition of psql's query where:
// a pattern on n.nspname keeps the relations of the schemas it matches;
// without one, psql asks for the relations the search path finds
// (pg_table_is_visible), as do Session.Relations' Visible marks.
func psqlSchemaFilter(where string) (func(engine.RelationInfo) bool, error) {
	if nm := psqlNspName.FindStringSubmatch(where); nm != nil {
		re, err := regexp.Compile(strings.ReplaceAll(nm[1], "''", "'"))
		if err != nil {
			return nil, pgerr.New(pgerr.InvalidParameter, "invalid regular expression: %v", err)
		}
		return func(r engine.RelationInfo) bool { return re.MatchString(r.Schema) }, nil
	}
	if strings.Contains(where, "pg_table_is_visible") {
		return func(r engine.RelationInfo) bool { return r.Visible }, nil
	}
	return func(engine.RelationInfo) bool { return true }, nil
}
