package sql

import (
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// What a partition has of its own beside what its parent gives it, as
// PostgreSQL 15 lets it: column defaults (for the rows written naming the
// partition), NOT NULL and CHECK constraints (for every row it holds).
// Its definition keeps them merged with its parent's: Cols' defaults are
// the partition's (its parent's copied when it was made, as PostgreSQL
// copies them), Cols' NOT NULL its parent's or its own, and Checks those
// of the partitioned partitions above it and its own (the root's stay the
// root's). They are written in its PARTITION OF statement:
// CREATE TABLE p1 PARTITION OF p (b WITH OPTIONS DEFAULT 5 NOT NULL,
// CONSTRAINT c CHECK (…)) FOR VALUES ….

// partitionOwn binds the column options and table constraints of
// CREATE TABLE … PARTITION OF p (…) into ct, which has its parent's.
func (b *binder) partitionOwn(elts []*pg_query.Node, ct, root *CreateTable) error {
	sc := &scope{}
	for _, c := range ct.Cols {
		sc.cols = append(sc.cols, scopeCol{qual: ct.Name, name: c.Name, typ: c.Type})
	}
	seen := map[string]bool{}
	var checks []*pg_query.Constraint
	for _, el := range elts {
		if c := el.GetConstraint(); c != nil {
			checks = append(checks, c)
			continue
		}
		cd := el.GetColumnDef()
		if cd == nil {
			return b.refuse(-1, "table element %s in CREATE TABLE … PARTITION OF is not supported", stmtName(el))
		}
		i := slices.IndexFunc(ct.Cols, func(c ColumnDef) bool { return c.Name == cd.Colname })
		if i < 0 {
			return b.stmt.errf(cd.Location, pgerr.UndefinedColumn, "column %q does not exist", cd.Colname)
		}
		if seen[cd.Colname] {
			return b.stmt.errf(cd.Location, pgerr.DuplicateColumn, "column %q specified more than once", cd.Colname)
		}
		seen[cd.Colname] = true
		col := &ct.Cols[i]
		ownDefault := false
		for _, n := range cd.Constraints {
			c := n.GetConstraint()
			switch c.Contype {
			case pg_query.ConstrType_CONSTR_NOTNULL:
				col.NotNull = true
			case pg_query.ConstrType_CONSTR_NULL:
			case pg_query.ConstrType_CONSTR_DEFAULT:
				if ownDefault {
					return b.stmt.errf(c.Location, pgerr.SyntaxError, "multiple default values specified for column %q of table %q", col.Name, ct.Name)
				}
				ownDefault = true
				if col.Generated != nil {
					return b.stmt.errf(c.Location, pgerr.SyntaxError, "both default and generation expression specified for column %q of table %q", col.Name, ct.Name)
				}
				e, err := b.bindExpr(&scope{}, c.RawExpr)
				if err != nil {
					return err
				}
				if col.Default, err = b.assignCast(e, col.Type, col.Name, c.Location); err != nil {
					return err
				}
				if col.DefaultSQL, err = deparseExpr(c.RawExpr); err != nil {
					return pgerr.New(pgerr.Internal, "cannot write the default of column %q: %v", col.Name, err)
				}
				if isNullConst(col.Default) {
					col.Default, col.DefaultSQL = nil, "" // no default, as PostgreSQL keeps none
				}
			case pg_query.ConstrType_CONSTR_CHECK:
				c.Keys = []*pg_query.Node{{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: cd.Colname}}}}
				checks = append(checks, c)
			default:
				return b.refuse(c.Location, "a partition's own %s constraint is not supported", constraintWord(c.Contype)).
					WithHint("declare it on the partitioned table: it holds for every partition")
			}
		}
	}
	for _, c := range checks {
		if c.Contype != pg_query.ConstrType_CONSTR_CHECK {
			return b.refuse(c.Location, "a partition's own %s constraint is not supported", constraintWord(c.Contype)).
				WithHint("declare it on the partitioned table: it holds for every partition")
		}
		ch, err := b.partitionCheck(sc, ct, c)
		if err != nil {
			return err
		}
		all := slices.Concat(root.Checks, ct.Checks)
		if i := slices.IndexFunc(all, func(o Check) bool { return o.Name == ch.Name }); i >= 0 {
			if c.Conname != "" && all[i].SQL == ch.SQL {
				continue // merged with the inherited one (PostgreSQL says so in a NOTICE)
			}
			return pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", ch.Name, ct.Name)
		}
		ct.Checks = append(ct.Checks, ch)
	}
	return nil
}

// partitionCheck binds one CHECK constraint of a partition, named as
// PostgreSQL names it when the statement does not: p_col_check over one
// column, p_check otherwise, with a number added when taken.
func (b *binder) partitionCheck(sc *scope, ct *CreateTable, c *pg_query.Constraint) (Check, error) {
	e, err := b.bindExpr(sc, c.RawExpr)
	if err != nil {
		return Check{}, err
	}
	if e, err = b.toBool(e, "CHECK", c.Location); err != nil {
		return Check{}, err
	}
	if stripTableCalls(e, anyTableCall).Volatile() {
		return Check{}, b.refuse(c.Location, "CHECK constraints must not use volatile functions")
	}
	name := c.Conname
	if name == "" {
		base := ct.Name + "_check"
		if cols := expr.Columns(e); len(cols) == 1 {
			base = ct.Name + "_" + ct.Cols[cols[0]].Name + "_check"
		}
		name = base
		for i := 1; slices.ContainsFunc(ct.Checks, func(o Check) bool { return o.Name == name }); i++ {
			name = base + strconv.Itoa(i)
		}
	}
	text, err := deparseExpr(c.RawExpr)
	if err != nil {
		return Check{}, pgerr.New(pgerr.Internal, "cannot write check constraint %q: %v", name, err)
	}
	return Check{Name: name, Expr: e, SQL: text, NotValid: c.SkipValidation}, nil
}

func isNullConst(e expr.Expr) bool {
	for {
		switch x := e.(type) {
		case *expr.Const:
			return x.V.IsNull()
		case *expr.Cast:
			e = x.E
		default:
			return false
		}
	}
}

func constraintWord(t pg_query.ConstrType) string {
	return strings.ReplaceAll(strings.TrimPrefix(t.String(), "CONSTR_"), "_", " ")
}

// PartitionOwnSQL are the elements of partition ct's PARTITION OF
// statement that it has of its own beside parent's definition: a column's
// default that is not its parent's, its NOT NULL that its parent lacks,
// and the checks its parent does not give it. keep filters them (cols:
// the columns an element reads; kind: what the element is), so that an
// ALTER of the parent drops those it reaches, as PostgreSQL's recursion
// does.
func PartitionOwnSQL(ct, parent *CreateTable, keep func(cols []string, kind OwnKind) bool) []string {
	var out []string
	pcol := func(name string) *ColumnDef {
		for i := range parent.Cols {
			if parent.Cols[i].Name == name {
				return &parent.Cols[i]
			}
		}
		return nil
	}
	for i := range ct.Cols {
		c := &ct.Cols[i]
		p := pcol(c.Name)
		if p == nil {
			continue
		}
		var opts []string
		if c.DefaultSQL != p.DefaultSQL && keep([]string{c.Name}, OwnDefault) {
			d := c.DefaultSQL
			if d == "" {
				d = "NULL"
			}
			opts = append(opts, "DEFAULT "+d)
		}
		if c.NotNull && !p.NotNull && keep([]string{c.Name}, OwnNotNull) {
			opts = append(opts, "NOT NULL")
		}
		if len(opts) > 0 {
			out = append(out, QuoteIdent(c.Name)+" WITH OPTIONS "+strings.Join(opts, " "))
		}
	}
	for _, ch := range ct.Checks {
		if slices.ContainsFunc(parent.Checks, func(o Check) bool { return o.Name == ch.Name }) {
			continue
		}
		var cols []string
		for _, i := range expr.Columns(ch.Expr) {
			cols = append(cols, ct.Cols[i].Name)
		}
		if !keep(cols, OwnCheck) {
			continue
		}
		s := "CONSTRAINT " + QuoteIdent(ch.Name) + " CHECK (" + ch.SQL + ")"
		if ch.NotValid {
			s += " NOT VALID"
		}
		out = append(out, s)
	}
	return out
}

// OwnKind is the kind of an element of PartitionOwnSQL.
type OwnKind int

const (
	OwnDefault OwnKind = iota // a column's default
	OwnNotNull                // a column's NOT NULL
	OwnCheck                  // a CHECK constraint
)

// KeepAll keeps every element of PartitionOwnSQL.
func KeepAll([]string, OwnKind) bool { return true }
