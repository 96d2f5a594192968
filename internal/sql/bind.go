package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// binder resolves one statement against a catalog.
type binder struct {
	// prebound are expressions already bound that a node made by the
	// binder stands for: a ParamRef at one of these locations (all
	// below any text's) is its expression (bind_cast.go).
	prebound map[int32]expr.Expr
	// rowNodes are the ROW(…) constructors bound, by their expression:
	// a conversion to a composite type met later places its errors at a
	// field's literal (bind_record_cast.go).
	rowNodes map[*expr.RowCons]*pg_query.Node
	// bytewiseRefs are the positions of the references of columns of a
	// byte-wise collation other than "default" ("C"): their conflicts
	// with another implicit collation are reported there.
	bytewiseRefs map[*expr.Col]int32
	// conflictRefs are the results of aggregates and window functions
	// whose arguments' implicit collations conflict: they derive the
	// conflict (resultCollated).
	conflictRefs map[*expr.Col]collState
	cat          Catalog
	// arraySubAggs are the array_agg calls ARRAY(subquery) is rewritten
	// to (arraySubLink): over an int2vector or oidvector they make the
	// vector's array type, as ARRAY(subquery) does, where array_agg
	// itself would stack the vectors as int2 or oid arrays.
	arraySubAggs map[*pg_query.FuncCall]bool
	// inDefault is set while a column's or a domain's DEFAULT is bound:
	// its session values (current_user) read the clock of the statement
	// that inserts, which expr.WithClock gives them then.
	inDefault bool
	stmt      *Stmt
	// rlsOpen are the tables whose policies are being bound, innermost
	// last: a policy that reads its own table again is infinite recursion.
	rlsOpen []string
	// partTarget is the constraint of the partition a DML statement
	// names, whose rows its root table keeps (targetTable); nil otherwise.
	partTarget *expr.PartitionOf
	// inheritTarget is the descendant a DML statement of its ancestor is
	// bound over again (bind_inherit.go).
	inheritTarget *Relation
	// inheritedChecks are the CHECK constraints mergeInherited gave a
	// table from its parents that the table does not declare itself.
	inheritedChecks []string
	// currentOfHier are the tables an UPDATE or DELETE of a table with
	// inheritance children reaches, for WHERE CURRENT OF: a cursor that
	// stands on a row of another of them finds no row in the table
	// being bound (bind_current_of.go).
	currentOfHier []*Relation
	// alterCmds are the commands of the ALTER TABLE being bound.
	alterCmds []*pg_query.Node
	// lock collects the locking clauses of a SELECT statement's queries
	// (bind_locking.go); nil for other statements.
	lock *Locking
	// autoReads is set while an UPDATE or DELETE on a view that reads
	// the view's rows (WHERE, SET, RETURNING), or an INSERT with
	// RETURNING, is resolved to its table: row-level security's SELECT
	// policies then apply there too (bind_view_rls.go).
	autoReads bool
	// forView is set while binding a view's defining query: constructs
	// that cannot be maintained incrementally are refused.
	forView bool
	// adHocCall is set when a view's query was refused for a call of a
	// user's routine that only a query run once makes (a PL/pgSQL
	// function in FROM or not IMMUTABLE, a SQL function run as
	// statements): EXPLAIN then plans the ad-hoc query (explainAdHoc).
	adHocCall bool
	// writes is set while an INSERT, UPDATE, DELETE or MERGE is bound: a
	// volatile SQL function reading tables runs at each call, and so does
	// another where a subquery cannot go (bind_volatile_call.go).
	writes bool
	// winAgg is set while an aggregate over a window is bound as over a
	// group (bindWinAggAdHoc): the window's ORDER BY orders the json
	// aggregates' values, which need none of their own in a view.
	winAgg bool
	// clockOK is set while a view's WHERE conjunct is bound: it may read
	// the clock (now(), current_date), if it compares it with the row in
	// a way a temporal filter maintains (expr.AsTemporal).
	clockOK bool
	// viewTop is a materialized view's own SELECT, whose ORDER BY without
	// LIMIT becomes viewOrder: the order the view's rows read back in.
	viewTop   *pg_query.SelectStmt
	viewOrder []plan.SortKey
	// ctes is the stack of WITH scopes, innermost last.
	ctes []map[string]*cte
	// modWith is the top-level statement's WITH list when it holds
	// data-modifying items (bind_with_modify.go); nil otherwise.
	modWith *modifyingWith
	// sortBound holds the ORDER BY items bound before the projection is
	// built (those calling window functions), for orderKeys.
	sortBound map[*pg_query.Node]expr.Expr
	// agg is set while binding expressions above a GROUP BY.
	agg *aggScope
	// aggArgs is the aggregate call whose arguments are being bound.
	aggArgs *pg_query.FuncCall
	// stmtClock is the clock of an ad-hoc statement's clock functions
	// (bind_clock.go); nil when they read the clock at each call.
	stmtClock *expr.StmtClock
	// viewZone is a materialized view's clock of the zone it captured
	// (zoned), once an operation needs it.
	viewZone *expr.StmtClock
	// currentOf is the table of an UPDATE or DELETE WHERE CURRENT OF
	// (bind_current_of.go).
	currentOf *currentOfTarget
	// insertSelectList is the select list of INSERT … SELECT, whose
	// string literals, NULLs and parameters are read as the types of
	// their target columns, insertSelectTypes, as in PostgreSQL
	// (bindTargets); where that type is unknown they stay untyped, for
	// the insert to convert.
	insertSelectList  []*pg_query.Node
	insertSelectTypes []value.Type
	// insertSelectDomains are the target columns' domains: a string
	// literal read as an array of a domain is checked as it is read.
	insertSelectDomains []*expr.Domain
	// params collects the parameters $N of a statement bound by
	// BindPrepared; nil when the statement cannot have any.
	params *Params
	// outers are the input scopes of the queries around a subquery being
	// bound, innermost first: a name found in none of the subquery's own
	// columns resolves to an expr.Outer reference into one of them.
	outers []*scope
	// fast is set while a fast path binds a subquery: a subquery nested in
	// it sends the whole subquery to general decorrelation (errGeneral).
	fast bool
	// lateral is the scope of the FROM items left of the one being bound,
	// which a LATERAL subquery or a function in FROM may read.
	lateral *scope
	// fromArgs is the scope of the arguments of the functions of a FROM
	// item being bound: nil, or the row of the subqueries they hold
	// (bind_tablefunc_sub.go).
	fromArgs *scope
	// connectbyRows are the key and parent key types of the query each
	// connectby call of the FROM item being bound reads, by the call's
	// position (bind_connectby.go).
	connectbyRows map[int32][]value.Type
	// windows are the WINDOW clause's named windows of the SELECT whose
	// select list is being bound.
	windows map[string]*pg_query.WindowDef
	// rows are the stored relations resolved, with their row counts and
	// unique keys when resolved, for ordering joins; shared with the
	// binders of the views inlined.
	rows map[string]*Relation
	// unregOut marks the columns of the query bindSelect bound last whose
	// records have fields PostgreSQL cannot select (unregisteredColumn).
	unregOut []bool
	// originOut are the table columns the columns of the query
	// bindSelect bound last are taken from (bind_column_origin.go).
	originOut []Origin
	// collOut are the collations the columns of the query bindSelect
	// bound last derive (a simple SELECT's; nil for another query).
	collOut []collState
	// exprDoms are the domains of expressions bound that their form does
	// not tell (noteDomain).
	exprDoms map[expr.Expr]*expr.Domain
	// untyped are the expressions bound from untyped literals that took
	// a common type (noteUntyped).
	untyped map[expr.Expr]bool
	// targetOrigins are the origins of the select lists bindTargets
	// bound, by their first item, by output column.
	targetOrigins map[*pg_query.Node][]Origin
	// tableDef is set while a table's definition is bound (CREATE and
	// ALTER TABLE), whose expressions may not call SQL functions.
	tableDef bool
}

func (b *binder) rowCounts() map[string]*Relation {
	if b.rows == nil {
		b.rows = map[string]*Relation{}
	}
	return b.rows
}

// cte is a bound common table expression.
type cte struct {
	plan plan.Node
	// rec counts the references to a WITH RECURSIVE query while its
	// recursive term is bound (plan is then its RecRef).
	rec *recUse
	// refuse, when set, is the error any reference gets: a recursive
	// query referenced where PostgreSQL forbids it, or a later item of a
	// WITH RECURSIVE list.
	refuse func(loc int32) error
	// unreg marks the query's columns whose records have fields PostgreSQL
	// cannot select (binder.unregOut); nil for a recursive query.
	unreg []bool
	// origins are the table columns its columns are taken from
	// (binder.originOut).
	origins []Origin
	// colls are the collations its query derives for its columns
	// (binder.collOut).
	colls []collState
}

// Bind resolves a parsed statement against cat.
func Bind(cat Catalog, s *Stmt) (Bound, error) {
	if s.Subscribe != "" {
		return &Subscribe{View: s.Subscribe}, nil
	}
	if s.Explain != "" {
		return &Explain{Name: s.Explain, Format: s.ExplainFormat}, nil
	}
	b := &binder{cat: cat, stmt: s, stmtClock: stmtClockFor(cat, s.Node)}
	if ok, err := refuseObjectKinds(s.Node); ok {
		return nil, err
	}
	if bd, ok, err := b.bindEventTriggerStmt(s.Node); ok {
		return bd, err
	}
	if bd, ok, err := b.bindCollationStmt(s.Node); ok {
		return bd, err
	}
	if err := b.checkTablespaces(s.Node); err != nil {
		return nil, err
	}
	if m := s.Node.GetAlterTableMoveAllStmt(); m != nil {
		return bindMoveAll(m)
	}
	rewriteQuantified(cat, s.SQL, s.Node)
	markUserAggregates(cat, s.Node)
	return b.bindStmt(s.Node)
}

// BindQuery binds a SELECT for a view definition (forView) or a one-off
// evaluation.
func BindQuery(cat Catalog, s *Stmt, forView bool) (plan.Node, error) {
	b := &binder{cat: cat, stmt: s, forView: forView}
	rewriteQuantified(cat, s.SQL, s.Node)
	markUserAggregates(cat, s.Node)
	sel := s.Node.GetSelectStmt()
	if sel == nil {
		return nil, pgerr.New(pgerr.WrongObjectType, "not a query")
	}
	return b.bindSelect(sel)
}

func (b *binder) bindStmt(n *pg_query.Node) (Bound, error) {
	if err := b.createsInPublic(n); err != nil {
		return nil, err
	}
	if st, ok, err := b.bindStorageStmt(n); ok {
		return st, err
	}
	if bd, ok, err := b.bindRowSecurityStmt(n); ok {
		return bd, err
	}
	if rd, ok, err := b.ruleTarget(n); ok || err != nil {
		return rd, err // rewritten by the table's rules (engine)
	}
	switch {
	case n.GetSelectStmt() != nil && n.GetSelectStmt().IntoClause != nil:
		return b.bindSelectInto(n.GetSelectStmt())
	case n.GetSelectStmt() != nil:
		return b.topLevel(n.GetSelectStmt().WithClause, func() (Bound, error) {
			b.lock = &Locking{}
			p, err := b.bindSelect(n.GetSelectStmt())
			if err != nil {
				return nil, err
			}
			return &Select{Plan: p, Lock: *b.lock, Origins: b.originOut}, nil
		})
	case n.GetCreateStmt() != nil:
		return b.bindCreateTable(n.GetCreateStmt())
	case n.GetConstraintsSetStmt() != nil:
		return b.bindSetConstraints(n.GetConstraintsSetStmt())
	case n.GetCreateTableAsStmt() != nil:
		return b.bindCreateTableAs(n.GetCreateTableAsStmt())
	case n.GetViewStmt() != nil:
		return b.bindCreateView(n.GetViewStmt())
	case n.GetDropStmt() != nil:
		return b.bindDrop(n.GetDropStmt())
	case n.GetCreateEnumStmt() != nil:
		return b.bindCreateEnum(n.GetCreateEnumStmt())
	case n.GetCreateRangeStmt() != nil:
		return b.bindCreateRange(n.GetCreateRangeStmt())
	case n.GetAlterEnumStmt() != nil:
		return b.bindAlterEnum(n.GetAlterEnumStmt())
	case n.GetCompositeTypeStmt() != nil:
		return b.bindCreateComposite(n.GetCompositeTypeStmt())
	case n.GetCreateSeqStmt() != nil:
		return b.bindCreateSequence(n.GetCreateSeqStmt())
	case n.GetAlterSeqStmt() != nil:
		return b.bindAlterSequence(n.GetAlterSeqStmt())
	case n.GetCreateDomainStmt() != nil:
		return b.bindCreateDomain(n.GetCreateDomainStmt())
	case n.GetAlterDomainStmt() != nil:
		return b.bindAlterDomain(n.GetAlterDomainStmt())
	case n.GetIndexStmt() != nil:
		return b.bindCreateIndex(n.GetIndexStmt())
	case n.GetInsertStmt() != nil:
		return b.autoRules(b.topLevel(n.GetInsertStmt().WithClause, func() (Bound, error) { return b.bindInsert(n.GetInsertStmt()) }))
	case n.GetUpdateStmt() != nil:
		return b.autoRules(b.topLevel(n.GetUpdateStmt().WithClause, func() (Bound, error) { return b.bindUpdate(n.GetUpdateStmt()) }))
	case n.GetDeleteStmt() != nil:
		return b.autoRules(b.topLevel(n.GetDeleteStmt().WithClause, func() (Bound, error) { return b.bindDelete(n.GetDeleteStmt()) }))
	case n.GetMergeStmt() != nil:
		return b.topLevel(n.GetMergeStmt().WithClause, func() (Bound, error) { return b.bindMerge(n.GetMergeStmt()) })
	case n.GetAlterTableStmt() != nil:
		return b.bindAlterTable(n.GetAlterTableStmt())
	case n.GetRenameStmt() != nil:
		return b.bindRename(n.GetRenameStmt())
	case n.GetAlterObjectSchemaStmt() != nil:
		return b.bindSetSchema(n.GetAlterObjectSchemaStmt())
	case n.GetTruncateStmt() != nil:
		return b.bindTruncate(n.GetTruncateStmt())
	case n.GetCreateSchemaStmt() != nil:
		return b.bindCreateSchema(n.GetCreateSchemaStmt())
	case n.GetCommentStmt() != nil:
		return b.bindComment(n.GetCommentStmt())
	case n.GetTransactionStmt() != nil:
		return b.bindTransaction(n.GetTransactionStmt())
	case n.GetExplainStmt() != nil:
		return b.bindExplain(n.GetExplainStmt())
	case n.GetCopyStmt() != nil:
		return b.bindCopy(n.GetCopyStmt())
	case n.GetVariableSetStmt() != nil:
		return b.bindVariableSet(n.GetVariableSetStmt())
	case n.GetCreateRoleStmt() != nil:
		return b.bindCreateRole(n.GetCreateRoleStmt())
	case n.GetAlterRoleStmt() != nil:
		return b.bindAlterRole(n.GetAlterRoleStmt())
	case n.GetDropRoleStmt() != nil:
		return b.bindDropRole(n.GetDropRoleStmt())
	case n.GetGrantStmt() != nil:
		return b.bindGrant(n.GetGrantStmt())
	case n.GetAlterDefaultPrivilegesStmt() != nil:
		return b.bindAlterDefaultPrivileges(n.GetAlterDefaultPrivilegesStmt())
	case n.GetGrantRoleStmt() != nil:
		return b.bindGrantRole(n.GetGrantRoleStmt())
	case n.GetCreateSubscriptionStmt() != nil:
		return b.bindCreateSubscription(n.GetCreateSubscriptionStmt())
	case n.GetAlterSubscriptionStmt() != nil:
		return b.bindAlterSubscription(n.GetAlterSubscriptionStmt())
	case n.GetDropSubscriptionStmt() != nil:
		ds := n.GetDropSubscriptionStmt()
		return &DropSubscription{Name: ds.Subname, IfExists: ds.MissingOk}, nil
	case n.GetCreateForeignServerStmt() != nil:
		return b.bindCreateServer(n.GetCreateForeignServerStmt())
	case n.GetCreateForeignTableStmt() != nil:
		return b.bindCreateForeignTable(n.GetCreateForeignTableStmt())
	case n.GetVariableShowStmt() != nil:
		return &Show{Name: strings.ToLower(n.GetVariableShowStmt().Name)}, nil
	case n.GetVacuumStmt() != nil:
		return b.bindVacuum(n.GetVacuumStmt())
	case n.GetCheckPointStmt() != nil:
		return &Maintenance{Tag: "CHECKPOINT"}, nil
	case n.GetDiscardStmt() != nil:
		return b.bindDiscard(n.GetDiscardStmt())
	case n.GetCreateFunctionStmt() != nil:
		return markFunctionBody(b.cat)(b.bindCreateFunction(n.GetCreateFunctionStmt()))
	case n.GetDoStmt() != nil:
		return b.bindDo(n.GetDoStmt())
	case n.GetDefineStmt() != nil:
		return b.bindDefine(n.GetDefineStmt())
	case n.GetCallStmt() != nil:
		return b.bindCall(n.GetCallStmt())
	case n.GetCreateTrigStmt() != nil:
		return b.bindCreateTrigger(n.GetCreateTrigStmt())
	case n.GetRuleStmt() != nil:
		return b.bindCreateRule(n.GetRuleStmt())
	case n.GetCreateCastStmt() != nil:
		return b.bindCreateCast(n.GetCreateCastStmt())
	case n.GetCreateExtensionStmt() != nil:
		return b.bindCreateExtension(n.GetCreateExtensionStmt())
	case n.GetAlterExtensionStmt() != nil:
		return b.bindAlterExtension(n.GetAlterExtensionStmt())
	}
	if l, ok := bindListen(n); ok {
		return l, nil
	}
	if st, ok, err := b.bindStorageStmt(n); ok {
		return st, err
	}
	if a, ok, err := b.bindAlterRoutine(n); ok {
		return a, err
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "statement %s is not supported", stmtName(n))
}

func (b *binder) bindTransaction(t *pg_query.TransactionStmt) (Bound, error) {
	switch t.Kind {
	case pg_query.TransactionStmtKind_TRANS_STMT_BEGIN, pg_query.TransactionStmtKind_TRANS_STMT_START:
		tx := &Tx{Kind: TxBegin}
		for _, o := range t.Options {
			d := o.GetDefElem()
			if d == nil {
				return nil, b.stmt.errf(t.Location, pgerr.FeatureNotSupported, "this form of BEGIN is not supported")
			}
			v, err := b.setValue(d.Defname, d.Arg)
			if err != nil {
				return nil, err
			}
			tx.Modes = append(tx.Modes, Set{Name: d.Defname, Value: v, Local: true})
		}
		return tx, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_COMMIT:
		return &Tx{Kind: TxCommit, Chain: t.Chain}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK:
		return &Tx{Kind: TxRollback, Chain: t.Chain}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_SAVEPOINT:
		return &Tx{Kind: TxSavepoint, Savepoint: t.SavepointName}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_RELEASE:
		return &Tx{Kind: TxRelease, Savepoint: t.SavepointName}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		return &Tx{Kind: TxRollbackTo, Savepoint: t.SavepointName}, nil
	}
	return nil, b.stmt.errf(t.Location, pgerr.FeatureNotSupported, "%s is not supported", strings.TrimPrefix(t.Kind.String(), "TRANS_STMT_"))
}

func (b *binder) bindExplain(e *pg_query.ExplainStmt) (Bound, error) {
	opts, err := b.explainOptions(e)
	if err != nil {
		return nil, err
	}
	if opts.Analyze {
		return b.bindExplainAnalyze(e, opts)
	}
	x, err := b.bindExplainPlan(e, opts)
	if ex, ok := x.(*Explain); ok {
		ex.Summary = opts.Summary
	}
	return x, err
}

// bindExplainPlan binds EXPLAIN without ANALYZE.
func (b *binder) bindExplainPlan(e *pg_query.ExplainStmt, opts ExplainOptions) (Bound, error) {
	// VERBOSE, COSTS, SETTINGS, BUFFERS and SUMMARY change what
	// PostgreSQL prints of its plans; a view's plan, its state and its
	// cost per change are printed whatever they say.
	format := opts.Format
	q := e.Query
	var err error
	if w, ok, err := b.explainModifying(q); ok {
		if err != nil {
			return nil, err
		}
		return &Explain{DML: w, Format: format}, nil
	}
	if ct := q.GetCreateTableAsStmt(); ct != nil && ct.Objtype == pg_query.ObjectType_OBJECT_MATVIEW {
		v, err := b.bindCreateTableAs(ct)
		if err != nil {
			return nil, err
		}
		return &Explain{View: v.(*CreateView), Format: format}, nil
	}
	if x, ok, err := b.bindExplainOther(q, format); ok {
		return x, err
	}
	if sel := q.GetSelectStmt(); sel != nil {
		// EXPLAIN SELECT: the plan the view would have.
		b.forView = true
		p, err := b.bindSelect(sel)
		if err != nil && b.adHocCall {
			return b.explainAdHoc(sel, format)
		}
		if err != nil {
			return nil, err
		}
		return &Explain{View: &CreateView{Materialized: true, Plan: p, Definition: b.stmt.SQL}, Select: true, Format: format}, nil
	}
	if rd, ok, err := b.ruleTarget(q); ok || err != nil {
		if err != nil {
			return nil, err
		}
		st := *rd.Stmt
		st.Node = q // the statement explained
		rd.Stmt = &st
		return &Explain{DML: rd, Format: format}, nil // the rewrite's statements
	}
	var dml Bound
	switch {
	case q.GetUpdateStmt() != nil:
		dml, err = b.bindUpdate(q.GetUpdateStmt())
	case q.GetDeleteStmt() != nil:
		dml, err = b.bindDelete(q.GetDeleteStmt())
	case q.GetInsertStmt() != nil, q.GetMergeStmt() != nil:
		dml, err = b.bindStmt(q)
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN of %s is not supported", stmtName(q))
	}
	if err != nil {
		return nil, err
	}
	return &Explain{DML: dml, Format: format}, nil
}

// stmtName names a statement node for messages: "CREATE FUNCTION".
func stmtName(n *pg_query.Node) string {
	s := n.String()
	if i := strings.IndexAny(s, ":{ "); i > 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, "_stmt")
	return strings.ToUpper(strings.ReplaceAll(s, "_", " "))
}
