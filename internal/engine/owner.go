package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Relation owners. Every relation is owned by the superuser that made it
// (only superusers make relations) until ALTER … OWNER TO gives it to a
// role: e.owners maps the relation's key to that role, the sequences its
// serial and identity columns own following it, as in PostgreSQL. The
// owner holds every privilege on the relation (allowed), catalogs show it
// (pg_class.relowner, pg_tables.tableowner, …, an index its table's), and
// a role that owns a relation cannot be dropped (2BP01). A store keeps
// the owner as the statement that set it (KindRelOwner), run again at
// open after the roles; it follows the relation's renames and moves and
// goes with it.

// KindRelOwner is the kind of a relation's owner in the store: an ALTER
// TABLE … OWNER TO statement, run after the roles are loaded.
const KindRelOwner RelKind = "relation owner"

func ownerStoreName(key string) string { return "owner of " + key }

// alterRelOwner runs ALTER TABLE | VIEW | MATERIALIZED VIEW | SEQUENCE …
// OWNER TO.
func (s *Session) alterRelOwner(a *sql.AlterRelOwner) (Result, error) {
	e := s.e
	tag := "ALTER " + strings.ToUpper(a.Kind)
	name := a.Name
	kind, isRel := e.kindOf(name)
	q := e.seqs[name]
	if e.indexes[name] != nil && (a.Kind == "index" || a.Kind == "table") {
		role := a.Owner
		if role == "" {
			role = s.userName()
		}
		return e.alterIndexOwner(a.Name, role, tag)
	}
	if !isRel && q == nil {
		if a.MissingOk {
			return Result{Tag: tag, Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	switch {
	case a.Kind == "view" && (!isRel || kind != sql.DropView),
		a.Kind == "materialized view" && (!isRel || kind != sql.DropMatView),
		a.Kind == "sequence" && q == nil:
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a %s", e.bareName(name), a.Kind)
	case a.Kind == "index":
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not an index", e.bareName(name))
	}
	role := a.Owner
	if role == "" {
		role = s.userName()
	} else if role != SuperuserName && e.roles[role] == nil {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", role)
	}
	if e.relOwner(name) == role {
		return Result{Tag: tag}, nil // no change, which PostgreSQL checks no further
	}
	if q != nil && q.owner[0] != "" {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot change owner of sequence %q", e.bareName(name)).
			WithDetail("Sequence %q is linked to table %q.", e.bareName(name), e.bareName(q.owner[0]))
	}
	if err := e.setRelOwner(name, role); err != nil {
		return Result{}, err
	}
	return Result{Tag: tag}, nil
}

// setRelOwner makes role the owner of the relation keyed key and of the
// sequences it owns, in memory and in the store (a session's temporary
// relation's in memory alone: it goes with the session).
func (e *Engine) setRelOwner(key, role string) error {
	old := e.relOwner(key)
	if e.store != nil && !isTemp(key) {
		if err := e.store.Drop([]string{ownerStoreName(key)}); err != nil {
			return err
		}
		if role != SuperuserName {
			text := "ALTER TABLE " + sql.QuoteIdent(key) + " OWNER TO " + sql.QuoteIdent(role)
			if err := e.store.Create(&StoredRelation{Name: ownerStoreName(key), Kind: KindRelOwner, SQL: text}); err != nil {
				return err
			}
		}
	}
	if err := e.aclNewOwner(key, role); err != nil {
		return err
	}
	if err := e.columnsNewOwner(key, role); err != nil {
		return err
	}
	if e.owners == nil {
		e.owners = map[string]string{}
	}
	set := func(k string) {
		if role == SuperuserName {
			delete(e.owners, k)
		} else {
			e.owners[k] = role
		}
	}
	set(key)
	for _, q := range e.seqs {
		if q.owner[0] == key {
			set(q.name)
		}
	}
	return e.typeACLNewOwner(key, old, role) // its row type's
}

// relOwner returns the owner of the relation keyed key: an index's is
// its table's.
func (e *Engine) relOwner(key string) string {
	if r, ok := e.owners[key]; ok {
		return r
	}
	if len(e.owners) > 0 {
		if t := e.indexOwner(key); t != nil {
			if r, ok := e.owners[t.name]; ok {
				return r
			}
		}
	}
	return SuperuserName
}

// moveOwner gives the owner of the relation old to its new key.
func (e *Engine) moveOwner(old, new string) error {
	role, ok := e.owners[old]
	if !ok || old == new {
		return nil
	}
	if e.store != nil && !isTemp(old) {
		if err := e.store.Drop([]string{ownerStoreName(old)}); err != nil {
			return err
		}
	}
	delete(e.owners, old)
	return e.setRelOwner(new, role)
}

// pruneOwners forgets the owners of relations that are gone.
func (e *Engine) pruneOwners() error {
	for _, key := range sortedKeys(e.owners) {
		if _, ok := e.kindOf(key); ok || e.seqs[key] != nil {
			continue
		}
		if e.store != nil && !isTemp(key) {
			if err := e.store.Drop([]string{ownerStoreName(key)}); err != nil {
				return err
			}
		}
		delete(e.owners, key)
	}
	return nil
}

// ownedBy lists what role owns, as DROP ROLE's DETAIL lines name it.
func (e *Engine) ownedBy(role string) []string {
	var out []string
	for _, key := range sortedKeys(e.owners) {
		if e.owners[key] != role {
			continue
		}
		what := "sequence"
		if k, ok := e.kindOf(key); ok {
			what = map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}[k]
		}
		out = append(out, "owner of "+what+" "+e.detailRelName(key))
	}
	slices.Sort(out)
	return out
}

// alterIndexOwner runs ALTER INDEX | TABLE … OWNER TO of an index, which
// PostgreSQL leaves owned by its table's owner: a WARNING when the role
// is another, and nothing changes.
func (e *Engine) alterIndexOwner(name, role, tag string) (Result, error) {
	if role != SuperuserName && e.roles[role] == nil {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", role)
	}
	res := Result{Tag: tag}
	if role != e.relOwner(name) {
		res.Notices = []string{fmt.Sprintf("cannot change owner of index %q", e.bareName(name))}
		res.NoticeLevels = map[int]string{0: "WARNING"}
	}
	return res, nil
}
