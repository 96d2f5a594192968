package pgwire_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestExplainFormats reads EXPLAIN's documents over both protocols as a
// client would, from deltaview and from PostgreSQL, and compares what a
// client relies on: one QUERY PLAN column of type text, one row for a
// structured format, a JSON array of query objects each with a "Plan"
// object holding a "Node Type" (and under ANALYZE "Triggers"), an XML
// document whose root is explain in PostgreSQL's namespace around Query
// and Plan, a YAML list opening with "- Plan: ". The plans themselves are
// deltaview's and are not compared.
func TestExplainFormats(t *testing.T) {
	setup := []string{
		`CREATE TABLE ef (id int PRIMARY KEY, a int)`,
		`INSERT INTO ef VALUES (1, 10), (2, 20)`,
	}
	type step struct {
		q    string
		args []any
	}
	steps := []step{
		{`EXPLAIN (FORMAT JSON) SELECT a FROM ef WHERE a > 10`, nil},
		{`EXPLAIN (FORMAT XML) SELECT a FROM ef WHERE a > 10`, nil},
		{`EXPLAIN (FORMAT YAML) SELECT a FROM ef WHERE a > 10`, nil},
		{`EXPLAIN (FORMAT JSON) INSERT INTO ef VALUES (3, 30)`, nil},
		{`EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM ef`, nil},
		{`EXPLAIN (ANALYZE, FORMAT XML) UPDATE ef SET a = a + 1 WHERE id = 1`, nil},
		{`EXPLAIN (FORMAT JSON) UPDATE ef SET a = $1 WHERE id = $2`, []any{5, 2}},
		{`EXPLAIN (FORMAT JSON) REFRESH MATERIALIZED VIEW nosuch`, nil},
		{`EXPLAIN (FORMAT YAML) DECLARE c CURSOR FOR SELECT * FROM ef`, nil},
		{`EXPLAIN (FORMAT TEXT) CREATE TABLE ef2 AS SELECT * FROM ef`, nil},
		{`SELECT id, a FROM ef ORDER BY id`, nil},
	}
	run := func(t *testing.T, c *pgx.Conn, mode pgx.QueryExecMode) []string {
		for _, q := range setup {
			mustExec(t, c, q)
		}
		var out []string
		for _, s := range steps {
			if s.args != nil && mode == pgx.QueryExecModeSimpleProtocol {
				continue // parameters are the extended protocol's
			}
			rows, err := c.Query(ctx(t), s.q, append([]any{mode}, s.args...)...)
			if err != nil {
				t.Fatalf("%s: %v", s.q, err)
			}
			fds := rows.FieldDescriptions()
			var texts []string
			for rows.Next() {
				var v string
				if s.q[0] == 'S' {
					var id, a int32
					if err := rows.Scan(&id, &a); err != nil {
						t.Fatalf("%s: %v", s.q, err)
					}
					v = fmt.Sprint(id, a)
				} else if err := rows.Scan(&v); err != nil {
					t.Fatalf("%s: %v", s.q, err)
				}
				texts = append(texts, v)
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("%s: %v", s.q, err)
			}
			if s.q[0] == 'S' {
				out = append(out, s.q+" → "+strings.Join(texts, "; "))
				continue
			}
			out = append(out, fmt.Sprintf("%s → column %s type %d, %s", s.q, fds[0].Name, fds[0].DataTypeOID, docShape(t, s.q, texts)))
		}
		return out
	}
	compareProtocols(t, run)
}

// docShape says what a client reading an EXPLAIN result finds in it.
func docShape(t *testing.T, q string, rows []string) string {
	switch {
	case strings.Contains(q, "FORMAT JSON"):
		if len(rows) != 1 {
			return fmt.Sprintf("%d rows", len(rows))
		}
		var doc []any
		if err := json.Unmarshal([]byte(rows[0]), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", q, err, rows[0])
		}
		var shape []string
		for _, item := range doc {
			switch v := item.(type) {
			case string:
				shape = append(shape, fmt.Sprintf("%q", v))
			case map[string]any:
				var keys []string
				for k := range v {
					if k != "Planning Time" && k != "Execution Time" {
						keys = append(keys, k)
					}
				}
				slices.Sort(keys)
				p, _ := v["Plan"].(map[string]any)
				_, typed := p["Node Type"].(string)
				shape = append(shape, fmt.Sprintf("query %v, plan with a Node Type: %v", keys, typed))
			}
		}
		return "JSON " + strings.Join(shape, ", ")
	case strings.Contains(q, "FORMAT XML"):
		var doc struct {
			XMLName xml.Name
			Query   []struct {
				Plan []struct {
					NodeType string `xml:"Node-Type"`
				}
			}
		}
		if len(rows) != 1 {
			return fmt.Sprintf("%d rows", len(rows))
		}
		if err := xml.Unmarshal([]byte(rows[0]), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", q, err, rows[0])
		}
		return fmt.Sprintf("XML <%s xmlns=%q>, %d Query, %d Plan, typed %v", doc.XMLName.Local, doc.XMLName.Space, len(doc.Query),
			len(doc.Query[0].Plan), doc.Query[0].Plan[0].NodeType != "")
	case strings.Contains(q, "FORMAT YAML"):
		if len(rows) != 1 {
			return fmt.Sprintf("%d rows", len(rows))
		}
		first, _, _ := strings.Cut(rows[0], "\n")
		second := ""
		if _, rest, ok := strings.Cut(rows[0], "\n"); ok {
			second, _, _ = strings.Cut(strings.TrimSpace(rest), ":")
		}
		return fmt.Sprintf("YAML %q then %q", first, second)
	}
	return fmt.Sprintf("text, %v rows", len(rows) > 0)
}
