package plpgsql

// Final statements: the SQL statements of a DO block after whose success
// none of the block's code runs. It keeps no state: the compiler marks
// them once (markFinal), and the interpreter tells a FinalRuntime when
// it runs one. A runtime that cannot undo some statement (deltaview's
// catalog changes are not transactional) may run it there, where no
// later error of the code could ask it to: DO $$ BEGIN CREATE TYPE …;
// EXCEPTION WHEN duplicate_object THEN NULL; END $$, or IF NOT EXISTS
// (…) THEN ALTER TABLE … ADD COLUMN …; END IF, as migration tools write.

// FinalRuntime is a Runtime told whether the SQL statement it is about to
// run is final: Final(true) before such a statement (and the expressions
// of its EXECUTE), Final(false) once it ended, successfully or not.
type FinalRuntime interface {
	Final(final bool)
}

// markFinal marks the SQL statements of body after whose success nothing
// of the code runs, when body's own end is the code's end (final): the
// last statement of body, and, through blocks, their handlers, IF and
// CASE, the last of theirs. A loop's statements are never final: the
// loop may run them again.
func markFinal(body []stmt, final bool) {
	for i, st := range body {
		last := final && i == len(body)-1
		switch st := st.(type) {
		case *execSQL:
			st.final = last
		case *dynExecute:
			st.final = last
		case *block:
			markFinal(st.body, last)
			for _, h := range st.handlers {
				markFinal(h.body, last)
			}
		case *ifStmt:
			for _, b := range st.bodies {
				markFinal(b, last)
			}
			markFinal(st.els, last)
		case *caseStmt:
			for _, b := range st.bodies {
				markFinal(b, last)
			}
			markFinal(st.els, last)
		}
	}
}

// finalRun tells the runtime that a final statement runs; the function it
// returns tells it that the statement ended.
func (c *call) finalRun() func() {
	fr, ok := c.rt.(FinalRuntime)
	if !ok {
		return func() {}
	}
	fr.Final(true)
	return func() { fr.Final(false) }
}
