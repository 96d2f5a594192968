package plpgsql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Runtime is what the interpreter needs of the engine, for the session
// that runs the code. Every method returns errors with PostgreSQL's
// SQLSTATEs.
type Runtime interface {
	// Run runs one SQL statement whose parameters $1…$n have the types
	// given and the values args. A statement that is not a query or a
	// data change is refused. When keep is set, st is a statement of the
	// body, run again and again: the runtime may keep its binding for the
	// next run with the same types, as PostgreSQL keeps a plan.
	Run(st *sql.Stmt, types []value.Type, args []value.Value, keep bool) (*Result, error)
	// Assign converts v to t as an assignment does (a variable's type).
	Assign(v value.Value, t value.Type) (value.Value, error)
	// Notice sends a notice of severity level (INFO, NOTICE, WARNING) to
	// the client.
	Notice(level, msg string)
	// Mark marks the changes made so far; Undo undoes those made after
	// a mark: the subtransaction of a block with an EXCEPTION clause.
	Mark() Mark
	Undo(m Mark)
}

// Holder is a Runtime that keeps the relations of the query it ran last
// in use while a FOR loop runs over its rows or until an opened cursor's
// CLOSE (or the call's end), as PostgreSQL's open portal keeps them:
// HoldLast returns the function that lets them go, which may be called
// in any order with the others'.
type Holder interface {
	HoldLast() func()
}

// NoticeCoder is a Runtime that sends a notice with a SQLSTATE of RAISE's
// choosing (USING ERRCODE, or a condition's name); without it such a
// notice goes with its severity's code.
type NoticeCoder interface {
	NoticeCode(level, code, msg string)
}

// FieldNoticer is a Runtime that sends RAISE's notice n whole: its
// message, DETAIL, HINT, CONTEXT and object names, and its SQLSTATE when
// the statement chose one (coded). It is used before NoticeCoder.
type FieldNoticer interface {
	NoticeFull(level string, n *pgerr.Error, coded bool)
}

// Interrupter is a Runtime whose code a cancel or a timeout may stop:
// Interrupted returns the error of the interrupt raised (57014 for a
// cancel or statement_timeout), or nil. Every loop asks it once per
// interruptEvery iterations, so that an endless loop ends; a Runtime
// without it runs its loops to their end.
type Interrupter interface {
	Interrupted() error
}

// Mark is a point in the transaction's changes (Runtime.Mark).
type Mark struct {
	Log, Restarts, Notify int
	// Catalog is the number of the transaction block's catalog changes.
	Catalog int
}

// Result is what a statement gave: its rows (a query's, or a data
// change's RETURNING), and how many rows it processed.
type Result struct {
	Cols []plan.Column
	Rows []value.Row
	// Count is the number of rows returned, inserted, updated or deleted.
	Count int64
	// OutArgs are, for CALL, the argument of the call that each column
	// (an INOUT or OUT parameter) is for; -1 for a default.
	OutArgs []int
}

// Settings is a Runtime that reads the session's plpgsql.* settings
// (plpgsql.check_asserts, plpgsql.print_strict_params,
// plpgsql.variable_conflict); "" stands for one never set. Without it
// each has PostgreSQL's default.
type Settings interface {
	PLSetting(name string) string
}

// PortalNamer is a Runtime that numbers the session's unnamed portals, as
// PostgreSQL names them "<unnamed portal n>" in the order a backend opens
// them: the OPEN of a cursor variable that is NULL, and each FOR over a
// query. Without it, a call numbers its own from 1.
type PortalNamer interface {
	NextPortal() int
}
