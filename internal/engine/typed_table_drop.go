package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
)

// DROP TYPE … CASCADE of a composite type that typed tables have drops
// the tables, and what depends on them, as PostgreSQL's cascade does
// (pg_depend records each table's dependence on its type). Other users of
// the type (a column of its type, a view, a routine) are still refused.

// typedCascade reports whether the dependents deps of the composite type
// name are its typed tables alone, which DROP TYPE … CASCADE drops.
func (e *Engine) typedCascade(name string, deps []string) bool {
	lines := e.typedTableLines(name)
	return len(lines) > 0 && len(lines) == len(deps) && !slices.ContainsFunc(deps, func(d string) bool { return !slices.Contains(lines, d) })
}

// dropTypedTables drops the tables (typed tables of the types a DROP
// TYPE … CASCADE drops) with what depends on them; it returns the
// objects dropped, as the lines of PostgreSQL's notice.
func (e *Engine) dropTypedTables(tables []string) ([]string, error) {
	if len(tables) == 0 {
		return nil, nil
	}
	res, err := e.drop(&sql.Drop{Kind: sql.DropTable, Names: tables, Cascade: true})
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, t := range tables {
		lines = append(lines, "drop cascades to table "+t)
	}
	for _, n := range res.Notices {
		for _, l := range strings.Split(strings.TrimPrefix(n, "DETAIL: "), "\n") {
			if strings.HasPrefix(l, "drop cascades to ") && !strings.Contains(l, " other objects") {
				lines = append(lines, l)
			}
		}
	}
	return lines, nil
}

// cascadeNotice is PostgreSQL's notice of a drop that cascaded to the
// objects lines name: the one line, or their count and the lines as its
// DETAIL.
func cascadeNotice(lines []string) []string {
	switch len(lines) {
	case 0:
		return nil
	case 1:
		return lines
	}
	return []string{fmt.Sprintf("drop cascades to %d other objects\nDETAIL: %s", len(lines), strings.Join(lines, "\n"))}
}
