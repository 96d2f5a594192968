package sql

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// ALTER TABLE of partitioned tables and partitions. A partition has its
// partitioned table's columns, defaults and constraints: the ALTER of the
// root reaches every partition (the engine binds each one's definition
// again, partition_alter.go), and a partition refuses what would make it
// differ from its parent, with PostgreSQL's errors.

// checkPartitionAlter checks the commands of an ALTER TABLE of rel, a
// partition or a partitioned table, before they are applied.
func (b *binder) checkPartitionAlter(rv *pg_query.RangeVar, rel *Relation, cmds []*pg_query.Node) error {
	switch {
	case rel.Partition != nil:
		for _, n := range cmds {
			if cmd := n.GetAlterTableCmd(); ownCmd(cmd) {
				return b.refuse(rv.Location, "ALTER TABLE … %s of partition %q beside other actions is not supported", alterCmdName(cmd.GetSubtype()), rel.Name).
					WithHint("alter what the partition has of its own in a statement of its own")
			}
		}
		for _, n := range cmds {
			if err := b.partitionCmd(rv, rel, n.GetAlterTableCmd()); err != nil {
				return err
			}
		}
	case rel.Def != nil && rel.Def.PartitionBy != nil:
		for _, n := range cmds {
			cmd := n.GetAlterTableCmd()
			switch cmd.GetSubtype() {
			case pg_query.AlterTableType_AT_DropColumn:
				if err := keyColumnErr(rel, cmd.Name, "drop"); err != nil {
					return err
				}
			case pg_query.AlterTableType_AT_AlterColumnType:
				if err := keyColumnErr(rel, cmd.Name, "alter"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// keyColumnErr is PostgreSQL's error for dropping (verb "drop") or
// retyping ("alter") a column that rel's partition key reads; nil for
// another column.
func keyColumnErr(rel *Relation, col, verb string) error {
	for _, i := range PartitionKeyColumns(rel.Def.PartitionBy) {
		if i < len(rel.Def.Cols) && rel.Def.Cols[i].Name == col {
			return pgerr.New(pgerr.InvalidTableDef, "cannot %s column %q because it is part of the partition key of relation %q", verb, col, rel.Name)
		}
	}
	return nil
}

// PartitionKeyColumns are the columns a partition key reads, by position.
func PartitionKeyColumns(k *expr.PartitionKey) []int {
	var out []int
	for _, e := range k.Exprs {
		for _, i := range expr.Columns(e) {
			if !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	return out
}

// partitionCmd checks one command of an ALTER TABLE of a partition:
// PostgreSQL's error for what a partition cannot change of what it has
// from its parent, a refusal for what it could have of its own, nil for
// a command that leaves it as it is.
func (b *binder) partitionCmd(rv *pg_query.RangeVar, rel *Relation, cmd *pg_query.AlterTableCmd) error {
	col := func() (ColumnDef, error) {
		for _, c := range rel.Def.Cols {
			if c.Name == cmd.Name {
				return c, nil
			}
		}
		return ColumnDef{}, colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, rel.Name)
	}
	switch cmd.GetSubtype() {
	case pg_query.AlterTableType_AT_AddColumn:
		return b.stmt.errf(rv.Location, pgerr.WrongObjectType, "cannot add column to a partition")
	case pg_query.AlterTableType_AT_DropColumn:
		if _, err := col(); err != nil {
			if cmd.MissingOk {
				return nil // the engine says it skips (alterTable's notices)
			}
			return err
		}
		return pgerr.New(pgerr.InvalidTableDef, "cannot drop inherited column %q", cmd.Name)
	case pg_query.AlterTableType_AT_AlterColumnType:
		if _, err := col(); err != nil {
			return err
		}
		return pgerr.New(pgerr.InvalidTableDef, "cannot alter inherited column %q", cmd.Name)
	case pg_query.AlterTableType_AT_DropNotNull:
		c, err := col()
		if err != nil {
			return err
		}
		switch root := b.partitionRoot(rel); {
		case root != nil && slices.ContainsFunc(root.PrimaryKey, func(i int) bool { return root.Cols[i].Name == c.Name }):
			return pgerr.New(pgerr.InvalidTableDef, "column %q is in a primary key", c.Name)
		case b.parentNotNull(rel, c.Name):
			return pgerr.New(pgerr.InvalidTableDef, "column %q is marked NOT NULL in parent table", c.Name)
		}
		return nil // its own NOT NULL, or none
	case pg_query.AlterTableType_AT_SetNotNull, pg_query.AlterTableType_AT_ColumnDefault:
		_, err := col()
		return err
	case pg_query.AlterTableType_AT_DropConstraint:
		if root := b.partitionRoot(rel); root != nil && root.partitionHas(rel.Name, cmd.Name) || b.parentCheck(rel, cmd.Name) {
			return pgerr.New(pgerr.InvalidTableDef, "cannot drop inherited constraint %q of relation %q", cmd.Name, rel.Name)
		}
		return nil
	case pg_query.AlterTableType_AT_ValidateConstraint:
		return nil
	case pg_query.AlterTableType_AT_AddConstraint:
		if cmd.GetDef().GetConstraint().GetContype() == pg_query.ConstrType_CONSTR_CHECK {
			return nil
		}
	}
	return b.refuse(rv.Location, "ALTER TABLE … %s of partition %q is not supported", alterCmdName(cmd.GetSubtype()), rel.Name).
		WithHint("a partition has its partitioned table's columns, defaults and constraints: alter the partitioned table")
}

// partitionRoot is the definition of the stored table at the top of a
// partition's tree, which keeps its constraints.
func (b *binder) partitionRoot(rel *Relation) *CreateTable {
	if root, ok := b.lookupRelation(rel.Partition.Root); ok {
		return root.Def
	}
	return nil
}

// partitionHas reports whether a partition of the table has a constraint
// of that name from it: a CHECK or FOREIGN KEY of the table, or the partition's own
// index of one of its keys, named after the partition as PostgreSQL
// names it.
func (ct *CreateTable) partitionHas(partition, name string) bool {
	if ct.PrimaryKey != nil && partition+"_pkey" == name {
		return true
	}
	for _, u := range ct.Uniques {
		cols := make([]string, len(u))
		for i, c := range u {
			cols[i] = ct.Cols[c].Name
		}
		if partition+"_"+strings.Join(cols, "_")+"_key" == name {
			return true
		}
	}
	return slices.ContainsFunc(ct.Checks, func(c Check) bool { return c.Name == name }) ||
		slices.ContainsFunc(ct.ForeignKeys, func(f ForeignKey) bool { return f.Name == name })
}

// onlyPartitioned is PostgreSQL's error for ALTER TABLE ONLY of a
// partitioned table that has partitions, first its first partition's
// name; nil when the commands may alter the table alone.
func onlyPartitioned(rel *Relation, cmds []*pg_query.Node) func(first string) error {
	if rel.Def == nil || rel.Def.PartitionBy == nil {
		return nil
	}
	only := func(msg string) func(string) error {
		return func(string) error {
			return pgerr.New(pgerr.InvalidTableDef, "%s", msg).WithHint("Do not specify the ONLY keyword.")
		}
	}
	for _, n := range cmds {
		cmd := n.GetAlterTableCmd()
		switch cmd.GetSubtype() {
		case pg_query.AlterTableType_AT_AddColumn:
			return func(string) error {
				return pgerr.New(pgerr.InvalidTableDef, "column must be added to child tables too")
			}
		case pg_query.AlterTableType_AT_DropColumn:
			return only("cannot drop column from only the partitioned table when partitions exist")
		case pg_query.AlterTableType_AT_AlterColumnType:
			return func(string) error {
				return pgerr.New(pgerr.InvalidTableDef, "type of inherited column %q must be changed in child tables too", cmd.Name)
			}
		case pg_query.AlterTableType_AT_DropNotNull, pg_query.AlterTableType_AT_DropConstraint:
			return only("cannot remove constraint from only the partitioned table when partitions exist")
		case pg_query.AlterTableType_AT_SetNotNull:
			if i := slices.IndexFunc(rel.Def.Cols, func(c ColumnDef) bool { return c.Name == cmd.Name }); i >= 0 && !rel.Def.Cols[i].NotNull {
				return func(first string) error {
					return pgerr.New(pgerr.InvalidTableDef, "constraint must be added to child tables too").
						WithDetail("Column %q of relation %q is not already NOT NULL.", cmd.Name, first).WithHint("Do not specify the ONLY keyword.")
				}
			}
		case pg_query.AlterTableType_AT_AddConstraint:
			if cmd.GetDef().GetConstraint().GetContype() == pg_query.ConstrType_CONSTR_CHECK {
				return func(string) error {
					return pgerr.New(pgerr.InvalidTableDef, "constraint must be added to child tables too")
				}
			}
			return refuseOnly(rel, cmd)
		case pg_query.AlterTableType_AT_ColumnDefault:
			return refuseOnly(rel, cmd)
		}
	}
	return nil
}

func refuseOnly(rel *Relation, cmd *pg_query.AlterTableCmd) func(string) error {
	return func(string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE ONLY … %s of partitioned table %q is not supported", alterCmdName(cmd.GetSubtype()), rel.Name).
			WithHint("its partitions have its definition: leave out ONLY")
	}
}

// renamePartitionKey renames column from to to in the PARTITION BY of
// the definition being altered.
func (w *alterWork) renamePartitionKey(from, to string) {
	if w.cs.Partspec == nil {
		return
	}
	for _, n := range w.cs.Partspec.PartParams {
		pe := n.GetPartitionElem()
		if pe.Name == from {
			pe.Name = to
		}
		if pe.Expr != nil {
			columnRefs(pe.Expr, func(cr *pg_query.ColumnRef) {
				if s := cr.Fields[len(cr.Fields)-1].GetString_(); s != nil && s.Sval == from {
					s.Sval = to
				}
			})
		}
	}
}

// PartitionSQL is the statement that creates partition ct of parent as
// it is now, with the elements it has of its own (PartitionOwnSQL), and
// column from renamed to in them and in its own PARTITION BY (from "":
// none renamed).
func PartitionSQL(ct *CreateTable, parent string, own []string, from, to string) (string, error) {
	text := fmt.Sprintf("CREATE TABLE %s PARTITION OF %s ", QuoteIdent(ct.Name), QuoteIdent(parent))
	if len(own) > 0 {
		text += "(" + strings.Join(own, ", ") + ") "
	}
	text += BoundSQL(&ct.PartitionOf.Bound)
	if ct.PartitionBy != nil {
		text += " PARTITION BY " + PartitionKeySQL(ct.PartitionBy, ct.Cols)
	}
	if from == "" {
		return text, nil
	}
	r, err := pg_query.Parse(text)
	if err != nil {
		return "", err
	}
	w := &alterWork{cs: r.Stmts[0].Stmt.GetCreateStmt()}
	w.renamePartitionKey(from, to)
	for _, el := range w.cs.TableElts {
		if cd := el.GetColumnDef(); cd != nil && cd.Colname == from {
			cd.Colname = to
		}
		if c := el.GetConstraint(); c != nil && c.RawExpr != nil {
			columnRefs(c.RawExpr, func(cr *pg_query.ColumnRef) {
				if s := cr.Fields[len(cr.Fields)-1].GetString_(); s != nil && s.Sval == from {
					s.Sval = to
				}
			})
		}
	}
	return pg_query.Deparse(r)
}

// renamePartitionCheck checks ALTER TABLE … RENAME of a partition: its
// columns are its parent's (42P16); its own name is refused.
func (b *binder) renamePartitionCheck(rs *pg_query.RenameStmt) error {
	rel, ok := b.cat.Relation(rs.Relation.Relname)
	if !ok || rel.Partition == nil {
		return nil
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_COLUMN {
		if !slices.ContainsFunc(rel.Def.Cols, func(c ColumnDef) bool { return c.Name == rs.Subname }) {
			return pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", rs.Subname)
		}
		return pgerr.New(pgerr.InvalidTableDef, "cannot rename inherited column %q", rs.Subname)
	}
	return b.refuse(rs.Relation.Location, "ALTER TABLE … RENAME TO of partition %q is not supported", rel.Name).
		WithHint("detach the partition, rename the table, then attach it again")
}

// parentNotNull reports whether the parent of partition rel has column
// col NOT NULL.
func (b *binder) parentNotNull(rel *Relation, col string) bool {
	p, ok := b.lookupRelation(rel.Def.PartitionOf.Parent)
	return ok && p.Def != nil && slices.ContainsFunc(p.Def.Cols, func(c ColumnDef) bool { return c.Name == col && c.NotNull })
}

// parentCheck reports whether partition rel has the CHECK constraint
// name from a partitioned partition above it.
func (b *binder) parentCheck(rel *Relation, name string) bool {
	p, ok := b.lookupRelation(rel.Def.PartitionOf.Parent)
	return ok && p.Partition != nil && p.Def != nil && slices.ContainsFunc(p.Def.Checks, func(c Check) bool { return c.Name == name })
}
