package sql

// TakeBody gives f the body of g, the same routine bound again from its
// CREATE statement written anew: a BEGIN ATOMIC body is bound at CREATE,
// so a type it names that is renamed (ALTER TYPE … RENAME TO) is read
// again under its new name. What else f holds (its signature, settings,
// privileges) is kept.
func (f *Function) TakeBody(g *Function) {
	f.Body, f.Earlier, f.SQL, f.RowOfFields = g.Body, g.Earlier, g.SQL, g.RowOfFields
	f.Source, f.PLSQL = g.Source, g.PLSQL // a SQL procedure's PL/pgSQL form
	f.SQLCode, f.code, f.instances = g.SQLCode, g.code, g.instances
	f.Compiled = nil
}
