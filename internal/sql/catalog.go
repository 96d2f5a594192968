package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// RelKind says what a named relation is.
type RelKind int

// Relation kinds.
const (
	KindTable RelKind = iota
	KindMatView
	KindView // a named query, inlined where it is used
	// KindSequence is a sequence read as a relation of one row
	// (SELECT * FROM s), with SequenceColumns.
	KindSequence
	// KindComposite is a composite type (CREATE TYPE … AS (…)) read as
	// the relation whose row type it is, by casts and column types only.
	KindComposite
)

// Relation is what the binder needs to know about a named relation.
type Relation struct {
	Name string
	Kind RelKind
	Cols []plan.Column
	// Rows is the relation's row count when it was resolved, for ordering
	// joins; 0 when unknown.
	Rows int64
	// Uniques are the column sets of a table's primary key and unique
	// constraints: a join on one of them matches at most one row.
	Uniques [][]int
	// PrimaryKey is a table's primary key columns, nil without one: a
	// GROUP BY over all of them makes the table's other columns
	// functionally dependent on the group, as in PostgreSQL.
	PrimaryKey []int
	// MadeConstraint reports whether a table has a constraint of that
	// name that PostgreSQL made from another (a foreign key's on a
	// partition of the table it references), which cannot be dropped
	// alone; nil when it has none.
	MadeConstraint func(name string) bool
	// Table only.
	Defaults []expr.Expr // per column, nil when the default is NULL
	// Identity is, per column, 'a' (GENERATED ALWAYS AS IDENTITY), 'd'
	// (BY DEFAULT) or 0; nil for a table without identity columns.
	Identity []byte
	// Generated is, per column, whether it is a stored generated column
	// (a write may give it DEFAULT only); nil for a table without one.
	Generated []bool
	// Def is a table's definition, as CREATE TABLE bound it or ALTER TABLE
	// changed it; nil for other relations.
	Def *CreateTable
	// ColDomains are a view's or materialized view's columns' domains
	// (CreateView.Domains).
	ColDomains []*expr.Domain
	// ColCollations are a materialized view's columns' collations
	// (CreateView.Collations).
	ColCollations []ViewCollation
	// View only: the defining query and its text.
	Query *Stmt
	// SecurityInvoker is set on a view WITH (security_invoker): its query
	// reads with the privileges and row-level security of the statement's
	// role, not of its owner.
	SecurityInvoker bool
	// CheckOption is a view's WITH [LOCAL | CASCADED] CHECK OPTION:
	// "local", "cascaded" or "" for none.
	CheckOption string
	// RowType is a composite type's record type (KindComposite only).
	RowType value.Type
	// Security is set on a table whose row-level security applies to the
	// statement's role (rowsecurity.go).
	Security *RowSecurity
	// System marks a relation computed from the catalog or the engine's
	// figures each time it is read (pg_class, deltaview_views): a
	// materialized view cannot read it.
	System bool
	// CatalogOID is, for a table of the system catalog whose oid
	// PostgreSQL fixes (pg_class: 1259), that oid: its rows' tableoid.
	CatalogOID uint32
	// Partition is set for a partition: it reads its root's rows that
	// its constraint accepts (bind_partition.go).
	Partition *PartitionRel
	// TableOID is, for a partitioned table, the oid of the partition
	// that holds a row (its tableoid), over the row.
	TableOID expr.Expr
	// Inherit are a table's inheritance descendants, each once, which a
	// read of the table without ONLY reads too (bind_inherit.go).
	Inherit []InheritMember
}

// SystemCatalog is a Catalog with PostgreSQL's system catalogs: its
// relations are named schema.name (pg_catalog.pg_class,
// information_schema.tables), and SysCatalog returns the objects by oid
// for the reg* types and the functions over the catalogs, as the
// statement being bound sees them.
type SystemCatalog interface {
	SysCatalog() *expr.SysCatalog
}

// Catalog resolves relation names. Names are already case-folded.
type Catalog interface {
	Relation(name string) (*Relation, bool)
}

// SequenceColumns are PostgreSQL's columns of a sequence read as a
// relation.
var SequenceColumns = []plan.Column{
	{Name: "last_value", Type: value.Int8Type}, {Name: "log_cnt", Type: value.Int8Type}, {Name: "is_called", Type: value.BoolType},
}

// lookupRelation resolves a relation a query reads: a table or view, else
// a sequence when the catalog has them.
func (b *binder) lookupRelation(name string) (*Relation, bool) {
	if rel, ok := b.cat.Relation(name); ok {
		return rel, ok
	}
	if _, ok := b.sequence(name); ok {
		if sr, ok := b.cat.(SequenceReader); ok {
			sr.ReadSequence(name)
		}
		return &Relation{Name: name, Kind: KindSequence, Cols: SequenceColumns, Rows: 1}, true
	}
	return nil, false
}

// SequenceReader is a Catalog told of the sequences a statement reads as
// relations, which need the SELECT privilege.
type SequenceReader interface {
	ReadSequence(name string)
}

// RecursionBounder is a Catalog that also bounds the rounds of WITH
// RECURSIVE queries it binds (SET deltaview.max_recursion); a Catalog
// without it, or a bound of 0, leaves plan.DefaultMaxIterations.
type RecursionBounder interface {
	MaxRecursion() int
}

func (b *binder) maxRecursion() int {
	if rb, ok := b.cat.(RecursionBounder); ok {
		return rb.MaxRecursion()
	}
	return 0
}

// ViewReader is implemented by a catalog that tells the relations a
// statement names from those the plain views it names read, for checking
// privileges on the first only: InView is the catalog the binder resolves a
// view's query against.
type ViewReader interface {
	InView() Catalog
}

// ChildReader is implemented by a catalog that is told of the
// inheritance children a scan of their ancestor reads with it (a table
// named without ONLY): ReadsChild names each. They are not relations the
// statement names, nor dependencies of a view that reads the ancestor.
type ChildReader interface {
	ReadsChild(name string)
}
