package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/ident"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Schemas (CREATE SCHEMA) hold relations beside public's. The engine keys
// a relation of schema public by its name, as it always has (the files of
// earlier versions open as they were), and a relation of another schema
// s by "s.name": every map of the catalog (tables, views, sequences,
// indexes, privileges) takes the key as it is. A session resolves the
// names its statements write to keys before binding (sql.QualifyNames):
// a qualified name to its schema's key, an unqualified one through
// search_path, to the first schema of the path holding such a relation,
// and a relation it creates to the path's first schema that exists.

// schema is a schema CREATE SCHEMA made.
type schema struct {
	name, owner string
	// grants are the privileges (USAGE, CREATE) held on it, by role (""
	// for PUBLIC); order lists their grantees in the order of their
	// grants, as nspacl lists them (noteSchemaGrant).
	grants map[string]sql.Privilege
	order  []string
}

// StoredSchema is a schema as a store records it: its owner and the
// privileges granted on it, by role ("" for PUBLIC), and their grantees
// in the order of their grants.
type StoredSchema struct {
	Name   string
	Owner  string
	Grants map[string]sql.Privilege
	Order  []string
}

// SchemaStore is a Store that also records schemas. A store without it
// keeps none: CREATE SCHEMA is refused on it (0A000).
type SchemaStore interface {
	SaveSchema(s StoredSchema) error
	DropSchema(name string) error
	// RenameSchema records the rename of an empty schema.
	RenameSchema(old, new string) error
}

// schemaOID is the oid of the schema named name.
func schemaOID(name string) uint32 {
	switch name {
	case "public":
		return publicOID
	case "pg_catalog":
		return pgCatalogOID
	case "information_schema":
		return infoSchemaOID
	}
	return objectOID("schema", name)
}

// schemaKey is the key of the relation name of schema.
func schemaKey(schema, name string) string {
	if schema == "public" || schema == "" {
		return name
	}
	return schema + "." + name
}

// splitKey is the schema and the name of a relation's key.
func (e *Engine) splitKey(key string) (string, string) {
	if i := strings.IndexByte(key, '.'); i > 0 && (e.schemas[key[:i]] != nil || isTemp(key)) {
		return key[:i], key[i+1:]
	}
	return "public", key
}

// bareName is the name of the relation keyed key, without its schema: as
// PostgreSQL's messages name a relation.
func (e *Engine) bareName(key string) string {
	_, n := e.splitKey(key)
	return n
}

// missingTableSkip is the notice of DROP TRIGGER, RULE or POLICY IF
// EXISTS on the table keyed key that does not exist: PostgreSQL names
// the schema when the schema written is the one missing.
func (e *Engine) missingTableSkip(key string) string {
	if i := strings.IndexByte(key, '.'); i > 0 && !e.schemaExists(key[:i]) && !isTemp(key) {
		return fmt.Sprintf("schema %q does not exist, skipping", key[:i])
	}
	return fmt.Sprintf("relation %q does not exist, skipping", key)
}

// schemaExists reports whether the schema name exists.
func (e *Engine) schemaExists(name string) bool {
	return sql.SystemSchema(name) || e.schemas[name] != nil
}

// userRelation reports whether key names a relation a statement made
// (not a system view).
func (e *Engine) userRelation(key string) bool {
	return e.tables[key] != nil || e.views[key] != nil || e.named[key] != nil || e.seqs[key] != nil || e.indexes[key] != nil
}

// nameScope resolves a statement's relation names through a search path
// (sql.Qualifier); the caller holds the engine's lock.
type nameScope struct {
	e *Engine
	// path is the search path's schemas that exist, in order, without
	// pg_catalog (whose relations the binder finds first).
	path []string
	// restoring accepts the statements a store recorded, which name a
	// relation of schema s it altered by its key, "s.name", unqualified.
	restoring bool
	// user is the role whose USAGE the schema of a name written
	// qualified needs (search_path_usage.go); "" checks none.
	user string
	// temp is the session's temporary schema ("pg_temp_3"), "" for
	// none, and tempAt its place in path: -1 when searched first, as
	// when search_path does not name pg_temp (temp_path.go).
	temp   string
	tempAt int
}

var _ sql.Qualifier = nameScope{}

// RelationKey implements sql.Qualifier.
func (n nameScope) RelationKey(schema, name string) (string, bool, error) {
	e := n.e
	if err := n.mayLookIn(schema, name); err != nil {
		return "", false, err
	}
	switch {
	case schema == "public":
		return name, true, nil
	case schema != "":
		return schema + "." + name, true, nil
	case isTemp(name):
		return "", false, nil
	}
	for _, s := range n.path {
		if k := schemaKey(s, name); e.userRelation(k) {
			return k, true, nil
		}
	}
	if !slices.Contains(n.path, "public") && e.userRelation(name) {
		// public's relation, out of the path: not found, as in PostgreSQL.
		return "", false, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	return "", false, nil
}

// CreationKey implements sql.Qualifier.
func (n nameScope) CreationKey(schema, name string) (string, error) {
	switch {
	case schema == "pg_catalog" || schema == "information_schema":
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create \"%s.%s\"", schema, name).
			WithDetail("System catalog modifications are currently disallowed.")
	case schema == "":
		if len(n.path) == 0 {
			return "", pgerr.New(pgerr.InvalidSchemaName, "no schema has been selected to create in")
		}
		schema = n.path[0]
	case !n.e.schemaExists(schema):
		return "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
	}
	if schema == "public" && !n.restoring {
		if err := n.e.dottedPublicName(name); err != nil {
			return "", err
		}
	}
	return schemaKey(schema, name), nil
}

// SchemaExists implements sql.Qualifier.
func (n nameScope) SchemaExists(name string) bool { return n.e.schemaExists(name) }

// SplitKey implements sql.Qualifier.
func (n nameScope) SplitKey(key string) (string, string) { return n.e.splitKey(key) }

// defaultPath is the search path of a session that did not set one.
var defaultPath = []string{"public"}

// searchPath is the session's search path: the schemas of search_path
// that exist ("$user" the session's role's), pg_catalog and pg_temp
// left out; the caller holds the engine's lock.
func (s *Session) searchPath() []string {
	if s.pathOverride != nil {
		return s.pathOverride
	}
	v, _ := s.setting("search_path")
	if v == `"$user", public` && len(s.e.schemas) == 0 {
		return defaultPath
	}
	return s.e.pathOf(v, s.userName())
}

// pathOf is the schemas of the search path v that exist and the role
// user may use (search_path_usage.go).
func (e *Engine) pathOf(v, user string) []string {
	parts, _ := ident.Split(v, ',')
	var out []string
	for _, p := range parts {
		if p == "$user" {
			p = user
		}
		if p == "pg_catalog" || p == "pg_temp" || !e.schemaExists(p) || slices.Contains(out, p) || !e.pathUsable(user, p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// qualify resolves the relation names of st through the session's
// search path; the caller holds the engine's lock.
func (s *Session) qualify(st *sql.Stmt) (*sql.Stmt, error) {
	path := s.searchPath()
	if len(s.e.schemas) == 0 && slices.Equal(path, defaultPath) && !namesInLists(st) {
		return st, nil // every name is public's, as written
	}
	return sql.QualifyNames(st, nameScope{e: s.e, path: path, restoring: s.restoring, user: s.usageUser(), temp: s.ownTempSchema(), tempAt: s.tempAt()})
}

// namesInLists reports whether st names relations by lists of names
// (DROP, COMMENT ON), which the binder reads by their last name only:
// their schemas are checked here, so that DROP TABLE nosuch.t does not
// drop public's t.
func namesInLists(st *sql.Stmt) bool {
	return st.Node.GetDropStmt() != nil || st.Node.GetCommentStmt() != nil
}

// schemaNS is the search path a binding was made under, for bindNS.
func (s *Session) schemaNS() string {
	if len(s.e.schemas) == 0 && s.pathOverride == nil {
		if v, _ := s.setting("search_path"); v == `"$user", public` {
			return ""
		}
	}
	return strings.Join(s.searchPath(), ",")
}

// createSchema runs CREATE SCHEMA.
func (s *Session) createSchema(c *sql.CreateSchema) (Result, error) {
	e := s.e
	if e.schemaExists(c.Name) {
		if c.IfNotExists {
			return Result{Tag: "CREATE SCHEMA", Notices: []string{fmt.Sprintf("schema %q already exists, skipping", c.Name)}}, nil
		}
		return Result{}, pgerr.New("42P06", "schema %q already exists", c.Name)
	}
	owner := c.Owner
	if owner == "" {
		owner = s.userName()
	} else if owner != SuperuserName && e.roles[owner] == nil {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", owner)
	}
	if err := e.schemaNameFree(c.Name); err != nil {
		return Result{}, err
	}
	sc := &schema{name: c.Name, owner: owner}
	if err := e.saveSchema(sc); err != nil {
		return Result{}, err
	}
	if e.schemas == nil {
		e.schemas = map[string]*schema{}
	}
	e.schemas[c.Name] = sc
	return Result{Tag: "CREATE SCHEMA"}, nil
}

// saveSchema records sc in the store, when there is one.
func (e *Engine) saveSchema(sc *schema) error {
	if e.store == nil {
		return nil
	}
	ss, ok := e.store.(SchemaStore)
	if !ok {
		return pgerr.New(pgerr.FeatureNotSupported, "this database's store keeps no schemas")
	}
	return ss.SaveSchema(StoredSchema{Name: sc.name, Owner: sc.owner, Grants: sc.grants, Order: sc.order})
}

// LoadSchemas puts the schemas a store recorded into the engine: for a
// store opening its file, before any relation exists.
func (e *Engine) LoadSchemas(schemas []StoredSchema) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range schemas {
		if s.Name == "public" {
			e.publicSchema = &schema{name: s.Name, owner: databaseOwnerRole, grants: s.Grants, order: s.Order}
			continue
		}
		if e.schemas == nil {
			e.schemas = map[string]*schema{}
		}
		e.schemas[s.Name] = &schema{name: s.Name, owner: s.Owner, grants: s.Grants, order: s.Order}
	}
}

// schemaObject is a relation of a schema DROP SCHEMA drops.
type schemaObject struct {
	key, what string
}

// schemaObjects lists the relations of the schema named, in creation
// order as far as the catalog keeps it: tables, then materialized views
// and views, then sequences.
func (e *Engine) schemaObjects(name string) []schemaObject {
	var out []schemaObject
	in := func(key string) bool { s, _ := e.splitKey(key); return s == name }
	for _, k := range sortedKeys(e.tables) {
		if in(k) {
			out = append(out, schemaObject{k, "table"})
		}
	}
	for _, k := range sortedKeys(e.views) {
		if in(k) {
			out = append(out, schemaObject{k, "materialized view"})
		}
	}
	for _, k := range sortedKeys(e.named) {
		if in(k) {
			out = append(out, schemaObject{k, "view"})
		}
	}
	for _, k := range sortedKeys(e.seqs) {
		if in(k) && e.seqs[k].owner[0] == "" {
			out = append(out, schemaObject{k, "sequence"})
		}
	}
	return out
}

// dropSchema runs DROP SCHEMA: without CASCADE a schema holding relations
// is 2BP01; with it, its relations go first, with the views over them in
// other schemas, each named in the notice, as in PostgreSQL.
func (s *Session) dropSchema(d *sql.DropSchema) (Result, error) {
	e := s.e
	res := Result{Tag: "DROP SCHEMA"}
	var names []string
	for _, n := range d.Names {
		if e.schemas[n] == nil {
			if d.IfExists {
				res.Notices = append(res.Notices, fmt.Sprintf("schema %q does not exist, skipping", n))
				continue
			}
			return Result{}, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", n)
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	var objs []schemaObject
	for _, n := range names {
		objs = append(objs, e.schemaObjects(n)...)
	}
	path := s.searchPath()
	qualified := func(o schemaObject) string {
		sc, n := e.splitKey(o.key)
		if slices.Contains(path, sc) {
			return o.what + " " + n // visible: PostgreSQL names it unqualified
		}
		return o.what + " " + sc + "." + n
	}
	// Statistics objects of the schemas, listed after its relations;
	// those on its tables go with them.
	others := e.statsSchemaLines(path, names)
	var statsLeft [][]string
	for _, n := range names {
		statsLeft = append(statsLeft, e.statsInSchema(n, names))
	}
	for _, n := range names { // types and routines, by schema
		for _, l := range e.schemaObjectLines(n) {
			others = append(others, l+" depends on schema "+n)
		}
	}
	if (len(objs) > 0 || len(others) > 0) && !d.Cascade {
		var lines []string
		for _, o := range objs {
			sc, _ := e.splitKey(o.key)
			lines = append(lines, qualified(o)+" depends on schema "+sc)
		}
		lines = append(lines, others...)
		return Result{}, pgerr.New(pgerr.DependentObjects, "cannot drop schema %s because other objects depend on it", names[0]).
			WithDetail("%s", strings.Join(lines, "\n")).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	if len(objs) > 0 {
		var rels, views, mats, seqs []string
		for _, o := range objs {
			switch o.what {
			case "table":
				rels = append(rels, o.key)
			case "view":
				views = append(views, o.key)
			case "materialized view":
				mats = append(mats, o.key)
			case "sequence":
				seqs = append(seqs, o.key)
			}
		}
		var lines, extra []string
		for _, o := range objs {
			lines = append(lines, "drop cascades to "+qualified(o))
		}
		// The relations go as DROP … CASCADE drops them, which also drops
		// the views over them in other schemas.
		for _, g := range []struct {
			kind  sql.DropKind
			names []string
		}{{sql.DropMatView, mats}, {sql.DropView, views}, {sql.DropTable, rels}} {
			var left []string
			for _, k := range g.names {
				if _, ok := e.kindOf(k); ok {
					left = append(left, k)
				}
			}
			if len(left) == 0 {
				continue
			}
			r, err := e.drop(&sql.Drop{Kind: g.kind, Names: left, Cascade: true})
			e.pruneGrants()
			s.forgetTemps()
			if err == nil {
				err = e.pruneComments()
			}
			if err != nil {
				return Result{}, err
			}
			for _, n := range r.Notices {
				// Views of other schemas over them, and the constraints of
				// their tables on these.
				if !slices.Contains(lines, n) && !slices.Contains(extra, n) {
					extra = append(extra, n)
				}
			}
		}
		if len(seqs) > 0 {
			if _, err := e.dropSequence(&sql.DropSequence{Names: seqs, IfExists: true}); err != nil {
				return Result{}, err
			}
		}
		// One notice per object, as DROP … CASCADE gives them.
		res.Notices = append(append(res.Notices, lines...), extra...)
	}
	for i, n := range names {
		notices, err := e.dropStatsInSchema(path, n, statsLeft[i])
		if err != nil {
			return Result{}, err
		}
		res.Notices = append(res.Notices, notices...)
	}
	for _, n := range names {
		lines := e.schemaObjectLines(n)
		for _, l := range lines {
			res.Notices = append(res.Notices, "drop cascades to "+l)
		}
		var err error
		var extra []string
		if extra, err = e.dropSchemaObjects(n, nil); err != nil {
			return Result{}, err
		}
		for _, x := range extra {
			if !slices.Contains(res.Notices, x) {
				res.Notices = append(res.Notices, x)
			}
		}
	}
	for _, n := range names {
		if ss, ok := e.store.(SchemaStore); ok && e.store != nil {
			if err := ss.DropSchema(n); err != nil {
				return Result{}, err
			}
		}
		if err := e.moveSchemaDefaultACLs(n, ""); err != nil {
			return Result{}, err
		}
		delete(e.schemas, n)
	}
	return res, nil
}

// alterSchema runs ALTER SCHEMA … RENAME TO and OWNER TO. A schema
// holding relations has them moved (schema_rename.go).
func (s *Session) alterSchema(a *sql.AlterSchema) (Result, error) {
	e := s.e
	sc := e.schemas[a.Name]
	if sc == nil {
		return Result{}, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", a.Name)
	}
	if a.NewName != "" {
		if e.schemaExists(a.NewName) {
			return Result{}, pgerr.New("42P06", "schema %q already exists", a.NewName)
		}
		if err := e.schemaNameFree(a.NewName); err != nil {
			return Result{}, err
		}
		if len(e.schemaObjects(a.Name)) > 0 || e.schemaHoldsAny(a.Name) {
			return s.renameSchemaObjects(sc, a.NewName)
		}
		if ss, ok := e.store.(SchemaStore); ok && e.store != nil {
			if err := ss.RenameSchema(a.Name, a.NewName); err != nil {
				return Result{}, err
			}
		}
		if err := e.moveSchemaDefaultACLs(a.Name, a.NewName); err != nil {
			return Result{}, err
		}
		delete(e.schemas, a.Name)
		sc.name = a.NewName
		e.schemas[a.NewName] = sc
		return Result{Tag: "ALTER SCHEMA"}, e.moveObjectComments(a.Name, a.NewName, "schema")
	}
	owner := a.NewOwner
	if owner == "" {
		owner = s.userName()
	} else if owner != SuperuserName && e.roles[owner] == nil {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", owner)
	}
	old, oldGrants, oldOrder := sc.owner, sc.grants, sc.order
	if owner != old {
		sc.grants, sc.order = sc.newOwnerGrants(owner)
	}
	sc.owner = owner
	if err := e.saveSchema(sc); err != nil {
		sc.owner, sc.grants, sc.order = old, oldGrants, oldOrder
		return Result{}, err
	}
	return Result{Tag: "ALTER SCHEMA"}, nil
}

// schemaHoldsAny reports whether any key of the catalog (an index, a
// sequence a table owns) is in the schema name.
func (e *Engine) schemaHoldsAny(name string) bool {
	p := name + "."
	for k := range e.indexes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	for k := range e.seqs {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return len(e.schemaObjectLines(name)) > 0
}

// grantSchema runs GRANT and REVOKE … ON SCHEMA as a superuser.
func (e *Engine) grantSchema(g *sql.GrantSchema) (Result, error) {
	return e.grantSchemas(g, SuperuserName)
}

// grantSchemas runs GRANT and REVOKE … ON SCHEMA for user, each schema's
// items changing as those of the role user grants as (schema_grantor.go).
func (e *Engine) grantSchemas(g *sql.GrantSchema, user string) (Result, error) {
	tag := "GRANT"
	if g.Revoke {
		tag = "REVOKE"
	}
	for _, n := range g.Schemas {
		if !e.schemaExists(n) {
			return Result{}, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", n)
		}
		if e.schemaNamed(n) == nil {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%s on schema %s is not supported: every role may use it", tag, n)
		}
	}
	for _, r := range g.Roles {
		if r != "" && r != SuperuserName && e.roles[r] == nil {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", r)
		}
	}
	if err := checkGrantOption(g.Option, g.Revoke, g.Roles); err != nil {
		return Result{}, err
	}
	// Every schema's new items are worked out before any changes, so that
	// an error (2BP01, 42501) leaves them all as they were.
	type change struct {
		sc     *schema
		grants map[string]sql.Privilege
		order  []string
	}
	var changes []change
	var warnings []string
	for _, n := range g.Schemas {
		sc := e.schemaNamed(n)
		next, w, err := e.grantSchemaBy(g, sc, user)
		if err != nil {
			return Result{}, err
		}
		if w != "" {
			warnings = append(warnings, w)
		}
		c := change{sc: sc}
		c.grants, c.order = sc.withACLItems(next)
		changes = append(changes, c)
	}
	for _, c := range changes {
		sc := e.grantableSchema(c.sc.name) // public's is made the first time
		old, oldOrder := sc.grants, sc.order
		sc.grants, sc.order = c.grants, c.order
		if err := e.saveSchema(sc); err != nil {
			sc.grants, sc.order = old, oldOrder
			return Result{}, err
		}
	}
	return withWarnings(Result{Tag: tag}, warnings), nil
}

// schemaAllowed returns an error (42501) unless the session's role may
// use (USAGE) the schema of the relation keyed key: its owner, or a role
// granted USAGE; the caller holds the engine's lock and has checked that
// the role is no superuser.
func (s *Session) schemaAllowed(key string) error {
	if s.asViewOwner {
		return nil // a view's names were resolved when it was made
	}
	e := s.e
	name, _ := e.splitKey(key)
	sc := e.schemaNamed(name)
	if sc == nil {
		return nil
	}
	held := sc.heldGrants()
	if held[""]&sql.PrivUsage != 0 {
		return nil
	}
	for _, h := range e.heldRoles(s.role) {
		if sc.ownerHolds(h) || held[h]&sql.PrivUsage != 0 {
			return nil // its owner, a role granted USAGE, or their members
		}
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", name).
		WithHint("role %q needs USAGE on schema %s: a superuser grants it with GRANT USAGE ON SCHEMA %s TO %s", s.role, name, name, s.role)
}

// schemaNames lists the schemas, system ones first, for the catalogs.
func (e *Engine) schemaNames() []string {
	out := []string{"pg_catalog", "public", "information_schema"}
	var user []string
	for n := range e.schemas {
		user = append(user, n)
	}
	sort.Strings(user)
	return append(out, user...)
}

// schemaOwner is the owner of the schema named name.
func (e *Engine) schemaOwner(name string) string {
	if sc := e.schemaNamed(name); sc != nil {
		return sc.owner
	}
	return SuperuserName
}

// storedText is the text a store records for a statement the session
// runs: as written, after a SET of the session's search path when it is
// not the default, so that opening the file again resolves its names as
// they were resolved.
func (s *Session) storedText(text string) string {
	v, _ := s.setting("search_path")
	if v == `"$user", public` && s.pathOverride == nil || s.e.store == nil {
		return text
	}
	path := s.searchPath()
	if len(path) == 0 {
		return text
	}
	q := make([]string, len(path))
	for i, p := range path {
		q[i] = sql.QuoteIdent(p)
	}
	return "SET search_path = " + strings.Join(q, ", ") + ";\n" + text
}

// execSchemaElements runs CREATE SCHEMA with schema elements: CREATE
// SCHEMA, then each element in the new schema; when one fails the
// schema is dropped again with what the others made. ok is false for
// another statement.
func (s *Session) execSchemaElements(st *sql.Stmt) ([]Result, bool, error) {
	head, elems, ok, err := sql.SchemaElements(st)
	if !ok || err != nil {
		return nil, ok || err != nil, err
	}
	res, err := s.Exec(head)
	if err != nil {
		return res, true, err
	}
	name := head.Node.GetCreateSchemaStmt().Schemaname
	if name == "" {
		name = s.userName()
	}
	s.e.mu.RLock()
	path := append([]string{name}, s.searchPath()...)
	owner := s.e.schemaOwner(name)
	s.e.mu.RUnlock()
	s.pathOverride = path
	// The elements are made as the schema's owner, who owns them, with
	// its privileges, as PostgreSQL runs them (the built-in superuser
	// as the session without a role).
	role := s.role
	if s.role = owner; owner == SuperuserName {
		s.role = ""
	}
	defer func() { s.pathOverride, s.role = nil, role }()
	for _, el := range elems {
		r, err := s.Exec(el)
		res = append(res, r...)
		if err != nil {
			// Undone unchecked: what the statement made goes with it.
			s.pathOverride, s.role = nil, ""
			drop, _ := sql.Parse("DROP SCHEMA " + sql.QuoteIdent(name) + " CASCADE")
			s.Exec(drop) //nolint:errcheck // the element's error is the one to report
			// Its position is in the element's own text, not the
			// statement's.
			pe := *pgerr.Wrap(err)
			pe.Position = 0
			return nil, true, &pe
		}
	}
	// One result, as PostgreSQL gives for the one statement.
	out := Result{Tag: "CREATE SCHEMA"}
	for _, r := range res {
		out.Notices = append(out.Notices, r.Notices...)
	}
	return []Result{out}, true, nil
}

// SearchPath implements sql.Qualifier.
func (n nameScope) SearchPath() []string { return n.path }

// TempSchema implements sql.TempPath.
func (n nameScope) TempSchema() (string, int) { return n.temp, n.tempAt }

// roleOID is the oid of the role named name, the built-in superuser's
// for SuperuserName.
func (e *Engine) roleOID(name string) uint32 {
	if name == SuperuserName && e.roles[name] == nil {
		return superuserOID
	}
	if name == databaseOwnerRole {
		return databaseOwnerOID
	}
	return objectOID("role", name)
}

// missingNotice is DROP … IF EXISTS's notice for a relation of kind what,
// keyed key, that does not exist: its schema's when that does not exist
// either, as in PostgreSQL.
func (e *Engine) missingNotice(what, key string) string {
	if sc, _, ok := strings.Cut(key, "."); ok && e.schemas[sc] == nil && !isTemp(key) && !e.userRelation(key) {
		return fmt.Sprintf("schema %q does not exist, skipping", sc)
	}
	return fmt.Sprintf("%s %q does not exist, skipping", what, e.bareName(key))
}

var _ sql.ObjectFinder = nameScope{}

// HasType implements sql.ObjectFinder.
func (n nameScope) HasType(key string) bool {
	_, ok := n.e.userTypes[key]
	return ok || n.e.domains.byName[key] != nil
}

// HasFunction implements sql.ObjectFinder.
func (n nameScope) HasFunction(key string) bool {
	return len(n.e.funcs[key]) > 0 || len(n.e.aggs[key]) > 0
}
