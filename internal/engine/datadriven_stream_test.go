package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/source/changefeed"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// The harness's support for change-stream tables: an oracle engine whose
// tables are ordinary (so that every view can be recomputed from scratch),
// a check of the deltas subscribers receive, and the translation of COPY …
// WITH (FORMAT debezium | upsert) into the plain SQL that has the same
// effect on PostgreSQL's tables.

// loggedStmt is a statement deltaview accepted, kept until the oracle
// starts so that it can replay them.
type loggedStmt struct{ session, text string }

var streamOptionRE = regexp.MustCompile(`(?i)\b(change_stream|complete_rows|propagation)\s*=\s*('[^']*'|[a-z_]+)\s*,?\s*`)
var emptyWithRE = regexp.MustCompile(`(?i)\bWITH\s*\(\s*\)`)
var trailingCommaRE = regexp.MustCompile(`,\s*\)`)

// stripStreamOptions removes the options only deltaview knows from a
// CREATE TABLE or CREATE MATERIALIZED VIEW: change_stream and propagation.
func stripStreamOptions(stmt string) string {
	if !streamOptionRE.MatchString(stmt) {
		return stmt
	}
	s := streamOptionRE.ReplaceAllString(stmt, "")
	s = trailingCommaRE.ReplaceAllString(s, ")")
	return emptyWithRE.ReplaceAllString(s, "")
}

// oracleText is the statement the oracle engine runs for one of the
// tested engine's, or "" when it has no effect on tables and views.
func oracleText(p sql.Piece, text string) string {
	low := strings.ToLower(p.SQL)
	if strings.Contains(low, "deltaview_") {
		return ""
	}
	st, err := sql.Parse(p.SQL)
	if err != nil || st == nil || st.Node == nil {
		return ""
	}
	n := st.Node
	switch {
	case st.Subscribe != "", st.Explain != "", n.GetExplainStmt() != nil, n.GetVariableShowStmt() != nil, n.GetSelectStmt() != nil:
		return ""
	case n.GetCreateStmt() != nil, n.GetCreateTableAsStmt() != nil, n.GetViewStmt() != nil:
		return stripStreamOptions(text)
	}
	return text
}

// mirror runs a statement the tested engine ran on the oracle engine, in
// the session of the same name. A statement deltaview refused is not run
// (inside a transaction it aborted it: the COMMIT that follows rolls
// back), except a COPY of events, whose source transactions before the
// failing one stay committed on both.
func (h *harness) mirror(t failer, d *datadriven.TestData, hs *hsession, p sql.Piece, text string, wasInTx bool, results []engine.Result, err error) {
	t.Helper()
	ot := oracleText(p, text)
	if ot == "" {
		return
	}
	commit := isTxControl(p.SQL, pg_query.TransactionStmtKind_TRANS_STMT_COMMIT)
	if commit && (err != nil || (len(results) > 0 && results[0].Tag == "ROLLBACK")) {
		ot, err = "ROLLBACK", nil
	}
	if h.oracle == nil {
		if err != nil {
			return
		}
		if !streamOptionRE.MatchString(p.SQL) {
			h.replay = append(h.replay, loggedStmt{hs.name, ot})
			return
		}
		h.oracle = engine.New()
		h.oracleSess = map[string]*engine.Session{}
		for _, l := range h.replay {
			if e := h.oracleSession(l.session).ExecScript(l.text, func(engine.Result) error { return nil }); e != nil {
				fatalAt(t, d, "the oracle engine refuses %q, which deltaview accepted: %v", l.text, e)
			}
		}
		h.replay = nil
	}
	if err != nil && !(p.HasData && !wasInTx) {
		return
	}
	oerr := h.oracleSession(hs.name).ExecScript(ot, func(engine.Result) error { return nil })
	switch {
	case err == nil && oerr != nil:
		fatalAt(t, d, "%s\nthe oracle engine (ordinary tables) refuses what deltaview accepted: %s %v", p.SQL, pgerr.Code(oerr), oerr)
	case err != nil && oerr == nil:
		fatalAt(t, d, "%s\ndeltaview fails (%s %v), the oracle engine (ordinary tables) accepts it", p.SQL, pgerr.Code(err), err)
	}
}

func (h *harness) oracleSession(name string) *engine.Session {
	s, ok := h.oracleSess[name]
	if !ok {
		s = h.oracle.NewSession()
		h.oracleSess[name] = s
	}
	return s
}

// hsub is a subscription to one view: the sum of the deltas it received
// (the contents at subscription counting as the first), and the first
// malformed delta.
type hsub struct {
	stop func()
	sum  map[string]int64
	// rows are the rows of sum's keys: a key is a row's text, which an
	// enum's RENAME VALUE or RENAME TO changes, so it is taken again at
	// each check.
	rows map[string]value.Row
	bad  string
}

// rekey takes the keys of s's rows again.
func (s *hsub) rekey() {
	sum, rows := map[string]int64{}, map[string]value.Row{}
	for k, w := range s.sum {
		nk := valueKey(s.rows[k])
		sum[nk] += w
		rows[nk] = s.rows[k]
	}
	s.sum, s.rows = sum, rows
}

// checkDeltas subscribes to every new view and checks, whenever no
// session has a transaction open, that each view's deltas sum to its
// contents and that none was empty or unconsolidated: a transaction that
// leaves a view as it was (one that cancels out, say) delivers nothing.
func (h *harness) checkDeltas(t failer, d *datadriven.TestData, stmt string) {
	t.Helper()
	for _, hs := range h.sessions {
		if hs.inTx {
			return
		}
	}
	views := h.e.Views()
	for name, s := range h.subs {
		if !contains(views, name) {
			s.stop()
			delete(h.subs, name)
		}
	}
	for _, name := range views {
		_, rows, err := h.e.ViewRows(name)
		if err != nil {
			fatalAt(t, d, "after %q: ViewRows(%s): %v", stmt, name, err)
		}
		s, ok := h.subs[name]
		if !ok {
			s = &hsub{sum: map[string]int64{}, rows: map[string]value.Row{}}
			for _, r := range rows {
				s.sum[valueKey(r)]++
				s.rows[valueKey(r)] = r
			}
			stop, err := h.e.Subscribe(name, func(ts uint64, delta zset.ZSet) {
				if s.bad != "" {
					return
				}
				if len(delta) == 0 || !zset.IsConsolidated(delta) {
					s.bad = fmt.Sprintf("the delta at ts %d is empty or not consolidated:\n%s", ts, delta)
				}
				for _, en := range delta {
					s.sum[valueKey(en.Row)] += en.W
					s.rows[valueKey(en.Row)] = en.Row
				}
			})
			if err != nil {
				fatalAt(t, d, "after %q: subscribing to %s: %v", stmt, name, err)
			}
			s.stop = stop
			h.subs[name] = s
			continue
		}
		if s.bad != "" {
			fatalAt(t, d, "after %q: view %s: %s", stmt, name, s.bad)
		}
		s.rekey()
		want := map[string]int64{}
		for _, r := range rows {
			want[valueKey(r)]++
		}
		for k, w := range s.sum {
			if w != want[k] {
				fatalAt(t, d, "after %q: view %s: the deltas delivered sum to weight %d for row %s, the view holds it %d times", stmt, name, w, k, want[k])
			}
		}
		for k, w := range want {
			if s.sum[k] != w {
				fatalAt(t, d, "after %q: view %s: the deltas delivered sum to weight %d for row %s, the view holds it %d times", stmt, name, s.sum[k], k, w)
			}
		}
		for k, w := range s.sum {
			if w == 0 {
				delete(s.sum, k)
				delete(s.rows, k)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ---- COPY on PostgreSQL ----

// pgTable is a PostgreSQL table's columns and primary key.
type pgTable struct {
	name string
	cols []string
	key  []string
}

func (tb *pgTable) isKey(c string) bool { return contains(tb.key, c) }

// checkPGCopy runs a COPY … FROM STDIN on PostgreSQL — rows through the
// copy protocol, change events translated into plain SQL, each source
// transaction in a transaction of its own outside BEGIN — and compares
// the outcome with deltaview's: both succeed, or both fail (an event that
// contradicts the table's rows fails on PostgreSQL through the checks the
// translation adds; its SQLSTATE need not be deltaview's, which a view
// may find only at commit). Then every view must hold PostgreSQL's rows.
func (h *harness) checkPGCopy(t failer, d *datadriven.TestData, hs *hsession, p sql.Piece, wasInTx bool, err error) {
	t.Helper()
	st, perr := sql.Parse(p.SQL)
	if perr != nil || st == nil || st.Node.GetCopyStmt() == nil {
		return
	}
	cs := st.Node.GetCopyStmt()
	format := ""
	for _, o := range cs.Options {
		de := o.GetDefElem()
		if de != nil && strings.EqualFold(de.Defname, "format") && de.Arg != nil {
			if s := de.Arg.GetString_(); s != nil {
				format = strings.ToLower(s.Sval)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var pgFail error
	switch format {
	case "debezium", "upsert":
		if cs.Relation == nil {
			return
		}
		tb := h.pgTable(t, d, hs, cs.Relation.Relname)
		txs, terr := translateEvents(format, tb, p.Data)
		if terr != nil {
			if err == nil {
				fatalAt(t, d, "%s\ndeltaview accepts events the harness cannot read: %v", p.SQL, terr)
			}
			return
		}
		pgFail = h.pgRunTxs(ctx, t, d, hs, txs, wasInTx)
	default:
		_, cerr := hs.pg.PgConn().CopyFrom(ctx, strings.NewReader(p.Data), p.SQL)
		var pe *pgconn.PgError
		if cerr != nil && !errors.As(cerr, &pe) {
			fatalAt(t, d, "PostgreSQL: %s: %v", p.SQL, cerr)
		}
		if pe != nil && err != nil && pgerr.Code(err) != pe.Code {
			fatalAt(t, d, "%s\ndeltaview fails with %s %v, PostgreSQL with %s %s", p.SQL, pgerr.Code(err), err, pe.Code, pe.Message)
		}
		if cerr != nil {
			pgFail = cerr
		}
	}
	switch {
	case err == nil && pgFail != nil:
		fatalAt(t, d, "%s\ndeltaview succeeds, PostgreSQL fails: %v", p.SQL, pgFail)
	case err != nil && pgFail == nil:
		fatalAt(t, d, "%s\ndeltaview fails (%s %v), PostgreSQL succeeds", p.SQL, pgerr.Code(err), err)
	}
	h.checkPGViews(t, d, hs, p.SQL)
}

// pgRunTxs runs translated transactions on PostgreSQL and returns the
// first failure. Inside an open transaction they run in it (a failure
// aborts it, as deltaview's does); outside, each in one of its own, and
// those after a failing one do not run.
func (h *harness) pgRunTxs(ctx context.Context, t failer, d *datadriven.TestData, hs *hsession, txs [][]string, inTx bool) error {
	t.Helper()
	run := func(script string) error {
		_, err := hs.pg.PgConn().Exec(ctx, script).ReadAll()
		var pe *pgconn.PgError
		if err != nil && !errors.As(err, &pe) {
			fatalAt(t, d, "PostgreSQL: %s: %v", script, err)
		}
		return err
	}
	for _, tx := range txs {
		script := strings.Join(tx, ";\n")
		if inTx {
			if err := run(script); err != nil {
				return err
			}
			continue
		}
		if err := run("BEGIN;\n" + script + ";\nCOMMIT"); err != nil {
			run("ROLLBACK")
			return err
		}
	}
	return nil
}

// pgTable reads a table's columns and primary key from PostgreSQL's
// catalog.
func (h *harness) pgTable(t failer, d *datadriven.TestData, hs *hsession, name string) *pgTable {
	t.Helper()
	if tb, ok := h.pgTables[name]; ok {
		return tb
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	q := fmt.Sprintf(`SELECT a.attname, coalesce(a.attnum = ANY(i.indkey), false)
FROM pg_attribute a LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
WHERE a.attrelid = %s::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, quoteLit(name))
	res, err := hs.pg.PgConn().Exec(ctx, q).ReadAll()
	if err != nil || len(res) == 0 || len(res[0].Rows) == 0 {
		fatalAt(t, d, "PostgreSQL: the columns of %s: %v", name, err)
	}
	tb := &pgTable{name: name}
	for _, r := range res[0].Rows {
		tb.cols = append(tb.cols, string(r[0]))
		if string(r[1]) == "t" {
			tb.key = append(tb.key, string(r[0]))
		}
	}
	h.pgTables[name] = tb
	return tb
}

func quoteLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func quoteIdent(s string) string { return pgx.Identifier{s}.Sanitize() }

// unavailableValue is Debezium's placeholder for a column it did not send.
const unavailableValue = "__debezium_unavailable_value"

// eventRow is one side of an event: each field's SQL literal, or absent,
// or unknown (the placeholder).
type eventRow struct {
	lit     map[string]string
	unknown map[string]bool
}

func parseEventRow(tb *pgTable, raw json.RawMessage) (*eventRow, error) {
	if raw == nil || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	r := &eventRow{lit: map[string]string{}, unknown: map[string]bool{}}
	for name, v := range fields {
		if !contains(tb.cols, name) {
			return nil, fmt.Errorf("no column %s", name)
		}
		v = bytes.TrimSpace(v)
		var s string
		switch {
		case string(v) == "null":
			r.lit[name] = "NULL"
		case json.Unmarshal(v, &s) == nil:
			if s == unavailableValue {
				r.unknown[name] = true
				continue
			}
			r.lit[name] = quoteLit(s)
		case len(v) > 0 && (v[0] == '{' || v[0] == '['):
			return nil, fmt.Errorf("column %s: not a scalar", name)
		default:
			r.lit[name] = quoteLit(string(v)) // a number or a boolean, read by the column's type
		}
	}
	return r, nil
}

// complete reports whether the row has every column, none unknown, and
// says more than its key (Debezium's rule for a before image that is a
// whole row).
func (r *eventRow) complete(tb *pgTable) bool {
	more := false
	for _, c := range tb.cols {
		l, ok := r.lit[c]
		if !ok {
			return false
		}
		if !tb.isKey(c) && l != "NULL" {
			more = true
		}
	}
	return more
}

func (r *eventRow) where(tb *pgTable, whole bool) (string, error) {
	var conds []string
	for _, c := range tb.cols {
		l, ok := r.lit[c]
		switch {
		case tb.isKey(c) && (!ok || l == "NULL"):
			return "", fmt.Errorf("no key column %s", c)
		case tb.isKey(c):
			conds = append(conds, quoteIdent(c)+" = "+l)
		case whole:
			conds = append(conds, quoteIdent(c)+" IS NOT DISTINCT FROM "+l)
		}
	}
	return strings.Join(conds, " AND "), nil
}

func (r *eventRow) insert(tb *pgTable) (string, error) {
	var cols, vals []string
	for _, c := range tb.cols {
		l, ok := r.lit[c]
		if !ok {
			return "", fmt.Errorf("the row lacks column %s", c)
		}
		cols, vals = append(cols, quoteIdent(c)), append(vals, l)
	}
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", quoteIdent(tb.name), strings.Join(cols, ", "), strings.Join(vals, ", ")), nil
}

// mustFind wraps a statement so that it fails, as the event does, when it
// finds no row.
func mustFind(stmt string) string {
	return "DO $dv$ BEGIN " + stmt + "; IF NOT FOUND THEN RAISE EXCEPTION 'no such row' USING ERRCODE = 'P0002'; END IF; END $dv$"
}

// translateEvents reads COPY data of change events and returns, per
// source transaction, the statements with the same effect on a plain
// table: INSERT for a creation; UPDATE of the known columns (the unknown
// ones keep their value) that must find its row, and must find the whole
// old row when the event carries it; DELETE likewise; INSERT … ON
// CONFLICT DO UPDATE for an upsert; DELETE for a tombstone. Source
// transactions are the decoder's: maximal runs of one transaction id,
// the whole input without ids, one for an upsert topic.
func translateEvents(format string, tb *pgTable, data string) ([][]string, error) {
	var txs [][]string
	var cur []string
	curID, started := "", false
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line == "null" {
			continue
		}
		var ev map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			return nil, err
		}
		var stmts []string
		id := ""
		if format == "upsert" {
			s, err := translateUpsert(tb, ev)
			if err != nil {
				return nil, err
			}
			stmts = s
		} else {
			if p, ok := ev["payload"]; ok {
				if string(bytes.TrimSpace(p)) == "null" {
					continue
				}
				ev = nil
				if err := json.Unmarshal(p, &ev); err != nil {
					return nil, err
				}
			}
			id = changefeed.TxID(ev)
			s, err := translateDebezium(tb, ev)
			if err != nil {
				return nil, err
			}
			stmts = s
		}
		if started && id != curID {
			txs = append(txs, cur)
			cur = nil
		}
		started, curID = true, id
		cur = append(cur, stmts...)
	}
	if len(cur) > 0 {
		txs = append(txs, cur)
	}
	return txs, nil
}

func translateDebezium(tb *pgTable, ev map[string]json.RawMessage) ([]string, error) {
	var op string
	if err := json.Unmarshal(ev["op"], &op); err != nil {
		return nil, fmt.Errorf("no op")
	}
	before, err := parseEventRow(tb, ev["before"])
	if err != nil {
		return nil, err
	}
	after, err := parseEventRow(tb, ev["after"])
	if err != nil {
		return nil, err
	}
	switch op {
	case "c", "r":
		if after == nil || len(after.unknown) > 0 {
			return nil, fmt.Errorf("op %s needs a whole after", op)
		}
		s, err := after.insert(tb)
		return []string{s}, err
	case "u":
		if after == nil {
			return nil, fmt.Errorf("op u has no after")
		}
		newKey, err := after.where(tb, false)
		if err != nil {
			return nil, err
		}
		if before != nil {
			oldKey, err := before.where(tb, false)
			if err != nil {
				return nil, err
			}
			if oldKey != newKey { // the key changes: a deletion and an insertion
				cond, _ := before.where(tb, before.complete(tb))
				ins, err := after.insert(tb)
				return []string{mustFind("DELETE FROM " + quoteIdent(tb.name) + " WHERE " + cond), ins}, err
			}
		}
		var sets []string
		for _, c := range tb.cols {
			if l, ok := after.lit[c]; ok && !tb.isKey(c) {
				sets = append(sets, quoteIdent(c)+" = "+l)
			} else if !ok && !after.unknown[c] {
				return nil, fmt.Errorf("op u: after lacks column %s", c)
			}
		}
		cond := newKey
		if before != nil && before.complete(tb) {
			cond, _ = before.where(tb, true)
		}
		if len(sets) == 0 { // nothing known changes: the row must exist
			return []string{mustFind("PERFORM FROM " + quoteIdent(tb.name) + " WHERE " + cond)}, nil
		}
		return []string{mustFind("UPDATE " + quoteIdent(tb.name) + " SET " + strings.Join(sets, ", ") + " WHERE " + cond)}, nil
	case "d":
		if before == nil {
			return nil, fmt.Errorf("op d has no before")
		}
		cond, err := before.where(tb, before.complete(tb))
		if err != nil {
			return nil, err
		}
		return []string{mustFind("DELETE FROM " + quoteIdent(tb.name) + " WHERE " + cond)}, nil
	}
	return nil, fmt.Errorf("op %q", op)
}

func translateUpsert(tb *pgTable, ev map[string]json.RawMessage) ([]string, error) {
	rawKey, ok := ev["key"]
	if !ok {
		return nil, fmt.Errorf("no key")
	}
	rawKey = bytes.TrimSpace(rawKey)
	if len(rawKey) > 0 && rawKey[0] != '{' {
		if len(tb.key) != 1 {
			return nil, fmt.Errorf("a bare key of a composite key")
		}
		rawKey = []byte(fmt.Sprintf(`{%q: %s}`, tb.key[0], rawKey))
	}
	key, err := parseEventRow(tb, rawKey)
	if err != nil || key == nil {
		return nil, fmt.Errorf("bad key: %v", err)
	}
	val, err := parseEventRow(tb, ev["value"])
	if err != nil {
		return nil, err
	}
	if val == nil { // a tombstone: deleted if present
		cond, err := key.where(tb, false)
		if err != nil {
			return nil, err
		}
		return []string{"DELETE FROM " + quoteIdent(tb.name) + " WHERE " + cond}, nil
	}
	for c, l := range key.lit {
		val.lit[c] = l
	}
	ins, err := val.insert(tb)
	if err != nil {
		return nil, err
	}
	var keys, sets []string
	for _, c := range tb.cols {
		if tb.isKey(c) {
			keys = append(keys, quoteIdent(c))
		} else {
			sets = append(sets, quoteIdent(c)+" = EXCLUDED."+quoteIdent(c))
		}
	}
	if len(sets) == 0 {
		return []string{ins + " ON CONFLICT (" + strings.Join(keys, ", ") + ") DO NOTHING"}, nil
	}
	return []string{ins + " ON CONFLICT (" + strings.Join(keys, ", ") + ") DO UPDATE SET " + strings.Join(sets, ", ")}, nil
}
