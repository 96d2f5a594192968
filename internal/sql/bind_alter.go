package sql

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// AlterTable is ALTER TABLE and ALTER TABLE … RENAME: the table's
// definition after every command, and how its rows become rows of it.
// Table is "" when IF EXISTS found no table (Notices says so).
type AlterTable struct {
	Table string
	New   *CreateTable
	// Map gives, for each column of New, the column of the table it
	// keeps, or -1 for a column added, whose value in the existing rows
	// is Fill's (nil: NULL; a volatile default is evaluated per row).
	Map  []int
	Fill []expr.Expr
	// Cast converts a kept column whose type ALTER COLUMN … TYPE changed:
	// an expression over the old row, nil for the others.
	Cast []expr.Expr
	// Columns is set when the columns or the name change (ADD, DROP,
	// RENAME): the rows are rebuilt, and views that read the table stand
	// in the way.
	Columns bool
	// Dropped are the columns DROP COLUMN drops; Cascade is its CASCADE.
	Dropped []string
	Cascade bool
	Notices []string
	// Only is ALTER TABLE ONLY: the table's inheritance children are
	// not altered with it.
	Only bool
	// ColumnCmds are the statement's SET and DROP NOT NULL and SET and
	// DROP DEFAULT commands, as text: each reaches the table's
	// inheritance descendants too.
	ColumnCmds []string
	// MergeChecks are the CHECK constraints ADD CONSTRAINT names that
	// the table has already, with the same expression: the engine merges
	// each with the one the table has from its parents alone, and
	// refuses another (42710).
	MergeChecks []string
	// Cluster is CLUSTER ON index (its name) or SET WITHOUT CLUSTER ("");
	// nil when the statement has neither.
	Cluster *string
	// Warnings are the statement's warnings (a statistics target
	// lowered); ReplicaIndex is the index REPLICA IDENTITY USING INDEX
	// names, which the engine checks; Persistence is set by SET LOGGED
	// and SET UNLOGGED, whose foreign keys the engine checks.
	Warnings     []string
	ReplicaIndex string
	Persistence  bool
	// Tag is the command tag when not ALTER TABLE's (ALTER INDEX of a
	// table).
	Tag string
	// Rewrite is why PostgreSQL would rewrite the table's rows for the
	// statement (Rewrite… bits, alter_rewrite.go), 0 when it would not.
	Rewrite int
	// OnlyPartitioned is, for ALTER TABLE ONLY of a partitioned table,
	// the error to return when the table has partitions (the first one
	// named first); nil when ONLY may alter it alone.
	OnlyPartitioned func(first string) error
	// RenamedFrom and RenamedTo are RENAME COLUMN's old and new names,
	// which the partitions' keys follow.
	RenamedFrom, RenamedTo string
	// DroppedNotNull are the columns DROP NOT NULL names: PostgreSQL's
	// recursion drops the NOT NULL of every partition's column too,
	// its own included.
	DroppedNotNull []string
	// DefaultsSet are the columns SET DEFAULT and DROP DEFAULT name:
	// PostgreSQL's recursion gives every partition the table's new
	// default, replacing its own, even when the table's is unchanged.
	DefaultsSet []string
	// IdentityOpts are the sequence options ALTER COLUMN … SET sets of
	// identity columns, which the engine applies to their sequences.
	IdentityOpts []IdentityOpts
	// Numbering is the first parameter of SET (attnums = …,
	// dropped_attributes = …), which only a store's restoring session
	// runs (attnum.go); "" for none.
	Numbering string
}

// IdentityOpts are the options of the sequence of identity column Col.
type IdentityOpts struct {
	Col  string
	Opts SeqOptions
}

func (*AlterTable) bound() {}

// alterWork is the table being altered, as the elements of a CREATE
// TABLE statement that the commands edit; origin is each column's
// position in the table before, -1 for a column added.
type alterWork struct {
	old    *CreateTable
	name   string
	cs     *pg_query.CreateStmt
	origin []int
	// using are ALTER COLUMN … TYPE … USING's expressions, by the old
	// column they compute.
	using map[int]*pg_query.Node
	// colAttrs are the columns' attributes, replica and replicaIndex the
	// table's replica identity (bind_column_attrs.go); retyped are the
	// old columns ALTER COLUMN … TYPE changes.
	colAttrs     map[*pg_query.ColumnDef]*ColumnAttrs
	replica      byte
	replicaIndex string
	retyped      map[int]bool
	// made is the table's Relation.MadeConstraint.
	made func(string) bool
	// added are the columns the statement adds whose default a SET
	// DEFAULT changes, as ADD COLUMN wrote them (bind_alter_add_default.go).
	added map[string]*pg_query.ColumnDef
	// nums are the columns' numbers, natts the greatest given, dropped
	// the columns dropped (attnum.go).
	nums    map[*pg_query.ColumnDef]int16
	natts   int16
	dropped []DroppedColumn
	// ofType is the table's composite type, "" for none (bind_typed.go).
	ofType string
}

func (w *alterWork) cols() []*pg_query.ColumnDef {
	var out []*pg_query.ColumnDef
	for _, el := range w.cs.TableElts {
		if cd := el.GetColumnDef(); cd != nil {
			out = append(out, cd)
		}
	}
	return out
}

func (w *alterWork) col(name string) (*pg_query.ColumnDef, int) {
	for i, cd := range w.cols() {
		if cd.Colname == name {
			return cd, i
		}
	}
	return nil, -1
}

func (w *alterWork) constraints() []*pg_query.Constraint {
	var out []*pg_query.Constraint
	for _, el := range w.cs.TableElts {
		if c := el.GetConstraint(); c != nil {
			out = append(out, c)
		}
	}
	return out
}

func keyNames(c *pg_query.Constraint) []string {
	var out []string
	for _, k := range c.Keys {
		out = append(out, k.GetString_().Sval)
	}
	for _, k := range c.FkAttrs { // a FOREIGN KEY's referencing columns
		out = append(out, k.GetString_().Sval)
	}
	for _, n := range c.Exclusions { // an EXCLUDE constraint's columns
		if ie := n.GetList().GetItems()[0].GetIndexElem(); ie.Name != "" {
			out = append(out, ie.Name)
		}
	}
	return out
}

// constraintName is the name a table constraint has here: its own, or
// PostgreSQL's default for a primary key or UNIQUE.
func (w *alterWork) constraintName(c *pg_query.Constraint) string {
	if c.Conname != "" {
		return c.Conname
	}
	switch c.Contype {
	case pg_query.ConstrType_CONSTR_PRIMARY:
		return w.name + "_pkey"
	case pg_query.ConstrType_CONSTR_UNIQUE:
		return w.name + "_" + strings.Join(keyNames(c), "_") + "_key"
	case pg_query.ConstrType_CONSTR_EXCLUSION:
		return exclusionDefaultName(w.name, c)
	}
	return c.Conname
}

func (b *binder) bindAlterTable(as *pg_query.AlterTableStmt) (Bound, error) {
	b.tableDef = true
	if as.Objtype == pg_query.ObjectType_OBJECT_TYPE {
		return b.bindAlterComposite(as)
	}
	if av, ok, err := b.bindAlterViewDefault(as); ok {
		return av, err
	}
	if as.Objtype == pg_query.ObjectType_OBJECT_TABLE || as.Objtype == pg_query.ObjectType_OBJECT_MATVIEW {
		if rel, ok := b.cat.Relation(as.Relation.Relname); ok {
			if err := alterRelKindError(rel, b.bareName(as.Relation.Relname), as.Cmds); err != nil {
				return nil, err
			}
		}
	}
	if ao, ok, err := b.bindAlterRelOwner(as); ok {
		return ao, err
	}
	if mo, ok, err := b.bindAlterMatViewOptions(as); ok {
		return mo, err
	}
	if st, ok := bindRelSetTablespace(as); ok {
		return st, nil
	}
	if sp, ok := b.bindSeqPersistence(as); ok {
		return sp, nil
	}
	if as.Objtype != pg_query.ObjectType_OBJECT_TABLE {
		return nil, b.refuse(as.Relation.Location, "ALTER %s is not supported", strings.ToLower(strings.TrimPrefix(as.Objtype.String(), "OBJECT_")))
	}
	if ar, err := b.bindAlterRules(as); ar != nil || err != nil {
		return ar, err
	}
	if at, err := b.bindAlterTriggers(as); at != nil || err != nil {
		return at, err
	}
	if at, err := b.bindAttachDetach(as); at != nil || err != nil {
		return at, err
	}
	if ai, err := b.bindAlterInherit(as); ai != nil || err != nil {
		return ai, err
	}
	if rel, ok := b.cat.Relation(as.Relation.Relname); ok && rel.Partition != nil && as.Relation.Schemaname == "" {
		if ap, err := b.bindAlterPartitionOwn(as, rel); ap != nil || err != nil {
			return ap, err
		}
	}
	b.alterCmds = as.Cmds
	w, at, err := b.alterTarget(as.Relation, as.MissingOk)
	if w == nil || err != nil {
		return at, err
	}
	for _, n := range as.Cmds {
		if err := b.alterCmd(w, at, n.GetAlterTableCmd()); err != nil {
			return nil, err
		}
	}
	return b.alterDone(w, at)
}

// alterTarget resolves the table ALTER TABLE names; w is nil when IF
// EXISTS found none.
func (b *binder) alterTarget(rv *pg_query.RangeVar, missingOk bool) (*alterWork, *AlterTable, error) {
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok {
		// PostgreSQL looks the table up without a position, its schema
		// first; IF EXISTS names it without its schema.
		if missingOk {
			return nil, &AlterTable{Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", b.writtenName(rv.Relname))}}, nil
		}
		if err := b.missingSchemaOf(rv.Relname); err != nil {
			return nil, nil, err
		}
		return nil, nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	}
	if rel.Kind != KindTable || rel.Def == nil {
		return nil, nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "%q is not a table", rv.Relname)
	}
	if rel.Def.ChangeStream {
		return nil, nil, b.refuse(rv.Location, "ALTER TABLE of change-stream table %q is not supported", rv.Relname)
	}
	if err := b.checkPartitionAlter(rv, rel, b.alterCmds); err != nil {
		return nil, nil, err
	}
	r, err := pg_query.Parse(rel.Def.SQL())
	if err != nil {
		return nil, nil, pgerr.New(pgerr.Internal, "cannot read the definition of table %q: %v", rv.Relname, err)
	}
	w := &alterWork{old: rel.Def, name: rv.Relname, cs: r.Stmts[0].Stmt.GetCreateStmt(), made: rel.MadeConstraint}
	// A key keeps its name, its default one too, whatever the ALTER
	// renames, as PostgreSQL's: the definition's keys are written in
	// order, the primary key first.
	u := 0
	for _, c := range w.constraints() {
		switch {
		case c.Conname != "":
		case c.Contype == pg_query.ConstrType_CONSTR_PRIMARY:
			c.Conname = rel.Def.KeyName(-1)
		case c.Contype == pg_query.ConstrType_CONSTR_UNIQUE:
			c.Conname = rel.Def.KeyName(u)
		}
		if c.Contype == pg_query.ConstrType_CONSTR_UNIQUE {
			u++
		}
	}
	for i := range rel.Def.Cols {
		w.origin = append(w.origin, i)
	}
	w.startAttrs(rel.Def)
	w.startNumbers(rel.Def)
	w.ofType = rel.Def.OfType
	at := &AlterTable{Table: rv.Relname, Only: !rv.Inh}
	if !rv.Inh {
		at.OnlyPartitioned = onlyPartitioned(rel, b.alterCmds)
	}
	return w, at, nil
}

func colErr(code, format, col, table string) *pgerr.Error {
	return pgerr.New(code, format, col, table)
}

func (b *binder) alterCmd(w *alterWork, at *AlterTable, cmd *pg_query.AlterTableCmd) error {
	if done, err := w.numberingCmd(at, cmd); done || err != nil {
		return err
	}
	if done, err := b.typedTableCmd(w, cmd); done || err != nil {
		return err
	}
	if done, err := b.alterGenerated(w, at, cmd); done || err != nil {
		return err
	}
	if done, err := b.columnAttrsCmd(w, at, cmd); done || err != nil {
		return err
	}
	if done, err := b.alterIdentity(w, at, cmd); done || err != nil {
		return err
	}
	switch cmd.Subtype {
	case pg_query.AlterTableType_AT_AddColumn:
		cd := cmd.Def.GetColumnDef()
		if c, _ := w.col(cd.Colname); c != nil {
			if cmd.MissingOk {
				at.Notices = append(at.Notices, fmt.Sprintf("column %q of relation %q already exists, skipping", cd.Colname, w.name))
				return nil
			}
			return colErr(pgerr.DuplicateColumn, "column %q of relation %q already exists", cd.Colname, w.name)
		}
		w.cs.TableElts = append(w.cs.TableElts, cmd.Def)
		w.origin = append(w.origin, -1)
		w.num(cd)
		at.Columns = true
	case pg_query.AlterTableType_AT_DropColumn:
		dc, i := w.col(cmd.Name)
		if i < 0 || w.origin[i] < 0 { // PostgreSQL drops before it adds

			if cmd.MissingOk {
				at.Notices = append(at.Notices, fmt.Sprintf("column %q of relation %q does not exist, skipping", cmd.Name, w.name))
				return nil
			}
			return colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, w.name)
		}
		// The column goes with the constraints over it, as in PostgreSQL.
		w.cs.TableElts = slices.DeleteFunc(w.cs.TableElts, func(el *pg_query.Node) bool {
			if cd := el.GetColumnDef(); cd != nil {
				return cd.Colname == cmd.Name
			}
			c := el.GetConstraint()
			return c != nil && (slices.Contains(keyNames(c), cmd.Name) || refersTo(c.RawExpr, cmd.Name) || exclusionRefers(c, cmd.Name))
		})
		w.dropNumber(dc, i)
		w.origin = slices.Delete(w.origin, i, i+1)
		at.Columns = true
		at.Dropped = append(at.Dropped, cmd.Name)
		at.Cascade = at.Cascade || cmd.Behavior == pg_query.DropBehavior_DROP_CASCADE
	case pg_query.AlterTableType_AT_SetNotNull, pg_query.AlterTableType_AT_DropNotNull, pg_query.AlterTableType_AT_ColumnDefault:
		cd, _ := w.col(cmd.Name)
		if cd == nil {
			return colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, w.name)
		}
		kind := pg_query.ConstrType_CONSTR_NOTNULL
		if cmd.Subtype == pg_query.AlterTableType_AT_ColumnDefault {
			kind = pg_query.ConstrType_CONSTR_DEFAULT
			at.DefaultsSet = append(at.DefaultsSet, cmd.Name)
			if slices.ContainsFunc(cd.Constraints, func(n *pg_query.Node) bool {
				return n.GetConstraint().GetContype() == pg_query.ConstrType_CONSTR_IDENTITY
			}) {
				err := colErr(pgerr.SyntaxError, "column %q of relation %q is an identity column", cmd.Name, w.name)
				if cmd.Def == nil {
					err = err.WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.")
				}
				return err
			}
		}
		if _, i := w.col(cmd.Name); kind == pg_query.ConstrType_CONSTR_DEFAULT {
			if err := w.addedColumnDefault(cmd, cd, i); err != nil {
				return err
			}
		}
		cd.Constraints = slices.DeleteFunc(cd.Constraints, func(n *pg_query.Node) bool { return n.GetConstraint().GetContype() == kind })
		if err := columnCmdText(at, cmd); err != nil {
			return err
		}
		switch {
		case cmd.Subtype == pg_query.AlterTableType_AT_DropNotNull:
			cd.IsNotNull = false
			at.DroppedNotNull = append(at.DroppedNotNull, cmd.Name)
			for _, c := range w.constraints() {
				if c.Contype == pg_query.ConstrType_CONSTR_PRIMARY && slices.Contains(keyNames(c), cmd.Name) {
					return pgerr.New(pgerr.InvalidTableDef, "column %q is in a primary key", cmd.Name)
				}
			}
		case cmd.Subtype == pg_query.AlterTableType_AT_SetNotNull || cmd.Def != nil:
			cd.Constraints = append(cd.Constraints, &pg_query.Node{Node: &pg_query.Node_Constraint{Constraint: &pg_query.Constraint{Contype: kind, RawExpr: cmd.Def, Location: -1}}})
		}
	case pg_query.AlterTableType_AT_AddConstraint:
		c := cmd.Def.GetConstraint()
		if c.Indexname != "" {
			// The parser gives the key no columns: its index has them.
			return b.refuse(c.Location, "ALTER TABLE … %s is not supported", alterCmdName(pg_query.AlterTableType_AT_AddIndexConstraint)).
				WithHint("add the constraint with its columns; the index it makes serves it")
		}
		if c.SkipValidation && c.Contype != pg_query.ConstrType_CONSTR_CHECK && c.Contype != pg_query.ConstrType_CONSTR_FOREIGN {
			kind := map[pg_query.ConstrType]string{pg_query.ConstrType_CONSTR_UNIQUE: "UNIQUE", pg_query.ConstrType_CONSTR_PRIMARY: "PRIMARY KEY", pg_query.ConstrType_CONSTR_EXCLUSION: "EXCLUSION"}[c.Contype]
			return b.refuse(c.Location, "%s constraints cannot be marked NOT VALID", kind)
		}
		if c.Conname != "" {
			for _, o := range w.constraints() {
				if w.constraintName(o) == c.Conname {
					if sameCheck(o, c) {
						// The engine merges it with an inherited one
						// of the same name and expression, as in
						// PostgreSQL, or refuses it.
						at.MergeChecks = append(at.MergeChecks, c.Conname)
						return nil
					}
					if c.Contype == pg_query.ConstrType_CONSTR_EXCLUSION && hasIndex(o) {
						// The constraint's index is named first, as in
						// PostgreSQL.
						return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", c.Conname)
					}
					return pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", c.Conname, w.name)
				}
			}
		}
		w.cs.TableElts = append(w.cs.TableElts, cmd.Def)
	case pg_query.AlterTableType_AT_SetRelOptions, pg_query.AlterTableType_AT_ResetRelOptions:
		setRelOptions(w.cs, cmd)
	case pg_query.AlterTableType_AT_ClusterOn, pg_query.AlterTableType_AT_DropCluster:
		name := cmd.Name // "" for SET WITHOUT CLUSTER
		at.Cluster = &name
	case pg_query.AlterTableType_AT_SetTableSpace:
		return nil // pg_default (checkTablespaces), where the table is
	case pg_query.AlterTableType_AT_SetAccessMethod:
		return tableAccessMethod(cmd.Name) // heap, the table's: PostgreSQL rewrites nothing
	case pg_query.AlterTableType_AT_SetLogged, pg_query.AlterTableType_AT_SetUnLogged:
		// Either way, the rows are written to the file at each commit.
		return b.persistenceCmd(w, at, cmd.Subtype == pg_query.AlterTableType_AT_SetUnLogged)
	case pg_query.AlterTableType_AT_ReplicaIdentity:
		w.replicaIdentityCmd(at, cmd)
	case pg_query.AlterTableType_AT_ValidateConstraint:
		return w.validateConstraint(cmd.Name)
	case pg_query.AlterTableType_AT_AlterConstraint:
		return w.alterConstraint(cmd)
	case pg_query.AlterTableType_AT_DropConstraint:
		n := len(w.cs.TableElts)
		w.cs.TableElts = slices.DeleteFunc(w.cs.TableElts, func(el *pg_query.Node) bool {
			c := el.GetConstraint()
			return c != nil && w.constraintName(c) == cmd.Name
		})
		if len(w.cs.TableElts) == n {
			if w.made != nil && w.made(cmd.Name) {
				return pgerr.New(pgerr.InvalidTableDef, "cannot drop inherited constraint %q of relation %q", cmd.Name, w.name)
			}
			if cmd.MissingOk {
				at.Notices = append(at.Notices, fmt.Sprintf("constraint %q of relation %q does not exist, skipping", cmd.Name, w.name))
				return nil
			}
			return pgerr.New(pgerr.UndefinedObject, "constraint %q of relation %q does not exist", cmd.Name, w.name)
		}
	case pg_query.AlterTableType_AT_AlterColumnType:
		cd, _ := w.col(cmd.Name)
		if cd == nil {
			return colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, w.name)
		}
		def := cmd.Def.GetColumnDef()
		if u := def.RawDefault; u != nil {
			loc := nodeLoc(u, -1)
			switch _, i := w.col(cmd.Name); {
			case hasSubLink(u):
				return b.stmt.errf(loc, pgerr.FeatureNotSupported, "cannot use subquery in transform expression")
			case hasAggregate(u):
				return b.stmt.errf(loc, pgerr.GroupingError, "aggregate functions are not allowed in transform expressions")
			case hasWindowCall(u):
				return b.stmt.errf(loc, "42P20", "window functions are not allowed in transform expressions")
			case w.origin[i] < 0: // added by the same statement
				return colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, w.name)
			default:
				if w.using == nil {
					w.using = map[int]*pg_query.Node{}
				}
				w.using[w.origin[i]] = u
			}
		}
		cd.TypeName = def.TypeName
		cd.CollClause = def.CollClause // without one, the new type's default, as in PostgreSQL
		// The column takes its new type's storage and the default
		// compression, as in PostgreSQL; the rest stays.
		_, i := w.col(cmd.Name)
		a, err := w.attrs(b, cd, i)
		if err != nil {
			return err
		}
		a.Storage, a.Compression = 0, 0
		if w.origin[i] >= 0 {
			if w.retyped == nil {
				w.retyped = map[int]bool{}
			}
			w.retyped[w.origin[i]] = true
		}
		at.Columns = true
	default:
		return b.refuse(-1, "ALTER TABLE … %s is not supported", alterCmdName(cmd.Subtype))
	}
	return nil
}

// bindRename binds ALTER TABLE … RENAME [COLUMN] … TO … and ALTER TABLE …
// RENAME TO ….
func (b *binder) bindRename(rs *pg_query.RenameStmt) (Bound, error) {
	if kind, ok := alterRoutineKind(rs.RenameType); ok {
		return b.bindRenameRoutine(kind, rs)
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_DOMAIN || rs.RenameType == pg_query.ObjectType_OBJECT_DOMCONSTRAINT {
		return b.bindRenameDomain(rs)
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_TYPE {
		return b.bindRenameType(rs)
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_ATTRIBUTE {
		return b.bindRenameAttribute(rs)
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_SCHEMA {
		return b.bindAlterSchemaRename(rs)
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_RULE {
		return b.bindRenameRule(rs)
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_TRIGGER {
		return b.bindRenameTrigger(rs)
	}
	if rs.RenameType == pg_query.ObjectType_OBJECT_TABCONSTRAINT {
		return b.bindRenameConstraint(rs)
	}
	if bi, ok, err := b.bindRenameIndex(rs); ok || err != nil {
		return bi, err
	}
	if br, ok, err := b.bindRenameRelation(rs); ok || err != nil {
		return br, err
	}
	if bv, ok, err := b.bindRenameViewColumn(rs); ok || err != nil {
		return bv, err
	}
	table := rs.RenameType == pg_query.ObjectType_OBJECT_TABLE
	if !table && (rs.RenameType != pg_query.ObjectType_OBJECT_COLUMN || rs.RelationType != pg_query.ObjectType_OBJECT_TABLE) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER … RENAME is supported for tables and their columns")
	}
	if err := b.renamePartitionCheck(rs); err != nil {
		return nil, err
	}
	w, at, err := b.alterTarget(rs.Relation, rs.MissingOk)
	if w == nil || err != nil {
		return at, err
	}
	at.Columns = true
	if table {
		if _, ok := b.cat.Relation(rs.Newname); ok {
			return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", rs.Newname)
		}
		if err := b.domainTaken(rs.Newname); err != nil {
			return nil, err
		}
		w.cs.Relation.Relname = rs.Newname
		if q := b.qualifier(); q != nil {
			// SET SCHEMA: the keys' indexes move with the table.
			from, _ := q.SplitKey(w.name)
			if to, _ := q.SplitKey(rs.Newname); to != from {
				for _, c := range w.constraints() {
					if c.Contype == pg_query.ConstrType_CONSTR_PRIMARY || c.Contype == pg_query.ConstrType_CONSTR_UNIQUE {
						if c.Conname = b.bareName(c.Conname); to != "public" {
							c.Conname = to + "." + c.Conname
						}
					}
				}
			}
		}
		return b.alterDone(w, at)
	}
	cd, _ := w.col(rs.Subname)
	if cd == nil {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", rs.Subname)
	}
	if w.ofType != "" {
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot rename column of typed table")
	}
	if c, _ := w.col(rs.Newname); c != nil {
		return nil, colErr(pgerr.DuplicateColumn, "column %q of relation %q already exists", rs.Newname, w.name)
	}
	cd.Colname = rs.Newname
	w.renameGenerated(rs.Subname, rs.Newname)
	w.renamePartitionKey(rs.Subname, rs.Newname)
	at.RenamedFrom, at.RenamedTo = rs.Subname, rs.Newname
	if !rs.Relation.Inh && at.OnlyPartitioned == nil && w.old.PartitionBy != nil {
		at.OnlyPartitioned = func(string) error {
			return pgerr.New(pgerr.InvalidTableDef, "inherited column %q must be renamed in child tables too", rs.Subname)
		}
	}
	for _, c := range w.constraints() {
		for _, k := range slices.Concat(c.Keys, c.FkAttrs, c.FkDelSetCols) {
			if s := k.GetString_(); s.Sval == rs.Subname {
				s.Sval = rs.Newname
			}
		}
		renameExclusionColumn(c, rs.Subname, rs.Newname)
		if c.RawExpr != nil {
			columnRefs(c.RawExpr, func(cr *pg_query.ColumnRef) {
				if s := cr.Fields[len(cr.Fields)-1].GetString_(); s != nil && s.Sval == rs.Subname {
					s.Sval = rs.Newname
				}
			})
		}
	}
	return b.alterDone(w, at)
}

// alterDone binds the edited definition as CREATE TABLE would, and maps
// the table's rows to it.
func (b *binder) alterDone(w *alterWork, at *AlterTable) (Bound, error) {
	sub := &binder{cat: b.cat, stmt: &Stmt{}}
	nb, err := sub.bindCreateTable(w.cs)
	if err != nil {
		return nil, err
	}
	at.New = nb.(*CreateTable)
	w.endAttrs(at.New)
	w.endNumbers(at.New)
	at.New.OfType = w.ofType
	at.Map = w.origin
	at.Fill = make([]expr.Expr, len(w.origin))
	at.Cast = make([]expr.Expr, len(w.origin))
	for i, o := range w.origin {
		c := at.New.Cols[i]
		if o < 0 {
			// A default that calls a sequence (a serial column) runs in
			// the statement as INSERT's would.
			at.Fill[i] = c.DefaultExpr()
			if e, ok, err := w.addedFill(b, c.Name); err != nil {
				return nil, err
			} else if ok {
				at.Fill[i] = e
			}
			if sc, ok := b.cat.(StatementClocker); ok {
				at.Fill[i] = expr.WithClock(at.Fill[i], sc.StatementClock())
			}
			continue
		}
		if c.Identity != 0 && c.Type != w.old.Cols[o].Type {
			return nil, b.refuse(-1, "ALTER COLUMN … TYPE of identity column %q is not supported", c.Name).
				WithHint("add a column of the new type, UPDATE it from the old one, then drop the old column")
		}
		from := w.old.Cols[o].Type
		if u := w.using[o]; u != nil {
			e, err := b.usingExpr(w, u, c)
			if err != nil {
				return nil, err
			}
			at.Cast[i] = e
			continue
		}
		if from == c.Type {
			continue
		}
		// As PostgreSQL without USING: the assignment cast, or 42804.
		e, err := b.assignCast(&expr.Col{Idx: o, T: from, Name: c.Name}, c.Type, c.Name, -1)
		if err != nil {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "column %q cannot be cast automatically to type %s", c.Name, c.Type).
				WithHint("add a column of the new type, UPDATE it from the old one, then drop the old column")
		}
		at.Cast[i] = e
	}
	w.rewriteReason(at)
	return at, nil
}

// usingExpr binds ALTER COLUMN … TYPE … USING u, computing column c
// from the table's old row, converted to c's type by assignment.
func (b *binder) usingExpr(w *alterWork, u *pg_query.Node, c ColumnDef) (expr.Expr, error) {
	cols := make([]plan.Column, len(w.old.Cols))
	for i, oc := range w.old.Cols {
		cols[i] = plan.Column{Name: oc.Name, Type: oc.Type}
	}
	e, err := b.bindExpr(newScope(b.bareName(w.name), cols), u)
	if err != nil {
		return nil, err
	}
	if e.Type() == c.Type {
		return e, nil
	}
	cast, err := b.assignCast(e, c.Type, c.Name, -1)
	if err != nil {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "result of USING clause for column %q cannot be cast automatically to type %s", c.Name, c.Type).
			WithHint("You might need to add an explicit cast.")
	}
	return cast, nil
}

// sameCheck reports whether constraints a and b are CHECK constraints
// of the same expression and inheritance.
func sameCheck(a, b *pg_query.Constraint) bool {
	if a.Contype != pg_query.ConstrType_CONSTR_CHECK || b.Contype != pg_query.ConstrType_CONSTR_CHECK || a.IsNoInherit != b.IsNoInherit {
		return false
	}
	x, err1 := deparseExpr(a.RawExpr)
	y, err2 := deparseExpr(b.RawExpr)
	return err1 == nil && err2 == nil && x == y
}

// columnCmdText adds an ALTER COLUMN … SET/DROP NOT NULL or DEFAULT
// command to at.ColumnCmds.
func columnCmdText(at *AlterTable, cmd *pg_query.AlterTableCmd) error {
	text := "ALTER COLUMN " + QuoteIdent(cmd.Name)
	switch {
	case cmd.Subtype == pg_query.AlterTableType_AT_SetNotNull:
		text += " SET NOT NULL"
	case cmd.Subtype == pg_query.AlterTableType_AT_DropNotNull:
		text += " DROP NOT NULL"
	case cmd.Def == nil:
		text += " DROP DEFAULT"
	default:
		d, err := deparseExpr(cmd.Def)
		if err != nil {
			return err
		}
		text += " SET DEFAULT " + d
	}
	at.ColumnCmds = append(at.ColumnCmds, text)
	return nil
}

// refersTo reports whether an expression reads a column of that name.
func refersTo(n *pg_query.Node, col string) bool {
	found := false
	if n != nil {
		columnRefs(n, func(cr *pg_query.ColumnRef) {
			if s := cr.Fields[len(cr.Fields)-1].GetString_(); s != nil && s.Sval == col {
				found = true
			}
		})
	}
	return found
}

// columnRefs calls fn with every column reference in n.
func columnRefs(n *pg_query.Node, fn func(*pg_query.ColumnRef)) {
	var visit func(m protoreflect.Message)
	visit = func(m protoreflect.Message) {
		if cr, ok := m.Interface().(*pg_query.ColumnRef); ok && len(cr.Fields) > 0 {
			fn(cr)
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsList() && fd.Message() != nil:
				l := v.List()
				for i := 0; i < l.Len(); i++ {
					visit(l.Get(i).Message())
				}
			case !fd.IsMap() && fd.Message() != nil:
				visit(v.Message())
			}
			return true
		})
	}
	visit(n.ProtoReflect())
}
