package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// bindCopyTo binds COPY table [(columns)] | (query) TO STDOUT | 'file'.
// A table's rows are those of SELECT columns FROM ONLY table, so that its
// privileges and row-level security apply as to any query (PostgreSQL
// does the same for a table with row-level security); a query is bound
// as the statement it is.
func (b *binder) bindCopyTo(cs *pg_query.CopyStmt) (Bound, error) {
	if cs.IsProgram {
		return nil, b.refuse(-1, "COPY TO PROGRAM is not supported").
			WithHint("COPY … TO STDOUT, and let the client hand the data to the program")
	}
	query := cs.Query
	var rel *Relation
	if cs.Relation != nil {
		var sel *pg_query.SelectStmt
		var err error
		if sel, rel, err = b.copyTableQuery(cs); err != nil {
			return nil, err
		}
		query = &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}}
	} else if sel := query.GetSelectStmt(); sel != nil && sel.IntoClause != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY (SELECT INTO) is not supported")
	} else if query.GetMergeStmt() != nil {
		// PostgreSQL 15 refuses it before looking at the query.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "MERGE not supported in COPY")
	}
	q, err := b.bindStmt(query)
	if err != nil {
		return nil, err
	}
	cols, ok := copiedColumns(q)
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY query must have a RETURNING clause")
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	c := &CopyTo{Query: q, File: cs.Filename}
	var fq *pg_query.DefElem
	if c.CopyOptions, fq, _, err = b.copyOptions(cs); err != nil {
		return nil, err
	}
	if fq != nil {
		if c.ForceQuote, err = b.forceQuote(fq, names, rel); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// copiedColumns returns the columns of the rows a COPY … TO query gives:
// a SELECT's, or a data change's RETURNING list (ok false without one).
func copiedColumns(q Bound) (cols []plan.Column, ok bool) {
	switch q := q.(type) {
	case *Select:
		return q.Plan.Columns(), true
	case *Insert:
		return q.RetCols, q.Returning != nil
	case *Update:
		return q.RetCols, q.Returning != nil
	case *Delete:
		return q.RetCols, q.Returning != nil
	case *WithModify:
		return copiedColumns(q.Main)
	}
	return nil, false
}

// copyTableQuery is the SELECT whose rows COPY table [(columns)] TO
// writes: the columns listed (all when none are) of the table's own rows.
// PostgreSQL copies tables only: views, materialized views, partitioned
// tables and sequences take the COPY (SELECT …) TO form.
func (b *binder) copyTableQuery(cs *pg_query.CopyStmt) (*pg_query.SelectStmt, *Relation, error) {
	rv := proto.Clone(cs.Relation).(*pg_query.RangeVar)
	rv.Inh = false // ONLY: a parent's own rows, as PostgreSQL copies them
	var rel *Relation
	if sys, ok := b.systemRelation(rv); ok {
		rel = sys
	} else if r, ok := b.lookupRelation(rv.Relname); ok && (rv.Schemaname == "" || rv.Schemaname == "public") {
		rel = r
	} else {
		return nil, nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	}
	what := ""
	switch {
	case rel.Kind == KindView:
		what = "view"
	case rel.Kind == KindMatView:
		what = "materialized view"
	case rel.Kind == KindSequence:
		return nil, nil, pgerr.New(pgerr.WrongObjectType, "cannot copy from sequence %q", rel.Name)
	case rel.Kind != KindTable:
		return nil, nil, pgerr.New(pgerr.WrongObjectType, "cannot copy from non-table relation %q", rel.Name)
	case rel.Def != nil && rel.Def.PartitionBy != nil:
		what = "partitioned table"
	}
	if what != "" {
		return nil, nil, pgerr.New(pgerr.WrongObjectType, "cannot copy from %s %q", what, rel.Name).
			WithHint("Try the COPY (SELECT ...) TO variant.")
	}
	sel := &pg_query.SelectStmt{Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
		FromClause: []*pg_query.Node{{Node: &pg_query.Node_RangeVar{RangeVar: rv}}}}
	column := func(name string) {
		ref := &pg_query.ColumnRef{Fields: []*pg_query.Node{{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: name}}}}, Location: -1}
		sel.TargetList = append(sel.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Val: &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: ref}}, Location: -1}}})
	}
	if len(cs.Attlist) == 0 {
		for i, c := range rel.Cols {
			if !genCol(rel, i) {
				column(c.Name)
			}
		}
		if len(rel.Cols) == 0 {
			// SELECT FROM t: the table's rows, of no column.
			sel.TargetList = []*pg_query.Node{}
		}
		return sel, rel, nil
	}
	seen := map[string]bool{}
	for _, n := range cs.Attlist {
		name := n.GetString_().GetSval()
		if !slices.ContainsFunc(rel.Cols, func(c plan.Column) bool { return c.Name == name }) {
			return nil, nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", name, rel.Name)
		}
		if seen[name] {
			return nil, nil, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", name)
		}
		if genCol(rel, colIndex(rel.Cols, name)) {
			return nil, nil, genCopyError(name)
		}
		seen[name] = true
		column(name)
	}
	return sel, rel, nil
}

// forceQuote reads FORCE_QUOTE (columns) or FORCE_QUOTE *: per column
// written (cols), whether CSV quotes it. rel is the table copied, nil for
// a query.
func (b *binder) forceQuote(d *pg_query.DefElem, cols []string, rel *Relation) ([]bool, error) {
	out := make([]bool, len(cols))
	if d.Arg.GetAStar() != nil {
		for i := range out {
			out[i] = true
		}
		return out, nil
	}
	for _, n := range d.Arg.GetList().GetItems() {
		name := n.GetString_().GetSval()
		if i := slices.Index(cols, name); i >= 0 {
			out[i] = true
			continue
		}
		switch {
		case rel == nil:
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", name)
		case !slices.ContainsFunc(rel.Cols, func(c plan.Column) bool { return c.Name == name }):
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", name, rel.Name)
		}
		return nil, pgerr.New("42P10", "FORCE_QUOTE column %q not referenced by COPY", name)
	}
	return out, nil
}
