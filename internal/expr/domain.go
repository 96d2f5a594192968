package expr

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Domain is a domain type (CREATE DOMAIN): a base type whose values must
// satisfy the domain's constraints. Its values are the base type's: a
// domain only checks, on every write into a column of the domain and on
// every cast to it. ALTER DOMAIN replaces the definition whole (Set), so
// the columns and casts that hold the domain see the change, and the
// checks read it without a lock.
type Domain struct {
	def atomic.Pointer[DomainDef]
	// elem is set on a domain's array type (d[], ArrayOf): the domain
	// of its elements, whose definition its own is derived from.
	elem *Domain
	// arr is the domain's array type once asked for; cache an array
	// type's definition (domain_array.go).
	arr   atomic.Pointer[Domain]
	cache atomic.Pointer[arrayDefCache]
}

// DomainDef is a domain's definition. It is immutable once set.
type DomainDef struct {
	Name string
	// Base is the base type, through every domain this one is over.
	Base value.Type
	// Parent is the domain this one is over, nil over a base type.
	Parent *Domain
	// Collation is the COLLATE clause's name, "" for none.
	Collation string
	// UserColl is the collation CREATE COLLATION made that Collation
	// names, nil for a built-in one.
	UserColl *DomainCollation
	NotNull  bool
	// Default is the domain's default (nil: none), DefaultSQL its text.
	Default    Expr
	DefaultSQL string
	// DefaultText is pg_type.typdefault when it differs from DefaultSQL:
	// the default's text as it was set, which PostgreSQL keeps when a
	// function it calls is renamed or moved.
	DefaultText string
	// Checks are the CHECK constraints, sorted by name: PostgreSQL checks
	// them in that order.
	Checks []DomainConstraint
}

// DomainCollation is a domain's collation that CREATE COLLATION made: its
// oid (pg_type.typcollation), the ID its strings carry (value.Collation,
// 0 for a byte-wise one), its schema and its name as a statement writes
// it, qualified outside public.
type DomainCollation struct {
	OID    uint32
	ID     uint8
	Schema string
	SQL    string
}

// DomainConstraint is a CHECK constraint of a domain. Expr reads VALUE as
// the column of a one-column row.
type DomainConstraint struct {
	Name     string
	Expr     Expr
	SQL      string // the expression's text
	NotValid bool   // added NOT VALID: existing values were not checked
}

// TypDefault is pg_type.typdefault: the default's text as it was set.
func (def *DomainDef) TypDefault() string {
	if def.DefaultText != "" {
		return def.DefaultText
	}
	return def.DefaultSQL
}

// NewDomain returns a domain with the definition def.
func NewDomain(def DomainDef) *Domain {
	d := &Domain{}
	d.Set(def)
	return d
}

// Def returns the domain's definition. An array type's is derived from
// its element domain's current one (arrayDef).
func (d *Domain) Def() *DomainDef {
	if d.elem != nil {
		return d.arrayDef()
	}
	return d.def.Load()
}

// Set replaces the domain's definition.
func (d *Domain) Set(def DomainDef) { d.def.Store(&def) }

// Name returns the domain's name.
func (d *Domain) Name() string { return d.Def().Name }

// TypeName is the domain's name as format_type prints it: quoted where
// needed, qualified when of a schema other than public; an array type's
// is its element domain's with [] (d[]).
func (d *Domain) TypeName() string {
	if d.elem != nil {
		return d.elem.TypeName() + "[]"
	}
	return keyIdent(d.Name())
}

// Over reports whether d is other or a domain over it, at any depth,
// through the element domain of an array type: a column of d[] holds
// values of d.
func (d *Domain) Over(other *Domain) bool {
	for d != nil {
		if d == other {
			return true
		}
		if d.elem != nil {
			d = d.elem
			continue
		}
		d = d.Def().Parent
	}
	return false
}

// DefaultExpr returns the domain's default, or its nearest parent's
// (nil: none), with its text.
func (d *Domain) DefaultExpr() (Expr, string) {
	for ; d != nil; d = d.Def().Parent {
		if def := d.Def(); def.Default != nil {
			return def.Default, def.DefaultSQL
		}
	}
	return nil, ""
}

// Check returns the error PostgreSQL raises when v is not a value of the
// domain: NOT NULL first (of the domain or any parent), then the CHECK
// constraints, the parents' before the domain's own. Both errors name d,
// the domain the value is coerced to.
func (d *Domain) Check(v value.Value) error {
	var chain []*DomainDef
	notNull := false
	for p := d; p != nil; p = p.Def().Parent {
		def := p.Def()
		chain = append(chain, def)
		notNull = notNull || def.NotNull
	}
	if notNull && v.IsNull() {
		return pgerr.New(pgerr.NotNullViolation, "domain %s does not allow null values", quoteIdent(d.Name()))
	}
	// An array type is at the bottom of a chain: its elements first.
	if last := chainEnd(d); last.elem != nil && !v.IsNull() {
		for _, e := range v.Elems() {
			if err := last.elem.Check(e); err != nil {
				return err
			}
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for _, c := range chain[i].Checks {
			if ok, err := c.Holds(v); err != nil {
				return err
			} else if !ok {
				return d.Violation(c.Name)
			}
		}
	}
	return nil
}

// chainEnd is the domain at the bottom of d's chain of parents.
func chainEnd(d *Domain) *Domain {
	for p := d.Def().Parent; p != nil; p = p.Def().Parent {
		d = p
	}
	return d
}

// Violation is the error of a value that fails the constraint named name.
func (d *Domain) Violation(name string) *pgerr.Error {
	return pgerr.New(pgerr.CheckViolation, "value for domain %s violates check constraint %q", keyIdent(d.Name()), name)
}

// keyIdent quotes the name of a type keyed "schema.name" (one of a
// schema other than public) as PostgreSQL prints it qualified.
func keyIdent(key string) string {
	if s, n, ok := strings.Cut(key, "."); ok {
		if strings.HasPrefix(s, "pg_temp_") {
			return quoteIdent(n) // the session's temporary schema is searched first
		}
		return quoteIdent(s) + "." + quoteIdent(n)
	}
	return quoteIdent(key)
}

// Holds reports whether v satisfies c: its expression is true or NULL.
func (c *DomainConstraint) Holds(v value.Value) (bool, error) {
	r, err := c.Expr.Eval(value.Row{v})
	if err != nil {
		return false, err
	}
	return r.IsNull() || r.Bool(), nil
}

// DomainCheck is a value coerced to a domain: E, of the domain's base
// type, checked against the domain's constraints.
type DomainCheck struct {
	E      Expr
	Domain *Domain
}

func (c *DomainCheck) Type() value.Type { return c.E.Type() }
func (c *DomainCheck) Volatile() bool   { return c.E.Volatile() }
func (*DomainCheck) expr()              {}
func (c *DomainCheck) String() string {
	if c.Domain.Elem() != nil {
		return fmt.Sprintf("%s::%s", operand(c.E), c.Domain.TypeName())
	}
	return fmt.Sprintf("%s::%s", operand(c.E), quoteIdent(c.Domain.Name()))
}

func (c *DomainCheck) Eval(row value.Row) (value.Value, error) {
	v, err := c.E.Eval(row)
	if err != nil {
		return value.Null, err
	}
	return v, c.Domain.Check(v)
}
