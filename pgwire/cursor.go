package pgwire

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// cursor is a cursor over SUBSCRIBE v of the connection's transaction
// block (DECLARE): it keeps the changes to v that arrived since the last
// FETCH, as (ts, diff, v's columns…) rows. A cursor over a query is the
// session's (engine.Session.HasPortal), which DECLARE, FETCH, MOVE and
// CLOSE reach through runSessionCursorCmd.
type cursor struct {
	name string
	cols []plan.Column
	// sp is the session's SavepointSeq when the cursor was declared: a
	// ROLLBACK TO a savepoint numbered up to it closes the cursor.
	sp uint64
	// stop ends the subscription.
	stop func()

	// info is what pg_cursors shows of it.
	info engine.CursorInfo

	mu    sync.Mutex
	rows  []value.Row
	err   error         // why the subscription ended; reported once rows are fetched
	ready chan struct{} // holds a token when rows or err arrived since the last wait
}

// maxCursorRows bounds the changes a subscription's cursor holds unfetched:
// a client that declares a cursor and stops fetching ends its
// subscription instead of growing the server without bound.
const maxCursorRows = 1 << 20

// A cursor's commands are not all PostgreSQL grammar (SUBSCRIBE, FETCH …
// WITH (timeout …)): they are recognised before the SQL parser.
const cursorName = `("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)`

var (
	declareCursor = regexp.MustCompile(`(?is)^\s*declare\s+` + cursorName +
		`\s+(?:binary\s+)?(?:(?:insensitive|asensitive)\s+)?(?:(no\s+)?scroll\s+)?cursor\s+(?:(with|without)\s+hold\s+)?for\s+(.*?)[\s;]*$`)
	subscribeBody = regexp.MustCompile(`(?is)^subscribe\s+(?:to\s+)?` + cursorName + `\s*(?:with\s*\((.*)\))?$`)
	fetchCursor   = regexp.MustCompile(`(?is)^\s*fetch\s+(?:forward\s+)?(?:(all|next|\d+)\s+)?(?:(?:from|in)\s+)?` +
		cursorName + `\s*(?:with\s*\((.*)\))?[\s;]*$`)
	// declareFlags reads a DECLARE's BINARY and [NO] SCROLL, which
	// pg_cursors shows.
	declareFlags = regexp.MustCompile(`(?is)^\s*declare\s+` + cursorName +
		`\s+(binary\s+)?(?:(?:insensitive|asensitive)\s+)?((?:no\s+)?scroll\s+)?cursor\s`)
	closeCursor = regexp.MustCompile(`(?is)^\s*close\s+` + cursorName + `[\s;]*$`)
	moveCursor  = regexp.MustCompile(`(?is)^\s*move\s+(?:forward\s+)?(?:(all|next|\d+)\s+)?(?:(?:from|in)\s+)?` +
		cursorName + `[\s;]*$`)
)

// cursorCmd is a parsed DECLARE, FETCH, MOVE or CLOSE.
type cursorCmd struct {
	kind byte   // 'D', 'F', 'M' or 'C'
	name string // the cursor's
	// DECLARE: the view subscribed to and the options, or the query.
	view  string
	opts  deltaview.SubscribeOptions
	query *sql.Stmt
	// text is the DECLARE's, binary and scroll its options.
	text           string
	binary, scroll bool
	// FETCH: how many rows (-1 for ALL) and how long to wait for the
	// first (forever when wait is false). FETCH, MOVE and CLOSE of a
	// cursor of the session (a PL/pgSQL call's, engine.Session.HasPortal)
	// run there, as the text stmt.
	stmt    string
	count   int
	wait    bool
	timeout time.Duration
}

// ident is a matched name: unquoted names fold to lower case.
func ident(s string) string {
	if strings.HasPrefix(s, `"`) {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return strings.ToLower(s)
}

// parseCursorCmd recognises q as a cursor command; ok is false when it is
// none, and err reports one that is malformed.
func parseCursorCmd(q string) (cmd *cursorCmd, ok bool, err error) {
	if m := declareCursor.FindStringSubmatch(q); m != nil {
		if strings.EqualFold(m[3], "with") {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "DECLARE CURSOR WITH HOLD is not supported").
				WithHint("a cursor lives until its transaction ends")
		}
		cmd := &cursorCmd{kind: 'D', name: ident(m[1]), text: q}
		if f := declareFlags.FindStringSubmatch(q); f != nil {
			cmd.binary, cmd.scroll = f[2] != "", f[3] != "" && !strings.HasPrefix(strings.ToLower(f[3]), "no")
		}
		if s := subscribeBody.FindStringSubmatch(m[4]); s != nil {
			cmd.view = ident(s[1])
			if cmd.opts, err = subscribeOptions(s[2]); err != nil {
				return nil, true, err
			}
			return cmd, true, nil
		}
		if cmd.query, err = sql.Parse(m[4]); err != nil {
			return nil, true, err
		}
		if cmd.query == nil {
			return nil, true, pgerr.New(pgerr.SyntaxError, "DECLARE CURSOR needs a query")
		}
		if sql.Modifies(cmd.query) {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "DECLARE CURSOR must not contain data-modifying statements in WITH")
		}
		return cmd, true, nil
	}
	if m := fetchCursor.FindStringSubmatch(q); m != nil {
		count, err := cursorCount("FETCH", m[1])
		if err != nil {
			return nil, true, err
		}
		cmd := &cursorCmd{kind: 'F', name: ident(m[2]), count: count, stmt: q}
		for _, opt := range strings.Split(m[3], ",") {
			name, val, _ := strings.Cut(strings.TrimSpace(opt), "=")
			name, val = strings.ToLower(strings.TrimSpace(name)), strings.Trim(strings.TrimSpace(val), "'")
			switch name {
			case "":
			case "timeout":
				d, err := parseTimeout(val)
				if err != nil {
					return nil, true, err
				}
				cmd.wait, cmd.timeout = true, d
			default:
				return nil, true, pgerr.New(pgerr.SyntaxError, "FETCH option %q not recognized", name).
					WithHint("FETCH takes the option timeout, as in WITH (timeout = '1s')")
			}
		}
		return cmd, true, nil
	}
	if m := moveCursor.FindStringSubmatch(q); m != nil {
		// MOVE skips the rows FETCH would return, as in PostgreSQL.
		count, err := cursorCount("MOVE", m[1])
		if err != nil {
			return nil, true, err
		}
		return &cursorCmd{kind: 'M', name: ident(m[2]), count: count, stmt: q}, true, nil
	}
	if m := closeCursor.FindStringSubmatch(q); m != nil {
		return &cursorCmd{kind: 'C', name: ident(m[1]), stmt: q}, true, nil
	}
	return nil, false, nil
}

// parseTimeout reads a FETCH timeout: a duration such as 1s or 250ms, or
// a number of seconds.
func parseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 {
		return time.Duration(f * float64(time.Second)), nil
	}
	if d, err := time.ParseDuration(strings.ReplaceAll(s, " ", "")); err == nil && d >= 0 {
		return d, nil
	}
	return 0, pgerr.New(pgerr.InvalidParameter, "invalid FETCH timeout: %q", s).
		WithHint("give a duration such as '1s' or '250ms'")
}

// runCursorCmd runs a cursor command in the connection's session. An
// error aborts the session's transaction, as any failed statement does.
func (c *conn) runCursorCmd(cmd *cursorCmd) (engine.Result, error) {
	c.closeRolledBack()
	if cmd.kind == 'D' && cmd.query != nil {
		cmd.stmt = cmd.text
	}
	if _, own := c.cursors[cmd.name]; !own && (cmd.kind == 'D' && cmd.query != nil || c.sess.HasPortal(cmd.name)) {
		return c.runSessionCursorCmd(cmd)
	}
	if c.sess.Failed() {
		return engine.Result{}, pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	var res engine.Result
	var err error
	switch cmd.kind {
	case 'D':
		res, err = c.declare(cmd)
	case 'F':
		res, err = c.fetch(cmd)
	case 'M':
		if res, err = c.fetch(cmd); err == nil {
			res = engine.Result{Tag: "MOVE " + strconv.Itoa(len(res.Rows))}
		}
	case 'C':
		cur, ok := c.cursors[cmd.name]
		if !ok {
			err = pgerr.New(pgerr.UndefinedCursor, "cursor %q does not exist", cmd.name)
			break
		}
		cur.close()
		delete(c.cursors, cmd.name)
		res = engine.Result{Tag: "CLOSE CURSOR"}
	}
	if err != nil {
		return res, c.sess.Fail(err)
	}
	return res, nil
}

// runSessionCursorCmd runs DECLARE of a query, or FETCH, MOVE or CLOSE
// of a cursor of the session, which keeps it as PostgreSQL's portal.
func (c *conn) runSessionCursorCmd(cmd *cursorCmd) (engine.Result, error) {
	st, err := sql.Parse(cmd.stmt)
	if err != nil {
		return engine.Result{}, c.sess.Fail(err)
	}
	results, err := c.sess.Exec(st)
	if err != nil {
		return engine.Result{}, err
	}
	return results[0], nil
}

func (c *conn) declare(cmd *cursorCmd) (engine.Result, error) {
	if !c.sess.InBlock() {
		return engine.Result{}, pgerr.New(pgerr.NoActiveTransaction, "DECLARE CURSOR can only be used in transaction blocks")
	}
	if _, dup := c.cursors[cmd.name]; dup || c.sess.HasPortal(cmd.name) {
		return engine.Result{}, pgerr.New(pgerr.DuplicateCursor, "cursor %q already exists", cmd.name)
	}
	cur := &cursor{name: cmd.name, sp: c.sess.SavepointSeq(), ready: make(chan struct{}, 1),
		info: engine.CursorInfo{Name: cmd.name, Statement: cmd.text, Binary: cmd.binary, Scrollable: cmd.scroll, Created: time.Now()}}
	if err := c.sess.CheckSelect(cmd.view); err != nil {
		return engine.Result{}, err
	}
	cols, err := c.viewColumns(cmd.view)
	if err != nil {
		return engine.Result{}, err
	}
	cur.cols = append([]plan.Column{{Name: "ts", Type: value.Int8Type}, {Name: "diff", Type: value.Int8Type}}, cols...)
	stop, err := c.srv.db.SubscribeWith(cmd.view, cmd.opts, cur.deliver)
	if err != nil {
		return engine.Result{}, err
	}
	cur.stop = stop
	if c.cursors == nil {
		c.cursors = map[string]*cursor{}
	}
	c.cursors[cmd.name] = cur
	return engine.Result{Tag: "DECLARE CURSOR"}, nil
}

// viewColumns are the columns of the view named, as SELECT * reads them.
func (c *conn) viewColumns(view string) ([]plan.Column, error) {
	st, err := sql.Parse("SELECT * FROM " + quoteIdent(view))
	if err != nil {
		return nil, err
	}
	p, err := c.sess.Prepare(st)
	if err != nil {
		return nil, err
	}
	cols, _ := p.Columns()
	return cols, nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// deliver keeps a delta's changes as rows for FETCH. It runs on the
// subscription's goroutine.
func (cur *cursor) deliver(d deltaview.Delta) {
	cur.mu.Lock()
	switch {
	case d.Err != nil:
		cur.err = pgerr.Wrap(d.Err)
	case len(cur.rows)+len(d.Changes) > maxCursorRows:
		// Later deltas are dropped: the rows would no longer add up.
		cur.err = pgerr.New(pgerr.ProgramLimitExceeded, "cursor %q holds more than %d changes not fetched: its subscription ended", cur.name, maxCursorRows).
			WithHint("FETCH more often, or declare the cursor again WITH (snapshot = true)")
	case cur.err == nil:
		// One backing array for the delta's rows: no allocation per row.
		width := len(cur.cols)
		vals := make([]value.Value, 0, len(d.Changes)*width)
		ts := value.NewInt(value.Int8, int64(d.TS))
		for _, ch := range d.Changes {
			start := len(vals)
			vals = append(vals, ts, value.NewInt(value.Int8, ch.Diff))
			vals = append(vals, ch.Row...)
			cur.rows = append(cur.rows, value.Row(vals[start:len(vals):len(vals)]))
		}
	}
	cur.mu.Unlock()
	select {
	case cur.ready <- struct{}{}:
	default:
	}
}

func (cur *cursor) close() {
	if cur.stop != nil {
		cur.stop()
	}
}

// take removes and returns at most n (all when n < 0) of the rows ready,
// or the error that ended the subscription once no row is left.
func (cur *cursor) take(n int) ([]value.Row, error) {
	cur.mu.Lock()
	defer cur.mu.Unlock()
	if len(cur.rows) == 0 {
		return nil, cur.err
	}
	if n < 0 || n > len(cur.rows) {
		n = len(cur.rows)
	}
	out := cur.rows[:n:n]
	cur.rows = cur.rows[n:]
	if len(cur.rows) == 0 {
		cur.rows = nil
	}
	return out, nil
}

func (cur *cursor) pending() bool {
	cur.mu.Lock()
	defer cur.mu.Unlock()
	return len(cur.rows) > 0 || cur.err != nil
}

// fetch returns a cursor's next rows. On a subscription's cursor it first
// waits for at least one change: at most the timeout when one is given
// (then it may return none), else until one arrives, the client cancels,
// or the server shuts down.
func (c *conn) fetch(cmd *cursorCmd) (engine.Result, error) {
	cur, ok := c.cursors[cmd.name]
	if !ok {
		return engine.Result{}, pgerr.New(pgerr.UndefinedCursor, "cursor %q does not exist", cmd.name)
	}
	if cur.stop != nil && cmd.count != 0 && !cur.pending() {
		var expire <-chan time.Time
		if cmd.wait {
			t := time.NewTimer(cmd.timeout)
			defer t.Stop()
			expire = t.C
		}
		select {
		case <-c.cancel: // a cancel that arrived while nothing ran is stale
		default:
		}
	wait:
		for !cur.pending() {
			select {
			case <-cur.ready:
			case <-expire:
				break wait
			case <-c.cancel:
				return engine.Result{}, pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
			case <-c.srv.stopping:
				return engine.Result{}, pgerr.New(pgerr.AdminShutdown, "terminating connection due to administrator command")
			}
		}
	}
	rows, err := cur.take(cmd.count)
	if err != nil {
		return engine.Result{}, err
	}
	return engine.Result{Columns: cur.cols, HasRows: true, Rows: rows, Tag: "FETCH " + strconv.Itoa(len(rows))}, nil
}

// closeCursors closes the connection's cursors: its transaction ended.
func (c *conn) closeCursors() {
	for name, cur := range c.cursors {
		cur.close()
		delete(c.cursors, name)
	}
}

// closeRolledBack closes the cursors that a ROLLBACK TO undid, as
// PostgreSQL does: those declared after the savepoint it rolled back to.
// A cursor declared before keeps its position.
func (c *conn) closeRolledBack() {
	n, ok := c.sess.TakeRolledBack()
	if !ok {
		return
	}
	for name, cur := range c.cursors {
		if cur.sp >= n {
			cur.close()
			delete(c.cursors, name)
		}
	}
}

// cursorCount is the count of a FETCH or MOVE (verb): 1 for none or
// NEXT, -1 for ALL.
func cursorCount(verb, word string) (int, error) {
	switch n := strings.ToLower(word); n {
	case "", "next":
		return 1, nil
	case "all":
		return -1, nil
	default:
		c, err := strconv.Atoi(n)
		if err != nil {
			return 0, pgerr.New(pgerr.InvalidParameter, "%s count out of range: %s", verb, n)
		}
		return c, nil
	}
}
