package engine_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestCopyEventTransactions checks how COPY applies a decoder's source
// transactions: outside BEGIN each is committed on its own and an error
// voids only its own (the hint counts the events committed before it);
// inside BEGIN the whole COPY joins the block; a transaction that a view
// refuses at commit names its lines.
func TestCopyEventTransactions(t *testing.T) {
	e := engine.New()
	run(t, e, dimSchema+`
CREATE MATERIALIZED VIEW dim AS SELECT c.cid, c.name, a.city FROM customers c JOIN addresses a ON c.aid = a.aid;
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"aid":1,"city":"Essen","country":"DE","rid":1}}
\.
`)
	_, _, err := runScript(e, `COPY customers FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"cid":1,"name":"Adam","disc":0,"aid":1},"source":{"txId":1}}
{"op":"c","after":{"cid":2,"name":"Bob","disc":0,"aid":1},"source":{"txId":1}}
{"op":"c","after":{"cid":3,"name":"Carl","disc":0,"aid":1},"source":{"txId":2}}
{"op":"c","after":{"cid":4,"name":"Dora","disc":0,"aid":1},"source":{"txId":3}}
{"op":"c","after":{"cid":"five","name":"Eve","disc":0,"aid":1},"source":{"txId":3}}
\.
`)
	pe := pgerr.Wrap(err)
	if pe.Code != pgerr.InvalidTextRep || pe.Context != "COPY customers, line 5" || pe.Hint != "the 3 events before this transaction were committed" {
		t.Errorf("malformed event outside BEGIN: %s; detail %q; hint %q", pe.Message, pe.Detail, pe.Hint)
	}
	if got := flat(run(t, e, "SELECT cid FROM dim ORDER BY cid")); got != "cid 1 2 3" {
		t.Errorf("after it: %q", got)
	}
	// Inside BEGIN the whole COPY joins the block: one step at COMMIT, or
	// nothing.
	out := run(t, e, `BEGIN;
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"cid":6,"name":"Fay","disc":0,"aid":1},"source":{"txId":4}}
{"op":"c","after":{"cid":7,"name":"Gus","disc":0,"aid":1},"source":{"txId":5}}
\.
SELECT count(*) FROM dim;
COMMIT;
SELECT count(*) FROM dim;
`)
	if want := "BEGIN COPY 2 count 3 COMMIT count 5"; flat(out) != want {
		t.Errorf("inside BEGIN:\n%s\nwant\n%s", out, want)
	}
	s := e.NewSession()
	out = runIn(t, s, `BEGIN;
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op":"c","after":{"cid":8,"name":"Hal","disc":0,"aid":1},"source":{"txId":6}}
{"op":"c","after":{"cid":"nine"},"source":{"txId":7}}
\.
`)
	if !strings.Contains(out, "ERROR: 22P02") || strings.Contains(out, "HINT") {
		t.Errorf("inside BEGIN: %s", out)
	}
	runIn(t, s, "ROLLBACK")
	if got := flat(run(t, e, "SELECT cid FROM dim ORDER BY cid")); got != "cid 1 2 3 6 7" {
		t.Errorf("after the failed block: %s", got)
	}
	// A true partial deletion of a key that no view holds is found at
	// commit, by the view.
	out = run(t, e, `COPY customers FROM STDIN WITH (FORMAT debezium);
{"op":"d","before":{"cid":3},"source":{"txId":6}}
{"op":"d","before":{"cid":42},"source":{"txId":7}}
\.
`)
	if !strings.Contains(out, "COPY customers, the transaction of lines 2 to 2") {
		t.Errorf("a transaction refused at commit: %s", out)
	}
	if got := flat(run(t, e, "SELECT cid FROM dim ORDER BY cid")); got != "cid 1 2 6 7" {
		t.Errorf("after it: %s", got)
	}
}

// flat joins s's words with single spaces.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
