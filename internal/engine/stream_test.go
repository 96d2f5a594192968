package engine_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
)

// run executes a script in a session of its own and returns its results
// printed as CSV, or the error's SQLSTATE and message.
func run(t *testing.T, e *engine.Engine, script string) string {
	t.Helper()
	return runIn(t, e.NewSession(), script)
}

// runIn is run in the given session, whose transaction block may span
// several scripts.
func runIn(t *testing.T, s *engine.Session, script string) string {
	t.Helper()
	var b strings.Builder
	err := s.ExecScript(script, func(r engine.Result) error {
		for _, n := range r.Notices {
			b.WriteString("NOTICE: " + n + "\n")
		}
		if r.HasRows {
			set := &resultfmt.Set{}
			for _, c := range r.Columns {
				set.Columns = append(set.Columns, resultfmt.Column{Name: c.Name, Type: c.Type})
			}
			set.Rows = r.Rows
			resultfmt.Write(&b, set, resultfmt.Options{Format: resultfmt.FormatCSV, Null: "NULL"})
		} else {
			b.WriteString(r.Tag + "\n")
		}
		return nil
	})
	if err != nil {
		pe := pgerr.Wrap(err)
		b.WriteString("ERROR: " + pe.Code + " " + pe.Message + "\n")
		if pe.Detail != "" {
			b.WriteString("DETAIL: " + pe.Detail + "\n")
		}
	}
	return b.String()
}

const dimSchema = `
CREATE TABLE regions (rid int PRIMARY KEY, rname text) WITH (change_stream = true);
CREATE TABLE addresses (aid int PRIMARY KEY, city text, country text, rid int NOT NULL) WITH (change_stream = true);
CREATE TABLE customers (cid int PRIMARY KEY, name text, disc int, aid int NOT NULL) WITH (change_stream = true);
`

func TestChangeStreamSmoke(t *testing.T) {
	e := engine.New()
	out := run(t, e, dimSchema+`
CREATE MATERIALIZED VIEW dim AS SELECT c.cid, c.name, a.city, a.country FROM customers c JOIN addresses a ON c.aid = a.aid;
CREATE MATERIALIZED VIEW de AS SELECT c.cid, c.name, a.city FROM customers c JOIN addresses a ON c.aid = a.aid WHERE a.country = 'DE';
CREATE MATERIALIZED VIEW agg AS SELECT a.country, count(*) AS n FROM customers c JOIN addresses a ON c.aid = a.aid GROUP BY a.country;
EXPLAIN CREATE MATERIALIZED VIEW dim2 AS SELECT c.cid, c.name, a.city, a.country FROM customers c JOIN addresses a ON c.aid = a.aid WHERE c.disc > 0;
EXPLAIN CREATE MATERIALIZED VIEW agg2 AS SELECT a.country, count(*) AS n FROM customers c JOIN addresses a ON c.aid = a.aid GROUP BY a.country;
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"aid":1,"city":"Essen","country":"DE","rid":1}}
{"op":"c","after":{"aid":2,"city":"Paris","country":"FR","rid":2}}
{"op":"c","after":{"aid":3,"city":"Bonn","country":"DE","rid":1}}
\.
COPY customers FROM STDIN WITH (FORMAT upsert);
{"key":1,"value":{"name":"Adam","disc":5,"aid":1}}
{"key":{"cid":2},"value":{"name":"Bob","disc":0,"aid":2}}
{"key":3,"value":{"name":"Carl","disc":0,"aid":3}}
\.
SELECT * FROM dim;
SELECT * FROM de;
SELECT * FROM agg ORDER BY country;
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"schema":{},"payload":{"op":"u","before":null,"after":{"aid":2,"city":"Berlin","country":"DE","rid":"__debezium_unavailable_value"},"source":{"txId":7}}}
{"schema":{},"payload":{"op":"d","before":{"aid":3,"city":null,"country":null,"rid":null},"after":null,"source":{"txId":8}}}
{"payload":{"op":"u","before":{"aid":1},"after":{"aid":1,"city":"Essen","country":"NL","rid":1},"source":{"txId":8}}}
\.
SELECT * FROM dim;
SELECT * FROM de;
SELECT * FROM agg ORDER BY country;
COPY customers FROM STDIN WITH (FORMAT upsert);
{"key":3,"value":null}
{"key":9,"value":null}
\.
SELECT * FROM dim;
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op":"d","before":{"cid":42}}
\.
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op":"x"}
\.
INSERT INTO customers VALUES (5, 'x', 0, 1);
SELECT * FROM customers;
`)
	t.Log("\n" + out)
}
