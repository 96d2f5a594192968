package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// What a partition has of its own beside its root's definition (its
// defaults, NOT NULL and CHECK constraints, bind_partition_own.go) is
// kept in its definition; this file applies it to the rows it holds.

// checkLeafRow checks a row of the root table t that leaf (nil: none)
// holds: the NOT NULL of leaf's columns, its root's and its own, t's
// checks and those of the partitions from t down to leaf, with errors
// naming leaf, as PostgreSQL's.
func (e *Engine) checkLeafRow(t *table, leaf *partition, old, row value.Row) error {
	if leaf == nil {
		return t.checkRow(old, row)
	}
	return t.checkRowAs(old, row, leaf.def.Name, leaf.def.Cols, leaf.def.Checks)
}

// partitionDefaults are the defaults of the rows written naming p.
func partitionDefaults(p *partition) []expr.Expr {
	out := make([]expr.Expr, len(p.def.Cols))
	for i := range p.def.Cols {
		out[i] = p.def.Cols[i].DefaultExpr()
	}
	return out
}

// alterPartitionOwn runs an ALTER TABLE of a partition that changes what
// it has of its own: the rows it holds are checked against its new NOT
// NULL and CHECK constraints, the partitions under it are bound again
// over its new definition (they have its checks and NOT NULL; its new
// default of a column replaces theirs, as PostgreSQL's recursion does),
// and each one's statement is recorded.
func (e *Engine) alterPartitionOwn(ap *sql.AlterPartition, restoring bool) (Result, error) {
	p, ok := e.parts[ap.Name]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", ap.Name)
	}
	if ap.Numbering != "" {
		return e.numberPartition(p, ap, restoring)
	}
	keepPartitionNumbers(p.def, ap.New, "", "", nil)
	ap.Text = partitionText(ap.Text, ap.New)
	// The partitions under p are bound again first: a constraint name one
	// of them has is 42710 before any row is checked, as in PostgreSQL.
	pa := &partitionAlter{defs: map[*partition]*sql.CreateTable{}, texts: map[*partition]string{}, parents: map[*partition]string{}}
	if err := e.rebindUnder(pa, p, ap.New, recursedKeep(p.def, ap.New, "", "", nil, ap.DroppedNotNull, ap.DefaultsSet)); err != nil {
		return Result{}, err
	}
	if err := e.checkPartitionRows(p, ap); err != nil {
		return Result{}, err
	}
	p.def, p.text = ap.New, ap.Text
	if ss, ok := e.store.(StatementStore); ok && e.store != nil {
		if err := ss.SetStatement(p.def.Name, p.text); err != nil {
			return Result{}, err
		}
	}
	if err := pa.apply(e, p.root, p.root); err != nil {
		return Result{}, err
	}
	e.read, e.waves = nil, nil
	return Result{Tag: "ALTER TABLE", Notices: ap.Notices}, nil
}

// rebindUnder binds again, into pa, the partitions under p as its new
// definition def leaves them, keeping of what each has of its own what
// keep keeps.
func (e *Engine) rebindUnder(pa *partitionAlter, p *partition, def *sql.CreateTable, keep func([]string, sql.OwnKind) bool) error {
	if len(p.kids) == 0 {
		return nil
	}
	root := p.root.name
	cat := partitionOverlay{Engine: e, rels: map[string]*sql.Relation{}}
	r := *e.partitionRelation(p)
	r.Def = def
	cat.rels[p.def.Name] = &r
	var walk func(kids []*partition, parent string) error
	walk = func(kids []*partition, parent string) error {
		for _, k := range kids {
			text, err := sql.PartitionSQL(k.def, parent, sql.PartitionOwnSQL(k.def, e.parentDef(k), keep), "", "")
			if err != nil {
				return pgerr.New(pgerr.Internal, "cannot write the definition of partition %q: %v", k.def.Name, err)
			}
			st, ok := e.reparse(text)
			if !ok {
				return pgerr.New(pgerr.Internal, "cannot read the definition of partition %q again", k.def.Name)
			}
			b, err := sql.Bind(cat, st)
			if err != nil {
				return err
			}
			ct, ok := b.(*sql.CreateTable)
			if !ok || ct.PartitionOf == nil {
				return pgerr.New(pgerr.Internal, "the definition of partition %q is not CREATE TABLE … PARTITION OF", k.def.Name)
			}
			keepPartitionNumbers(k.def, ct, "", "", nil)
			pa.order = append(pa.order, k)
			pa.defs[k], pa.texts[k], pa.parents[k] = ct, partitionText(text, ct), parent
			cat.rels[ct.Name] = &sql.Relation{Name: ct.Name, Kind: sql.KindTable, Def: ct, Partition: &sql.PartitionRel{Root: root}}
			if err := walk(k.kids, ct.Name); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(p.kids, p.def.Name)
}

// checkPartitionRows checks the rows partition p holds against the NOT
// NULL and CHECK constraints an ALTER gives it, with PostgreSQL's errors.
func (e *Engine) checkPartitionRows(p *partition, ap *sql.AlterPartition) error {
	if len(ap.NotNull) == 0 && len(ap.Checks) == 0 {
		return nil
	}
	f := e.partitionFilter(p)
	var err error
	p.root.scan(func(_ uint64, row value.Row) bool {
		var in bool
		if in, err = f.Accepts(row); err != nil || !in {
			return err == nil
		}
		for _, i := range ap.NotNull {
			if row[i].IsNull() {
				err = relationFields(pgerr.New(pgerr.NotNullViolation, "column %q of relation %q contains null values", ap.New.Cols[i].Name, unqualified(p.def.Name)), p.def.Name)
				return false
			}
		}
		for _, ch := range ap.Checks {
			var v value.Value
			if v, err = ch.Expr.Eval(row); err != nil {
				return false
			}
			if !v.IsNull() && !v.Bool() {
				err = relationFields(pgerr.New(pgerr.CheckViolation, "check constraint %q of relation %q is violated by some row", ch.Name, unqualified(p.def.Name)), p.def.Name)
				return false
			}
		}
		return true
	})
	return err
}

// partitionCols are the catalog's columns of partition def, those of
// its root (rootCols) with its own NOT NULL and defaults.
func partitionCols(rootCols []catCol, def *sql.CreateTable) []catCol {
	cols := slices.Clone(rootCols)
	for i := range cols {
		cols[i].num = 0 // numbered from 1, as a partition made after its root's drops
		if i < len(def.Cols) {
			c := &def.Cols[i]
			cols[i].num = partAttnum(def, i) // its own, kept from before a drop (partition_attnum.go)
			cols[i].notNull = cols[i].notNull || c.NotNull
			if !cols[i].gen {
				cols[i].def = c.DefaultSQL
			}
		}
	}
	return cols
}

// partitionChecks adds partition r's CHECK constraints to the catalog:
// its root's and those of the partitions above it (inherited), then its
// own.
func (o *catalogObjects) partitionChecks(r *catRel, p *partition) {
	var parent []sql.Check
	if up, ok := o.e.parts[p.parent]; ok {
		parent = up.def.Checks
	}
	for level, checks := range [2][]sql.Check{p.root.def.Checks, p.def.Checks} {
		for _, ch := range checks {
			c := &catCon{oid: objectOID("constraint", r.name+"."+ch.Name), name: ch.Name, kind: 'c', rel: r,
				check: ch.SQL, def: "CHECK (" + ch.SQL + ")", notValid: ch.NotValid,
				inherited: level == 0 || slices.ContainsFunc(parent, func(o sql.Check) bool { return o.Name == ch.Name })}
			if ch.NotValid {
				c.def += " NOT VALID"
			}
			o.cons = append(o.cons, c)
			r.checks++
		}
	}
}

func inhCount(c *catCon) int {
	if c.inherited {
		return 1
	}
	return 0
}
