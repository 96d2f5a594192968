package engine

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// User collations (CREATE COLLATION) keep, by key (the bare name in
// public, "s.name" in schema s), the collation as pg_collation lists it.
// An ICU one orders as its locale's built-in collation does, under an ID
// of its own (value.UserCollation); a libc one over "C", "POSIX" or
// "C.utf8" compares byte by byte, as uncollated strings do here. The
// objects are never edited in place: a change replaces the map's entry,
// so a catalog image copies the map alone. The store keeps each as the
// statement that makes it (KindCollation), run before the domains and
// tables, and its owner as an ALTER COLLATION … OWNER TO run after the
// roles (KindCollationOwner).

// KindCollation is the stored kind of a collation; KindCollationOwner
// that of its owner, when it is not the built-in superuser.
const (
	KindCollation      RelKind = "collation"
	KindCollationOwner RelKind = "collation owner"
)

// collationState holds the user collations.
type collationState struct {
	colls map[string]*sql.UserCollation
}

func collationStoreKey(key string) string      { return "pg_collation/" + key }
func collationOwnerStoreKey(key string) string { return "owner of collation " + key }

// collKey is the key of collation name in schema.
func collKey(schema, name string) string { return schemaKey(schema, name) }

// UserCollation implements sql.CollationCatalog for public's names.
func (e *Engine) UserCollation(names []string) (*sql.UserCollation, bool) {
	return e.userCollationIn(names, defaultPath)
}

// userCollationIn resolves names through path: a qualified name in its
// schema, an unqualified one in the first schema of path holding it.
func (e *Engine) userCollationIn(names []string, path []string) (*sql.UserCollation, bool) {
	switch len(names) {
	case 1:
		for _, sc := range path {
			if c := e.colls[collKey(sc, names[0])]; c != nil {
				return c, true
			}
		}
	case 2:
		if c := e.colls[collKey(names[0], names[1])]; c != nil {
			return c, true
		}
	}
	return nil, false
}

// UserCollation implements sql.CollationCatalog through the session's
// search path.
func (r *recorder) UserCollation(names []string) (*sql.UserCollation, bool) {
	e, ok := r.cat.(*Engine)
	if !ok {
		if cc, ok := r.cat.(sql.CollationCatalog); ok {
			return cc.UserCollation(names)
		}
		return nil, false
	}
	path := defaultPath
	if r.names != nil {
		path = r.names.path
	}
	return e.userCollationIn(names, path)
}

// UserCollation implements sql.CollationCatalog.
func (v viewRecorder) UserCollation(names []string) (*sql.UserCollation, bool) {
	return v.r.UserCollation(names)
}

// UserCollationByID implements sql.CollationIDCatalog: an ICU user
// collation has an ID of its own.
func (e *Engine) UserCollationByID(id uint8) (*sql.UserCollation, bool) {
	for _, c := range e.colls {
		if c.ID == id && id != 0 {
			return c, true
		}
	}
	return nil, false
}

// UserCollationByID implements sql.CollationIDCatalog.
func (r *recorder) UserCollationByID(id uint8) (*sql.UserCollation, bool) {
	if cc, ok := r.cat.(sql.CollationIDCatalog); ok {
		return cc.UserCollationByID(id)
	}
	return nil, false
}

// UserCollationByID implements sql.CollationIDCatalog.
func (v viewRecorder) UserCollationByID(id uint8) (*sql.UserCollation, bool) {
	return v.r.UserCollationByID(id)
}

// collationSQL is the statement that makes c.
func collationSQL(c *sql.UserCollation) string {
	var opts string
	if c.Provider == 'i' {
		opts = fmt.Sprintf("provider = icu, locale = %s", quoteLit(c.Locale))
	} else {
		opts = fmt.Sprintf("provider = libc, locale = %s", quoteLit(c.Locale))
	}
	if c.Nondeterministic {
		opts += ", deterministic = false"
	}
	if c.Version != "" {
		opts += ", version = " + quoteLit(c.Version)
	}
	// Its oid, which a rename keeps while the name it hashes changes.
	opts += fmt.Sprintf(", oid = %d", c.OID)
	return fmt.Sprintf("CREATE COLLATION %s (%s)", c.QualifiedName(), opts)
}

// storeCollation records c anew in the store, its entries under old
// dropped first (old "": a new collation); c nil records old's drop.
func (e *Engine) storeCollation(old string, c *sql.UserCollation) error {
	if e.store == nil {
		return nil
	}
	if old != "" {
		drop := []string{collationStoreKey(old)}
		if prev := e.colls[old]; prev != nil && prev.Owner != SuperuserName {
			drop = append(drop, collationOwnerStoreKey(old))
		}
		if err := e.store.Drop(drop); err != nil {
			return err
		}
	}
	if c == nil {
		return nil
	}
	key := collKey(c.Schema, c.Name)
	if err := e.store.Create(&StoredRelation{Name: collationStoreKey(key), Kind: KindCollation, SQL: collationSQL(c)}); err != nil {
		return err
	}
	if c.Owner != SuperuserName {
		text := fmt.Sprintf("ALTER COLLATION %s OWNER TO %s", c.QualifiedName(), expr.QuoteIdent(c.Owner))
		return e.store.Create(&StoredRelation{Name: collationOwnerStoreKey(key), Kind: KindCollationOwner, SQL: text})
	}
	return nil
}

// putCollation sets the collation keyed key (nil: removes it).
func (e *Engine) putCollation(key string, c *sql.UserCollation) {
	if c == nil {
		delete(e.colls, key)
		return
	}
	if e.colls == nil {
		e.colls = map[string]*sql.UserCollation{}
	}
	e.colls[key] = c
}

// builtinCollation is the pg_collation row of a built-in collation
// called name, ok false for none.
func builtinCollation(name string) (c sql.UserCollation, ok bool) {
	for _, b := range collations {
		if b.name == name {
			loc, _ := b.collate.(string)
			return sql.UserCollation{Name: name, Provider: b.provider[0], Locale: loc, Encoding: b.encoding}, true
		}
	}
	for _, b := range icuCollations {
		if b.locale+"-x-icu" == name {
			return sql.UserCollation{Name: name, Provider: 'i', Locale: b.locale, Version: b.version, Encoding: -1}, true
		}
	}
	return c, false
}

// icuVersion is the collversion PostgreSQL 15 on Debian 12 gives an ICU
// collation of locale.
func icuVersion(locale string) string {
	for _, b := range icuCollations {
		if b.locale == locale {
			return b.version
		}
	}
	return "153.120"
}

// byteWiseLocale reports whether a libc locale orders UTF-8 strings by
// their bytes.
func byteWiseLocale(l string) bool {
	switch l {
	case "C", "POSIX", "C.utf8", "C.UTF-8":
		return true
	}
	return false
}

func (s *Session) createCollation(c *sql.CreateCollation) (Result, error) {
	e := s.e
	res := Result{Tag: "CREATE COLLATION"}
	if c.OIDErr != nil && !s.restoring {
		return Result{}, c.OIDErr
	}
	schema, name := "", c.Names[len(c.Names)-1]
	switch len(c.Names) {
	case 1:
		path := s.searchPath()
		if len(path) == 0 {
			return Result{}, pgerr.New("3F000", "no schema has been selected to create in")
		}
		schema = path[0]
	case 2:
		schema = c.Names[0]
	default:
		return Result{}, pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(c.Names, "."))
	}
	if schema == "pg_catalog" || sql.SystemSchema(schema) && schema != "public" {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "CREATE COLLATION in schema %s is not supported", schema)
	}
	if !e.schemaExists(schema) {
		return Result{}, pgerr.New("3F000", "schema %q does not exist", schema)
	}
	uc := &sql.UserCollation{Schema: schema, Name: name, Owner: s.userName(), Encoding: 6}
	if c.From != nil {
		from, ok := s.findCollation(c.From)
		if !ok {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "collation %q for encoding \"UTF8\" does not exist", strings.Join(c.From, "."))
		}
		if from.Name == "default" && from.Schema == "" {
			return Result{}, pgerr.New("42P17", "collation \"default\" cannot be copied")
		}
		uc.Provider, uc.Locale, uc.Version, uc.Encoding = from.Provider, from.Locale, from.Version, from.Encoding
		uc.Nondeterministic = from.Nondeterministic
	} else {
		uc.Provider = 'c'
		if c.Provider == "icu" {
			uc.Provider, uc.Encoding = 'i', -1
		}
		switch {
		case uc.Provider == 'i':
			if c.Locale == "" {
				return Result{}, pgerr.New("42P17", "parameter \"locale\" must be specified")
			}
			uc.Locale = c.Locale
		case c.Locale != "":
			uc.Locale = c.Locale
		case c.Collate == "":
			return Result{}, pgerr.New("42P17", "parameter \"lc_collate\" must be specified")
		case c.Ctype == "":
			return Result{}, pgerr.New("42P17", "parameter \"lc_ctype\" must be specified")
		case c.Collate != c.Ctype:
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "a collation whose lc_collate and lc_ctype differ is not supported")
		default:
			uc.Locale = c.Collate
		}
		if !c.Deterministic {
			if uc.Provider == 'c' {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "nondeterministic collations not supported with this provider")
			}
			uc.Nondeterministic = true
		}
		if uc.Provider == 'i' {
			uc.Version = icuVersion(uc.Locale)
			if c.HasVersion {
				uc.Version = c.Version
			}
		}
	}
	switch {
	case uc.Provider == 'i':
		coll := value.UserCollation(name, uc.Locale, !uc.Nondeterministic)
		if coll == nil {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ICU locale %q is not supported", uc.Locale).
				WithHint("the ICU locales supported are those of the -x-icu collations pg_collation lists")
		}
		uc.ID = coll.ID
	case !byteWiseLocale(uc.Locale):
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "libc locale %q is not supported", uc.Locale).
			WithHint(`the libc locales supported are "C", "POSIX" and "C.utf8", which order strings by their bytes`)
	}
	key := collKey(schema, name)
	if e.colls[key] != nil {
		if c.IfNotExists {
			res.Notices = []string{fmt.Sprintf("collation %q already exists, skipping", name)}
			return res, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateObject, "collation %q already exists", name)
	}
	uc.OID = objectOID("collation", key)
	if c.OID != 0 {
		uc.OID = c.OID
	}
	if err := e.storeCollation("", uc); err != nil {
		return Result{}, err
	}
	e.putCollation(key, uc)
	if c.HasVersion && uc.Provider == 'i' && uc.Version != icuVersion(uc.Locale) {
		res.Notices = []string{fmt.Sprintf("collation %q has version mismatch", name)}
		res.NoticeLevels = map[int]string{0: "WARNING"}
	}
	return res, nil
}

// isBuiltinCollationName reports whether pg_catalog has a collation
// called name.
func isBuiltinCollationName(name string) bool {
	_, ok := builtinCollation(name)
	return ok
}

// findCollation resolves names to a collation, built-in (pg_catalog's
// first, as on PostgreSQL's search path) or made by CREATE COLLATION.
func (s *Session) findCollation(names []string) (sql.UserCollation, bool) {
	if len(names) == 1 || len(names) == 2 && names[0] == "pg_catalog" {
		if b, ok := builtinCollation(names[len(names)-1]); ok {
			return b, true
		}
	}
	if c, ok := s.e.userCollationIn(names, s.searchPath()); ok {
		return *c, true
	}
	return sql.UserCollation{}, false
}

// lookupUserCollation resolves names to a user collation for DROP and
// ALTER: 42704 when there is none (a built-in one is 0A000).
func (s *Session) lookupUserCollation(names []string) (string, *sql.UserCollation, error) {
	if c, ok := s.e.userCollationIn(names, s.searchPath()); ok {
		return collKey(c.Schema, c.Name), c, nil
	}
	if _, ok := s.findCollation(names); ok {
		return "", nil, pgerr.New(pgerr.FeatureNotSupported, "collation %s is built in: it cannot be altered or dropped here", strings.Join(names, "."))
	}
	return "", nil, pgerr.New(pgerr.UndefinedObject, "collation %q for encoding \"UTF8\" does not exist", strings.Join(names, "."))
}

// mayAlterCollation checks that the session's role owns c.
func (s *Session) mayAlterCollation(c *sql.UserCollation) error {
	if u := s.userName(); u == c.Owner || s.e.isSuperuser(u) || s.e.hasPrivsOf(u, c.Owner) {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of collation %s", c.Name)
}

func (s *Session) dropCollation(d *sql.DropCollation) (Result, error) {
	e := s.e
	res := Result{Tag: "DROP COLLATION"}
	var gone []string
	for _, names := range d.Names {
		key, c, err := s.lookupUserCollation(names)
		if err != nil {
			if d.IfExists && pgerr.Wrap(err).Code == pgerr.UndefinedObject {
				res.Notices = append(res.Notices, fmt.Sprintf("collation %q does not exist, skipping", strings.Join(names, ".")))
				continue
			}
			return Result{}, err
		}
		if err := s.mayAlterCollation(c); err != nil {
			return Result{}, err
		}
		if deps := e.collationDependents(c); len(deps) > 0 {
			if d.Cascade {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP COLLATION … CASCADE of a collation in use is not supported").
					WithHint("drop the objects that use it first")
			}
			return Result{}, pgerr.New(pgerr.DependentObjects, "cannot drop collation %s because other objects depend on it", c.Name).
				WithDetail("%s", strings.Join(deps, "\n")).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		gone = append(gone, key)
	}
	for _, key := range gone {
		if err := e.storeCollation(key, nil); err != nil {
			return Result{}, err
		}
		e.putCollation(key, nil)
	}
	return res, nil
}

// collationDependents lists, as DROP's DETAIL names them, the domains,
// columns, defaults, checks, indexes and views that use c: a domain and a
// column by its COLLATE clause (a column of such a domain too), the
// others by their text naming it in a COLLATE clause.
func (e *Engine) collationDependents(c *sql.UserCollation) []string {
	var out []string
	for _, key := range sortedKeys(e.domains.byName) {
		if uc := e.domains.byName[key].Def().UserColl; uc != nil && uc.OID == c.OID {
			out = append(out, fmt.Sprintf("type %s depends on collation %s", e.bareName(key), c.Name))
		}
	}
	re := regexp.MustCompile(`(?i)\bCOLLATE\s+(?:("?)[^\s".]+"?\.)?("?)` + regexp.QuoteMeta(c.Name) + `\b`)
	for _, key := range sortedKeys(e.tables) {
		t := e.tables[key]
		if t.def == nil {
			continue
		}
		// A table's columns, then its defaults and checks, then its
		// indexes, as PostgreSQL records them as they are made.
		for _, col := range t.def.Cols {
			if oid, _, ok := col.DomainUserColl(); ok && oid == c.OID || col.UserColl != nil && col.UserColl.OID == c.OID {
				out = append(out, fmt.Sprintf("column %s of table %s depends on collation %s", col.Name, e.bareName(key), c.Name))
			}
		}
		for _, col := range t.def.Cols {
			if col.DefaultSQL != "" && re.MatchString(col.DefaultSQL) {
				out = append(out, fmt.Sprintf("default value for column %s of table %s depends on collation %s", col.Name, e.bareName(key), c.Name))
			}
		}
		for _, ch := range t.def.Checks {
			if re.MatchString(ch.SQL) {
				out = append(out, fmt.Sprintf("constraint %s on table %s depends on collation %s", ch.Name, e.bareName(key), c.Name))
			}
		}
		for _, ix := range slices.Concat(t.indexes, t.xindexes) {
			if re.MatchString(ix.text) {
				out = append(out, fmt.Sprintf("index %s depends on collation %s", e.bareName(ix.name), c.Name))
			}
		}
	}
	for _, key := range sortedKeys(e.named) {
		if v := e.named[key]; v.query != nil && re.MatchString(v.query.SQL) {
			out = append(out, fmt.Sprintf("view %s depends on collation %s", e.bareName(key), c.Name))
		}
	}
	for _, key := range sortedKeys(e.views) {
		if m := e.views[key].meta(); m.def != nil && re.MatchString(m.def.Definition) {
			out = append(out, fmt.Sprintf("materialized view %s depends on collation %s", e.bareName(key), c.Name))
		}
	}
	return out
}

func (s *Session) alterCollation(a *sql.AlterCollation) (Result, error) {
	e := s.e
	res := Result{Tag: "ALTER COLLATION"}
	key, c, err := s.lookupUserCollation(a.Names)
	if err != nil {
		return Result{}, err
	}
	if err := s.mayAlterCollation(c); err != nil {
		return Result{}, err
	}
	next := *c
	switch {
	case a.Refresh:
		if c.Provider == 'i' && c.Version != icuVersion(c.Locale) {
			res.Notices = []string{fmt.Sprintf("changing version from %s to %s", c.Version, icuVersion(c.Locale))}
			next.Version = icuVersion(c.Locale)
		} else {
			res.Notices = []string{"version has not changed"}
			return res, nil
		}
	case a.OwnerSet:
		owner := a.Owner
		if owner == "" {
			owner = s.userName()
		}
		if owner != SuperuserName && e.roles[owner] == nil {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", owner)
		}
		if u := s.userName(); !e.isSuperuser(u) && !e.hasPrivsOf(u, owner) {
			return Result{}, pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", owner)
		}
		next.Owner = owner
	case a.Rename != "" || a.Schema != "":
		if a.Rename != "" {
			next.Name = a.Rename
		} else {
			if a.Schema == "pg_catalog" || !e.schemaExists(a.Schema) {
				if !e.schemaExists(a.Schema) {
					return Result{}, pgerr.New("3F000", "schema %q does not exist", a.Schema)
				}
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER COLLATION … SET SCHEMA %s is not supported", a.Schema)
			}
			next.Schema = a.Schema
		}
		nk := collKey(next.Schema, next.Name)
		if e.colls[nk] != nil && nk != key {
			return Result{}, pgerr.New(pgerr.DuplicateObject, "collation %q for encoding \"UTF8\" already exists in schema %q", next.Name, next.Schema)
		}
		if next.Provider == 'i' {
			next.ID = value.UserCollation(next.Name, next.Locale, !next.Nondeterministic).ID
		}
		return res, e.renameCollationInUse(key, nk, c, &next)
	}
	if err := e.storeCollation(key, &next); err != nil {
		return Result{}, err
	}
	e.putCollation(key, &next)
	return res, nil
}

// collationsOwnedBy lists the collations role owns, as DROP ROLE's DETAIL
// names them.
func (e *Engine) collationsOwnedBy(role string) []string {
	var out []string
	for _, key := range sortedKeys(e.colls) {
		if c := e.colls[key]; c.Owner == role {
			out = append(out, "owner of collation "+c.Name)
		}
	}
	return out
}

// collationNamesOwnedBy lists, qualified, the collations one of roles
// owns, for REASSIGN OWNED and DROP OWNED.
func (e *Engine) collationNamesOwnedBy(roles []string) []string {
	var out []string
	for _, key := range sortedKeys(e.colls) {
		if c := e.colls[key]; slices.Contains(roles, c.Owner) {
			out = append(out, sql.QuoteIdent(c.Schema)+"."+sql.QuoteIdent(c.Name))
		}
	}
	return out
}

// pgCollationUser lists the user collations in pg_collation.
func (e *Engine) pgCollationUser(r *catRows) {
	for _, key := range slices.Sorted(maps.Keys(e.colls)) {
		c := e.colls[key]
		var coll, icu, version any
		if c.Provider == 'i' {
			icu, version = c.Locale, c.Version
		} else {
			coll = c.Locale
		}
		r.add("oid", c.OID, "collname", c.Name, "collnamespace", schemaOID(c.Schema), "collowner", e.roleOID(c.Owner),
			"collprovider", string(rune(c.Provider)), "collisdeterministic", !c.Nondeterministic, "collencoding", c.Encoding, "collcollate", coll, "collctype", coll,
			"colliculocale", icu, "collversion", version)
	}
}

// nameUserCollations lets regcollation read and print the user
// collations: qualified unless their schema is on path.
func (e *Engine) nameUserCollations(sc *expr.SysCatalog, path []string) {
	for _, c := range e.colls {
		out := expr.QuoteIdent(c.Name)
		if !slices.Contains(path, c.Schema) {
			out = expr.QuoteIdent(c.Schema) + "." + out
		}
		sc.Names[value.RegCollation][c.OID] = out
		if slices.Contains(path, c.Schema) {
			if _, taken := sc.OIDs[value.RegCollation][c.Name]; !taken {
				sc.OIDs[value.RegCollation][c.Name] = c.OID
			}
		}
		sc.OIDs[value.RegCollation][c.Schema+"."+c.Name] = c.OID
	}
}

// quoteLit quotes s as a SQL string literal.
func quoteLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
