// Package engine is deltaview's deterministic core: the catalog, the
// stored tables, transactions, and the views maintained from each committed
// transaction's changes. It does no I/O and starts no goroutines; a
// transaction's statements go in, results and every view's delta come out.
package engine

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/source"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Engine holds the catalog and the data. Statements run in sessions
// (NewSession), concurrently; the engine's own methods take its locks.
type Engine struct {
	// rules are each relation's rules in name order (rule.go).
	rules map[string][]*rule

	// fkeys are the FOREIGN KEY constraints between tables, nil for none
	// (fkey.go).
	fkeys *fkGraph
	// replica is set while a typed change applies a subscription's
	// changes, which the constraints do not check (fkey.go).
	replica bool
	// viewCalls runs the PL/pgSQL functions views call, under its own
	// lock (routine_view.go).
	viewCalls viewCalls
	// mu guards everything below: statements that read hold it shared,
	// statements that write hold it exclusively, each only while it runs.
	// Taking it waits for the shared indexes' commit that the last
	// commit may have left running (behind.go).
	mu engineLock
	// halted is set when a statement panicked (halt.go).
	halted haltState
	// lookupMu serialises readers' use of the indexes that ad-hoc reads
	// build on first use (prefix.go, viewindex.go): readers share mu.
	lookupMu sync.Mutex
	// slot is the writer slot, held by one session from its first change
	// until its transaction ends (slot.go).
	slot writerSlot
	// advisory are the advisory locks (advisory.go); pids numbers the
	// sessions that ask for theirs (pg_backend_pid).
	advisory advisoryLocks
	pids     atomic.Int32
	// notify is the queue of LISTEN and NOTIFY (notify.go).
	notifyQ notifyQueue
	// acts are the sessions pg_stat_activity lists (activity.go); xids
	// the transaction ids given out (xid.go).
	acts   activities
	xids   xids
	tables map[string]*table
	// seqs are the sequences (sequence.go); seqStoreMu serialises their
	// writes to the store, which nextval makes under the shared lock.
	seqs       map[string]*sequence
	seqStoreMu sync.Mutex
	// views are the materialized views, however maintained (matview.go);
	// order is them in creation order, a topological order.
	views map[string]matView
	named map[string]*namedView
	// viewSettings are the settings each materialized view captured
	// (view_settings.go).
	viewSettings map[string]map[string]string
	// unpopulated are the materialized views WITH NO DATA left
	// unpopulated: their definitions, no state (refresh.go); viewStmts
	// the statements that created each materialized view.
	unpopulated map[string]*sql.CreateView
	viewStmts   map[string]viewStmt
	// stats are CREATE STATISTICS' objects (statistics.go).
	stats map[string]*statsObject
	// evtTriggers are the event triggers, by name (event_trigger.go).
	evtTriggers map[string]*evtTrigger
	// funcs are the SQL functions by name; funcDeps the signatures of
	// those each view calls (function.go).
	funcs    map[string][]*sql.Function
	funcDeps map[string][]string
	// routineText are the statements that made each routine, by
	// signature, as the store keeps them (alter_function.go).
	routineText map[string]string
	// aggs are the user-defined aggregates by name (useragg.go).
	aggs map[string][]*sql.Aggregate
	// opers are the user-defined operators by name (useroperator.go).
	opers map[string][]*sql.Operator
	// triggers are CREATE TRIGGER's, by table, in name order; firer is
	// the session whose statement runs, which runs them (trigger.go).
	triggers map[string][]*trigger
	firer    *Session
	// polls counts the calls of interruptPoint (cancel_point.go);
	// stepping is set while the views step, which no cancel interrupts.
	polls    uint32
	stepping bool
	// tableAsProfile collects the figures of CREATE TABLE … AS's query
	// under EXPLAIN ANALYZE (explain_analyze_ctas.go), under the write
	// lock.
	tableAsProfile *exec.Profile
	// xacts counts the transactions ended (stat_counters.go).
	xacts xactStats
	// rls is row-level security, by table (rowsecurity.go).
	rls map[string]*tableRLS
	// comments are COMMENT ON's, by object and column (comment.go).
	comments map[string]map[string]string
	// owners are the relations ALTER … OWNER TO gave to a role (owner.go).
	owners map[string]string
	// typeOwners are the owners ALTER TYPE | DOMAIN … OWNER TO gave types
	// (type_owner.go), by type name.
	typeOwners map[string]string
	// domains are CREATE DOMAIN's (domain.go).
	domains domainCatalog
	// userTypeState holds CREATE TYPE's types (usertype.go).
	userTypeState
	// extensionState holds CREATE EXTENSION's extensions (extension.go).
	extensionState
	// castState holds CREATE CAST's casts (cast.go).
	castState
	// collationState holds CREATE COLLATION's collations (collation_user.go).
	collationState
	// inheritState holds the tables' inheritance links (inherit.go).
	inheritState
	// temps counts the sessions' temporary tables, tempSessions the
	// sessions that made one (temp.go).
	temps        int
	tempSessions uint64
	// tempPending holds the temporary tables and sequences made in a
	// session's open transaction block, by key, with that session's
	// prefix: other sessions' catalogs do not list them before commit.
	tempPending map[string]string
	// schemas are the schemas CREATE SCHEMA made, by name (schema.go).
	schemas map[string]*schema
	// publicSchema is public's ACL once a GRANT or REVOKE named it
	// (schema_public.go).
	publicSchema *schema
	// indexes maps each index CREATE INDEX made to its table.
	indexes map[string]*table
	// matIndexes are the indexes CREATE INDEX made on materialized views
	// (matview_index.go), by name.
	matIndexes map[string]*matIndex
	// parts are the partitions of partitioned tables, by name; within is
	// the partition the running DML statement names (partition.go).
	parts  map[string]*partition
	within withinPartition
	order  []matView
	deps   map[string][]string
	tx     *txn // the writer's open transaction; nil when none
	// txd is the catalog side of the writer's block once it changed the
	// catalog, gate the same for the sessions that wait for it, read
	// under the shared lock (txddl.go).
	txd    *txDDL
	gate   atomic.Pointer[txDDL]
	ts     uint64 // logical time of the last commit
	subs   []*subscription
	nextID int
	// notices collects the notices of a commit (a view over its memory
	// budget), which the committing session takes before it unlocks.
	notices []string
	// noticeLevels are the severities of the notices that are not
	// NOTICEs, by index (noticeAt).
	noticeLevels map[int]string
	// noticeCodes are the SQLSTATEs RAISE chose for notices, by index
	// (notice_code.go).
	noticeCodes map[int]string
	// noticeFields are the fields beyond the message that RAISE gave
	// notices (DETAIL, HINT, CONTEXT, the object names), by index
	// (notice_fields.go).
	noticeFields map[int]*pgerr.Error
	// spare is the last committed transaction, whose log the next reuses;
	// deltas is the map of each commit's batches, reused.
	spare  *txn
	deltas map[string]zset.ZSet
	// touched lists the tables whose batches a commit gathers, reused;
	// batch is the scratch of writing a transaction's replacements.
	touched []*table
	batch   replaceBatch
	// read is the set of tables some view reads (readTables), nil when
	// the views changed.
	read map[string]bool
	// readGen counts the sets read was computed for: a table caches its
	// own entry for one (isRead).
	readGen uint64
	// scratch holds the typed API's old row while it is compared;
	// stepped, the views a commit steps; events, a commit's change events
	// of tables that keep no rows, by table; stepIn, what a commit gives
	// the views.
	scratch value.Row
	// castRow holds a typed change's values cast to their columns' types
	// until keptRow copies them (typedRow): reused, not zeroed each call.
	castRow value.Row

	// rowsCast is ReplaceRows's plan of a call's columns (api_rows.go),
	// reused; eachRow makes ReplaceRows take each row Replace's way,
	// for tests that compare the two; image, the rows it keeps, built.
	rowsCast []colCast
	eachRow  bool
	image    keptImage
	// castFor is the plan rowsCast holds: its table, at that catalog
	// generation, and whether its rows need the constraints' general
	// check (replaceRowsKept).
	castFor castFor

	stepped []matView
	events  map[string]delta.Batch
	stepIn  stepInput
	// eventsKept says that a batch of events holds the last commit's.
	eventsKept bool
	// touched1 keeps what replacePending loads ahead of the commit, so
	// that the loads are not optimised away.
	touched1 uintptr
	// shared holds the indexes of stored relations that several views'
	// joins read, staged once per commit.
	shared sharedIndexes
	// workers is how many goroutines prepare a commit's views (SET
	// deltaview.workers; 0, the default, for GOMAXPROCS); waves are the views in the
	// runs that may prepare together (parallel.go), nil when the views
	// changed. bigCommit is set while a commit big enough for the workers
	// runs (parallelCommit): a smaller one takes the one worker's path.
	workers     int
	parallelMin int
	bigCommit   bool
	waves       [][]matView
	// relay keeps a parallel wave's other goroutine spinning a moment
	// between waves (relay.go).
	relay relay
	// chunkRows is the number of keys of a chunk of a big commit of kept
	// replacements (chunked.go; 0 commits whole), chunk its scratch.
	chunkRows int
	chunk     chunkState
	// trace records the commits' schedule while set (schedtrace.go); ph
	// times the phases of the commit in progress then.
	trace *ScheduleTrace
	ph    *phases
	// leaveBehind is set while a commit prepares whose views' and
	// indexes' commits are to run past its end (commitBehind).
	leaveBehind bool
	// refillNotice encodes the number of refills in one step of one view
	// above which a commit raises a notice (setRefillNotice, refillLimit).
	refillNotice int64
	// maxRecursion bounds the rounds of WITH RECURSIVE (SET
	// deltaview.max_recursion); 0 for plan.DefaultMaxIterations.
	maxRecursion int
	// maxMemory is the engine-wide budget of all views' state in bytes
	// (SET deltaview.max_memory); 0 for none. overBudget is set while the
	// views' state exceeds it.
	maxMemory  int64
	overBudget bool
	// copyLimits bound what a COPY's input may make its decoder hold
	// (SET deltaview.max_copy_line, max_copy_field, max_stream_events);
	// zero fields are the defaults.
	copyLimits source.Limits
	// maxQueryMemory bounds what one ad-hoc query materialises (SET
	// deltaview.max_query_memory); 0 for the default (queryBudget).
	maxQueryMemory int64
	progress       func(Progress)
	openFile       FileOpener
	createFile     FileCreator
	copyData       io.Reader       // the data of the COPY FROM STDIN being executed, set by its session
	copyClock      *expr.StmtClock // the COPY's statement clock, whose sequences its defaults call
	copyEnc        *pgenc.Encoding // the COPY FROM's data's encoding, set by its session; nil for UTF8
	// with is the running statement's state when it has data-modifying
	// WITH items (dml_with.go); nil otherwise.
	with *modifying
	// snap is which state of the tables the functions the running
	// statement calls read (funcsnapshot.go).
	snap funcSnapshot
	// notes say why a view over change-stream tables is normalised; sinks
	// are the external targets of views (sink.go).
	notes map[string]string
	sinks []*sinkAttach
	// catalogGen counts catalog changes: a prepared statement bound at an
	// earlier generation is bound again before it runs.
	catalogGen uint64
	// deferKeys is set once a table has a DEFERRABLE key: statements
	// check such keys at their end (key_deferrable.go).
	deferKeys bool
	// store is the store of record (durable.go); nil for an engine in
	// memory only. storeCommit is the commit handed to it, reused.
	store       Store
	storeCommit Commit
	// roles are the catalog's roles (roles.go); grants the privileges
	// granted on each relation, by role ("" for PUBLIC).
	roles  map[string]*role
	grants map[string]map[string]sql.Privilege
	// grantOrder is the order of each relation's grantees (grant_order.go).
	grantOrder map[string][]string
	// defACLs are the default privileges (default_acl.go).
	defACLs map[defACLKey]map[string]sql.Privilege
	// dbACL and dbACLOrder are the database's privileges (database_acl.go).
	dbACL      map[string]sql.Privilege
	dbACLOrder []string
	// typeACLs are the types' privileges (type_acl.go), typeOptions the
	// roles holding their grant option (type_acl_option.go).
	typeACLs    map[string][]string
	typeOptions map[string][]string
	// colGrants are the privileges granted on columns (column_acl.go).
	colGrants map[string]colACL
	// deadline is the statement_timeout deadline of the write statement
	// running under the exclusive lock; zero for none.
	deadline time.Time
	// subsDriver runs the subscriptions (subscription.go), made on first
	// use; closed is set by Close. subsDriverMu guards both.
	subsDriverMu sync.Mutex
	subsDriver   Subscriptions
	closed       bool
	// foreignDriver runs the foreign tables (foreign.go), made on first
	// use, guarded by subsDriverMu too.
	foreignDriver Foreign
	// The clock of temporal filters (clock.go): now is the time the views
	// are at, in microseconds since 2000-01-01 UTC; clockSource gives the
	// time (nil: the wall clock) unless pinned, when it is pinnedAt.
	// clockWake (guarded by clockMu) tells the timer that the next change
	// may have moved.
	now         int64
	clockSource func() time.Time
	pinned      bool
	pinnedAt    int64
	clockMu     sync.Mutex
	clockWake   chan struct{}
	onWake      func()
}

// stepSample is how often a view's step is timed: one step in 16, the
// first included.
const stepSample = 16

// namedView is a plain view: a query inlined where it is used.
type namedView struct {
	name  string
	cols  []plan.Column
	query *sql.Stmt
	// invoker is WITH (security_invoker).
	invoker bool
	// check is WITH [LOCAL | CASCADED] CHECK OPTION: "local",
	// "cascaded" or "".
	check string
	// defaults are its columns' own defaults (ALTER VIEW … SET DEFAULT),
	// nil for none; text is its CREATE VIEW and alters the ALTER VIEW
	// statements that set them, which the store keeps after it.
	defaults     []expr.Expr
	defaultTexts []string
	text         string
	alters       []string
	// domains are its columns' (sql.CreateView.Domains), colls their
	// collations (sql.CreateView.Collations), which pg_attribute shows.
	domains []*expr.Domain
	colls   []sql.ViewCollation
}

// Result is what a statement returns: a result set when HasRows, and a
// command tag.
type Result struct {
	Columns []plan.Column
	Rows    []value.Row
	HasRows bool
	Tag     string
	// CopyOut is the data of COPY … TO STDOUT; nil for other statements.
	// With an error (a character the ENCODING lacks) it holds the lines
	// before the failing one, which PostgreSQL sends before its error.
	CopyOut *CopyOut
	Notices []string
	// NoticeLevels are the severities of the notices that are not
	// NOTICEs, by index in Notices (notice_level.go).
	NoticeLevels map[int]string
	// NoticeCodes are the SQLSTATEs a statement chose for its notices, by
	// index; the others' are read from their text (notice_code.go).
	NoticeCodes map[int]string
	// NoticeFields are the notices' fields beyond the message (DETAIL,
	// HINT, CONTEXT, object names), by index, for those that have any.
	NoticeFields map[int]*pgerr.Error
}

// New returns an empty engine.
func New() *Engine {
	return &Engine{
		tables:  map[string]*table{},
		views:   map[string]matView{},
		named:   map[string]*namedView{},
		indexes: map[string]*table{},
		deps:    map[string][]string{},
		slot:    newWriterSlot(),

		parallelMin: defaultParallelMin,
		chunkRows:   defaultChunkRows,
	}
}

// Relation implements sql.Catalog.
func (e *Engine) Relation(name string) (*sql.Relation, bool) {
	if t, ok := e.tables[name]; ok {
		rel, ok := tableRelation(name, t)
		rel.Inherit = e.inheritMembers(name, t.cols)
		if t.fkeyed {
			rel.MadeConstraint = e.madeConstraint(t)
		}
		return rel, ok
	}
	if p, ok := e.parts[name]; ok {
		return e.partitionRelation(p), true
	}
	if v, ok := e.views[name]; ok {
		m := v.meta()
		return &sql.Relation{Name: name, Kind: sql.KindMatView, Cols: collatedCols(m.cols, m.def.Collations), ColDomains: m.def.Domains, ColCollations: m.def.Collations}, true
	}
	if cv, ok := e.unpopulated[name]; ok {
		return &sql.Relation{Name: name, Kind: sql.KindMatView, Cols: collatedCols(cv.Plan.Columns(), cv.Collations), ColDomains: cv.Domains, ColCollations: cv.Collations}, true
	}
	if v, ok := e.named[name]; ok {
		return &sql.Relation{Name: name, Kind: sql.KindView, Cols: v.cols, Query: v.query, SecurityInvoker: v.invoker, CheckOption: v.check, Defaults: v.defaults, ColDomains: v.domains}, true
	}
	if st, ok := systemViews[name]; ok {
		return &sql.Relation{Name: name, Kind: sql.KindTable, Cols: st.cols, System: true}, true
	}
	return catalogRelationOf(name)
}

// tableRelation is the binder's view of table t, named name.
func tableRelation(name string, t *table) (*sql.Relation, bool) {
	defaults := make([]expr.Expr, len(t.def.Cols))
	for i := range t.def.Cols {
		defaults[i] = t.def.Cols[i].DefaultExpr()
	}
	uniques := make([][]int, 0, len(t.uniques))
	pk := t.def.PrimaryKey
	for _, u := range t.uniques {
		if u.deferrable { // no proof of uniqueness while its check waits, as in PostgreSQL
			if u.primary {
				pk = nil
			}
			continue
		}
		uniques = append(uniques, u.cols)
	}
	rel := &sql.Relation{Name: name, Kind: sql.KindTable, Cols: t.cols, Defaults: defaults, Rows: int64(t.rows.Len()),
		Uniques: uniques, PrimaryKey: pk, Identity: t.identity(), Generated: t.def.GeneratedColumns(), Def: t.def}
	if t.def.PartitionBy != nil {
		rel.TableOID = tableOID(t)
	}
	return rel, true
}

// recorder is a catalog that remembers every relation a statement resolved,
// so that a view's dependencies include the plain views it inlined, and
// apart the relations the statement names itself, whose privileges it
// needs.
type recorder struct {
	cat    sql.Catalog
	seen   map[string]bool
	direct []string
	seqs   []string // the sequences read as relations (SELECT * FROM s)
	// domains are the domains the statement names (domain.go).
	domains []string
	types   []string        // the user-defined types the statement names
	typeofs []string        // the type names its pg_typeof calls print (typeof_rename.go)
	funcs   map[string]bool // the signatures of the SQL functions called
	calls   []*sql.Function // the routines called, for their EXECUTE (routine_acl.go)
	// aggCalls are the user aggregates called, for their EXECUTE
	// (aggregate_acl.go).
	aggCalls []*sql.Aggregate
	syscat   *expr.SysCatalog // the objects by oid, once a call needed them
	text     string           // the statement's text, which a store records for DDL
	// settings are the session settings a materialized view's query
	// captured (view_settings.go).
	settings map[string]string
	session  *Session // the session binding the statement, for its settings
	clock    expr.StmtClock
	code     bool // it runs a SQL function's statements (sql.CodeUser)
	// names resolves names written in text through the session's search
	// path; nil for public's names only.
	names *nameScope
	// temps is the session whose temporary relations names written in
	// text find first (temp.go); nil outside a session's statement.
	// tempKids is set when a table read has a temporary child of the
	// session, which its read took in.
	temps    *Session
	tempKids bool
	// rowSec is the role whose row-level security the statement meets;
	// nil when it bypasses it (rowsecurity.go).
	rowSec *rowSecurityCtx
	// rowSecOff is set when row_security was off as it bound (for the
	// row security of views' owners too, which a binding kept for later
	// runs must follow: sameBindSecurity).
	rowSecOff bool
	// ruleStack is the rewrite by rules a statement is bound within, and
	// ruled the relation and event whose rules it already applied
	// (rule_exec.go).
	ruleStack, ruled *ruleFrame
	// kids are the inheritance children its scans read with their
	// ancestors, which are in use while it runs (routine_inuse.go).
	kids map[string]bool
	// refs records the columns the statement reads, when column
	// privileges are to be checked (column_check.go); invRefs those the
	// security_invoker views it names read.
	refs    *sql.RefLog
	invRefs []*sql.RefLog
	// views are the plain views it reads whose owners' privileges are
	// checked (view_owner_acl.go).
	views       []*viewFrame
	bindsTarget bool // it binds the view its DML changes (sql.TargetBinder)
}

var _ sql.NameResolver = (*recorder)(nil)

// Qualifier implements sql.NameResolver.
func (r *recorder) Qualifier() sql.Qualifier {
	if r.names == nil {
		if e, ok := r.cat.(*Engine); ok {
			return nameScope{e: e, path: defaultPath}
		}
		return nil
	}
	return *r.names
}

var _ sql.RecursionBounder = (*recorder)(nil)

// MaxRecursion is the catalog's bound on WITH RECURSIVE rounds.
func (r *recorder) MaxRecursion() int {
	if rb, ok := r.cat.(sql.RecursionBounder); ok {
		return rb.MaxRecursion()
	}
	return 0
}

// MaxRecursion is the bound on WITH RECURSIVE rounds that SET
// deltaview.max_recursion set; 0 for the default.
func (e *Engine) MaxRecursion() int { return e.maxRecursion }

func (r *recorder) Relation(name string) (*sql.Relation, bool) {
	rel, ok := r.cat.Relation(name)
	if ok && r.temps != nil && rel.Kind == sql.KindTable {
		if kids := r.temps.tempMembers(name); len(kids) > 0 {
			rel.Inherit, r.tempKids = append(rel.Inherit, kids...), true
		}
	}
	if ok && r.rowSec != nil && rel.Kind == sql.KindTable {
		if e, isEngine := r.cat.(*Engine); isEngine {
			rel.Security = e.securityOf(r.rowSec, name)
		}
	}
	if ok {
		r.seen[name] = true
		if !slices.Contains(r.direct, name) {
			r.direct = append(r.direct, name)
		}
	}
	return rel, ok
}

// InView implements sql.ViewReader: the relations a plain view reads are
// its dependencies, not relations the statement names.
func (r *recorder) InView() sql.Catalog { return viewRecorder{r: r} }

// viewRecorder resolves the relations a plain view's query reads; f is
// the view's frame when its owner's privileges are to be checked
// (view_owner_acl.go).
type viewRecorder struct {
	r *recorder
	f *viewFrame
}

func (v viewRecorder) Relation(name string) (*sql.Relation, bool) {
	rel, ok := v.r.cat.Relation(name)
	if ok && v.r.temps != nil && rel.Kind == sql.KindTable {
		if kids := v.r.temps.tempMembers(name); len(kids) > 0 {
			rel.Inherit, v.r.tempKids = append(rel.Inherit, kids...), true
		}
	}
	if ok {
		v.r.seen[name] = true
		v.f.read(v.r, name, rel)
	}
	return rel, ok
}

func (v viewRecorder) InView() sql.Catalog { return v }

var _ sql.ChildReader = (*recorder)(nil)
var _ sql.ChildReader = viewRecorder{}

// ReadsChild implements sql.ChildReader.
func (r *recorder) ReadsChild(name string) {
	if r.kids == nil {
		r.kids = map[string]bool{}
	}
	r.kids[name] = true
}

// ReadsChild implements sql.ChildReader.
func (v viewRecorder) ReadsChild(name string) { v.r.ReadsChild(name) }

// SysCatalog implements sql.SystemCatalog, once per statement.
func (r *recorder) SysCatalog() *expr.SysCatalog {
	if r.syscat == nil {
		if e, ok := r.cat.(*Engine); ok && r.names != nil {
			own := ""
			if r.temps != nil {
				own = strings.TrimSuffix(r.temps.tempNS, ".")
			}
			r.syscat = e.sysCatalogFor(r.names.path, own)
			r.syscat.NoUsage = e.schemasUnusable(r.names.user)
		} else if sc, ok := r.cat.(sql.SystemCatalog); ok {
			r.syscat = sc.SysCatalog()
		}
		if r.syscat != nil && r.temps != nil {
			r.temps.tempCatalog(r.syscat)
		}
	}
	return r.syscat
}

// SysCatalog implements sql.SystemCatalog.
func (v viewRecorder) SysCatalog() *expr.SysCatalog { return v.r.SysCatalog() }

// MaxRecursion is the catalog's bound on WITH RECURSIVE rounds.
func (v viewRecorder) MaxRecursion() int { return v.r.MaxRecursion() }

func (e *Engine) createTable(ct *sql.CreateTable, text string) (Result, error) {
	if len(ct.Inherits) > 0 {
		return e.createInheritor(ct)
	}
	if e.relationExists(ct.Name) {
		if ct.IfNotExists {
			return Result{Tag: "CREATE TABLE", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", e.bareName(ct.Name))}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", e.bareName(ct.Name))
	}
	seqs, err := e.createOwnedSequences(ct)
	if err != nil {
		return Result{}, err
	}
	e.tables[ct.Name] = newTable(ct)
	e.noteDeferrable(e.tables[ct.Name])
	if len(ct.Likes) > 0 {
		text = ct.SQL() // not the LIKE, which would read its table as it is then (like.go)
	}
	if err := e.storeCreate(ct.Name, KindTable, text); err != nil {
		e.forgetSequences(seqs) //nolint:errcheck // the store's error is the one to report
		return Result{}, err
	}
	if len(ct.ForeignKeys) > 0 {
		e.linkForeignKeys()
	}
	if err := e.copyLiked(ct); err != nil {
		return Result{}, err
	}
	return Result{Tag: "CREATE TABLE"}, nil
}

// createView creates a view and records it in the store.
func (e *Engine) createView(cv *sql.CreateView, rec *recorder) (Result, error) {
	_, existed := e.Relation(cv.Name)
	res, err := e.createViewMem(cv, rec)
	if err != nil || existed {
		return res, err
	}
	kind := KindMatView
	if !cv.Materialized {
		kind = KindView
	}
	if cv.Materialized {
		e.noteViewSettings(cv.Name, rec.settings)
	}
	if err := e.storeCreate(cv.Name, kind, settingsText(rec.text, rec.settings)); err != nil {
		return Result{}, err
	}
	if v := e.named[cv.Name]; v != nil {
		v.text = rec.text
	}
	if cv.Materialized {
		var path []string
		if rec.names != nil {
			path = rec.names.path
		}
		e.noteViewStmt(cv, rec.text, path)
	}
	return res, nil
}

func (e *Engine) createViewMem(cv *sql.CreateView, rec *recorder) (Result, error) {
	if _, ok := e.Relation(cv.Name); ok || e.seqs[cv.Name] != nil {
		if cv.IfNotExists {
			return Result{Tag: "SELECT 0", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", e.bareName(cv.Name))}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", e.bareName(cv.Name))
	}
	deps := make([]string, 0, len(rec.seen))
	for name := range rec.seen {
		deps = append(deps, name)
	}
	sort.Strings(deps)
	if cv.Materialized && !cv.NoData {
		if err := e.refuseUnpopulated(deps); err != nil {
			return Result{}, err
		}
	}
	e.noteViewDomains(cv.Name, rec)
	if called := rec.calledFunctions(); len(called) > 0 {
		if e.funcDeps == nil {
			e.funcDeps = map[string][]string{}
		}
		e.funcDeps[cv.Name] = called
	}
	if !cv.Materialized {
		e.named[cv.Name] = &namedView{name: cv.Name, cols: cv.Plan.Columns(), query: cv.Query, invoker: cv.SecurityInvoker, check: cv.CheckOption, domains: cv.Domains, colls: cv.Collations}
		e.deps[cv.Name] = deps
		return Result{Tag: "CREATE VIEW"}, nil
	}
	if cv.NoData {
		e.addUnpopulated(cv, deps)
		return Result{Tag: "CREATE MATERIALIZED VIEW"}, nil
	}
	return e.buildMatView(cv, deps)
}

// buildMatView builds a materialized view and registers it.
func (e *Engine) buildMatView(cv *sql.CreateView, deps []string) (Result, error) {
	res, done, err := e.createStreamView(cv, deps)
	if done {
		return res, err
	}
	v, err := e.buildView(cv)
	if err != nil {
		return Result{}, err
	}
	e.shared.share(v)
	e.addView(v, deps)
	notices := res.Notices
	if joins := plan.RangeJoins(cv.Plan); len(joins) > 0 {
		notices = append(notices, fmt.Sprintf("materialized view %q joins without an equality key (%s): a change costs work proportional to the rows of the other side, not to the change",
			cv.Name, strings.Join(joins, "; ")))
	}
	if prods := plan.DomainProducts(cv.Plan); len(prods) > 0 {
		notices = append(notices, fmt.Sprintf("materialized view %q evaluates a correlated subquery's part that reads no outer column once per outer value (%s): a change costs work proportional to the rows of the other side, not to the change",
			cv.Name, strings.Join(prods, "; ")))
	}
	notices = append(notices, unboundedNotices(cv.Name, v.c.Circuit)...)
	return Result{Tag: fmt.Sprintf("SELECT %d", v.c.View.Len()), Notices: notices}, nil
}

// unboundedNotices are CREATE MATERIALIZED VIEW's notices for the
// operators other than joins (plan.RangeJoins) whose work per change is
// not bounded by the change and its output: the view is accepted, but its
// cost is said, not discovered.
func unboundedNotices(view string, g *dataflow.Circuit) []string {
	var out []string
	for id := range g.Len() {
		info := g.Node(dataflow.NodeID(id)).Info()
		if info.Unbounded == "" {
			continue
		}
		n := fmt.Sprintf("materialized view %q: the cost of a change is not bounded by the change at %s", view, info.Kind)
		if info.Detail != "" {
			n += " " + info.Detail
		}
		out = append(out, n+" ("+info.Unbounded+"; cost "+info.Cost+")")
	}
	return out
}

func (e *Engine) drop(d *sql.Drop) (Result, error) {
	if d.Kind == sql.DropIndex {
		return e.dropIndexes(d)
	}
	kinds := map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}
	tags := map[sql.DropKind]string{sql.DropTable: "DROP TABLE", sql.DropView: "DROP VIEW", sql.DropMatView: "DROP MATERIALIZED VIEW"}
	var notices []string
	var targets []string
	for _, name := range d.Names {
		kind, ok := e.kindOf(name)
		if !ok {
			if err := e.dropWrongKind(name, "a "+kinds[d.Kind]); err != nil {
				return Result{}, err
			}
			if d.IfExists {
				notices = append(notices, e.missingNotice(kinds[d.Kind], name))
				continue
			}
			return Result{}, pgerr.New(pgerr.UndefinedTable, "%s %q does not exist", kinds[d.Kind], e.bareName(name))
		}
		if kind != d.Kind {
			return Result{}, e.dropWrongKind(name, "a "+kinds[d.Kind])
		}
		targets = append(targets, name)
	}
	// A partitioned table's partitions go with it.
	for _, t := range targets {
		for _, p := range e.descendants(t) {
			if !slices.Contains(targets, p) {
				targets = append(targets, p)
			}
		}
	}
	for _, t := range targets {
		if kind, _ := e.kindOf(t); kind != sql.DropTable {
			continue
		}
		if err := e.refuseRowTypeChange(t, true, targets); err != nil {
			return Result{}, err
		}
	}
	// Everything that depends on the targets, transitively; the reverse
	// of e.deps is built once, so that the walk is linear in the
	// dependencies.
	isTarget := make(map[string]bool, len(targets))
	for _, t := range targets {
		isTarget[t] = true
	}
	if err := e.refuseInheritSinks(targets); err != nil {
		return Result{}, err
	}
	rdeps := e.dependentsIndex()
	e.inheritDropDeps(rdeps)
	all := map[string]bool{}
	var order, pre []string // dependents first; dependencies first
	var visit func(string)
	visit = func(n string) {
		if all[n] {
			return
		}
		all[n] = true
		pre = append(pre, n)
		for _, dep := range rdeps[n] {
			visit(dep)
		}
		order = append(order, n) // dependents first
	}
	for _, t := range targets {
		visit(t)
	}
	// FOREIGN KEY constraints of other tables on the tables that go.
	fkDrops, err := e.droppedForeignKeys(all, d.Cascade)
	if err != nil {
		return Result{}, err
	}
	for _, l := range fkDrops {
		notices = append(notices, fmt.Sprintf("drop cascades to constraint %s on table %s", l.fk.Name, tempLabel(l.child.name)))
	}
	if !d.Cascade {
		// As PostgreSQL: one DETAIL line per dependent, naming what it
		// depends on among the objects that would go.
		var lines []string
		first := ""
		for _, n := range pre {
			if isTarget[n] {
				continue
			}
			on := ""
			for _, dep := range append(e.parentsOf(n), e.deps[n]...) {
				if all[dep] && (on == "" || e.parts[dep] != nil) {
					on = dep // a partition the view reads, rather than its root
				}
			}
			if first == "" {
				first = on
			}
			lines = append(lines, fmt.Sprintf("%s %s depends on %s %s", kinds[e.mustKind(n)], n, kinds[e.mustKind(on)], on))
		}
		if len(lines) > 0 {
			return Result{}, &pgerr.Error{Code: pgerr.DependentObjects,
				Message: fmt.Sprintf("cannot drop %s %s because other objects depend on it", kinds[e.mustKind(first)], first),
				Detail:  strings.Join(lines, "\n"),
				Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
		}
	}
	for _, n := range order {
		if isTarget[n] {
			continue
		}
		k, _ := e.kindOf(n)
		notices = append(notices, fmt.Sprintf("drop cascades to %s %s", kinds[k], n))
	}
	ruleNotes, err := e.dropRulesReading(all, d.Cascade, kinds)
	if err != nil {
		return Result{}, err
	}
	notices = append(notices, ruleNotes...)
	// The constraints the drop removes take no action on the rows of
	// the partitions that go.
	if err := e.withoutLinks(fkDrops, func() error { return e.dropPartitions(targets) }); err != nil {
		return Result{}, err
	}
	touched, inhStored := e.inheritDropped(all)
	if e.store != nil && len(order) > 0 {
		// A table's indexes go with it, and a view's.
		stored := e.viewIndexesOf(all)
		for _, name := range order {
			if !isTemp(name) {
				stored = append(stored, name)
			}
		}
		for name, t := range e.indexes {
			if all[t.name] && !t.temp {
				stored = append(stored, name)
			}
		}
		stored = append(stored, e.tableTriggerNames(all)...) // and its triggers
		stored = append(stored, e.tableRuleNames(all)...)    // and its rules
		stored = append(stored, e.tableRLSNames(all)...)     // and its policies
		stored = append(stored, e.statsKeysOf(all)...)       // and its statistics objects
		stored = append(stored, inhStored...)                // and its inheritance links
		if err := e.store.Drop(stored); err != nil {
			return Result{}, err
		}
	}
	if err := e.dropForeignKeys(fkDrops); err != nil {
		return Result{}, err
	}
	e.dropAll(order, all)
	if e.fkeys != nil {
		e.linkForeignKeys()
	}
	if err := e.dropOwnedSequences(all); err != nil {
		return Result{}, err
	}
	more, err := e.rebuildHierarchyReaders(touched)
	return Result{Tag: tags[d.Kind], Notices: append(notices, more...)}, err
}

func (e *Engine) kindOf(name string) (sql.DropKind, bool) {
	switch {
	case e.tables[name] != nil || e.parts[name] != nil:
		return sql.DropTable, true
	case e.views[name] != nil, e.unpopulated[name] != nil:
		return sql.DropMatView, true
	case e.named[name] != nil:
		return sql.DropView, true
	}
	return 0, false
}

func (e *Engine) mustKind(name string) sql.DropKind {
	k, _ := e.kindOf(name)
	return k
}

// dependentsIndex returns, for each relation, the views that read it
// directly, sorted.
func (e *Engine) dependentsIndex() map[string][]string {
	r := map[string][]string{}
	for v, deps := range e.deps {
		for _, d := range deps {
			r[d] = append(r[d], v)
		}
	}
	for _, vs := range r {
		sort.Strings(vs)
	}
	return r
}

// dropAll drops the relations in names (dependents first), the set of
// which is gone. The engine's lists are filtered once for all of them, so
// that a cascade over many views costs time linear in their number.
func (e *Engine) dropAll(names []string, gone map[string]bool) {
	e.read, e.waves = nil, nil
	for name, t := range e.indexes {
		if gone[t.name] && e.tables[t.name] == t {
			delete(e.indexes, name)
		}
	}
	for _, name := range e.viewIndexesOf(gone) {
		delete(e.matIndexes, name)
	}
	for _, name := range names {
		delete(e.viewSettings, name)
		if e.triggers[name] != nil {
			delete(e.triggers, name)
		}
		delete(e.rules, name)
		delete(e.rls, name)
		delete(e.tables, name)
		e.forgetPartition(name)
		delete(e.named, name)
		delete(e.deps, name)
		delete(e.funcDeps, name)
		delete(e.notes, name)
		delete(e.views, name)
		delete(e.unpopulated, name)
		delete(e.viewStmts, name)
	}
	e.dropStatsOf(gone)
	e.shared.release(gone)
	e.order = slices.DeleteFunc(e.order, func(o matView) bool { return gone[o.meta().name] })
	if e.txd == nil { // a block's end tells them (endBlock): its rollback keeps them
		e.endViewUsers(gone)
	}
}

// endViewUsers detaches the sinks and ends the subscriptions of the
// views gone.
func (e *Engine) endViewUsers(gone map[string]bool) {
	e.sinks = slices.DeleteFunc(e.sinks, func(s *sinkAttach) bool {
		if gone[s.view] {
			if d, ok := s.sink.(Detachable); ok {
				d.Detached(fmt.Sprintf("materialized view %s was dropped", s.view))
			}
		}
		return gone[s.view]
	})
	subs := e.subs[:0]
	for _, s := range e.subs {
		if !gone[s.view] {
			subs = append(subs, s)
		} else if s.end != nil {
			s.end(pgerr.New(pgerr.UndefinedTable, "materialized view %q was dropped", s.view))
		}
	}
	clear(e.subs[len(subs):])
	e.subs = subs
}
