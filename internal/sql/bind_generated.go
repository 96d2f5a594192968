package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Stored generated columns (GENERATED ALWAYS AS (expr) STORED): the
// binder checks the expression as PostgreSQL's CREATE TABLE does, and
// refuses a value written to the column; the engine computes the column
// on every write of a row (table.generate), after BEFORE ROW triggers and
// before the constraints, as PostgreSQL does.

// genSystemColumns are the system columns a generation expression may
// not read.
var genSystemColumns = []string{"ctid", "xmin", "xmax", "cmin", "cmax", "tableoid"}

// markGenerated records c, a GENERATED … STORED constraint of column i,
// for bindGenerated once every column's constraints are known: a
// generation expression may name columns declared after it.
func (b *binder) markGenerated(ct *CreateTable, i int, c *pg_query.Constraint) error {
	col := &ct.Cols[i]
	switch {
	case col.GeneratedSQL != "":
		return b.stmt.errf(c.Location, pgerr.SyntaxError, "multiple generation clauses specified for column %q of table %q", col.Name, ct.Name)
	case col.Identity != 0:
		return b.stmt.errf(c.Location, pgerr.SyntaxError, "both identity and generation expression specified for column %q of table %q", col.Name, ct.Name)
	case col.Default != nil && col.OwnedSequence() != "":
		// A serial column's default is no clause of the statement's.
		return pgerr.New(pgerr.SyntaxError, "both default and generation expression specified for column %q of table %q", col.Name, ct.Name)
	case col.Default != nil:
		return b.stmt.errf(c.Location, pgerr.SyntaxError, "both default and generation expression specified for column %q of table %q", col.Name, ct.Name)
	}
	text, err := deparseExpr(c.RawExpr)
	if err != nil {
		return pgerr.New(pgerr.Internal, "cannot write the generation expression of column %q: %v", col.Name, err)
	}
	col.GeneratedSQL = text
	return nil
}

// generatedTaken reports the error of a DEFAULT or an identity given to a
// column that is generated already (the later clause is the one
// PostgreSQL points at).
func (b *binder) generatedTaken(ct *CreateTable, i int, c *pg_query.Constraint) error {
	col := &ct.Cols[i]
	if col.GeneratedSQL == "" {
		return nil
	}
	what := "default"
	if c.Contype == pg_query.ConstrType_CONSTR_IDENTITY {
		what = "identity"
	}
	return b.stmt.errf(c.Location, pgerr.SyntaxError, "both %s and generation expression specified for column %q of table %q", what, col.Name, ct.Name)
}

// bindGenerated binds the generation expression raw of column i of ct
// over sc, the table's columns: immutable, reading only the row's columns
// that are not generated, cast to the column's type by assignment.
func (b *binder) bindGenerated(ct *CreateTable, sc *scope, i int, raw *pg_query.Node) error {
	col := &ct.Cols[i]
	if err := b.genRawCheck(ct, raw); err != nil {
		return err
	}
	e, err := b.bindExpr(sc, raw)
	if err != nil {
		return genExprError(err)
	}
	if judged := stripTableCalls(e, immutableTableCall); judged.Volatile() || expr.ReadsClock(judged) {
		return pgerr.New(pgerr.InvalidObjectDef, "generation expression is not immutable")
	}
	out, err := b.assignCast(e, col.Type, col.Name, -1)
	if err != nil {
		if pe := pgerr.Wrap(err); pe.Code == pgerr.DatatypeMismatch {
			return pgerr.New(pgerr.DatatypeMismatch, "column %q is of type %s but default expression is of type %s", col.Name, col.Type, e.Type()).
				WithHint("You will need to rewrite or cast the expression.")
		}
		return err
	}
	col.Generated = out
	return nil
}

// genRawCheck refuses what a generation expression may not hold, with
// PostgreSQL's errors: a subquery, a window function, a system column, a
// whole-row reference and a generated column.
func (b *binder) genRawCheck(ct *CreateTable, raw *pg_query.Node) error {
	var err error
	walkNodes(raw.ProtoReflect(), func(n *pg_query.Node) {
		if err != nil {
			return
		}
		switch {
		case n.GetSubLink() != nil:
			err = b.stmt.errf(n.GetSubLink().Location, pgerr.FeatureNotSupported, "cannot use subquery in column generation expression")
		case n.GetFuncCall() != nil && n.GetFuncCall().Over != nil:
			err = b.stmt.errf(n.GetFuncCall().Location, "42P20", "window functions are not allowed in column generation expressions")
		case n.GetColumnRef() != nil:
			err = b.genColumnRef(ct, n.GetColumnRef())
		}
	})
	return err
}

func (b *binder) genColumnRef(ct *CreateTable, cr *pg_query.ColumnRef) error {
	f := cr.Fields
	last := f[len(f)-1]
	name := last.GetString_().GetSval()
	if len(f) >= 2 && f[len(f)-2].GetString_().GetSval() != ct.Name {
		return nil // another relation's: the binder reports it
	}
	j := slices.IndexFunc(ct.Cols, func(c ColumnDef) bool { return c.Name == name })
	switch {
	case last.GetAStar() != nil || len(f) == 1 && name == ct.Name && j < 0:
		return b.stmt.errf(cr.Location, pgerr.InvalidObjectDef, "cannot use whole-row variable in column generation expression").
			WithDetail("This would cause the generated column to depend on its own value.")
	case j < 0 && slices.Contains(genSystemColumns, name):
		return b.stmt.errf(cr.Location, pgerr.InvalidColumnRef, "cannot use system column %q in column generation expression", name)
	case j >= 0 && ct.Cols[j].GeneratedSQL != "":
		return b.stmt.errf(cr.Location, pgerr.InvalidObjectDef, "cannot use generated column %q in column generation expression", name).
			WithDetail("A generated column cannot reference another generated column.")
	}
	return nil
}

// genExprError words the binder's errors of an aggregate or a
// set-returning function as PostgreSQL does in a generation expression.
func genExprError(err error) error {
	e := pgerr.Wrap(err)
	switch {
	case e.Code == pgerr.GroupingError && strings.HasPrefix(e.Message, "aggregate functions are not allowed"):
		c := *e
		c.Message = "aggregate functions are not allowed in column generation expressions"
		return &c
	case e.Code == pgerr.FeatureNotSupported && strings.HasSuffix(e.Message, "is only supported in FROM or in a select list"):
		c := *e
		c.Message, c.Hint = "set-returning functions are not allowed in column generation expressions", ""
		return &c
	}
	return err
}

// generatedInKey refuses a partition key over a generated column.
func (b *binder) generatedInKey(ct *CreateTable, spec *pg_query.PartitionSpec) error {
	for _, p := range spec.PartParams {
		pe := p.GetPartitionElem()
		if pe == nil {
			continue
		}
		names := map[string]int32{}
		if pe.Name != "" {
			names[pe.Name] = pe.Location
		} else if pe.Expr != nil {
			walkNodes(pe.Expr.ProtoReflect(), func(n *pg_query.Node) {
				if cr := n.GetColumnRef(); cr != nil {
					names[cr.Fields[len(cr.Fields)-1].GetString_().GetSval()] = pe.Location
				}
			})
		}
		for _, c := range ct.Cols {
			if loc, ok := names[c.Name]; ok && c.GeneratedSQL != "" {
				return b.stmt.errf(loc, pgerr.InvalidObjectDef, "cannot use generated column in partition key").
					WithDetail("Column %q is a generated column.", c.Name)
			}
		}
	}
	return nil
}

// generatedWrite refuses a value written to a generated column of rel by
// INSERT (update false) or UPDATE … SET: only DEFAULT is allowed.
func (b *binder) generatedWrite(rel *Relation, i int, update bool) error {
	if i >= len(rel.Generated) || !rel.Generated[i] {
		return nil
	}
	name := rel.Cols[i].Name
	msg := "cannot insert a non-DEFAULT value into column %q"
	if update {
		msg = "column %q can only be updated to DEFAULT"
	}
	return pgerr.New(pgerr.GeneratedAlways, msg, name).WithDetail("Column %q is a generated column.", name)
}

// GeneratedColumns returns, per column of ct, whether it is a stored
// generated column; nil when none is.
func (ct *CreateTable) GeneratedColumns() []bool {
	var out []bool
	for i, c := range ct.Cols {
		if c.Generated != nil {
			if out == nil {
				out = make([]bool, len(ct.Cols))
			}
			out[i] = true
		}
	}
	return out
}

// genClause is a GENERATED … STORED clause of column col, bound once the
// table's columns are all known.
type genClause struct {
	col int
	raw *pg_query.Node
}

// genNulls adds to an UPDATE's assignments a NULL for each generated
// column of rel that they leave: the new row a BEFORE ROW trigger sees
// holds NULL there, as in PostgreSQL, until the engine computes it.
func genNulls(rel *Relation, set []Assign, seen map[int]int) []Assign {
	for i, g := range rel.Generated {
		if _, ok := seen[i]; g && !ok {
			set = append(set, Assign{Col: i, Expr: &expr.Const{V: value.Null, T: rel.Cols[i].Type}})
		}
	}
	return set
}

// whenReadsGenerated refuses a BEFORE ROW trigger's WHEN condition w that
// reads a generated column of NEW, which is not computed yet then.
func (b *binder) whenReadsGenerated(w *pg_query.Node, rel *Relation) error {
	if rel.Generated == nil {
		return nil
	}
	var err error
	walkNodes(w.ProtoReflect(), func(n *pg_query.Node) {
		cr := n.GetColumnRef()
		if err != nil || cr == nil || len(cr.Fields) < 1 || cr.Fields[0].GetString_().GetSval() != "new" {
			return
		}
		if len(cr.Fields) == 1 || cr.Fields[1].GetAStar() != nil {
			err = b.stmt.errf(cr.Location, pgerr.InvalidObjectDef, "BEFORE trigger's WHEN condition cannot reference NEW generated columns").
				WithDetail("A whole-row reference is used and the table contains generated columns.")
			return
		}
		name := cr.Fields[1].GetString_().GetSval()
		if i := colIndex(rel.Cols, name); i >= 0 && i < len(rel.Generated) && rel.Generated[i] {
			err = b.stmt.errf(cr.Location, pgerr.InvalidObjectDef, "BEFORE trigger's WHEN condition cannot reference NEW generated columns").
				WithDetail("Column %q is a generated column.", name)
		}
	})
	return err
}

// genCol reports whether column i of rel is a stored generated column.
func genCol(rel *Relation, i int) bool {
	return i >= 0 && i < len(rel.Generated) && rel.Generated[i]
}

// genCopyError is PostgreSQL's error for a generated column named in
// COPY's column list.
func genCopyError(name string) error {
	return pgerr.New(pgerr.InvalidColumnRef, "column %q is a generated column", name).
		WithDetail("Generated columns cannot be used in COPY.")
}

// inheritedGenerated checks cd, a column of CREATE TABLE … INHERITS merged
// with an inherited one, generated when gen: the child inherits the
// parent's expression and may give neither its own nor a default.
func inheritedGenerated(cd *pg_query.ColumnDef, gen bool) error {
	if !gen {
		return nil
	}
	for _, n := range cd.Constraints {
		switch n.GetConstraint().GetContype() {
		case pg_query.ConstrType_CONSTR_GENERATED:
			return pgerr.New("42611", "child column %q specifies generation expression", cd.Colname).
				WithHint("Omit the generation expression in the definition of the child table column to inherit the generation expression from the parent table.")
		case pg_query.ConstrType_CONSTR_DEFAULT:
			return pgerr.New("42611", "column %q inherits from generated column but specifies default", cd.Colname)
		}
	}
	return nil
}

// autoSetGenerated refuses an UPDATE through view rel that sets a column
// of its table that is generated to anything but DEFAULT.
func autoSetGenerated(av *AutoView, rel *Relation, targets []*pg_query.Node) error {
	if av.base == nil || av.base.Generated == nil {
		return nil
	}
	for _, t := range targets {
		rt := t.GetResTarget()
		if rt == nil || rt.Val.GetSetToDefault() != nil {
			continue
		}
		if i := colIndex(rel.Cols, rt.Name); i >= 0 && i < len(av.Cols) && genCol(av.base, av.Cols[i]) {
			return pgerr.New(pgerr.GeneratedAlways, "column %q can only be updated to DEFAULT", rt.Name).
				WithDetail("Column %q is a generated column.", rt.Name)
		}
	}
	return nil
}

// genForeignKey refuses an action of fk that would write a generated
// column of ct, its referencing table: ON UPDATE CASCADE, SET NULL or SET
// DEFAULT, ON DELETE SET NULL or SET DEFAULT.
func genForeignKey(ct *CreateTable, fk ForeignKey) error {
	gen := false
	for _, c := range fk.Cols {
		gen = gen || ct.Cols[c].GeneratedSQL != ""
	}
	switch {
	case !gen:
	case fk.OnUpdate == FKCascade || fk.OnUpdate == FKSetNull || fk.OnUpdate == FKSetDefault:
		return pgerr.New(pgerr.SyntaxError, "invalid ON UPDATE action for foreign key constraint containing generated column")
	case fk.OnDelete == FKSetNull || fk.OnDelete == FKSetDefault:
		return pgerr.New(pgerr.SyntaxError, "invalid ON DELETE action for foreign key constraint containing generated column")
	}
	return nil
}
