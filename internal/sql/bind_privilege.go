package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The privilege functions (has_table_privilege and its kin, pg_has_role)
// answer from the statement's catalog: a superuser holds every privilege
// on every object; another role holds on a table or view what GRANT gave
// it or PUBLIC, the privileges PostgreSQL gives PUBLIC by default
// elsewhere (USAGE on the system schemas and public, USAGE on types
// and EXECUTE on functions until a GRANT or REVOKE names one; an array
// type answers as its element type), on the
// database what its ACL gives (CONNECT and TEMPORARY to PUBLIC until a
// GRANT or REVOKE names it), and membership in itself alone. Names of
// objects are looked up as the reg* types read them, with their
// errors; an oid that names nothing gives NULL, as in PostgreSQL. The
// privilege is a comma-separated list, true when any is held.

// privObject is the kind of object a privilege function asks about.
type privObject int

const (
	privTable privObject = iota
	privColumn
	privAnyColumn
	privSequence
	privSchema
	privDatabase
	privFunction
	privType
	privRole
	privLanguage
	privTablespace
	privFDW
	privServer
	privParameter
)

// privFuncs are the privilege functions and the object each asks about.
var privFuncs = map[string]privObject{
	"has_table_privilege": privTable, "has_column_privilege": privColumn, "has_any_column_privilege": privAnyColumn,
	"has_sequence_privilege": privSequence,
	"has_schema_privilege":   privSchema, "has_database_privilege": privDatabase, "has_function_privilege": privFunction,
	"has_type_privilege": privType, "pg_has_role": privRole,
	"has_language_privilege": privLanguage, "has_tablespace_privilege": privTablespace,
	"has_foreign_data_wrapper_privilege": privFDW, "has_server_privilege": privServer,
	"has_parameter_privilege": privParameter,
}

// privNames are the privileges each kind of object has, by name, with
// what a role that is not a superuser holds of it: a Privilege bit,
// when GRANT gave it (to the role or PUBLIC); privPublic, always; 0,
// never (a role's membership in itself is decided apart).
var privNames = map[privObject]map[string]int{
	privTable: {"SELECT": int(PrivSelect), "INSERT": int(PrivInsert), "UPDATE": int(PrivUpdate), "DELETE": int(PrivDelete),
		"TRUNCATE": int(PrivTruncate), "REFERENCES": int(PrivReferences), "TRIGGER": int(PrivTrigger), "RULE": privNone},
	privColumn:     {"SELECT": int(PrivSelect), "INSERT": int(PrivInsert), "UPDATE": int(PrivUpdate), "REFERENCES": int(PrivReferences)},
	privAnyColumn:  {"SELECT": int(PrivSelect), "INSERT": int(PrivInsert), "UPDATE": int(PrivUpdate), "REFERENCES": int(PrivReferences)},
	privSequence:   {"USAGE": int(PrivUsage), "SELECT": int(PrivSelect), "UPDATE": int(PrivUpdate)},
	privSchema:     {"CREATE": int(PrivCreate), "USAGE": int(PrivUsage)},
	privDatabase:   {"CREATE": int(PrivCreate), "CONNECT": int(PrivConnect), "TEMPORARY": int(PrivTemp), "TEMP": int(PrivTemp)},
	privFunction:   {"EXECUTE": int(PrivExecute)},
	privType:       {"USAGE": int(PrivUsage)},
	privRole:       {"MEMBER": 0, "USAGE": 0},
	privLanguage:   {"USAGE": privPublic},
	privTablespace: {"CREATE": 0},
	privFDW:        {"USAGE": 0},
	privServer:     {"USAGE": 0},
	privParameter:  {"SET": 0, "ALTER SYSTEM": 0},
}

// privPublic is a privilege PostgreSQL gives PUBLIC by default; privNone
// is RULE, which PostgreSQL still reads and no role holds.
const (
	privPublic = -1
	privNone   = -2
)

// privSuffixes are what may follow a privilege's name.
var privSuffixes = map[privObject][]string{privRole: {" WITH ADMIN OPTION", " WITH GRANT OPTION"}}

// parsePrivileges reads a privilege list: each name's value in
// privNames, and whether it asks for the grant option. An unknown name is
// 22023, as in PostgreSQL.
func parsePrivileges(obj privObject, s string) ([]askedPrivilege, error) {
	var out []askedPrivilege
	for _, p := range strings.Split(s, ",") {
		name := strings.ToUpper(strings.Trim(p, " \t\n\r\f\v"))
		suffixes := privSuffixes[obj]
		if suffixes == nil {
			suffixes = []string{" WITH GRANT OPTION"}
		}
		option := false
		for _, suf := range suffixes {
			if base, ok := strings.CutSuffix(name, suf); ok {
				name, option = base, true
				break
			}
		}
		v, ok := privNames[obj][name]
		if !ok || name == "" {
			return nil, pgerr.New(pgerr.InvalidParameter, "unrecognized privilege type: %q", strings.Trim(p, " \t\n\r\f\v"))
		}
		if v != privNone {
			out = append(out, askedPrivilege{v, option})
		}
	}
	return out, nil
}

// askedPrivilege is one privilege of a privilege function's list: its
// value in privNames, and whether the grant option is asked for.
type askedPrivilege struct {
	v      int
	option bool
}

// bindPrivilegeCall binds a call of one of privFuncs; ok is false for
// other functions.
func (b *binder) bindPrivilegeCall(s *scope, name string, f *pg_query.FuncCall, sc *expr.SysCatalog) (expr.Expr, bool, error) {
	obj, ok := privFuncs[name]
	if !ok {
		return nil, false, nil
	}
	n := 2 // the object and the privilege
	if obj == privColumn {
		n = 3
	}
	if len(f.Args) != n && len(f.Args) != n+1 {
		return nil, true, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(f.Args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if err := b.refuseCatalogRead(f, name); err != nil {
		return nil, true, err
	}
	withUser := len(f.Args) == n+1
	if !withUser && b.stmtClock == nil {
		return nil, true, b.refuse(f.Location, "%s() without a role is supported in queries and data changes only", name)
	}
	args := make([]expr.Expr, len(f.Args))
	params := make([]value.Kind, len(f.Args))
	for i, a := range f.Args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, true, err
		}
		// The user and the object are named or given by oid, a column
		// named or numbered; the privilege is text.
		k := e.Type().Kind
		switch {
		case i == len(f.Args)-1 || !k.IsOid() && !k.IsInteger():
			k = value.Text
		case obj == privColumn && i == len(f.Args)-2:
			k = value.Int8
		default:
			k = value.Oid
		}
		if args[i], err = b.coerce(e, value.Type{Kind: k, Mod: -1}, nodeLoc(a, f.Location)); err != nil {
			return nil, true, err
		}
		params[i] = k
	}
	clock := b.stmtClock
	t := value.BoolType
	def := &expr.FuncDef{Name: name, Strict: true, Params: params, Result: t,
		Eval: func(a []value.Value) (value.Value, error) {
			if !withUser {
				return privilegeHeld(sc, obj, clock.User, a)
			}
			user, ok := privRoleName(sc, a[0])
			if !ok {
				// An oid that names no role: PostgreSQL checks the
				// privileges of PUBLIC alone.
				user = ""
			}
			return privilegeHeld(sc, obj, user, a[1:])
		}}
	return &expr.Func{Def: def, Args: args, T: t}, true, nil
}

// privRoleName returns the name of the role v names: a name, taken as
// it is (privilegeHeld reports one that names no role), or an oid (as
// oid); ok is false for an oid that names no role.
func privRoleName(sc *expr.SysCatalog, v value.Value) (string, bool) {
	if v.Kind() == value.Text {
		return v.String(), true
	}
	for name, oid := range sc.OIDs[value.RegRole] {
		if oid == v.OID() {
			return name, true
		}
	}
	return "", false
}

// privilegeHeld answers a privilege function for user over its object
// and privilege arguments a (the object, a column for privColumn, the
// privilege list).
func privilegeHeld(sc *expr.SysCatalog, obj privObject, user string, a []value.Value) (value.Value, error) {
	if _, ok := sc.OIDs[value.RegRole][user]; !ok && user != "" {
		return value.Null, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", user)
	}
	var oid uint32
	var found bool
	var err error
	switch obj {
	case privTable, privColumn, privAnyColumn, privSequence:
		oid, found, err = privObjectOID(sc, value.RegClass, a[0])
		if err == nil && found && obj == privSequence && sc.RelKinds[oid] != 'S' {
			err = pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", a[0].String())
		}
	case privSchema:
		oid, found, err = privObjectOID(sc, value.RegNamespace, a[0])
	case privFunction:
		oid, found, err = privObjectOID(sc, value.RegProcedure, a[0])
	case privType:
		oid, found, err = privObjectOID(sc, value.RegType, a[0])
	case privRole:
		var role string
		if role, found = privRoleName(sc, a[0]); found {
			if oid, found = sc.OIDs[value.RegRole][role]; !found {
				err = pgerr.New(pgerr.UndefinedObject, "role %q does not exist", role)
			}
		}
	case privDatabase:
		found = a[0].Kind() != value.Text && a[0].OID() == sc.DatabaseOID || a[0].Kind() == value.Text && a[0].String() == expr.DatabaseName
		if !found && a[0].Kind() == value.Text {
			err = pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", a[0].String())
		}
		oid = sc.DatabaseOID
	case privLanguage, privTablespace, privFDW, privServer, privParameter:
		oid, found, err = privFixedObject(obj, a[0])
	}
	if err != nil {
		return value.Null, err
	}
	if !found {
		// An oid that names nothing: NULL, once the privileges read.
		at := 1
		if obj == privColumn {
			at = 2
		}
		if _, err := parsePrivileges(obj, a[at].String()); err != nil {
			return value.Null, err
		}
		return value.Null, nil
	}
	var colGrants, colOptions []map[string]uint8 // the grants on the columns asked about
	if obj == privColumn {
		cols := sc.RelCols[oid]
		col := a[1].String()
		if a[1].Kind() != value.Text {
			n := a[1].Int()
			if n < 1 || n > int64(len(cols)) || strings.HasPrefix(cols[n-1], "........pg.dropped.") {
				return value.Null, nil // no column, or a dropped one (attnum.go)
			}
			col = cols[n-1]
		} else if !containsString(cols, a[1].String()) {
			return value.Null, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a[1].String(), sc.Names[value.RegClass][oid])
		}
		colGrants = append(colGrants, sc.ColGrants[oid][col])
		colOptions = append(colOptions, sc.ColGrantOptions[oid][col])
		a = a[1:]
	} else if obj == privAnyColumn {
		for _, g := range sc.ColGrants[oid] {
			colGrants = append(colGrants, g)
		}
		for _, g := range sc.ColGrantOptions[oid] {
			colOptions = append(colOptions, g)
		}
	}
	privs, err := parsePrivileges(obj, a[1].String())
	if err != nil {
		return value.Null, err
	}
	if sc.Superusers[user] && len(privs) > 0 {
		return value.NewBool(true), nil
	}
	if _, granted := sc.Grants[oid]; (obj == privFunction || obj == privType) && !granted {
		// PUBLIC's until a GRANT or REVOKE names the routine or type; the
		// grant option the owner's.
		for _, ap := range privs {
			if !ap.option || ownerHeld(sc, user, oid) {
				return value.NewBool(true), nil
			}
		}
		return value.NewBool(false), nil
	}
	for _, ap := range privs {
		p := ap.v
		switch {
		case ap.option && obj != privRole:
			// An object's owner holds every grant option, and the roles that
			// hold its privileges; others those granted WITH GRANT OPTION.
			if ownerHeld(sc, user, oid) || p > 0 && uint8(p)&heldIn(sc, sc.GrantOptions[oid], user) != 0 {
				return value.NewBool(true), nil
			}
			for _, g := range colOptions {
				if p > 0 && uint8(p)&heldIn(sc, g, user) != 0 {
					return value.NewBool(true), nil
				}
			}
		case p == privPublic:
			return value.NewBool(true), nil
		case obj == privRole:
			return value.NewBool(roleHeld(sc, user, oid, a[1].String())), nil
		case p > 0 && uint8(p)&heldGrants(sc, oid, user) != 0:
			return value.NewBool(true), nil
		case p > 0:
			for _, g := range colGrants {
				if uint8(p)&heldIn(sc, g, user) != 0 {
					return value.NewBool(true), nil
				}
			}
		}
	}
	return value.NewBool(false), nil
}

// privObjectOID resolves an object argument: a name as the reg* type k
// reads it (its error when it names nothing), or an oid, not found when
// it names nothing.
func privObjectOID(sc *expr.SysCatalog, k value.Kind, v value.Value) (uint32, bool, error) {
	if v.Kind() != value.Text {
		oid := v.OID()
		_, ok := sc.Name(k, oid)
		return oid, ok, nil
	}
	r, err := sc.RegIn(k, v.String())
	if err != nil {
		return 0, false, err
	}
	return r.OID(), true, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// privFixedObjects are the objects of the kinds deltaview has a fixed set
// of, by name with their oids, and the word PostgreSQL's message for a
// name that names none uses: the languages and tablespaces of a
// PostgreSQL 15 cluster; no foreign-data wrapper or server.
var privFixedObjects = map[privObject]struct {
	oids map[string]uint32
	what string
}{
	privLanguage:   {map[string]uint32{"internal": 12, "c": 13, "sql": 14, "plpgsql": 13563}, "language"},
	privTablespace: {map[string]uint32{"pg_default": 1663, "pg_global": 1664}, "tablespace"},
	privFDW:        {nil, "foreign-data wrapper"},
	privServer:     {nil, "server"},
}

// privFixedObject resolves the object argument of the privilege functions
// of languages, tablespaces, foreign-data wrappers, servers and
// parameters: a parameter, by its name, is always found (PostgreSQL
// answers for any name).
func privFixedObject(obj privObject, v value.Value) (uint32, bool, error) {
	if obj == privParameter {
		return 0, true, nil
	}
	f := privFixedObjects[obj]
	if v.Kind() != value.Text {
		for _, oid := range f.oids {
			if oid == v.OID() {
				return oid, true, nil
			}
		}
		return 0, false, nil
	}
	if oid, ok := f.oids[v.String()]; ok {
		return oid, true, nil
	}
	return 0, false, pgerr.New(pgerr.UndefinedObject, "%s %q does not exist", f.what, v.String())
}

// ownerHeld reports whether user is the owner of the object oid or holds
// its privileges. The objects Owners does not list (the database,
// languages, tablespaces) are the built-in superuser's.
func ownerHeld(sc *expr.SysCatalog, user string, oid uint32) bool {
	owner, ok := sc.Owners[oid]
	if !ok {
		return false
	}
	if sc.OIDs[value.RegRole][user] == owner {
		return true
	}
	for _, r := range sc.HeldRoles[user] {
		if sc.OIDs[value.RegRole][r] == owner {
			return true
		}
	}
	return false
}

// heldGrants are the privileges user holds on the object oid: PUBLIC's,
// its own and those of the roles it is a member of.
func heldGrants(sc *expr.SysCatalog, oid uint32, user string) uint8 {
	return heldIn(sc, sc.Grants[oid], user)
}

// heldIn is what user holds of the grants g, by role name.
func heldIn(sc *expr.SysCatalog, g map[string]uint8, user string) uint8 {
	p := g[""] | g[user]
	for _, r := range sc.HeldRoles[user] {
		p |= g[r]
	}
	return p
}

// roleHeld answers pg_has_role for user over the role oid: user is the
// role or holds its privileges (USAGE), or is a member of it, inheriting
// or not (MEMBER); with ADMIN OPTION in privs, holds its admin option.
func roleHeld(sc *expr.SysCatalog, user string, oid uint32, privs string) bool {
	list := sc.HeldRoles[user]
	if strings.Contains(strings.ToUpper(privs), "MEMBER") {
		list = sc.MemberRoles[user]
	}
	if up := strings.ToUpper(privs); strings.Contains(up, "ADMIN OPTION") || strings.Contains(up, "GRANT OPTION") {
		list = sc.AdminRoles[user]
	} else if sc.OIDs[value.RegRole][user] == oid {
		return true
	}
	for _, r := range list {
		if sc.OIDs[value.RegRole][r] == oid {
			return true
		}
	}
	return false
}
