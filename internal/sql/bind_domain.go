package sql

import (
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// DomainCatalog is a Catalog that holds domains (CREATE DOMAIN).
type DomainCatalog interface {
	Domain(name string) (*expr.Domain, bool)
}

// CreateDomain is CREATE DOMAIN.
type CreateDomain struct {
	Def expr.DomainDef
}

// AlterDomain is ALTER DOMAIN: Def is the domain's definition once
// changed. Before the change, the values stored in columns of the
// domain are checked against Validate (ADD CONSTRAINT without NOT VALID,
// VALIDATE CONSTRAINT) or, with CheckNotNull (SET NOT NULL), for NULLs.
type AlterDomain struct {
	Name         string
	Def          expr.DomainDef
	Validate     *expr.DomainConstraint
	CheckNotNull bool
	Notice       string // a skipped DROP CONSTRAINT IF EXISTS
	// Move is set by SET SCHEMA, Def.Name then the key in the new schema.
	Move bool
	// AsType is set when the statement is spelled ALTER TYPE, as
	// PostgreSQL allows for a domain: its command tag says so.
	AsType bool
}

// DropDomain is DROP DOMAIN.
type DropDomain struct {
	Names    []string
	IfExists bool
	Cascade  bool
}

func (*CreateDomain) bound() {}
func (*AlterDomain) bound()  {}
func (*DropDomain) bound()   {}

// domain returns the domain named name, if the catalog has one.
func (b *binder) domain(name string) (*expr.Domain, bool) {
	if dc, ok := b.cat.(DomainCatalog); ok {
		return dc.Domain(name)
	}
	return nil, false
}

// typeDomain returns the domain a type name names, nil for another type:
// d, or its array type written d[] or _d (expr.Domain.ArrayOf). An array
// of a domain over an array type, or over a type with a modifier, is
// refused.
func (b *binder) typeDomain(tn *pg_query.TypeName) (*expr.Domain, error) {
	name, ok := domainName(tn.Names)
	if !ok || len(tn.Typmods) > 0 {
		return nil, nil
	}
	// A built-in type comes first, unless the name is qualified: a domain
	// renamed to a built-in type's name (public.int4) is named so.
	if _, err := value.TypeFromName(name, nil); err == nil && len(tn.Names) == 1 {
		return nil, nil
	}
	d, ok := b.domain(name)
	if !ok {
		if d, ok = b.arrayNamedDomain(name); !ok {
			return nil, nil
		}
	}
	if len(tn.ArrayBounds) == 0 || d.Elem() != nil {
		return d, nil // _d[] is _d, as int4[][] is int4[]
	}
	return b.domainArray(d, tn.Location)
}

// arrayNamedDomain is the array type named as pg_type names it, _d for
// the domain d, when no domain has that name itself.
func (b *binder) arrayNamedDomain(name string) (*expr.Domain, bool) {
	sc, bare, qualified := strings.Cut(name, ".")
	if !qualified {
		sc, bare = "", name
	}
	if !strings.HasPrefix(bare, "_") {
		return nil, false
	}
	elem := bare[1:]
	if qualified {
		elem = sc + "." + elem
	}
	d, ok := b.domain(elem)
	if !ok {
		return nil, false
	}
	a := d.ArrayOf()
	return a, a != nil
}

// domainArray is the array type of d, refused where its elements would
// not be checked as PostgreSQL checks them: a domain over an array (its
// arrays would be arrays of arrays) or over a type with a modifier (an
// element is coerced to the modifier too).
func (b *binder) domainArray(d *expr.Domain, loc int32) (*expr.Domain, error) {
	base := d.Def().Base
	if a := d.ArrayOf(); a != nil && base.Typmod() < 0 {
		return a, nil
	}
	return nil, b.refuse(loc, "arrays of domain %s over type %s are not supported", d.TypeName(), base).
		WithHint("declare a domain over the array type: CREATE DOMAIN … AS %s[]", base)
}

// domainName returns the name a type name gives, unqualified or in the
// schema public; ok is false for a name that cannot be a domain's.
func domainName(names []*pg_query.Node) (string, bool) {
	var parts []string
	for _, n := range names {
		parts = append(parts, n.GetString_().GetSval())
	}
	if len(parts) == 2 && parts[0] == "public" {
		parts = parts[1:]
	}
	if len(parts) != 1 {
		return "", false
	}
	return parts[0], true
}

// domainTaken is the error of a relation named as a domain is: its row
// type would take the domain's name.
func (b *binder) domainTaken(name string) error {
	if _, ok := b.domain(name); ok {
		return pgerr.New(pgerr.DuplicateObject, "type %q already exists", name)
	}
	return nil
}

// typeExists reports whether name is taken in PostgreSQL's namespace of
// types: by a domain, a user-defined type or a relation's row type.
func (b *binder) typeExists(name string) bool {
	if _, ok := b.domain(name); ok {
		return true
	}
	if tc, ok := b.cat.(TypeCatalog); ok {
		if _, user := tc.UserType(name); user {
			return true
		}
	}
	_, ok := b.cat.Relation(name)
	return ok
}

// domainDDLError is an error of CREATE or ALTER DOMAIN as PostgreSQL
// reports it: without a position (it binds the constraints apart from the
// statement's text), an aggregate refused "in check constraints". The
// refusals of what deltaview does not support keep theirs.
func domainDDLError(err error) error {
	if err == nil {
		return nil
	}
	e := *pgerr.Wrap(err)
	if e.Code != pgerr.FeatureNotSupported {
		e.Position = 0
	}
	if e.Code == pgerr.GroupingError && strings.HasPrefix(e.Message, "aggregate functions are not allowed") {
		e.Message = "aggregate functions are not allowed in check constraints"
	}
	return &e
}

func (b *binder) bindCreateDomain(cd *pg_query.CreateDomainStmt) (Bound, error) {
	out, err := b.createDomain(cd)
	return out, domainDDLError(err)
}

func (b *binder) createDomain(cd *pg_query.CreateDomainStmt) (Bound, error) {
	name, ok := domainName(cd.Domainname)
	if !ok {
		return nil, b.refuse(-1, "a domain in a schema other than public is not supported")
	}
	if b.typeExists(name) {
		return nil, pgerr.New(pgerr.DuplicateObject, "type %q already exists", name)
	}
	base, err := b.typeFromName(cd.TypeName)
	if err != nil {
		return nil, err
	}
	parent, err := b.typeDomain(cd.TypeName)
	if err != nil {
		return nil, err
	}
	def := expr.DomainDef{Name: name, Base: base, Parent: parent}
	if cd.CollClause != nil {
		if def.Collation, def.UserColl, err = b.domainCollation(cd.CollClause, base); err != nil {
			return nil, err
		}
	}
	null := false
	for _, n := range cd.Constraints {
		c := n.GetConstraint()
		switch c.Contype {
		case pg_query.ConstrType_CONSTR_NOTNULL, pg_query.ConstrType_CONSTR_NULL:
			isNull := c.Contype == pg_query.ConstrType_CONSTR_NULL
			if def.NotNull && isNull || null && !isNull {
				return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "conflicting NULL/NOT NULL constraints")
			}
			def.NotNull, null = def.NotNull || !isNull, null || isNull
		case pg_query.ConstrType_CONSTR_DEFAULT:
			if def.Default != nil {
				return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "multiple default expressions")
			}
			if def.Default, def.DefaultSQL, err = b.domainDefault(c, base); err != nil {
				return nil, err
			}
		case pg_query.ConstrType_CONSTR_CHECK:
			if c.SkipValidation {
				return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "check constraints for domains cannot be marked NOT VALID")
			}
			dc, err := b.domainCheck(&def, c)
			if err != nil {
				return nil, err
			}
			def.Checks = addCheck(def.Checks, dc)
		case pg_query.ConstrType_CONSTR_UNIQUE:
			return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "unique constraints not possible for domains")
		case pg_query.ConstrType_CONSTR_PRIMARY:
			return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "primary key constraints not possible for domains")
		case pg_query.ConstrType_CONSTR_EXCLUSION:
			return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "exclusion constraints not possible for domains")
		case pg_query.ConstrType_CONSTR_FOREIGN:
			return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "foreign key constraints not possible for domains")
		default:
			return nil, b.stmt.errf(c.Location, pgerr.FeatureNotSupported, "specifying constraint deferrability not supported for domains")
		}
	}
	return &CreateDomain{Def: def}, nil
}

// domainCollation checks a domain's COLLATE clause: its base type must
// be collatable, and the collation one deltaview knows: a byte-wise one,
// or an ICU collation (built in or made by CREATE COLLATION) that the
// references of the domain's columns apply.
func (b *binder) domainCollation(cc *pg_query.CollateClause, base value.Type) (string, *expr.DomainCollation, error) {
	var parts []string
	for _, n := range cc.Collname {
		parts = append(parts, n.GetString_().GetSval())
	}
	name := parts[len(parts)-1]
	k := base.Kind
	if k.IsArray() {
		k = k.Elem()
	}
	if !k.IsString() {
		return "", nil, b.stmt.errf(cc.Location, pgerr.DatatypeMismatch, "collations are not supported by type %s", base)
	}
	switch name {
	case "default", "C", "POSIX", "ucs_basic":
		return name, nil, nil
	}
	icuOn := func(c string) error {
		if k != value.Text && k != value.Varchar && k != value.Char {
			return b.refuse(cc.Location, "collation %s on type %s is not supported", c, base)
		}
		return nil
	}
	if c := value.LookupCollation(name); c != nil && len(parts) == 1 {
		return name, nil, icuOn(QuoteIdent(c.Name)) // its columns' references apply it (ColumnDef.ICUCollation)
	}
	if value.PostgreSQLICUCollation(name) {
		return "", nil, b.checkCollation(parts, cc.Location)
	}
	if uc := b.userCollationOf(parts); uc != nil {
		if uc.ID != 0 {
			if err := icuOn(uc.QualifiedName()); err != nil {
				return "", nil, err
			}
		}
		return uc.Name, &expr.DomainCollation{OID: uc.OID, ID: uc.ID, Schema: uc.Schema, SQL: uc.QualifiedName()}, nil
	}
	return "", nil, b.stmt.errf(cc.Location, pgerr.UndefinedObject, "collation %q for encoding \"UTF8\" does not exist", name)
}

// domainDefault binds a domain's DEFAULT, coerced to its base type.
func (b *binder) domainDefault(c *pg_query.Constraint, base value.Type) (expr.Expr, string, error) {
	b.inDefault, b.tableDef = true, true
	e, err := b.bindExpr(&scope{}, c.RawExpr)
	b.inDefault, b.tableDef = false, false
	if err != nil {
		return nil, "", err
	}
	if e, err = b.coerce(e, base, nodeLoc(c.RawExpr, c.Location)); err != nil {
		return nil, "", err
	}
	text, err := deparseExpr(c.RawExpr)
	if err != nil {
		return nil, "", pgerr.New(pgerr.Internal, "cannot write the default: %v", err)
	}
	return e, text, nil
}

// domainCheck binds a domain's CHECK constraint over VALUE, the value
// checked, and names it as PostgreSQL does: domain_check, then
// domain_check1, … past the names taken.
func (b *binder) domainCheck(def *expr.DomainDef, c *pg_query.Constraint) (expr.DomainConstraint, error) {
	sc := &scope{cols: []scopeCol{{name: "value", typ: def.Base}}}
	b.tableDef = true // its calls of user functions as a table's (bind_tabledef_call.go)
	e, err := b.bindExpr(sc, c.RawExpr)
	b.tableDef = false
	if err != nil {
		return expr.DomainConstraint{}, err
	}
	if e, err = b.toBool(e, "CHECK", c.Location); err != nil {
		return expr.DomainConstraint{}, err
	}
	if stripTableCalls(e, anyTableCall).Volatile() {
		return expr.DomainConstraint{}, b.refuse(c.Location, "CHECK constraints must not use volatile functions")
	}
	name := c.Conname
	taken := func(n string) bool {
		return slices.ContainsFunc(def.Checks, func(dc expr.DomainConstraint) bool { return dc.Name == n })
	}
	switch {
	case name == "":
		name = b.bareName(def.Name) + "_check"
		for i := 1; taken(name); i++ {
			name = b.bareName(def.Name) + "_check" + strconv.Itoa(i)
		}
	case taken(name):
		return expr.DomainConstraint{}, pgerr.New(pgerr.DuplicateObject, "constraint %q for domain %q already exists", name, def.Name)
	}
	text, err := domainCheckSQL(c.RawExpr)
	if err != nil {
		return expr.DomainConstraint{}, pgerr.New(pgerr.Internal, "cannot write check constraint %q: %v", name, err)
	}
	return expr.DomainConstraint{Name: name, Expr: e, SQL: text, NotValid: c.SkipValidation}, nil
}

// addCheck returns checks with c added, kept sorted by name.
func addCheck(checks []expr.DomainConstraint, c expr.DomainConstraint) []expr.DomainConstraint {
	out := slices.Clone(checks)
	i, _ := slices.BinarySearchFunc(out, c.Name, func(x expr.DomainConstraint, n string) int { return strings.Compare(x.Name, n) })
	return slices.Insert(out, i, c)
}

// alteredDomain returns the domain a statement alters and a copy of its
// definition to change.
func (b *binder) alteredDomain(names []*pg_query.Node) (*expr.Domain, expr.DomainDef, error) {
	name, _ := domainName(names)
	d, ok := b.domain(name)
	if !ok {
		if _, isRel := b.cat.Relation(name); isRel {
			return nil, expr.DomainDef{}, pgerr.New(pgerr.WrongObjectType, "%q is not a domain", name)
		}
		return nil, expr.DomainDef{}, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
	}
	def := *d.Def()
	def.Checks = slices.Clone(def.Checks)
	return d, def, nil
}

func (b *binder) bindAlterDomain(ad *pg_query.AlterDomainStmt) (Bound, error) {
	out, err := b.alterDomain(ad)
	return out, domainDDLError(err)
}

func (b *binder) alterDomain(ad *pg_query.AlterDomainStmt) (Bound, error) {
	_, def, err := b.alteredDomain(ad.TypeName)
	if err != nil {
		return nil, err
	}
	out := &AlterDomain{Name: def.Name}
	find := func(name string) int {
		return slices.IndexFunc(def.Checks, func(c expr.DomainConstraint) bool { return c.Name == name })
	}
	switch ad.Subtype {
	case "T": // SET DEFAULT, DROP DEFAULT
		def.Default, def.DefaultSQL, def.DefaultText = nil, "", ""
		if ad.Def != nil {
			c := &pg_query.Constraint{RawExpr: ad.Def, Location: -1}
			if def.Default, def.DefaultSQL, err = b.domainDefault(c, def.Base); err != nil {
				return nil, err
			}
		}
	case "N": // DROP NOT NULL
		def.NotNull = false
	case "O": // SET NOT NULL
		out.CheckNotNull = !def.NotNull
		def.NotNull = true
	case "C": // ADD CONSTRAINT
		c := ad.Def.GetConstraint()
		switch c.Contype {
		case pg_query.ConstrType_CONSTR_CHECK:
		case pg_query.ConstrType_CONSTR_NOTNULL:
			// PostgreSQL 15 refuses ADD CONSTRAINT … NOT NULL with the
			// same error as an unknown kind; SET NOT NULL is the way.
			fallthrough
		default:
			return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "%s constraints not possible for domains", constraintKind(c.Contype))
		}
		dc, err := b.domainCheck(&def, c)
		if err != nil {
			return nil, err
		}
		def.Checks = addCheck(def.Checks, dc)
		if !dc.NotValid {
			out.Validate = &dc
		}
	case "X": // DROP CONSTRAINT
		i := find(ad.Name)
		if i < 0 {
			if !ad.MissingOk {
				return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q of domain %q does not exist", ad.Name, def.Name)
			}
			out.Notice = "constraint \"" + ad.Name + "\" of domain \"" + def.Name + "\" does not exist, skipping"
		} else {
			def.Checks = slices.Delete(def.Checks, i, i+1)
		}
	case "V": // VALIDATE CONSTRAINT
		i := find(ad.Name)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q of domain %q does not exist", ad.Name, def.Name)
		}
		if def.Checks[i].NotValid {
			def.Checks[i].NotValid = false
			out.Validate = &def.Checks[i]
		}
	default:
		return nil, b.refuse(-1, "this form of ALTER DOMAIN is not supported")
	}
	out.Def = def
	return out, nil
}

// constraintKind names a kind of constraint as PostgreSQL's errors do.
func constraintKind(k pg_query.ConstrType) string {
	switch k {
	case pg_query.ConstrType_CONSTR_UNIQUE:
		return "unique"
	case pg_query.ConstrType_CONSTR_PRIMARY:
		return "primary key"
	case pg_query.ConstrType_CONSTR_EXCLUSION:
		return "exclusion"
	case pg_query.ConstrType_CONSTR_FOREIGN:
		return "foreign key"
	}
	return strings.ToLower(strings.TrimPrefix(k.String(), "CONSTR_"))
}

// bindRenameDomain binds ALTER DOMAIN … RENAME TO and RENAME CONSTRAINT.
func (b *binder) bindRenameDomain(rs *pg_query.RenameStmt) (Bound, error) {
	_, def, err := b.alteredDomain(rs.Object.GetList().GetItems())
	if err != nil {
		return nil, err
	}
	out := &AlterDomain{Name: def.Name}
	if rs.RenameType == pg_query.ObjectType_OBJECT_DOMAIN {
		if b.typeExists(rs.Newname) {
			return nil, pgerr.New(pgerr.DuplicateObject, "type %q already exists", rs.Newname)
		}
		def.Name = rs.Newname
		out.Def = def
		return out, nil
	}
	i := slices.IndexFunc(def.Checks, func(c expr.DomainConstraint) bool { return c.Name == rs.Subname })
	if i < 0 {
		return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q for domain %s does not exist", rs.Subname, expr.QuoteIdent(def.Name))
	}
	if slices.ContainsFunc(def.Checks, func(c expr.DomainConstraint) bool { return c.Name == rs.Newname }) {
		return nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for domain %q already exists", rs.Newname, def.Name)
	}
	c := def.Checks[i]
	c.Name = rs.Newname
	def.Checks = addCheck(slices.Delete(def.Checks, i, i+1), c)
	out.Def = def
	return out, nil
}

func (b *binder) bindDropDomain(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropDomain{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, o := range ds.Objects {
		tn := o.GetTypeName()
		name, ok := domainName(tn.GetNames())
		if !ok {
			return nil, b.refuse(-1, "a domain in a schema other than public is not supported")
		}
		d.Names = append(d.Names, name)
	}
	return d, nil
}

// fieldDomain returns the domain of a table's column i, nil for a column
// of a base type or a relation other than a table.
func fieldDomain(rel *Relation, i int) *expr.Domain {
	if rel.Def == nil || i >= len(rel.Def.Cols) {
		return nil
	}
	return rel.Def.Cols[i].Domain
}

// checkFieldDomains checks the fields of rec, a record of rel's row type
// read from its text, against the domains of rel's columns.
func checkFieldDomains(rel *Relation, rec value.Value) error {
	if rec.IsNull() {
		return nil
	}
	for i, f := range rec.Fields() {
		if d := fieldDomain(rel, i); d != nil {
			if err := d.Check(f); err != nil {
				return err
			}
		}
	}
	return nil
}
