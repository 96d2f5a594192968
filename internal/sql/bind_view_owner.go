package sql

// ViewBinder is implemented by a catalog that checks what a plain view's
// query reads against the privileges of the view's owner, as PostgreSQL's
// executor does (the reader of a security_invoker view instead):
// BindsView returns the catalog to bind view's query against and the log
// to record the columns it reads in, nil when none is needed. It
// supersedes ViewReader for the views a query reads.
type ViewBinder interface {
	BindsView(view *Relation) (Catalog, *RefLog)
}

// TargetBinder is a ViewBinder told when the binder binds, as its query,
// the automatically updatable view an INSERT, UPDATE or DELETE changes:
// what that reads is checked as the statement's target, not as a view's
// read.
type TargetBinder interface {
	BindsTarget(on bool)
}

// TargetViewReader is a ViewReader whose InTargetView is the catalog to
// resolve the relation under view against when a statement changes it
// through the view: the row-level security of the view's owner (the
// statement's role for a security_invoker view) applies to it, as
// PostgreSQL's rewritten statement meets it, and the relation is no read
// of the statement's (its privileges are checked per level, AutoLevel).
type TargetViewReader interface {
	InTargetView(view *Relation) Catalog
}

// InvokerCataloger is a ViewBinder's catalog of a view's query, whose
// InvokerCatalog resolves the relations of the body of a SQL function the
// query calls: the function runs as the statement's role, not as the
// view's owner, as PostgreSQL runs it. The log, nil when none is needed,
// records the columns the body reads, which the statement's role needs
// SELECT on (not the view's owner).
type InvokerCataloger interface {
	InvokerCatalog() (Catalog, *RefLog)
}

// asInvoker makes the binder resolve relations as the statement's role,
// and record the columns read in the log for the statement's role, until
// the function it returns is called (InvokerCataloger).
func (b *binder) asInvoker() func() {
	ic, ok := b.cat.(InvokerCataloger)
	if !ok {
		return func() {}
	}
	saved, savedStmt := b.cat, b.stmt
	cat, refs := ic.InvokerCatalog()
	b.cat, b.stmt = cat, withRefs(b.stmt, refs)
	return func() { b.cat, b.stmt = saved, savedStmt }
}

// viewCatalog is the catalog to bind view rel's query against, and the
// log to record the columns it reads in (nil for none).
func (b *binder) viewCatalog(rel *Relation) (Catalog, *RefLog) {
	if vb, ok := b.cat.(ViewBinder); ok {
		return vb.BindsView(rel)
	}
	if vr, ok := b.cat.(ViewReader); ok && !rel.SecurityInvoker {
		return vr.InView(), nil
	}
	return b.cat, nil
}

// withRefs is st recording its column references in refs; st itself
// when refs is nil. A view's query is shared: it is never changed.
func withRefs(st *Stmt, refs *RefLog) *Stmt {
	if refs == nil {
		return st
	}
	c := *st
	c.Refs = refs
	return &c
}
