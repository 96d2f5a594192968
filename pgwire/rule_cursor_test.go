package pgwire_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestRuleParamsAndPartitionCursor compares with PostgreSQL, over both
// protocols: statements with parameters on a table with rules (the
// extended protocol binds them), and UPDATE and DELETE WHERE CURRENT OF a
// cursor over a partitioned table.
func TestRuleParamsAndPartitionCursor(t *testing.T) {
	setup := []string{
		`CREATE TABLE ri (k int PRIMARY KEY, w int)`,
		`CREATE TABLE rlog (k int, w int, what text)`,
		`CREATE RULE ri_ins AS ON INSERT TO ri DO ALSO INSERT INTO rlog VALUES (new.k, new.w, 'ins')`,
		`CREATE RULE ri_upd AS ON UPDATE TO ri DO ALSO INSERT INTO rlog VALUES (new.k, new.w, 'upd')`,
		`CREATE TABLE cp (id int, v text) PARTITION BY RANGE (id)`,
		`CREATE TABLE cp1 PARTITION OF cp FOR VALUES FROM (0) TO (10)`,
		`CREATE TABLE cp2 PARTITION OF cp FOR VALUES FROM (10) TO (20)`,
		`INSERT INTO cp VALUES (1, 'a'), (11, 'b'), (2, 'c'), (12, 'd')`,
	}
	steps := []string{
		`BEGIN`,
		`DECLARE c CURSOR FOR SELECT * FROM cp WHERE id > 1 ORDER BY id FOR UPDATE`,
		`FETCH c`,
		`UPDATE cp SET v = v || '!' WHERE CURRENT OF c RETURNING *`,
		`FETCH c`,
		`DELETE FROM cp1 WHERE CURRENT OF c`,
		`DELETE FROM cp2 WHERE CURRENT OF c RETURNING id`,
		`COMMIT`,
		`SELECT tableoid::regclass, * FROM cp ORDER BY id`,
	}
	type param struct {
		q    string
		args []any
	}
	params := []param{
		{`INSERT INTO ri VALUES ($1, $2)`, []any{1, 10}},
		{`INSERT INTO ri VALUES ($1, $2)`, []any{2, 20}},
		{`UPDATE ri SET w = $2 WHERE k = $1`, []any{1, 11}},
		{`UPDATE ri SET w = w + $1`, []any{"5"}},
		{`SELECT * FROM rlog ORDER BY k, what, w`, nil},
	}
	run := func(t *testing.T, c *pgx.Conn, mode pgx.QueryExecMode) []string {
		for _, q := range setup {
			if _, err := c.Exec(ctx(t), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		var out []string
		for _, q := range steps {
			out = append(out, q+" → "+stepResult(t, c, q, mode))
		}
		for _, p := range params {
			rows, err := c.Query(ctx(t), p.q, append([]any{mode}, p.args...)...)
			if err != nil {
				t.Fatalf("%s: %v", p.q, err)
			}
			vals, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
			if err != nil {
				out = append(out, p.q+" → "+err.Error())
				continue
			}
			out = append(out, p.q+" → "+rows.CommandTag().String()+" "+fmtRows(vals))
		}
		return out
	}
	compareProtocols(t, run)
}

// fmtRows renders rows for a comparison.
func fmtRows(rows [][]any) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprint(&b, r, ";")
	}
	return b.String()
}
