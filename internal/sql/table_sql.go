package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// deparseExpr returns the text of an expression as PostgreSQL's own
// deparser writes it.
func deparseExpr(n *pg_query.Node) (string, error) {
	sel := &pg_query.SelectStmt{TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Val: n}}}}}
	text, err := pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}}}}})
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(text, "SELECT "), nil
}

// QuoteIdent quotes a name for SQL text.
func QuoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// SQL returns a CREATE TABLE statement that creates the table ct
// describes: its columns with their types, NOT NULL and defaults, its
// keys, checks and options. A table made by CREATE TABLE … AS, CREATE
// TABLE (LIKE …) or changed by ALTER TABLE is recorded by this text.
func (ct *CreateTable) SQL() string {
	var b strings.Builder
	b.WriteString("CREATE TABLE ")
	b.WriteString(QuoteIdent(ct.Name))
	b.WriteString(" (")
	cols := func(idx []int) string {
		names := make([]string, len(idx))
		for i, c := range idx {
			names[i] = QuoteIdent(ct.Cols[c].Name)
		}
		return "(" + strings.Join(names, ", ") + ")"
	}
	pk := map[int]bool{}
	for _, c := range ct.PrimaryKey {
		pk[c] = true
	}
	for i, c := range ct.Cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteIdent(c.Name))
		b.WriteByte(' ')
		b.WriteString(c.Type.String())
		if c.NotNull && !pk[i] {
			b.WriteString(" NOT NULL")
		}
		if c.DefaultSQL != "" {
			b.WriteString(" DEFAULT ")
			b.WriteString(c.DefaultSQL)
		}
	}
	named := func(name string) {
		if name != "" {
			b.WriteString("CONSTRAINT " + QuoteIdent(name) + " ")
		}
	}
	if ct.PrimaryKey != nil {
		b.WriteString(", ")
		named(ct.PrimaryKeyName)
		b.WriteString("PRIMARY KEY ")
		b.WriteString(cols(ct.PrimaryKey))
	}
	for i, u := range ct.Uniques {
		b.WriteString(", ")
		if i < len(ct.UniqueNames) {
			named(ct.UniqueNames[i])
		}
		b.WriteString("UNIQUE ")
		b.WriteString(cols(u))
	}
	for _, c := range ct.Checks {
		b.WriteString(", CONSTRAINT ")
		b.WriteString(QuoteIdent(c.Name))
		b.WriteString(" CHECK (")
		b.WriteString(c.SQL)
		b.WriteByte(')')
	}
	for _, fk := range ct.ForeignKeys {
		b.WriteString(", ")
		b.WriteString(ct.foreignKeySQL(fk))
	}
	b.WriteByte(')')
	if ct.ChangeStream {
		b.WriteString(" WITH (change_stream = true, complete_rows = " + strconv.FormatBool(ct.CompleteRows) + ")")
	}
	return b.String()
}

// KeyName returns the name of the table's primary key (i < 0) or of its
// i-th UNIQUE constraint: the one the statement gave, or PostgreSQL's
// default, t_pkey or t_col_…_key.
func (ct *CreateTable) KeyName(i int) string {
	if i < 0 {
		if ct.PrimaryKeyName != "" {
			return ct.PrimaryKeyName
		}
		return ct.Name + "_pkey"
	}
	if i < len(ct.UniqueNames) && ct.UniqueNames[i] != "" {
		return ct.UniqueNames[i]
	}
	names := make([]string, len(ct.Uniques[i]))
	for j, c := range ct.Uniques[i] {
		names[j] = ct.Cols[c].Name
	}
	return ct.Name + "_" + strings.Join(names, "_") + "_key"
}
