package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// A trigger is kept as its CREATE TRIGGER statement. When ALTER TABLE
// renames its table or columns, the statement is rewritten (its table,
// its UPDATE OF columns, the NEW.col and OLD.col of its WHEN) and bound
// again over the table as it becomes, so that the trigger follows the
// table as PostgreSQL's does.

// triggerStmt parses a CREATE TRIGGER statement.
func triggerStmt(text string) (*pg_query.ParseResult, *pg_query.CreateTrigStmt, error) {
	tree, err := pg_query.Parse(text)
	if err != nil {
		return nil, nil, err
	}
	if len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetCreateTrigStmt() == nil {
		return nil, nil, pgerr.New(pgerr.Internal, "not a CREATE TRIGGER statement: %s", text)
	}
	return tree, tree.Stmts[0].Stmt.GetCreateTrigStmt(), nil
}

// eachTriggerColumn calls fn with each column name of the trigger's
// UPDATE OF list and each NEW.col or OLD.col of its WHEN, through a
// pointer that fn may change.
func eachTriggerColumn(ct *pg_query.CreateTrigStmt, fn func(name *string)) {
	for _, c := range ct.Columns {
		if s := c.GetString_(); s != nil {
			fn(&s.Sval)
		}
	}
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil {
			return
		}
		if cr := n.GetColumnRef(); cr != nil {
			if len(cr.Fields) == 2 {
				q, col := cr.Fields[0].GetString_(), cr.Fields[1].GetString_()
				if q != nil && col != nil && (q.Sval == "new" || q.Sval == "old") {
					fn(&col.Sval)
				}
			}
			return
		}
		forEachChild(n, walk)
	}
	walk(ct.WhenClause)
}

// TriggerColumns are the names of the columns a CREATE TRIGGER
// statement's UPDATE OF and WHEN read, each once.
func TriggerColumns(text string) ([]string, error) {
	_, ct, err := triggerStmt(text)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	eachTriggerColumn(ct, func(name *string) {
		if !seen[*name] {
			seen[*name] = true
			out = append(out, *name)
		}
	})
	return out, nil
}

// RewriteTrigger returns a CREATE TRIGGER statement on table, its
// columns renamed as rename says (old name to new).
func RewriteTrigger(text, table string, rename map[string]string) (string, error) {
	tree, ct, err := triggerStmt(text)
	if err != nil {
		return "", err
	}
	ct.Relation.Schemaname, ct.Relation.Relname = "", table // table is the relation's key
	eachTriggerColumn(ct, func(name *string) {
		if n, ok := rename[*name]; ok {
			*name = n
		}
	})
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// RenamedTrigger returns a CREATE TRIGGER statement with the trigger
// named name.
func RenamedTrigger(text, name string) (string, error) {
	tree, ct, err := triggerStmt(text)
	if err != nil {
		return "", err
	}
	ct.Trigname = name
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}
