package engine

import (
	"sort"

	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// The catalogs of row-level security: pg_policy, pg_policies, and the
// flags psql's \d reads.

// rowSecurity is the row-level security of a relation of the catalog;
// none for a relation that is not a table.
func (o *catalogObjects) rowSecurity(rel *catRel) *tableRLS {
	if rel.kind == 'r' && rel.t != nil {
		if r := o.rls[rel.key]; r != nil {
			return r
		}
	}
	return &tableRLS{}
}

func init() {
	// Registered whole here, whichever init runs first; name[] prints
	// as text[].
	catalogTypeNames["name[]"] = value.ArrayType(value.Text)
	add := addCatalogRelation
	add("pg_catalog.pg_policy", "oid:oid,polname:name,polrelid:oid,polcmd:\"char\",polpermissive:boolean,polroles:oid[],polqual:pg_node_tree,polwithcheck:pg_node_tree", pgPolicy)
	add("pg_catalog.pg_policies", "schemaname:name,tablename:name,policyname:name,permissive:text,roles:name[],cmd:text,qual:text,with_check:text", pgPolicies)
}

// eachPolicy calls fn with each policy and its table, by table then name.
func (o *catalogObjects) eachPolicy(fn func(rel *catRel, p *policy)) {
	for _, rel := range o.rels {
		for _, p := range o.rowSecurity(rel).policies {
			fn(rel, p)
		}
	}
}

// exprOrNull is a policy's expression as the catalogs show it: in
// parentheses, as PostgreSQL's pg_get_expr writes a comparison; NULL for
// none.
func exprOrNull(s string) any {
	if s == "" {
		return nil
	}
	return "(" + s + ")"
}

// pgPolicy lists pg_policy. polqual and polwithcheck hold the
// expressions' text where PostgreSQL keeps its node trees.
func pgPolicy(o *catalogObjects, r *catRows) {
	o.eachPolicy(func(rel *catRel, p *policy) {
		roles := make([]uint32, len(p.roles))
		for i, name := range p.roles {
			if name != "" {
				roles[i] = objectOID("role", name)
			}
		}
		r.add("oid", objectOID("policy", p.table+"."+p.Name), "polname", p.Name, "polrelid", rel.oid, "polcmd", string(rune(p.Cmd)),
			"polpermissive", p.Permissive, "polroles", roles, "polqual", exprOrNull(p.Using), "polwithcheck", exprOrNull(p.Check))
	})
}

// pgPolicies lists the view pg_policies. qual and with_check are the
// expressions as deparsed at CREATE POLICY, which PostgreSQL writes with
// more parentheses and casts.
func pgPolicies(o *catalogObjects, r *catRows) {
	o.eachPolicy(func(rel *catRel, p *policy) {
		roles := make([]string, len(p.roles))
		for i, name := range p.roles {
			roles[i] = name
			if name == "" {
				roles[i] = "public"
			}
		}
		sort.Strings(roles) // as pg_policies orders them
		perm := "PERMISSIVE"
		if !p.Permissive {
			perm = "RESTRICTIVE"
		}
		r.add("schemaname", rel.schema, "tablename", rel.name, "policyname", p.Name, "permissive", perm, "roles", roles,
			"cmd", sql.PolicyCmdName(p.Cmd), "qual", exprOrNull(p.Using), "with_check", exprOrNull(p.Check))
	})
}

// RowSecurityOf reports whether the table named name has row-level
// security enabled, and forced: for psql's \d, which then lists the
// policies from pg_policy.
func (s *Session) RowSecurityOf(name string) (enabled, forced bool) {
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	if r := s.e.rls[name]; r != nil {
		return r.enabled, r.forced
	}
	return false, false
}
