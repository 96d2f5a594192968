package sql

import (
	"fmt"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// AlterPartition is an ALTER TABLE of a partition that changes what it
// has of its own: SET and DROP DEFAULT, SET and DROP NOT NULL, ADD,
// DROP and VALIDATE of a CHECK constraint. New is its definition after
// the commands, Text its PARTITION OF statement; NotNull (columns of
// New) and Checks are what the rows it holds must now satisfy.
type AlterPartition struct {
	Name    string
	New     *CreateTable
	Text    string
	NotNull []int
	Checks  []Check
	Notices []string
	// DroppedNotNull are the columns DROP NOT NULL names, whose NOT NULL
	// the partitions under the partition lose too (PostgreSQL recurses).
	DroppedNotNull []string
	// DefaultsSet are the columns SET DEFAULT and DROP DEFAULT name,
	// whose default the partitions under the partition take from it.
	DefaultsSet []string
	// Numbering is set when the statement is the SET (attnums = …) a
	// store records a partition's column numbers with (attnum.go), which
	// only a restoring session runs.
	Numbering string
}

func (*AlterPartition) bound() {}

// ownCmd reports whether an ALTER TABLE command of a partition changes
// what it may have of its own.
func ownCmd(cmd *pg_query.AlterTableCmd) bool {
	switch cmd.GetSubtype() {
	case pg_query.AlterTableType_AT_ColumnDefault, pg_query.AlterTableType_AT_SetNotNull, pg_query.AlterTableType_AT_DropNotNull,
		pg_query.AlterTableType_AT_DropConstraint, pg_query.AlterTableType_AT_ValidateConstraint:
		return true
	case pg_query.AlterTableType_AT_AddConstraint:
		return cmd.GetDef().GetConstraint().GetContype() == pg_query.ConstrType_CONSTR_CHECK
	}
	return false
}

// bindAlterPartitionOwn binds an ALTER TABLE of partition rel whose
// commands all change what it has of its own; nil when one does not
// (the ALTER is then checked as any other of a partition).
func (b *binder) bindAlterPartitionOwn(as *pg_query.AlterTableStmt, rel *Relation) (Bound, error) {
	if len(as.Cmds) == 1 {
		if ap, ok, err := partitionNumbering(rel, as.Cmds[0].GetAlterTableCmd()); ok {
			return ap, err
		}
	}
	for _, n := range as.Cmds {
		if !ownCmd(n.GetAlterTableCmd()) {
			return nil, nil
		}
	}
	for _, n := range as.Cmds {
		if err := b.partitionCmd(as.Relation, rel, n.GetAlterTableCmd()); err != nil {
			return nil, err
		}
	}
	parentRel, ok := b.lookupRelation(rel.Def.PartitionOf.Parent)
	if !ok || parentRel.Def == nil {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rel.Def.PartitionOf.Parent)
	}
	root := b.partitionRoot(rel)
	old := rel.Def
	text, err := PartitionSQL(old, parentRel.Name, PartitionOwnSQL(old, parentRel.Def, KeepAll), "", "")
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "cannot write the definition of partition %q: %v", rel.Name, err)
	}
	r, err := pg_query.Parse(text)
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "cannot read the definition of partition %q: %v", rel.Name, err)
	}
	cs := r.Stmts[0].Stmt.GetCreateStmt()
	ap := &AlterPartition{Name: rel.Name}
	colDef := func(name string) *pg_query.ColumnDef {
		for _, el := range cs.TableElts {
			if cd := el.GetColumnDef(); cd != nil && cd.Colname == name {
				return cd
			}
		}
		cd := &pg_query.ColumnDef{Colname: name, IsLocal: true, Location: -1}
		cs.TableElts = append(cs.TableElts, &pg_query.Node{Node: &pg_query.Node_ColumnDef{ColumnDef: cd}})
		return cd
	}
	drop := func(cd *pg_query.ColumnDef, kind pg_query.ConstrType) {
		cd.Constraints = slices.DeleteFunc(cd.Constraints, func(n *pg_query.Node) bool { return n.GetConstraint().GetContype() == kind })
	}
	add := func(cd *pg_query.ColumnDef, c *pg_query.Constraint) {
		cd.Constraints = append(cd.Constraints, &pg_query.Node{Node: &pg_query.Node_Constraint{Constraint: c}})
	}
	ownCheck := func(name string) int {
		return slices.IndexFunc(cs.TableElts, func(el *pg_query.Node) bool {
			c := el.GetConstraint()
			return c != nil && c.Conname == name
		})
	}
	taken := func(name string) bool {
		return slices.ContainsFunc(old.Checks, func(c Check) bool { return c.Name == name }) ||
			root != nil && slices.ContainsFunc(root.Checks, func(c Check) bool { return c.Name == name }) || ownCheck(name) >= 0
	}
	var validate []string
	for _, n := range as.Cmds {
		cmd := n.GetAlterTableCmd()
		switch cmd.GetSubtype() {
		case pg_query.AlterTableType_AT_ColumnDefault:
			if !slices.ContainsFunc(old.Cols, func(c ColumnDef) bool { return c.Name == cmd.Name }) {
				return nil, colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, rel.Name)
			}
			cd := colDef(cmd.Name)
			drop(cd, pg_query.ConstrType_CONSTR_DEFAULT)
			ap.DefaultsSet = append(ap.DefaultsSet, cmd.Name)
			def := cmd.Def
			if def == nil { // DROP DEFAULT: none, whatever its parent's
				def = &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true}}}
			}
			add(cd, &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_DEFAULT, RawExpr: def, Location: -1})
		case pg_query.AlterTableType_AT_SetNotNull:
			add(colDef(cmd.Name), &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_NOTNULL, Location: -1})
		case pg_query.AlterTableType_AT_DropNotNull:
			drop(colDef(cmd.Name), pg_query.ConstrType_CONSTR_NOTNULL)
			ap.DroppedNotNull = append(ap.DroppedNotNull, cmd.Name)
		case pg_query.AlterTableType_AT_AddConstraint:
			c := cmd.Def.GetConstraint()
			if c.Conname != "" && taken(c.Conname) {
				return nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", c.Conname, rel.Name)
			}
			cs.TableElts = append(cs.TableElts, cmd.Def)
		case pg_query.AlterTableType_AT_DropConstraint:
			i := ownCheck(cmd.Name)
			if i < 0 {
				if cmd.MissingOk {
					ap.Notices = append(ap.Notices, fmt.Sprintf("constraint %q of relation %q does not exist, skipping", cmd.Name, rel.Name))
					continue
				}
				return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q of relation %q does not exist", cmd.Name, rel.Name)
			}
			cs.TableElts = slices.Delete(cs.TableElts, i, i+1)
		case pg_query.AlterTableType_AT_ValidateConstraint:
			if i := ownCheck(cmd.Name); i >= 0 {
				if c := cs.TableElts[i].GetConstraint(); c.SkipValidation {
					c.SkipValidation = false
					validate = append(validate, cmd.Name)
				}
			} else if !taken(cmd.Name) {
				return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q of relation %q does not exist", cmd.Name, rel.Name)
			}
		}
	}
	text, err = pg_query.Deparse(r)
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "cannot write the definition of partition %q: %v", rel.Name, err)
	}
	sub := &binder{cat: b.cat, stmt: &Stmt{}}
	nb, err := sub.bindCreatePartition(cs)
	if err != nil {
		return nil, err
	}
	ap.New, ap.Text = nb.(*CreateTable), text
	for i, c := range ap.New.Cols {
		if c.NotNull && !old.Cols[i].NotNull {
			ap.NotNull = append(ap.NotNull, i)
		}
	}
	for _, c := range ap.New.Checks {
		if !c.NotValid && (slices.Contains(validate, c.Name) || !slices.ContainsFunc(old.Checks, func(o Check) bool { return o.Name == c.Name })) {
			ap.Checks = append(ap.Checks, c)
		}
	}
	return ap, nil
}
