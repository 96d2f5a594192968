package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Bound is a statement after name and type resolution. It is one of the
// types below.
type Bound interface{ bound() }

// ColumnDef is one column of CREATE TABLE.
type ColumnDef struct {
	Name    string
	Type    value.Type
	NotNull bool
	Default expr.Expr // nil: NULL
	// Identity is 'a' for GENERATED ALWAYS AS IDENTITY, 'd' for BY
	// DEFAULT, 0 for a column that is not an identity column.
	Identity byte
	// DefaultSQL is the default's text, "" for none.
	DefaultSQL string
	// Domain is the column's domain, nil for a column of a base type
	// (Type is then the domain's base type).
	Domain *expr.Domain
	// Generated is a stored generated column's expression (GENERATED
	// ALWAYS AS (…) STORED) over the table's row, cast to the column's
	// type; nil for another column. GeneratedSQL is its text.
	Generated    expr.Expr
	GeneratedSQL string
	// Attrs are its statistics target, storage, compression and
	// options (bind_column_attrs.go).
	Attrs ColumnAttrs
	// Collation is the name of its COLLATE clause's collation, "" for
	// none (CollationName).
	Collation string
	// UserColl is the collation CREATE COLLATION made that the COLLATE
	// clause names; nil for a built-in one.
	UserColl *UserCollation
	// Attnum is its pg_attribute.attnum once a column of the table was
	// dropped; 0 while none was, its position from 1 (attnum.go).
	Attnum int16
}

// DefaultExpr returns the column's default, or else its domain's (nil:
// NULL); nil for a generated column.
func (c *ColumnDef) DefaultExpr() expr.Expr {
	if c.Generated != nil {
		return nil // computed on each write, after the row's other values
	}
	if c.Default == nil && c.Domain != nil {
		d, _ := c.Domain.DefaultExpr()
		return d
	}
	return c.Default
}

// Check is a CHECK constraint over a table's row.
type Check struct {
	Name string
	Expr expr.Expr
	SQL  string // the expression's text
	// NoInherit is CHECK … NO INHERIT: the inheritance children of the
	// table do not get the constraint.
	NoInherit bool
	// NotValid is ADD CONSTRAINT … NOT VALID until VALIDATE CONSTRAINT:
	// the rows written are checked, the rows there were are not.
	NotValid bool
}

// CreateTable is CREATE TABLE.
type CreateTable struct {
	Name string
	// NameLoc is the offset of the name in the statement's text, for
	// errors about it (0 when none).
	NameLoc     int
	IfNotExists bool
	Cols        []ColumnDef
	PrimaryKey  []int   // column positions; nil without a primary key
	Uniques     [][]int // UNIQUE constraints
	// NullsNotDistinct are the positions in Uniques of the constraints
	// declared UNIQUE NULLS NOT DISTINCT: one NULL key at most.
	NullsNotDistinct []int
	// PrimaryKeyName and UniqueNames (beside Uniques) are the names the
	// statement gave the keys, "" for PostgreSQL's default (KeyName).
	PrimaryKeyName string
	UniqueNames    []string
	// DeferrableKeys are the keys declared DEFERRABLE (key_deferrable.go).
	DeferrableKeys []KeyDeferral
	Checks         []Check
	// RelOptions are its storage parameters, name=value as written
	// (bind_reloptions.go), in pg_class's reloptions order.
	RelOptions []string
	// Exclusions are its EXCLUDE constraints (bind_exclusion.go).
	Exclusions []Exclusion
	// ForeignKeys are its FOREIGN KEY constraints.
	ForeignKeys []ForeignKey
	// ChangeStream: WITH (change_stream = true), a table fed by change
	// events (COPY … FORMAT debezium | upsert) instead of DML.
	ChangeStream bool
	// CompleteRows: WITH (complete_rows = true) on a change-stream table,
	// whose events always carry every column of the new row (no unknown
	// columns), so that a predicate on it can be maintained from them.
	CompleteRows bool
	// Sequences are the sequences the table's serial and identity
	// columns own, created with it.
	Sequences []*CreateSequence
	// Temp is CREATE TEMP[ORARY] TABLE, OnCommit its ON COMMIT action.
	Temp     bool
	OnCommit OnCommit
	// Unlogged is CREATE UNLOGGED TABLE or SET UNLOGGED; ReplicaIdentity
	// is REPLICA IDENTITY's kind (0: DEFAULT), ReplicaIndex the index of
	// USING INDEX (bind_column_attrs.go).
	Unlogged        bool
	ReplicaIdentity byte
	ReplicaIndex    string
	// PartitionBy is PARTITION BY: the table's rows are its partitions'
	// (bind_partition.go).
	PartitionBy *expr.PartitionKey
	// PartitionOf is PARTITION OF: the table is a partition.
	PartitionOf *PartitionOf
	// Inherits are the parents INHERITS names, in order; the columns
	// and constraints they give are merged into Cols and Checks already
	// (bind_inherit.go). SQL does not write them: the engine keeps the
	// links apart from the table's definition.
	Inherits []string
	// InheritedOnly are the columns the parents give that the table
	// does not declare itself (PostgreSQL's attislocal false): ALTER
	// TABLE parent DROP COLUMN drops them from the table too.
	InheritedOnly []string
	// InheritedChecks are the CHECK constraints the parents give that
	// the table does not declare itself (PostgreSQL's conislocal false).
	InheritedChecks []string
	// Notices are the binder's notices (merged columns).
	Notices []string
	// Dropped are the columns DROP COLUMN dropped, which keep their
	// numbers (attnum.go).
	Dropped []DroppedColumn
	// Likes are its LIKE clauses (bind_like.go).
	Likes []Like
	// OfType is the composite type of a typed table (CREATE TABLE … OF
	// type, ALTER TABLE … OF type), "" for another (bind_typed.go).
	OfType string
}

// OnCommit is what the end of each transaction does to a temporary table.
type OnCommit byte

// ON COMMIT actions.
const (
	OnCommitPreserve OnCommit = iota // PRESERVE ROWS, the default
	OnCommitDelete                   // DELETE ROWS
	OnCommitDrop                     // DROP
)

// CreateView is CREATE [MATERIALIZED] VIEW.
type CreateView struct {
	Name         string
	Materialized bool
	IfNotExists  bool
	// Replace is CREATE OR REPLACE VIEW; Temp is CREATE TEMP VIEW;
	// InTemp a view made in pg_temp without TEMP, which is temporary too.
	Replace, Temp, InTemp bool
	Plan                  plan.Node // its columns carry the view's column names
	Query                 *Stmt     // the defining SELECT, for plain views
	Definition            string    // the defining SELECT's text
	// Order is a materialized view's ORDER BY without LIMIT, over its
	// columns: not maintained (the view is a set), the order its rows read
	// back in. Nil when the ORDER BY reads columns the view does not have.
	Order []plan.SortKey
	// MaxMemory is the view's memory budget in bytes, WITH (max_memory =
	// '64MB'); 0 for none.
	MaxMemory int64
	// Propagation is WITH (propagation = 'auto' | 'partial' | 'normalise'):
	// how a view over change-stream tables is maintained; "" is auto.
	Propagation string
	// SecurityInvoker is a plain view's WITH (security_invoker): its
	// query reads as the role that reads the view (rowsecurity.go).
	SecurityInvoker bool
	// CheckOption is a plain view's WITH [LOCAL | CASCADED] CHECK OPTION
	// (or WITH (check_option = …)): "local", "cascaded", "" for none.
	CheckOption string
	// NoData is WITH NO DATA: the view is created unpopulated, neither
	// built nor maintained until REFRESH MATERIALIZED VIEW.
	NoData bool
	// RelOptions are a materialized view's storage parameters as its
	// CREATE statement gave them, name=value (bind_matview_options.go).
	RelOptions []string
	// Domains are, per column, the domain PostgreSQL types the view's
	// column as (domain_kept.go); nil without one.
	Domains []*expr.Domain
	// Collations are, per column of a view, the collation its query
	// derives for it, as PostgreSQL gives the view's columns
	// ("C", "en-x-icu", a user collation's name); the zero value for the
	// default or none.
	Collations []ViewCollation
}

// DropKind is what DROP drops.
type DropKind int

// Drop kinds.
const (
	DropTable DropKind = iota
	DropView
	DropMatView
	DropIndex
)

// CreateIndex is CREATE INDEX [name] ON table (col, …): an index on the
// table's leading column, which equality lookups of DML and ad-hoc
// queries use. Name is PostgreSQL's default when none is written.
type CreateIndex struct {
	Name        string
	Table       string
	Cols        []int // -1 where the key's element is an expression
	Unique      bool  // CREATE UNIQUE INDEX: enforced
	IfNotExists bool
	// Exprs are the key's expressions over the table's row, nil where the
	// element is the column Cols[i]; KeySQL is each element's text as
	// pg_get_indexdef prints it pretty ("lower(email)", "(a + b)", "n").
	Exprs  []expr.Expr
	KeySQL []string
	// Where is a partial index's predicate over the table's row (nil for
	// none), WhereSQL its text.
	Where    expr.Expr
	WhereSQL string
	// WhereConj are the texts of the predicate's conjuncts, which an ON
	// CONFLICT target's WHERE must hold to infer the index.
	WhereConj []string
	// Include are the columns of INCLUDE, stored in the index but no part
	// of its key.
	Include []int
	// NullsNotDistinct makes a unique index hold one NULL key at most.
	NullsNotDistinct bool
	// DefaultName is set when the statement names no index: a name taken
	// gets a number, as in PostgreSQL.
	DefaultName bool
	// Method is the access method the statement names ("btree" when it
	// names none). Every index here is the same ordered structure: the
	// method decides only what is accepted and what the catalogs show.
	Method string
	// KeyOpts is, per key element, what pg_get_indexdef prints after it
	// (COLLATE, a non-default operator class, DESC, NULLS FIRST|LAST),
	// and KeyOptions its pg_index.indoption bits.
	KeyOpts    []string
	KeyOptions []int16
	// ElemColls is, per key element, the collation its COLLATE names (a
	// value.Collation's ID, 0 for a byte-wise one), -1 for none; nil
	// when no element names one. A unique index's keys equal under a
	// nondeterministic one conflict, as in PostgreSQL.
	ElemColls []int16
}

// Drop is DROP TABLE / VIEW / MATERIALIZED VIEW.
type Drop struct {
	Kind     DropKind
	Names    []string
	IfExists bool
	Cascade  bool
}

// Select is a query evaluated once.
type Select struct {
	Plan plan.Node
	// Lock is what its FOR UPDATE / FOR SHARE clauses ask for.
	Lock Locking
	// Origins are, by output column, the table columns they are taken
	// from straight, which a client is told of (bind_column_origin.go).
	Origins []Origin
}

// Assign is one SET column = expr of UPDATE or ON CONFLICT DO UPDATE.
type Assign struct {
	Col  int
	Expr expr.Expr
}

// OnConflict is the ON CONFLICT clause of INSERT.
type OnConflict struct {
	Arbiter []int // the conflict target's columns; nil: any unique constraint (DO NOTHING only)
	// ArbiterSQL is, where Arbiter holds -1, the target's expression's
	// text, as CreateIndex.KeySQL writes it; ArbiterWhere are the
	// conjuncts' texts of the target's WHERE, which infers a partial
	// index whose predicate's conjuncts are among them; Constraint is
	// the name ON CONSTRAINT gives instead (conflict_infer.go).
	ArbiterSQL   []string
	ArbiterWhere []string
	ArbiterPred  expr.Expr // the target's WHERE, bound over the table's row
	Constraint   string
	DoNothing    bool
	// DO UPDATE: expressions over the existing row followed by the
	// proposed row (EXCLUDED), so EXCLUDED.c is column len(table)+c.
	Set   []Assign
	Where expr.Expr
	// SetCols are the columns the SET list assigns (for UPDATE OF
	// triggers), with or without Rows.
	SetCols []int
	// Rows, when the SET list or WHERE holds a subquery, replaces Set and
	// Where: a plan over a plan.Target of the existing row followed by the
	// proposed row, whose one row is the new row, or no row when WHERE
	// rejects the pair.
	Rows plan.Node
}

// Insert is INSERT. Source produces rows of the table's full width, with
// defaults already filled in.
type Insert struct {
	Table string
	// Partition is the constraint of the partition the statement names,
	// when it names one: Table is then the partition's root (Update,
	// Delete and Copy too).
	Partition  *expr.PartitionOf
	Source     plan.Node
	OnConflict *OnConflict
	Returning  []expr.Expr // over the table's row
	// RetSystem is set when RETURNING reads the system columns.
	RetSystem *ReturnSystem
	RetCols   []plan.Column
	// RetOrigins are the table columns RetCols are taken from (Origin).
	RetOrigins []Origin
	// RetPlan is set when the RETURNING list holds a subquery: see
	// Update.RetPlan.
	RetPlan plan.Node
	// View is set when Table is a plain view: its rows, which its
	// INSTEAD OF triggers change (Update and Delete then have Rows).
	View plan.Node
	// Checks are row-level security's checks of each row inserted;
	// ConflictChecks those of the existing row ON CONFLICT DO UPDATE
	// updates, UpdateChecks those of the row it makes.
	Checks                       *RowChecks
	ConflictChecks, UpdateChecks *RowChecks
	// Auto is set when the statement names an automatically updatable
	// view (bind_view_auto.go): Table is then its table, and the rows
	// written meet Auto.Checks.
	Auto *AutoView
	// Targets are the table's columns the statement inserts into, as
	// PostgreSQL reads them for column privileges: those of its column
	// list, or, without one, as many of the table's first columns as its
	// rows have values; none for DEFAULT VALUES.
	Targets []int
}

// Update is UPDATE … SET … [FROM …] WHERE …. With From, expressions see the
// table's row followed by the FROM relation's row.
type Update struct {
	Table     string
	Partition *expr.PartitionOf
	Set       []Assign
	// SetCols are the columns the SET list assigns (for UPDATE OF
	// triggers), with or without Rows.
	SetCols   []int
	From      plan.Node
	Where     expr.Expr
	Returning []expr.Expr
	RetCols   []plan.Column
	// RetOrigins are the table columns RetCols are taken from (Origin).
	RetOrigins []Origin
	// RetSystem is set when RETURNING reads the system columns.
	RetSystem *ReturnSystem
	// Rows is set when the SET list or WHERE holds a subquery, and then
	// replaces Set, From and Where: a plan over a plan.Target of the
	// table's rows, each followed by its row id, whose rows are the row
	// id, the new row and the FROM row (when there is FROM) of each row to
	// change; a row id that comes more than once takes its first row.
	Rows plan.Node
	// RetPlan is set when the RETURNING list holds a subquery: a plan over
	// a plan.Target of the rows Returning would read (the new row followed
	// by the FROM row), whose rows, one per input row and in its order,
	// are the RETURNING rows; Returning then reads them (column i is
	// RetPlan's column i).
	RetPlan plan.Node
	// View is Insert.View.
	View plan.Node
	// Checks are row-level security's checks of each new row.
	Checks *RowChecks
	// Auto is set, beside View, when the view is automatically
	// updatable: the rows its Rows plan reads are the view's rows
	// computed from its table's, each with the table row's id, and the
	// statement changes those table rows.
	Auto *AutoView
	// Inherited are the statement bound again over each inheritance
	// descendant of the table, which it reaches without ONLY.
	Inherited []*Update
	// ReadsHierarchy is set beside Inherited when a subquery, FROM or
	// RETURNING reads a table of the hierarchy: every table's rows are
	// then read as the statement found them, before any table changed.
	ReadsHierarchy bool
	// CurrentOf, for WHERE CURRENT OF, is evaluated once before the rows
	// (on no row): the cursor's errors, raised even when no row is read.
	CurrentOf expr.Expr
}

// Delete is DELETE … [USING …] WHERE ….
type Delete struct {
	Table     string
	Partition *expr.PartitionOf
	Using     plan.Node
	Where     expr.Expr
	Returning []expr.Expr
	RetCols   []plan.Column
	// RetOrigins are the table columns RetCols are taken from (Origin).
	RetOrigins []Origin
	// RetSystem is set when RETURNING reads the system columns.
	RetSystem *ReturnSystem
	// Rows and RetPlan are Update's: Rows' rows are the row id, the row
	// and the USING row.
	Rows    plan.Node
	RetPlan plan.Node
	// View is Insert.View, Auto Update.Auto.
	View plan.Node
	Auto *AutoView
	// Inherited is Update.Inherited.
	Inherited []*Delete
	// ReadsHierarchy is Update.ReadsHierarchy.
	ReadsHierarchy bool
	// CurrentOf is Update.CurrentOf.
	CurrentOf expr.Expr
}

// TxKind is a transaction control statement's kind.
type TxKind int

// Transaction statements.
const (
	TxBegin TxKind = iota
	TxCommit
	TxRollback
	TxSavepoint  // SAVEPOINT name
	TxRelease    // RELEASE [SAVEPOINT] name
	TxRollbackTo // ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name
)

// Tx is BEGIN, COMMIT, ROLLBACK, or a savepoint's statement; Savepoint
// is the savepoint's name (folded as an identifier is).
type Tx struct {
	Kind      TxKind
	Savepoint string
	// Modes are BEGIN's transaction modes, as SET TRANSACTION's
	// (transaction_isolation, transaction_read_only, …).
	Modes []Set
	// Chain is COMMIT AND CHAIN or ROLLBACK AND CHAIN: a new transaction
	// block, with the same modes, starts at once.
	Chain bool
}

// Subscribe is SUBSCRIBE [TO] view.
type Subscribe struct{ View string }

// Explain is EXPLAIN (without ANALYZE) of a view definition, an existing
// view, a query, a data change, CREATE TABLE … AS, DECLARE or REFRESH.
type Explain struct {
	View   *CreateView // EXPLAIN CREATE MATERIALIZED VIEW …, EXPLAIN SELECT …
	Select bool        // View is an ad-hoc SELECT's
	// DML is EXPLAIN INSERT / UPDATE / DELETE / MERGE: the *Insert,
	// *Update, *Delete or *Merge; *RuleDML on a relation with rules.
	DML     Bound
	TableAs *CreateTableAs // EXPLAIN CREATE TABLE … AS, SELECT … INTO
	Query   plan.Node      // EXPLAIN DECLARE c CURSOR FOR query: the ad-hoc query
	Utility bool           // EXPLAIN REFRESH MATERIALIZED VIEW: no plan, as in PostgreSQL
	Name    string         // EXPLAIN MATERIALIZED VIEW name
	Format  string         // "text", "json", "xml" or "yaml"
	// Summary is SUMMARY: the time planning took follows each plan.
	Summary bool
}

// Show is SHOW name.
type Show struct{ Name string }

// CopyFormat is COPY's data format.
type CopyFormat int

// COPY formats.
const (
	CopyText CopyFormat = iota // tab-separated, \N for NULL, backslash escapes
	CopyCSV
	// CopyBinary is PostgreSQL's binary format, which the server's copy
	// protocol encodes and decodes (pgwire); the engine takes and gives
	// its rows as values.
	CopyBinary
	CopyDebezium // JSON lines of Debezium change events
	CopyUpsert   // JSON lines {"key": {…}, "value": {…} | null}
)

// CopyOptions are how COPY's data is written: its format and the
// format's options.
type CopyOptions struct {
	Format    CopyFormat
	Delimiter byte
	Null      string // the string that stands for NULL
	Header    bool   // the first line names the columns
	Quote     byte   // CSV
	Escape    byte   // CSV
	// Encoding is the data's encoding, PostgreSQL's name for it (LATIN1);
	// empty when ENCODING is not given: the session's client_encoding.
	Encoding string
	// Freeze is COPY … FROM's FREEZE: the table must have been created or
	// truncated in the current subtransaction.
	Freeze bool
}

// Copy is COPY table [(columns)] FROM 'file' | STDIN [WITH (options)].
type Copy struct {
	CopyOptions
	Table     string
	Partition *expr.PartitionOf
	Cols      []int  // the columns the data holds, in order: all when not listed
	File      string // the file to read; empty for STDIN
	Stdin     bool
	// View is set when Table is a plain view: its INSTEAD OF INSERT
	// triggers take the rows (copyToView).
	View bool
	// ForceNotNull and ForceNull are, per column of the table (nil when
	// not given), CSV's FORCE_NOT_NULL (an unquoted NULL string is that
	// string) and FORCE_NULL (a quoted NULL string is NULL).
	ForceNotNull, ForceNull []bool
}

// CopyTo is COPY table [(columns)] | (query) TO STDOUT | 'file' [WITH
// (options)]: the rows of Query, a *Select (a table's own rows, as
// SELECT columns FROM ONLY table) or a data change with RETURNING,
// written as the options say.
type CopyTo struct {
	CopyOptions
	Query Bound
	File  string // the file to write; empty for STDOUT
	// ForceQuote is, per column, whether CSV quotes every non-NULL value.
	ForceQuote []bool
}

// Set is SET [SESSION | LOCAL] name = value, SET name TO DEFAULT, RESET
// name, RESET ALL and SET TRANSACTION. Value is empty for DEFAULT and
// RESET. Name is lower case; the forms SET TIME ZONE, SET SCHEMA and SET
// NAMES are timezone, search_path and client_encoding.
type Set struct {
	Name    string
	Value   string
	Default bool // SET name TO DEFAULT, RESET name
	Reset   bool // RESET (the tag)
	Local   bool // SET LOCAL, SET TRANSACTION: until the transaction ends
	All     bool // RESET ALL
	// Multi are the settings of SET TRANSACTION and SET SESSION
	// CHARACTERISTICS AS TRANSACTION (transaction_isolation, …).
	Multi []Set
}

func (*CreateTable) bound() {}
func (*CreateIndex) bound() {}
func (*Copy) bound()        {}
func (*CopyTo) bound()      {}
func (*Set) bound()         {}
func (*CreateView) bound()  {}
func (*Drop) bound()        {}
func (*Select) bound()      {}
func (*Insert) bound()      {}
func (*Update) bound()      {}
func (*Delete) bound()      {}
func (*Tx) bound()          {}
func (*Subscribe) bound()   {}
func (*Explain) bound()     {}
func (*Show) bound()        {}
