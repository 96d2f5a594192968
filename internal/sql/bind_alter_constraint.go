package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// alterConstraint is ALTER TABLE … ALTER CONSTRAINT name [NOT]
// DEFERRABLE [INITIALLY DEFERRED | IMMEDIATE]: it changes when a foreign
// key is checked; PostgreSQL 15 alters no other kind of constraint
// (42809).
func (w *alterWork) alterConstraint(cmd *pg_query.AlterTableCmd) error {
	def := cmd.Def.GetConstraint()
	for _, c := range w.constraints() {
		if w.constraintName(c) != def.Conname {
			continue
		}
		if c.Contype != pg_query.ConstrType_CONSTR_FOREIGN {
			return pgerr.New(pgerr.WrongObjectType, "constraint %q of relation %q is not a foreign key constraint", def.Conname, w.name)
		}
		c.Deferrable, c.Initdeferred = def.Deferrable, def.Initdeferred
		return nil
	}
	return pgerr.New(pgerr.UndefinedObject, "constraint %q of relation %q does not exist", def.Conname, w.name)
}
