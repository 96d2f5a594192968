package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A routine's security keeps no state of its own: SECURITY DEFINER and
// the settings of its SET clauses (sql.Function's SecDef, Config and
// Owner) are applied around each call, as PostgreSQL's
// fmgr_security_definer does. For the call the session acts as the
// routine's owner (current_user, privilege checks and row-level security
// are the owner's; session_user stays), the definers stack of the
// session holding the roles of the calls under way, and each setting of
// Config holds as a SET LOCAL would, the session's former values coming
// back when the call ends, by error too.

// enterRoutine applies f's security for a call; leave undoes it.
func (s *Session) enterRoutine(f *sql.Function) (leave func()) {
	if !f.SecDef && len(f.Config) == 0 {
		return func() {}
	}
	g := &s.gucs
	type saved struct {
		name, v string
		had     bool
	}
	var prior []saved
	for _, kv := range f.Config {
		name, v, _ := strings.Cut(kv, "=")
		name = strings.ToLower(name)
		old, had := g.local[name]
		prior = append(prior, saved{name, old, had})
		if d := gucDefs[name]; d != nil {
			if c, err := d.canonical(v); err == nil {
				v = c
			}
		} else {
			if g.custom == nil {
				g.custom = map[string]bool{}
			}
			g.custom[name] = true
		}
		if g.local == nil {
			g.local = map[string]string{}
		}
		g.local[name] = v
	}
	if f.SecDef {
		owner := f.Owner
		if owner == "" {
			owner = SuperuserName
		}
		s.definers = append(s.definers, s.roleID(owner))
	}
	s.applySettings()
	return func() {
		if f.SecDef {
			s.definers = s.definers[:len(s.definers)-1]
		}
		for i := len(prior) - 1; i >= 0; i-- {
			p := prior[i]
			if p.had {
				g.local[p.name] = p.v
			} else {
				delete(g.local, p.name)
			}
		}
		s.applySettings()
	}
}

// routineConfig applies the SET and RESET clauses of CREATE or ALTER
// FUNCTION to config, a routine's settings, as PostgreSQL keeps them in
// pg_proc.proconfig: "name=value" with the setting's own name and the
// value as written (FROM CURRENT: the session's), a setting set again
// keeping its place.
func (s *Session) routineConfig(config []string, clauses []sql.FuncSetting) ([]string, error) {
	out := slices.Clone(config)
	for _, c := range clauses {
		if c.All {
			out = nil
			continue
		}
		name := c.Name
		d := gucDefs[name]
		switch {
		case d == nil && !isCustomSetting(name):
			return nil, errUnknownSetting(name)
		case d != nil && (d.session || d.transaction != "" || d.fixed || strings.HasPrefix(name, "transaction_")):
			return nil, pgerr.New(pgerr.FeatureNotSupported, "SET %s on a routine is not supported", d.name)
		case d != nil && !c.Reset && !c.FromCurrent:
			if _, err := d.canonical(c.Value); err != nil {
				return nil, err
			}
		}
		if d != nil {
			name = d.name
		}
		v := c.Value
		if c.FromCurrent && s != nil {
			v, _ = s.setting(strings.ToLower(name))
		}
		i := slices.IndexFunc(out, func(kv string) bool { k, _, _ := strings.Cut(kv, "="); return strings.EqualFold(k, name) })
		switch {
		case c.Reset && i >= 0:
			out = slices.Delete(out, i, i+1)
		case c.Reset:
		case i >= 0:
			out[i] = name + "=" + v
		default:
			out = append(out, name+"="+v)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// routineSQLName writes the routine of signature sig (name(types), the
// name maybe schema-qualified) as an ALTER FUNCTION statement names it.
func routineSQLName(sig string) string {
	name, args, _ := strings.Cut(sig, "(")
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = sql.QuoteIdent(p)
	}
	return strings.Join(parts, ".") + "(" + args
}

// securityText is the statements that give f, as CREATE made it from the
// statement kept in the store, its owner and its settings read FROM
// CURRENT, which a store could not read again at open: "" when there
// are none.
func securityText(f *sql.Function, kind string, fromCurrent bool) string {
	var b strings.Builder
	name := routineSQLName(f.Signature())
	if f.Owner != "" {
		fmt.Fprintf(&b, "ALTER %s %s OWNER TO %s", kind, name, sql.QuoteIdent(f.Owner))
	}
	if fromCurrent {
		for _, kv := range f.Config {
			k, v, _ := strings.Cut(kv, "=")
			if b.Len() > 0 {
				b.WriteString(";\n")
			}
			if !strings.EqualFold(k, "search_path") {
				v = quoteSettingValue(v) // search_path's value is a list of names, written as SET reads it
			}
			fmt.Fprintf(&b, "ALTER %s %s SET %s = %s", kind, name, sql.QuoteIdent(strings.ToLower(k)), v)
		}
	}
	return b.String()
}

// routineOwnerName is the owner of f as catalogs name it.
func routineOwnerName(f *sql.Function) string {
	if f.Owner == "" {
		return SuperuserName
	}
	return f.Owner
}

// routinesOwnedBy lists, as DROP ROLE's DETAIL does, the routines owned
// by role.
func (e *Engine) routinesOwnedBy(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[name] {
			if f.Owner == role {
				kind := "function"
				if f.Procedure {
					kind = "procedure"
				}
				out = append(out, "owner of "+kind+" "+f.Signature())
			}
		}
	}
	return out
}

// routineSecurity gives f, which CREATE [OR REPLACE] makes, its settings
// and its owner: the role that creates it, or the owner of the routine
// it replaces, as in PostgreSQL. It returns the statements a store keeps
// after the CREATE statement to make it so again (securityText).
func (e *Engine) routineSecurity(cf *sql.CreateFunction, old *sql.Function, rec *recorder) (string, error) {
	f, s := cf.Func, rec.session
	fromCurrent := false
	if len(cf.Settings) > 0 {
		cfg, err := s.routineConfig(nil, cf.Settings)
		if err != nil {
			return "", err
		}
		f.Config = cfg
		fromCurrent = slices.ContainsFunc(cf.Settings, func(c sql.FuncSetting) bool { return c.FromCurrent })
	}
	switch {
	case old != nil:
		f.Owner = old.Owner
	case s != nil && s.role != "":
		f.Owner = s.role
	}
	return securityText(f, routineWord(f), fromCurrent), nil
}

// checkUnderSettings checks the body of f, a SQL function, with
// checkBody as PostgreSQL's validator does: under the settings of its SET
// clauses.
// A body under a search_path of its own is checked when its statements
// first run, through that path, as the statements of a function that
// runs as code are: the check at CREATE resolves the names of public.
func checkUnderSettings(rec *recorder, f *sql.Function, checkBody func(sql.Catalog, *sql.Function) error) error {
	s := rec.session
	if s == nil || len(f.Config) == 0 {
		return checkBody(rec, f)
	}
	for _, kv := range f.Config {
		if strings.HasPrefix(strings.ToLower(kv), "search_path=") {
			return nil
		}
	}
	defer s.enterRoutine(&sql.Function{Config: f.Config})()
	return checkBody(rec, f)
}

// alterSecurity applies ALTER FUNCTION's SECURITY, SET, RESET and OWNER
// TO to g, a copy of f; owner is the new owner's name.
func (e *Engine) alterSecurity(s *Session, f, g *sql.Function, a *sql.AlterFunction, owner string) error {
	if a.SecDef != nil {
		g.SecDef = *a.SecDef
	}
	if len(a.Settings) > 0 {
		cfg, err := s.routineConfig(g.Config, a.Settings)
		if err != nil {
			return err
		}
		g.Config = cfg
	}
	if a.NewOwner {
		g.Owner = owner
		if owner == SuperuserName && e.roles[owner] == nil {
			g.Owner = ""
		}
		if g.HasACL {
			g.ACL, g.ACLOptions = execNewOwner(g.ACL, g.ACLOptions, routineOwnerName(f), routineOwnerName(g))
		}
	}
	had, has := f.SecDef || len(f.Config) > 0, g.SecDef || len(g.Config) > 0
	if had != has {
		if v := e.matViewCalling(f.Signature()); v != "" {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot change the security of function %s: materialized view %s calls it", f.Signature(), v).
				WithHint("a materialized view calls no SECURITY DEFINER routine nor one with SET clauses: drop the view, alter the function, and create the view again")
		}
	}
	if !g.SecurityChanged() {
		return errSecurityRecord(g)
	}
	return nil
}

// errSecurityRecord refuses SECURITY DEFINER or SET clauses on a SQL
// function that cannot run as code.
func errSecurityRecord(f *sql.Function) error {
	return pgerr.New(pgerr.FeatureNotSupported, "SECURITY DEFINER and SET clauses are not supported on %s, a SQL function returning record without OUT parameters", f.Signature()).
		WithHint("declare its columns with OUT parameters or RETURNS TABLE")
}

// routineWord is the word that names f's kind in ALTER statements.
func routineWord(f *sql.Function) string {
	if f.Procedure {
		return "PROCEDURE"
	}
	return "FUNCTION"
}
