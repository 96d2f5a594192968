package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// CreateTableAs is CREATE TABLE t [(cols)] AS query [WITH [NO] DATA] and
// SELECT … INTO [TABLE] t …: a new table with the query's columns (a
// literal of unknown type becomes text, as in PostgreSQL), filled with its
// rows once. The table is an ordinary table from then on: no constraint,
// no default, not maintained from the query.
type CreateTableAs struct {
	Table  *CreateTable
	Query  plan.Node // projected to the table's column types
	NoData bool      // WITH NO DATA: the table is created empty
}

func (*CreateTableAs) bound() {}

// bindSelectInto binds SELECT … INTO t as CREATE TABLE t AS SELECT ….
func (b *binder) bindSelectInto(sel *pg_query.SelectStmt) (Bound, error) {
	into := sel.IntoClause
	sel.IntoClause = nil
	defer func() { sel.IntoClause = into }()
	return b.bindTableAs(into, &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}}, false)
}

// bindTableAs binds the table and the query of CREATE TABLE … AS.
func (b *binder) bindTableAs(into *pg_query.IntoClause, q *pg_query.Node, ifNotExists bool) (Bound, error) {
	rv := into.Rel
	if err := b.domainTaken(rv.Relname); err != nil {
		return nil, err
	}
	if len(into.Options) > 0 {
		return nil, b.refuse(rv.Location, "options of CREATE TABLE … AS are not supported")
	}
	sel := q.GetSelectStmt()
	if sel == nil {
		return nil, b.refuse(rv.Location, "CREATE TABLE … AS %s is not supported", stmtName(q)).WithHint("write the query as a SELECT")
	}
	b.lock = &Locking{}
	p, err := b.bindSelect(sel)
	if err != nil {
		return nil, err
	}
	origins := b.originOut
	if len(into.ColNames) > len(p.Columns()) {
		return nil, pgerr.New(pgerr.SyntaxError, "too many column names were specified")
	}
	if p, err = b.renameColumns(p, into.ColNames, rv.Relname, rv.Location); err != nil {
		return nil, err
	}
	ct := &CreateTable{Name: rv.Relname, IfNotExists: ifNotExists}
	// After the query, whose errors PostgreSQL reports first (the table
	// named in its own query does not exist yet: 42P01).
	if err := b.tempTable(&pg_query.CreateStmt{Relation: rv, Oncommit: into.OnCommit}, ct); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var cols []plan.Column
	for i, c := range p.Columns() {
		if seen[c.Name] {
			return nil, b.stmt.errf(rv.Location, pgerr.DuplicateColumn, "column %q specified more than once", c.Name)
		}
		seen[c.Name] = true
		t := c.Type
		switch {
		case t.Kind == value.Unknown:
			t = value.TextType
		case t.Kind == value.Record || t.Kind == value.ArrayOf(value.Record):
			return nil, b.stmt.errf(rv.Location, pgerr.InvalidTableDef, "column %q has pseudo-type %s", c.Name, t)
		}
		if err := checkVoidColumn(c.Name, t); err != nil {
			return nil, err
		}
		if err := b.checkRegColumn(t, rv.Location); err != nil {
			return nil, err
		}
		col := ColumnDef{Name: c.Name, Type: t}
		if i < len(origins) {
			// A column of a domain in the query is one in the table, as
			// PostgreSQL types it (domain_kept.go).
			if d := b.originDomain(origins[i]); d != nil && d.Def().Base.Kind == t.Kind {
				col.Domain = d
			}
		}
		ct.Cols = append(ct.Cols, col)
		cols = append(cols, plan.Column{Name: c.Name, Type: t})
	}
	if p, err = b.castColumns(p, cols); err != nil {
		return nil, err
	}
	return &CreateTableAs{Table: ct, Query: p, NoData: into.SkipData}, nil
}
