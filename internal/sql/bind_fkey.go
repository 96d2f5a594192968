package sql

import (
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// FKAction is what a FOREIGN KEY constraint does to the referencing rows
// when their referenced row is deleted or its key updated, by
// PostgreSQL's letters (pg_constraint.confdeltype).
type FKAction byte

// The referential actions.
const (
	FKNoAction   FKAction = 'a'
	FKRestrict   FKAction = 'r'
	FKCascade    FKAction = 'c'
	FKSetNull    FKAction = 'n'
	FKSetDefault FKAction = 'd'
)

// SQL returns the action as written after ON DELETE / ON UPDATE.
func (a FKAction) SQL() string {
	switch a {
	case FKRestrict:
		return "RESTRICT"
	case FKCascade:
		return "CASCADE"
	case FKSetNull:
		return "SET NULL"
	case FKSetDefault:
		return "SET DEFAULT"
	}
	return "NO ACTION"
}

// ForeignKey is a FOREIGN KEY constraint: every row whose referencing
// columns hold no NULL (MATCH SIMPLE) or not only NULLs (MATCH FULL, which
// refuses a mix) has a row of RefTable with equal referenced columns.
type ForeignKey struct {
	Name string
	Cols []int // the referencing columns
	// RefTable is the referenced table; RefCols, its columns paired with
	// Cols, are its primary key or one of its UNIQUE constraints, and
	// RefNames their names.
	RefTable  string
	RefCols   []int
	RefNames  []string
	MatchFull bool
	OnDelete  FKAction
	OnUpdate  FKAction
	// DeleteCols are the columns ON DELETE SET NULL (…) / SET DEFAULT (…)
	// sets, nil for all of Cols.
	DeleteCols []int
	// NotValid is ADD CONSTRAINT … NOT VALID until VALIDATE CONSTRAINT:
	// the rows written are checked, the rows there were are not.
	NotValid bool
	// Deferrable and InitDeferred are DEFERRABLE [INITIALLY DEFERRED]:
	// the check may wait for the commit (fkey_deferred.go).
	Deferrable, InitDeferred bool
}

// fkAction maps the parser's action letter to FKAction.
func fkAction(s string) FKAction {
	switch s {
	case "r", "c", "n", "d":
		return FKAction(s[0])
	}
	return FKNoAction
}

// bindForeignKey binds a FOREIGN KEY or REFERENCES constraint c of the
// table ct is creating (or altering): the referenced table must be a
// table (ct itself for a self-reference) and the referenced columns one
// of its keys, of types comparable with the referencing ones.
func (b *binder) bindForeignKey(ct *CreateTable, c *pg_query.Constraint) (ForeignKey, error) {
	if c.FkMatchtype == "p" {
		return ForeignKey{}, b.refuse(c.Location, "MATCH PARTIAL not yet implemented")
	}
	if ct.ChangeStream {
		return ForeignKey{}, b.refuse(c.Location, "FOREIGN KEY constraints on change-stream tables are not supported").
			WithHint("a change stream may deliver a child's change before its parent's; constraints are not enforced on replicated data")
	}
	colNames := c.FkAttrs
	if len(colNames) == 0 {
		colNames = c.Keys
	}
	fk := ForeignKey{MatchFull: c.FkMatchtype == "f", OnDelete: fkAction(c.FkDelAction), OnUpdate: fkAction(c.FkUpdAction), NotValid: c.SkipValidation,
		Deferrable: c.Deferrable || c.Initdeferred, InitDeferred: c.Initdeferred}
	find := func(def *CreateTable, name, table string) (int, error) {
		for i, col := range def.Cols {
			if col.Name == name {
				return i, nil
			}
		}
		return 0, b.stmt.errf(c.Location, pgerr.UndefinedColumn, "column %q referenced in foreign key constraint does not exist", name)
	}
	var names []string
	for _, n := range colNames {
		name := n.GetString_().Sval
		i, err := find(ct, name, ct.Name)
		if err != nil {
			return ForeignKey{}, err
		}
		fk.Cols = append(fk.Cols, i)
		names = append(names, name)
	}
	// The referenced table.
	ref := ct
	fk.RefTable = c.Pktable.Relname
	if fk.RefTable != ct.Name {
		rel, ok := b.cat.Relation(fk.RefTable)
		if !ok {
			return ForeignKey{}, b.stmt.errf(c.Pktable.Location, pgerr.UndefinedTable, "relation %q does not exist", fk.RefTable)
		}
		if rel.Def == nil {
			return ForeignKey{}, b.stmt.errf(c.Pktable.Location, pgerr.WrongObjectType, "referenced relation %q is not a table", fk.RefTable)
		}
		if rel.Partition != nil {
			// Its keys are its root's, which checks them across every
			// partition; a key of one partition alone is not kept.
			return ForeignKey{}, b.refuse(c.Pktable.Location, "FOREIGN KEY constraints referencing partition %q are not supported", fk.RefTable).
				WithHint("reference its partitioned table")
		}
		ref = rel.Def
		if ref.ChangeStream {
			return ForeignKey{}, b.refuse(c.Pktable.Location, "FOREIGN KEY constraints referencing change-stream table %q are not supported", fk.RefTable).
				WithHint("a change-stream table keeps no index of its keys to check against")
		}
		if ref.Unlogged && !ct.Unlogged && !ct.Temp {
			return ForeignKey{}, pgerr.New(pgerr.InvalidTableDef, "constraints on permanent tables may reference only permanent tables")
		}
	}
	if len(c.PkAttrs) == 0 {
		if ref.PrimaryKey == nil {
			return ForeignKey{}, b.stmt.errf(c.Location, pgerr.UndefinedObject, "there is no primary key for referenced table %q", fk.RefTable)
		}
		if d, _ := ref.KeyDeferrable(-1); d {
			return ForeignKey{}, b.stmt.errf(c.Location, pgerr.ObjectNotInPrereqState, "cannot use a deferrable primary key for referenced table %q", fk.RefTable)
		}
		fk.RefCols = slices.Clone(ref.PrimaryKey)
	} else {
		for _, n := range c.PkAttrs {
			name := n.GetString_().Sval
			i, err := find(ref, name, fk.RefTable)
			if err != nil {
				return ForeignKey{}, err
			}
			fk.RefCols = append(fk.RefCols, i)
		}
	}
	if len(fk.RefCols) != len(fk.Cols) {
		return ForeignKey{}, b.stmt.errf(c.Location, pgerr.InvalidForeignKey, "number of referencing and referenced columns for foreign key disagree")
	}
	if len(c.PkAttrs) > 0 {
		// A key that matches but is DEFERRABLE does not serve, as in
		// PostgreSQL.
		keyed, deferred := false, false
		match := func(i int, cols []int) {
			if cols != nil && sameSet(cols, fk.RefCols) {
				if d, _ := ref.KeyDeferrable(i); d {
					deferred = true
				} else {
					keyed = true
				}
			}
		}
		match(-1, ref.PrimaryKey)
		for i, u := range ref.Uniques {
			match(i, u)
		}
		if !keyed && deferred {
			return ForeignKey{}, b.stmt.errf(c.Location, pgerr.ObjectNotInPrereqState, "cannot use a deferrable unique constraint for referenced table %q", fk.RefTable)
		}
		if !keyed {
			return ForeignKey{}, b.stmt.errf(c.Location, pgerr.InvalidForeignKey, "there is no unique constraint matching given keys for referenced table %q", fk.RefTable)
		}
	}
	for _, r := range fk.RefCols {
		fk.RefNames = append(fk.RefNames, ref.Cols[r].Name)
	}
	fk.Name = c.Conname
	if fk.Name == "" {
		fk.Name = ct.Name + "_" + strings.Join(names, "_") + "_fkey"
		if len(fk.Name) > 63 {
			fk.Name = fk.Name[:63]
		}
		base := fk.Name
		for n := 1; slices.ContainsFunc(ct.ForeignKeys, func(o ForeignKey) bool { return o.Name == fk.Name }); n++ {
			fk.Name = base + strconv.Itoa(n)
		}
	}
	for i, col := range fk.Cols {
		a, r := ct.Cols[col].Type, ref.Cols[fk.RefCols[i]].Type
		if !fkComparable(a.Kind, r.Kind) {
			return ForeignKey{}, b.stmt.errf(c.Location, pgerr.DatatypeMismatch, "foreign key constraint %q cannot be implemented", fk.Name).
				WithDetail("Key columns %q and %q are of incompatible types: %s and %s.", ct.Cols[col].Name, ref.Cols[fk.RefCols[i]].Name, a, r)
		}
	}
	for _, n := range c.FkDelSetCols {
		name := n.GetString_().Sval
		i, err := find(ct, name, ct.Name)
		if err != nil {
			return ForeignKey{}, err
		}
		if !slices.Contains(fk.Cols, i) {
			return ForeignKey{}, b.stmt.errf(c.Location, pgerr.InvalidColumnRef, "column %q referenced in ON DELETE SET action must be part of foreign key", name)
		}
		fk.DeleteCols = append(fk.DeleteCols, i)
	}
	if len(c.FkDelSetCols) > 0 && fk.OnDelete != FKSetNull && fk.OnDelete != FKSetDefault {
		return ForeignKey{}, b.stmt.errf(c.Location, pgerr.SyntaxError, "a column list with %s is only supported for ON DELETE actions", fk.OnDelete.SQL())
	}
	return fk, nil
}

func sameSet(a, b []int) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// fkComparable reports whether a referencing column of kind a can
// reference a column of kind r: PostgreSQL needs an equality operator
// between them, which the numeric kinds share, and the string kinds.
func fkComparable(a, r value.Kind) bool {
	return a == r || isNumeric(a) && isNumeric(r) || isString(a) && isString(r) ||
		isDatetime(a) && isDatetime(r)
}

// foreignKeySQL is the constraint's text in CREATE TABLE.
func (ct *CreateTable) foreignKeySQL(fk ForeignKey) string {
	names := func(cols []int) string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = QuoteIdent(ct.Cols[c].Name)
		}
		return "(" + strings.Join(out, ", ") + ")"
	}
	refs := make([]string, len(fk.RefNames))
	for i, n := range fk.RefNames {
		refs[i] = QuoteIdent(n)
	}
	var b strings.Builder
	b.WriteString("CONSTRAINT " + QuoteIdent(fk.Name) + " FOREIGN KEY " + names(fk.Cols))
	b.WriteString(" REFERENCES " + QuoteIdent(fk.RefTable) + " (" + strings.Join(refs, ", ") + ")")
	if fk.MatchFull {
		b.WriteString(" MATCH FULL")
	}
	b.WriteString(" ON DELETE " + fk.OnDelete.SQL())
	if fk.DeleteCols != nil {
		b.WriteString(" " + names(fk.DeleteCols))
	}
	b.WriteString(" ON UPDATE " + fk.OnUpdate.SQL())
	if fk.Deferrable {
		b.WriteString(" DEFERRABLE")
	}
	if fk.InitDeferred {
		b.WriteString(" INITIALLY DEFERRED")
	}
	if fk.NotValid {
		b.WriteString(" NOT VALID")
	}
	return b.String()
}
