package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// User collations: CREATE COLLATION, DROP COLLATION and ALTER COLLATION.
// A collation is named by the list of names a statement writes
// (["en"] or ["s", "en"]); the engine resolves an unqualified one through
// the search path.

// UserCollation is a collation CREATE COLLATION made, as pg_collation
// lists it.
type UserCollation struct {
	Schema, Name, Owner string
	OID                 uint32
	// Provider is pg_collation.collprovider: 'i' (ICU) or 'c' (libc).
	Provider byte
	// Locale is colliculocale for ICU, collcollate (= collctype) for libc.
	Locale  string
	Version string // collversion; "" for NULL
	// Encoding is collencoding: -1 (any) or 6 (UTF8), as PostgreSQL sets it.
	Encoding int32
	// ID is the value.Collation a string under it carries (0: byte-wise).
	ID uint8
	// Nondeterministic is pg_collation.collisdeterministic's negation.
	Nondeterministic bool
}

// CollationCatalog is a Catalog that knows the user collations: by the
// names a statement writes, qualified or not.
type CollationCatalog interface {
	UserCollation(names []string) (*UserCollation, bool)
}

// CollationIDCatalog is a CollationCatalog that finds a user collation
// by the ID of the value.Collation its strings carry: the one that
// derives a view's, a subquery's or a window function's column, whose
// name COLLATION FOR qualifies as its schema requires.
type CollationIDCatalog interface {
	UserCollationByID(id uint8) (*UserCollation, bool)
}

// userCollationByID is the user collation whose strings carry the ICU
// collation id, nil for none (a built-in one).
func (b *binder) userCollationByID(id uint8) *UserCollation {
	cc, ok := b.cat.(CollationIDCatalog)
	if !ok || id == 0 {
		return nil
	}
	c, ok := cc.UserCollationByID(id)
	if !ok {
		return nil
	}
	return c
}

// userCollation resolves names to a user collation, nil for none.
func (b *binder) userCollation(names []string) *UserCollation {
	cc, ok := b.cat.(CollationCatalog)
	if !ok {
		return nil
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		return nil
	}
	c, ok := cc.UserCollation(names)
	if !ok {
		return nil
	}
	return c
}

// CreateCollation is CREATE COLLATION [IF NOT EXISTS] name (options) or
// … FROM existing.
type CreateCollation struct {
	Names       []string // as written
	IfNotExists bool
	// From is the collation copied (FROM existing); nil for options.
	From     []string
	Provider string // "icu" or "libc" (the default)
	// Locale, Collate and Ctype are the options given ("" when absent).
	Locale, Collate, Ctype string
	// Deterministic is the option's value (true when absent).
	Deterministic bool
	Version       string // VERSION; "" when absent
	HasVersion    bool
	// OID is the object number a database file's statement gives the
	// collation (oid = n), which it keeps across a rename; 0 when
	// absent. OIDErr is the error the option is for a user's statement,
	// as PostgreSQL knows no such attribute.
	OID    uint32
	OIDErr error
}

// DropCollation is DROP COLLATION [IF EXISTS] name, … [CASCADE].
type DropCollation struct {
	Names    [][]string
	IfExists bool
	Cascade  bool
}

// AlterCollation is ALTER COLLATION name RENAME TO | OWNER TO | SET SCHEMA
// | REFRESH VERSION: one of Rename, Owner (OwnerSet), Schema, Refresh.
type AlterCollation struct {
	Names    []string
	Rename   string
	Owner    string // "" with OwnerSet: the session's role
	OwnerSet bool
	Schema   string
	Refresh  bool
}

func (*CreateCollation) bound() {}
func (*DropCollation) bound()   {}
func (*AlterCollation) bound()  {}

// nodeNames is the list of names a List node (or a bare String) holds.
func nodeNames(n *pg_query.Node) []string {
	var out []string
	items := n.GetList().GetItems()
	if items == nil && n.GetString_() != nil {
		return []string{n.GetString_().Sval}
	}
	for _, it := range items {
		out = append(out, it.GetString_().GetSval())
	}
	return out
}

// bindCollationStmt binds the collation statements; ok is false for
// others.
func (b *binder) bindCollationStmt(n *pg_query.Node) (bd Bound, ok bool, err error) {
	switch {
	case n.GetDefineStmt() != nil && n.GetDefineStmt().Kind == pg_query.ObjectType_OBJECT_COLLATION:
		bd, err := b.bindCreateCollation(n.GetDefineStmt())
		return bd, true, err
	case n.GetDropStmt() != nil && n.GetDropStmt().RemoveType == pg_query.ObjectType_OBJECT_COLLATION:
		ds := n.GetDropStmt()
		d := &DropCollation{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
		for _, o := range ds.Objects {
			d.Names = append(d.Names, nodeNames(o))
		}
		return d, true, nil
	case n.GetRenameStmt() != nil && n.GetRenameStmt().RenameType == pg_query.ObjectType_OBJECT_COLLATION:
		rs := n.GetRenameStmt()
		return &AlterCollation{Names: nodeNames(rs.Object), Rename: rs.Newname}, true, nil
	case n.GetAlterObjectSchemaStmt() != nil && n.GetAlterObjectSchemaStmt().ObjectType == pg_query.ObjectType_OBJECT_COLLATION:
		as := n.GetAlterObjectSchemaStmt()
		return &AlterCollation{Names: nodeNames(as.Object), Schema: as.Newschema}, true, nil
	case n.GetAlterOwnerStmt() != nil && n.GetAlterOwnerStmt().ObjectType == pg_query.ObjectType_OBJECT_COLLATION:
		ao := n.GetAlterOwnerStmt()
		owner, err := b.newOwner(ao.Newowner)
		if err != nil {
			return nil, true, err
		}
		return &AlterCollation{Names: nodeNames(ao.Object), OwnerSet: true, Owner: owner}, true, nil
	case n.GetAlterCollationStmt() != nil:
		var names []string
		for _, it := range n.GetAlterCollationStmt().Collname {
			names = append(names, it.GetString_().GetSval())
		}
		return &AlterCollation{Names: names, Refresh: true}, true, nil
	}
	return nil, false, nil
}

// bindCreateCollation reads CREATE COLLATION's options as PostgreSQL's
// DefineCollation does.
func (b *binder) bindCreateCollation(d *pg_query.DefineStmt) (Bound, error) {
	c := &CreateCollation{IfNotExists: d.IfNotExists, Deterministic: true}
	for _, n := range d.Defnames {
		c.Names = append(c.Names, n.GetString_().GetSval())
	}
	seen := map[string]bool{}
	for _, o := range d.Definition {
		de := o.GetDefElem()
		name := strings.ToLower(de.Defname)
		if seen[name] {
			return nil, b.stmt.errf(de.Location, pgerr.SyntaxError, "conflicting or redundant options")
		}
		seen[name] = true
		if name == "from" {
			c.From = nodeNames(de.Arg)
			if len(d.Definition) > 1 {
				return nil, b.stmt.errf(de.Location, pgerr.SyntaxError, "conflicting or redundant options")
			}
			continue
		}
		var s string
		if de.Arg != nil {
			if de.Arg.GetTypeName() != nil {
				s = strings.Join(defNames(de), ".")
			} else {
				var err error
				if s, err = defString(de); err != nil {
					return nil, err
				}
			}
		}
		switch name {
		case "provider":
			c.Provider = strings.ToLower(s)
		case "locale":
			c.Locale = s
		case "lc_collate":
			c.Collate = s
		case "lc_ctype":
			c.Ctype = s
		case "deterministic":
			c.Deterministic = defTrue(de)
		case "version":
			c.Version, c.HasVersion = s, true
		case "oid":
			n, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				return nil, b.stmt.errf(de.Location, pgerr.SyntaxError, "collation attribute %q not recognized", de.Defname)
			}
			c.OID, c.OIDErr = uint32(n), b.stmt.errf(de.Location, pgerr.SyntaxError, "collation attribute %q not recognized", de.Defname)
		default:
			return nil, b.stmt.errf(de.Location, pgerr.SyntaxError, "collation attribute %q not recognized", de.Defname)
		}
	}
	if c.From == nil {
		switch c.Provider {
		case "", "libc", "icu":
		default:
			return nil, pgerr.New("42P17", "unrecognized collation provider: %s", c.Provider)
		}
	}
	return c, nil
}

// userCollationOf resolves the names of a COLLATE clause to a user
// collation; nil for a built-in one (pg_catalog's names come first on
// the search path, as in PostgreSQL) or none.
func (b *binder) userCollationOf(names []string) *UserCollation {
	if len(names) == 1 {
		switch n := names[0]; {
		case n == "C", n == "POSIX", n == "default", n == "ucs_basic", n == "C.utf8", value.PostgreSQLICUCollation(n):
			return nil
		}
	}
	return b.userCollation(names)
}

// columnUserColl is the user collation a column's COLLATE clause names,
// nil for none or a built-in one.
func (b *binder) columnUserColl(cc *pg_query.CollateClause) *UserCollation {
	if cc == nil {
		return nil
	}
	var names []string
	for _, n := range cc.Collname {
		names = append(names, n.GetString_().GetSval())
	}
	return b.userCollationOf(names)
}

// QualifiedName is the collation's name as a statement writes it:
// quoted where needed, qualified outside public.
func (c *UserCollation) QualifiedName() string {
	if c.Schema == "" || c.Schema == "public" {
		return QuoteIdent(c.Name)
	}
	return QuoteIdent(c.Schema) + "." + QuoteIdent(c.Name)
}
