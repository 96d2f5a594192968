package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Collate is e COLLATE name: e's string under an ICU collation (ID, as
// value.LookupCollation numbers it), or under none (ID 0: "C", "POSIX",
// "default", "ucs_basic", which compare byte by byte here). It keeps no
// state; the collation travels with the value to the comparisons, sorts
// and aggregates that read it (value.Compare). A string with a character
// the ICU collations are not known to order as PostgreSQL does is refused
// (0A000) rather than ordered differently.
type Collate struct {
	E    Expr
	ID   uint8
	Name string // the collation's name, for String
	// Implicit marks the collation a table's column declares, applied to
	// a reference of it (Loc, its position in the statement): it yields
	// to an explicit COLLATE, and two different ones conflict, as
	// PostgreSQL derives collations. String leaves it out, as the
	// column's own.
	Implicit bool
	Loc      int32
	// Derived marks a function's result given its operands' collation
	// (upper(s COLLATE "tr-x-icu")): the operands were checked against
	// the repertoire, and the few characters outside it that a case
	// mapping yields (U+0307 of lower('İ'), U+02BC of upper('ŉ')) are not
	// refused.
	Derived bool
}

var _ Expr = (*Collate)(nil)

func (c *Collate) Type() value.Type { return c.E.Type() }
func (c *Collate) Volatile() bool   { return c.E.Volatile() }
func (*Collate) expr()              {}

// Eval evaluates e and sets the value's collation.
func (c *Collate) Eval(row value.Row) (value.Value, error) {
	v, err := c.E.Eval(row)
	if err != nil || v.IsNull() {
		return v, err
	}
	if c.ID != 0 && !c.Derived {
		if r, ok := value.CollationRepertoire(v.Str()); !ok {
			return value.Null, pgerr.New(pgerr.FeatureNotSupported, "collation %s does not support the character U+%04X", quoteIdent(c.Name), r).
				WithHint("ICU collations order the printable ASCII characters, Latin-1 Supplement and Latin Extended-A (U+0020 to U+007E, U+00A0 to U+017F)")
		}
	}
	return v.Collated(c.ID), nil
}

// String renders e COLLATE name; a byte-wise collation renders as e alone,
// as it changes nothing that the plan shows.
func (c *Collate) String() string {
	if c.ID == 0 || c.Implicit {
		return c.E.String()
	}
	return "(" + c.E.String() + " COLLATE " + quoteIdent(c.Name) + ")"
}
