package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// tableCall is a column default, a generated column or a CHECK
// constraint of a table that calls a user function: col names the column
// of a default, gen a generated column, con the constraint of a check.
type tableCall struct {
	// domain names the domain of a domain's default or check.
	table, col, gen, con, domain string
	fn                           string // the function's signature
}

// describe names the object as PostgreSQL's dependency messages do.
func (c tableCall) describe() string {
	switch {
	case c.domain != "" && c.con != "":
		return "constraint " + c.con
	case c.domain != "":
		return "type " + unqualified(c.domain)
	case c.con != "":
		return fmt.Sprintf("constraint %s on table %s", c.con, unqualified(c.table))
	case c.gen != "":
		return fmt.Sprintf("column %s of table %s", c.gen, unqualified(c.table))
	}
	return fmt.Sprintf("default value for column %s of table %s", c.col, unqualified(c.table))
}

// callsSig reports whether e calls the user function of signature sig
// (sql.tableDefCall binds such calls by signature).
func callsSig(e expr.Expr, sig string) bool {
	found := false
	expr.Walk(e, func(n expr.Expr) bool {
		if rc, ok := n.(*expr.RoutineCall); ok {
			if fsig, _ := sql.SplitRoutineSig(rc.Sig); fsig == sig {
				found = true
			}
		}
		return !found
	})
	return found
}

// tableCallers lists the checks, then the defaults and generated
// columns, of tables that call the function of signature sig, as
// PostgreSQL lists its dependents.
func (e *Engine) tableCallers(sig string) []tableCall {
	var checks, defaults []tableCall
	for _, name := range sortedKeys(e.tables) {
		d := e.tables[name].def
		for _, ch := range d.Checks {
			if callsSig(ch.Expr, sig) {
				checks = append(checks, tableCall{table: name, con: ch.Name, fn: sig})
			}
		}
		for _, c := range d.Cols {
			if c.Default != nil && callsSig(c.Default, sig) {
				defaults = append(defaults, tableCall{table: name, col: c.Name, fn: sig})
			}
			if c.Generated != nil && callsSig(c.Generated, sig) {
				defaults = append(defaults, tableCall{table: name, gen: c.Name, fn: sig})
			}
		}
	}
	for _, name := range sortedKeys(e.domains.byName) {
		def := e.domains.byName[name].Def()
		for _, ch := range def.Checks {
			if callsSig(ch.Expr, sig) {
				checks = append(checks, tableCall{domain: name, con: ch.Name, fn: sig})
			}
		}
		if def.Default != nil && callsSig(def.Default, sig) {
			defaults = append(defaults, tableCall{domain: name, fn: sig})
		}
	}
	return append(checks, defaults...)
}

// dropFunctionTableCalls is DROP FUNCTION's step for the defaults and
// checks that call the functions gone: 2BP01 naming them, or with
// cascade, each dropped by the ALTER TABLE that drops it, with
// PostgreSQL's NOTICE.
func (e *Engine) dropFunctionTableCalls(gone []*sql.Function, cascade bool, notices []string) ([]string, error) {
	var deps []tableCall
	for _, f := range gone {
		deps = append(deps, e.tableCallers(f.Signature())...)
	}
	if len(deps) == 0 {
		return notices, nil
	}
	// Checks before defaults over all the functions, as PostgreSQL lists
	// them.
	slices.SortStableFunc(deps, func(a, b tableCall) int { return boolRank(a.con == "") - boolRank(b.con == "") })
	lines := make([]string, len(deps))
	for i, d := range deps {
		lines[i] = d.describe() + " depends on function " + d.fn
	}
	if !cascade {
		msg := fmt.Sprintf("cannot drop function %s because other objects depend on it", gone[0].Signature())
		if len(gone) > 1 {
			msg = "cannot drop desired object(s) because other objects depend on them"
		}
		return nil, &pgerr.Error{Code: pgerr.DependentObjects, Message: msg, Detail: strings.Join(lines, "\n"),
			Hint: "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	for _, d := range deps {
		if d.domain != "" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP FUNCTION … CASCADE of function %s, which domain %s calls, is not supported", d.fn, d.domain).
				WithHint("drop or change the domain first")
		}
	}
	if len(deps) == 1 {
		notices = append(notices, "drop cascades to "+deps[0].describe())
	} else {
		var sb strings.Builder
		fmt.Fprintf(&sb, "drop cascades to %d other objects\nDETAIL: ", len(deps))
		for i, d := range deps {
			if i > 0 {
				sb.WriteString("\n")
			}
			sb.WriteString("drop cascades to " + d.describe())
		}
		notices = append(notices, sb.String())
	}
	var tables []string
	for _, d := range deps {
		if !slices.Contains(tables, d.table) {
			tables = append(tables, d.table)
		}
	}
	for _, t := range tables {
		var cmds []string
		for _, d := range deps {
			switch {
			case d.table != t:
			case d.con != "":
				cmds = append(cmds, "DROP CONSTRAINT "+sql.QuoteIdent(d.con))
			case d.gen != "":
				cmds = append(cmds, "DROP COLUMN "+sql.QuoteIdent(d.gen))
			default:
				cmds = append(cmds, "ALTER COLUMN "+sql.QuoteIdent(d.col)+" DROP DEFAULT")
			}
		}
		a, err := e.bindDescendantAlter("ALTER TABLE " + quoteKey(t) + " " + strings.Join(slices.Compact(cmds), ", "))
		if err != nil {
			return nil, err
		}
		if _, err := e.alterTable(a); err != nil {
			return nil, err
		}
	}
	return notices, nil
}

// callsTableRoutine reports whether e calls a user function (bound by
// sql.TableRoutineCatalog's calls).
func callsTableRoutine(e expr.Expr) bool {
	found := false
	expr.Walk(e, func(n expr.Expr) bool {
		if _, ok := n.(*expr.RoutineCall); ok {
			found = true
		}
		return !found
	})
	return found
}

// keptTableCallCheck reports whether ch, a check of a table's new
// definition, calls a user function and is old's check of its name as
// it was.
func keptTableCallCheck(old *table, ch sql.Check) bool {
	if old == nil || !callsTableRoutine(ch.Expr) {
		return false
	}
	return slices.ContainsFunc(old.def.Checks, func(o sql.Check) bool { return o.Name == ch.Name && o.SQL == ch.SQL && !o.NotValid })
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
