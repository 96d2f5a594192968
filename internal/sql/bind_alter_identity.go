package sql

import (
	"fmt"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ALTER TABLE over identity columns, as PostgreSQL 15: ALTER COLUMN …
// ADD GENERATED ALWAYS | BY DEFAULT AS IDENTITY makes a NOT NULL column
// without a default an identity column, with a sequence of its own
// (created by the engine, as for a column added) that the rows there are
// do not use; SET GENERATED changes which of the two it is, SET option
// (RESTART, INCREMENT BY, …) its sequence's options, as ALTER SEQUENCE;
// DROP
// IDENTITY makes it a plain NOT NULL column, its sequence dropped.

// colConstraint returns the constraint of kind k of column cd, nil when
// it has none.
func colConstraint(cd *pg_query.ColumnDef, k pg_query.ConstrType) *pg_query.Constraint {
	for _, n := range cd.Constraints {
		if c := n.GetConstraint(); c.GetContype() == k {
			return c
		}
	}
	return nil
}

// alterIdentity runs ADD GENERATED … AS IDENTITY, SET GENERATED and DROP
// IDENTITY; done is false for another command.
func (b *binder) alterIdentity(w *alterWork, at *AlterTable, cmd *pg_query.AlterTableCmd) (done bool, err error) {
	switch cmd.Subtype {
	case pg_query.AlterTableType_AT_AddIdentity, pg_query.AlterTableType_AT_SetIdentity, pg_query.AlterTableType_AT_DropIdentity:
	default:
		return false, nil
	}
	cd, _ := w.col(cmd.Name)
	if cd == nil {
		return true, colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, w.name)
	}
	id := colConstraint(cd, pg_query.ConstrType_CONSTR_IDENTITY)
	notIdentity := func() error {
		return colErr(pgerr.ObjectNotInPrereqState, "column %q of relation %q is not an identity column", cmd.Name, w.name)
	}
	switch cmd.Subtype {
	case pg_query.AlterTableType_AT_AddIdentity:
		switch {
		case !cd.IsNotNull && colConstraint(cd, pg_query.ConstrType_CONSTR_NOTNULL) == nil:
			return true, colErr(pgerr.ObjectNotInPrereqState, "column %q of relation %q must be declared NOT NULL before identity can be added", cmd.Name, w.name)
		case id != nil:
			return true, colErr(pgerr.ObjectNotInPrereqState, "column %q of relation %q is already an identity column", cmd.Name, w.name)
		case colConstraint(cd, pg_query.ConstrType_CONSTR_DEFAULT) != nil:
			return true, colErr(pgerr.ObjectNotInPrereqState, "column %q of relation %q already has a default value", cmd.Name, w.name)
		}
		cd.Constraints = append(cd.Constraints, cmd.Def)
	case pg_query.AlterTableType_AT_SetIdentity:
		if id == nil {
			return true, notIdentity()
		}
		var seqOpts []*pg_query.Node
		generated := false
		for _, n := range cmd.Def.GetList().GetItems() {
			de := n.GetDefElem()
			if de.Defname != "generated" {
				seqOpts = append(seqOpts, n) // ALTER SEQUENCE's options, of its sequence
				continue
			}
			if generated {
				return true, pgerr.New(pgerr.SyntaxError, "conflicting or redundant options")
			}
			generated = true
			id.GeneratedWhen = string(rune(de.Arg.GetInteger().Ival))
		}
		if seqOpts != nil {
			var opts SeqOptions
			if err := b.seqOptions(seqOpts, &opts, true, true); err != nil {
				return true, err
			}
			at.IdentityOpts = append(at.IdentityOpts, IdentityOpts{Col: cmd.Name, Opts: opts})
		}
	case pg_query.AlterTableType_AT_DropIdentity:
		if id == nil {
			if cmd.MissingOk {
				at.Notices = append(at.Notices, fmt.Sprintf("column %q of relation %q is not an identity column, skipping", cmd.Name, w.name))
				return true, nil
			}
			return true, notIdentity()
		}
		cd.Constraints = slices.DeleteFunc(cd.Constraints, func(n *pg_query.Node) bool { return n.GetConstraint() == id })
		// The column stays NOT NULL, as in PostgreSQL.
		cd.Constraints = append(cd.Constraints, &pg_query.Node{Node: &pg_query.Node_Constraint{Constraint: &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_NOTNULL, Location: -1}}})
	}
	return true, nil
}
