package engine_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/resultfmt"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

func TestMain(m *testing.M) {
	// Under CI the randomized differential tests replay one fixed seed, so
	// that a run is reproducible and a failure is a regression of this
	// change, not a rare case found by chance; elsewhere each run draws a
	// new seed and keeps searching (-rapid.seed picks one).
	flag.Parse()
	if os.Getenv("CI") == "true" {
		if f := flag.Lookup("rapid.seed"); f != nil && f.Value.String() == "0" {
			f.Value.Set("20261130")
		}
	}
	pgtest.Main(m)
}

// TestDataDriven runs testdata/*.txt against a fresh engine per file.
//
//	exec [session=NAME] [nopg] [pgexplain] [mask=col,col…] [masktimes]
//	<SQL script>
//	----
//	<per statement: its result sets as CSV (NULL prints as NULL), the
//	command tag of statements without rows and of DML, notice lines (NOTICE:, INFO:, WARNING:), or
//	"ERROR: <SQLSTATE> <message>" with psql's LINE/caret, DETAIL and HINT>
//
//	views
//	----
//	<every materialized view's rows, sorted>
//
// In the script, {{N*text}} stands for text repeated N times, for
// statements too long to write out.
//
// Statements run one at a time and a failing statement does not stop the
// ones after it, as in psql without ON_ERROR_STOP. mask replaces the values
// of the named columns by "*" (times and sizes that vary between runs);
// masktimes replaces the figures of EXPLAIN ANALYZE's times by N.
// pgexplain runs the block's EXPLAIN statements on PostgreSQL too
// (EXPLAIN ANALYZE changes its data as deltaview's): each must succeed
// or fail as there, and its result have the shape of PostgreSQL's
// (explain_pg_test.go); the plans, deltaview's own, are not compared.
// session runs the script in a named session of the engine (opened on
// first use, with a PostgreSQL connection of its own); without it, in the
// default session.
//
// Two oracles run after every statement, and a disagreement fails the test
// rather than being written to the expected output, so -rewrite can never
// bless a wrong answer:
//
//   - every materialized view's maintained rows must equal Recompute (a
//     from-scratch batch evaluation of its plan over the committed
//     tables), also while a transaction is open;
//   - when PostgreSQL is installed, every statement that PostgreSQL
//     understands is also run there (materialized views become plain
//     views, so PostgreSQL always answers from scratch), and must succeed
//     or fail with the same SQLSTATE (but for a schema change deltaview
//     refuses with 0A000, or one PostgreSQL runs in another form, such
//     as a materialized view made a plain view); query results and RETURNING rows
//     must be the same multiset (the same list under ORDER BY), except
//     that inside a transaction a materialized view shows the last commit
//     where PostgreSQL's plain view shows the transaction's changes; and every
//     view must hold the same rows as PostgreSQL's. nopg keeps a block
//     away from PostgreSQL.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if !strings.HasSuffix(path, ".txt") {
			t.Skip("not a test file (rapid keeps its failing cases under testdata/rapid)")
		}
		if strings.Contains(path, "testdata/roles/") {
			t.Skip("run by TestRoles, in sessions acting as roles")
		}
		h := newHarness(engine.New())
		h.cleanup = t.Cleanup
		if _, err := pgtest.FindBinDir(); err == nil || os.Getenv("CI") == "true" {
			h.srv = pgtest.Start(t)
			h.pg = h.srv.Conn(t)
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "exec":
				return h.exec(t, d)
			case "views":
				return h.views(t)
			}
			fatalAt(t, d, "unknown command %q", d.Cmd)
			return ""
		})
	})
}

type harness struct {
	e        *engine.Engine
	srv      *pgtest.Server
	pg       *pgx.Conn // the default session's connection
	sessions map[string]*hsession
	// cleanup registers what to close when the file ends (named
	// sessions' connections).
	cleanup func(func())

	// oracle is an engine that receives every statement with its
	// change-stream options stripped: its tables are ordinary tables,
	// which take the same change events completed by lookup, so its
	// Recompute evaluates each view from scratch where the tested
	// engine's cannot (a change-stream table keeps no rows of its own).
	// It starts at the first change-stream table, replaying the
	// statements before it.
	oracle     *engine.Engine
	oracleSess map[string]*engine.Session
	replay     []loggedStmt // statements deltaview accepted before the oracle started

	// subs follows each view's deltas: their sum must be its contents.
	subs map[string]*hsub
	// pgTables caches PostgreSQL's columns and keys, for translating
	// change events.
	pgTables map[string]*pgTable
}

// failer is what the harness reports a failure to: a *testing.T for the
// files under testdata, a *rapid.T for generated cases.
type failer interface {
	Helper()
	Fatalf(format string, args ...any)
}

func fatalAt(t failer, d *datadriven.TestData, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s: %s", d.Pos, fmt.Sprintf(format, args...))
}

func newHarness(e *engine.Engine) *harness {
	return &harness{e: e, sessions: map[string]*hsession{}, subs: map[string]*hsub{}, pgTables: map[string]*pgTable{}}
}

// hsession is a session of the engine and its PostgreSQL connection, on
// the same database as the default session's.
type hsession struct {
	name string
	s    *engine.Session
	inTx bool // deltaview has an open transaction (explicit, or failed)
	pg   *pgx.Conn
}

// session returns the session an exec step names (session=NAME), opened
// on first use; the default session has the empty name.
func (h *harness) session(t failer, d *datadriven.TestData) *hsession {
	name := ""
	for _, a := range d.CmdArgs {
		if a.Key == "session" && len(a.Vals) == 1 {
			name = a.Vals[0]
		}
	}
	if hs, ok := h.sessions[name]; ok {
		return hs
	}
	hs := &hsession{name: name, s: h.e.NewSession(), pg: h.pg}
	if h.pg != nil && name != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, h.srv.ConnString(h.pg.Config().Database))
		if err != nil {
			t.Fatalf("connecting session %s to PostgreSQL: %v", name, err)
		}
		h.cleanup(func() { conn.Close(context.Background()) })
		hs.pg = conn
	}
	h.sessions[name] = hs
	return hs
}

func (h *harness) exec(t failer, d *datadriven.TestData) string {
	if d.HasArg("knownbug") {
		return h.execKnownBug(t, d)
	}
	return h.run(t, d)
}

// knownBug is the panic of knownBugFailer.
type knownBug struct{ msg string }

// knownBugFailer turns the harness's first failure into a panic that
// execKnownBug recovers.
type knownBugFailer struct{}

func (knownBugFailer) Helper() {}

func (knownBugFailer) Fatalf(format string, args ...any) {
	panic(knownBug{fmt.Sprintf(format, args...)})
}

// execKnownBug runs an exec block marked knownbug=ID: a bug of deltaview
// that is reported and not yet fixed. The block must make an oracle
// disagree (the output says which check, and the block stops there); once
// the bug is fixed the block fails, so that the mark is removed.
func (h *harness) execKnownBug(t failer, d *datadriven.TestData) (out string) {
	t.Helper()
	var id string
	for _, a := range d.CmdArgs {
		if a.Key == "knownbug" && len(a.Vals) == 1 {
			id = a.Vals[0]
		}
	}
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("%s: known bug %s no longer shows: remove the knownbug mark", d.Pos, id)
		}
		kb, ok := r.(knownBug)
		if !ok {
			panic(r)
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(kb.msg, d.Pos+": "), "\n")
		out = fmt.Sprintf("known bug %s: %s\n", id, first)
	}()
	return h.run(knownBugFailer{}, d)
}

func (h *harness) run(t failer, d *datadriven.TestData) string {
	hs := h.session(t, d)
	usePG := h.pg != nil && !d.HasArg("nopg")
	mask := map[string]bool{}
	for _, a := range d.CmdArgs {
		if a.Key == "mask" {
			for _, v := range a.Vals {
				for _, c := range strings.Split(v, ",") {
					mask[c] = true
				}
			}
		}
	}
	pieces, err := sql.SplitScript(expandRepeats(t, d.Input))
	if err != nil {
		fatalAt(t, d, "splitting the script: %v", err)
	}
	var out bytes.Buffer
	for _, p := range pieces {
		// A COPY … FROM STDIN runs with its data lines, as psql sends them.
		text := p.SQL
		if p.HasData {
			text = p.SQL + ";\n" + p.Data + "\\.\n"
		}
		wasInTx := hs.inTx
		var results []engine.Result
		var styles []value.TextStyle // the session's when each result came
		var zones []value.Zone       // the session's TimeZone then
		err := hs.s.ExecScript(text, func(r engine.Result) error {
			results = append(results, r)
			styles = append(styles, hs.s.TextStyle())
			zones = append(zones, hs.s.TimeZone())
			return nil
		})
		hs.track(p.SQL, results, err)
		if err == nil {
			for i, r := range results {
				writeResult(t, &out, r, mask, styles[i], zones[i])
			}
		} else {
			for _, r := range results {
				for i, n := range r.Notices { // sent before the error
					fmt.Fprintf(&out, "%s: %s\n", r.NoticeLevel(i), n)
				}
			}
			var se *engine.ScriptError
			if !errors.As(err, &se) {
				fatalAt(t, d, "%s: error without a statement: %v", p.SQL, err)
			}
			writeError(&out, se)
		}
		h.mirror(t, d, hs, p, text, wasInTx, results, err)
		h.checkOracle(t, d, p.SQL)
		h.checkDeltas(t, d, p.SQL)
		if usePG {
			if p.HasData {
				h.checkPGCopy(t, d, hs, p, wasInTx, err)
			} else {
				h.checkPG(t, d, hs, p.SQL, results, err)
			}
			if d.HasArg("pgexplain") {
				h.checkPGExplain(t, d, hs, p.SQL, results, err)
			}
		}
		h.notifications(t, d, hs, &out, usePG)
	}
	if d.HasArg("masktimes") {
		return timesRE.ReplaceAllString(out.String(), "${1}N")
	}
	return out.String()
}

// timesRE finds EXPLAIN ANALYZE's times, which masktimes replaces by N
// as PostgreSQL's regression tests do (in text, YAML, JSON and XML).
var timesRE = regexp.MustCompile(`(time=|Time: |Time"": |Time>)[0-9]+\.[0-9]+`)

// track follows whether the session has a transaction open, from the
// statements' tags: inside one, its reads of a materialized view show the
// last commit, where PostgreSQL's plain view shows the transaction's
// changes.
func (h *hsession) track(stmt string, results []engine.Result, err error) {
	if err != nil {
		if isTxControl(stmt, pg_query.TransactionStmtKind_TRANS_STMT_COMMIT) {
			h.inTx = false // a commit that fails rolls back
		}
		return
	}
	for _, r := range results {
		switch r.Tag {
		case "BEGIN":
			h.inTx = true
		case "COMMIT", "ROLLBACK":
			// ROLLBACK TO a savepoint keeps the transaction open, AND
			// CHAIN opens the next.
			h.inTx = isTxControl(stmt, pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO) || isChain(stmt)
		}
	}
}

// isChain reports whether stmt is COMMIT AND CHAIN or ROLLBACK AND CHAIN.
func isChain(stmt string) bool {
	s, err := sql.Parse(stmt)
	if err != nil || s == nil || s.Node == nil {
		return false
	}
	tx := s.Node.GetTransactionStmt()
	return tx != nil && tx.Chain
}

func isTxControl(stmt string, kind pg_query.TransactionStmtKind) bool {
	s, err := sql.Parse(stmt)
	if err != nil || s == nil || s.Node == nil {
		return false
	}
	tx := s.Node.GetTransactionStmt()
	return tx != nil && tx.Kind == kind
}

func writeResult(t failer, out *bytes.Buffer, r engine.Result, mask map[string]bool, st value.TextStyle, z value.Zone) {
	for i, n := range r.Notices {
		fmt.Fprintf(out, "%s: %s\n", r.NoticeLevel(i), n)
	}
	if r.HasRows {
		set := &resultfmt.Set{}
		var masked []int
		for i, c := range r.Columns {
			set.Columns = append(set.Columns, resultfmt.Column{Name: c.Name, Type: c.Type})
			if mask[c.Name] {
				masked = append(masked, i)
			}
		}
		for _, row := range r.Rows {
			if len(masked) > 0 {
				row = slices.Clone(row)
				for _, i := range masked {
					if !row[i].IsNull() {
						row[i] = value.NewText(value.Text, "*")
					}
				}
			}
			set.Rows = append(set.Rows, row)
		}
		var b bytes.Buffer
		if err := resultfmt.Write(&b, set, resultfmt.Options{Format: resultfmt.FormatCSV, Null: "NULL", TextStyle: st, TimeZone: z}); err != nil {
			t.Fatalf("printing a result: %v", err)
		}
		out.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	}
	if r.CopyOut != nil {
		out.Write(r.CopyOut.Data)
	}
	if r.Tag != "" && (!r.HasRows || isDML(r.Tag)) {
		fmt.Fprintln(out, r.Tag)
	}
}

func isDML(tag string) bool {
	for _, p := range []string{"INSERT ", "UPDATE ", "DELETE "} {
		if strings.HasPrefix(tag, p) {
			return true
		}
	}
	return false
}

// writeError prints "ERROR: <SQLSTATE> <message>" and then what psql
// prints after its first line: the caret, DETAIL and HINT.
func writeError(out *bytes.Buffer, se *engine.ScriptError) {
	e := pgerr.Wrap(se.Err)
	fmt.Fprintf(out, "ERROR: %s %s\n", e.Code, e.Message)
	full := pgerr.Format(se.Err, se.SQL)
	if _, rest, ok := strings.Cut(full, "\n"); ok {
		out.WriteString(rest)
	}
}

// checkOracle compares every materialized view with its recomputation
// over the committed tables, also while a transaction is open: the
// tested engine's own, or, once a change-stream table exists (it keeps no
// rows to recompute from), the oracle engine's over its ordinary tables,
// whose own maintained views must agree too.
func (h *harness) checkOracle(t failer, d *datadriven.TestData, stmt string) {
	for _, name := range h.e.Views() {
		_, got, err := h.e.ViewRows(name)
		if err != nil {
			fatalAt(t, d, "after %q: ViewRows(%s): %v", stmt, name, err)
		}
		src := h.e
		if h.oracle != nil {
			src = h.oracle
		}
		want, err := src.Recompute(name)
		if err != nil {
			fatalAt(t, d, "after %q: Recompute(%s): %v", stmt, name, err)
		}
		if g, w := rowTexts(got), rowTexts(want); !slices.Equal(sorted(g), sorted(w)) {
			fatalAt(t, d, "after %q: view %s holds\n%s\nbut recomputing it gives\n%s",
				stmt, name, strings.Join(sorted(g), "\n"), strings.Join(sorted(w), "\n"))
		}
		if h.oracle == nil {
			continue
		}
		if _, o, err := h.oracle.ViewRows(name); err != nil {
			fatalAt(t, d, "after %q: the oracle's ViewRows(%s): %v", stmt, name, err)
		} else if g, w := rowTexts(o), rowTexts(want); !slices.Equal(sorted(g), sorted(w)) {
			fatalAt(t, d, "after %q: view %s over ordinary tables holds\n%s\nbut recomputing it gives\n%s",
				stmt, name, strings.Join(sorted(g), "\n"), strings.Join(sorted(w), "\n"))
		}
	}
}

// rowTexts prints rows in PostgreSQL's text format, one string per row,
// with NULL as a marker no text value can produce.
func rowTexts(rows []value.Row) []string {
	return rowTextsStyle(rows, value.IntervalPostgres, value.UTC)
}

// rowTextsStyle is rowTexts with intervals in a session's IntervalStyle.
func rowTextsStyle(rows []value.Row, st value.TextStyle, z value.Zone) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		var b strings.Builder
		for j, v := range r {
			if j > 0 {
				b.WriteString("\x00|")
			}
			if v.IsNull() {
				b.WriteString("\x00NULL")
			} else {
				b.Write(value.AppendTextZone(nil, v, st, z))
			}
		}
		out[i] = b.String()
	}
	return out
}

func pgTexts(rows [][]*string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		var b strings.Builder
		for j, v := range r {
			if j > 0 {
				b.WriteString("\x00|")
			}
			if v == nil {
				b.WriteString("\x00NULL")
			} else {
				b.WriteString(*v)
			}
		}
		out[i] = b.String()
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func show(rows []string) string {
	if len(rows) == 0 {
		return "(no rows)"
	}
	return strings.ReplaceAll(strings.Join(rows, "\n"), "\x00", "")
}

func (h *harness) views(t failer) string {
	var out strings.Builder
	for _, name := range h.e.Views() {
		_, rows, err := h.e.ViewRows(name)
		if err != nil {
			t.Fatalf("ViewRows(%s): %v", name, err)
		}
		fmt.Fprintf(&out, "%s:\n", name)
		for _, r := range sorted(rowTexts(rows)) {
			fmt.Fprintf(&out, "  (%s)\n", strings.ReplaceAll(strings.ReplaceAll(r, "\x00|", ", "), "\x00NULL", "NULL"))
		}
	}
	return out.String()
}

var matViewRE = regexp.MustCompile(`(?i)materialized\s+view`)

// pgStatement returns the text to run on PostgreSQL for a deltaview
// statement, or "" when it has no PostgreSQL counterpart. ddl reports a
// catalog change, mirrored only when deltaview accepted it.
func pgStatement(stmt string) (text string, ddl, ordered bool) {
	if strings.Contains(strings.ToLower(stmt), "deltaview_") {
		return "", false, false
	}
	s, err := sql.Parse(stmt)
	if err != nil || s == nil {
		return stmt, false, false // a syntax error: PostgreSQL must agree
	}
	n := s.Node
	switch {
	case n.GetVariableShowStmt() != nil && comparedSetting(n.GetVariableShowStmt().Name):
		return stmt, false, false
	case s.Subscribe != "", n.GetExplainStmt() != nil, n.GetVariableShowStmt() != nil:
		return "", false, false
	case n.GetCreateTableAsStmt() != nil, n.GetDropStmt() != nil, n.GetViewStmt() != nil, n.GetCommentStmt() != nil,
		n.GetAlterObjectSchemaStmt() != nil:
		return matViewRE.ReplaceAllString(stripStreamOptions(stmt), "VIEW"), true, false
	case n.GetAlterTableStmt() != nil && n.GetAlterTableStmt().Objtype == pg_query.ObjectType_OBJECT_MATVIEW:
		return matViewRE.ReplaceAllString(stmt, "VIEW"), false, false
	case n.GetCreateStmt() != nil:
		return stripStreamOptions(stmt), true, false
	case n.GetSelectStmt() != nil:
		return stmt, false, len(n.GetSelectStmt().SortClause) > 0
	}
	return stmt, false, false
}

// comparedSetting reports whether SHOW name is compared with
// PostgreSQL's: the session's settings, but for SHOW ALL (PostgreSQL has
// hundreds more) and the server's version.
func comparedSetting(name string) bool {
	name = strings.ToLower(name)
	return engine.IsSessionSetting(name) && name != "all" && !strings.HasPrefix(name, "server_version")
}

// checkPG runs stmt on PostgreSQL and compares the outcome with
// deltaview's, then every view's rows.
func (h *harness) checkPG(t failer, d *datadriven.TestData, hs *hsession, stmt string, results []engine.Result, err error) {
	text, ddl, ordered := pgStatement(stmt)
	// A schema change deltaview refuses (0A000), or one PostgreSQL runs
	// in another form (a materialized view as a plain view, which it does
	// not evaluate; without the options of change-stream tables), may
	// fail here alone; any other failure must be PostgreSQL's, with its
	// SQLSTATE.
	if text == "" || (ddl && err != nil && (pgerr.Code(err) == pgerr.FeatureNotSupported || text != stmt)) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if isCopyToStdout(stmt) {
		var data bytes.Buffer
		_, pgErr := hs.pg.PgConn().CopyTo(ctx, &data, text)
		if sameOutcome(t, d, stmt, err, pgErr) && !bytes.Equal(results[0].CopyOut.Data, data.Bytes()) {
			fatalAt(t, d, "%s\ndeltaview writes\n%s\nPostgreSQL writes\n%s", stmt, results[0].CopyOut.Data, data.Bytes())
		}
		h.checkPGViews(t, d, hs, stmt)
		return
	}
	rs, pgErr := hs.pg.PgConn().Exec(ctx, text).ReadAll()
	if sameOutcome(t, d, stmt, err, pgErr) {
		// Compare the statement's own rows (the first result; the ones
		// after it are subscription deltas).
		// Inside a transaction a materialized view shows the last commit,
		// unlike PostgreSQL's plain view, so only results that read no
		// view compare.
		if len(results) > 0 && results[0].HasRows && len(rs) > 0 && !(hs.inTx && h.readsView(stmt)) {
			got := rowTextsStyle(results[0].Rows, hs.s.TextStyle(), hs.s.TimeZone())
			want := pgTexts(pgRows(rs[len(rs)-1]))
			if !ordered {
				got, want = sorted(got), sorted(want)
			}
			if !slices.Equal(got, want) {
				fatalAt(t, d, "%s\ndeltaview returns\n%s\nPostgreSQL returns\n%s", stmt, show(got), show(want))
			}
		}
	}
	if err == nil || !ddl { // a failed schema change changed nothing
		h.checkPGViews(t, d, hs, stmt)
	}
}

// sameOutcome fails unless deltaview (err) and PostgreSQL (pgErr) both
// succeed, or both fail with one SQLSTATE; it reports whether both
// succeeded.
func sameOutcome(t failer, d *datadriven.TestData, stmt string, err, pgErr error) bool {
	var pe *pgconn.PgError
	if pgErr != nil && !errors.As(pgErr, &pe) {
		fatalAt(t, d, "PostgreSQL: %s: %v", stmt, pgErr)
	}
	switch {
	case err == nil && pe != nil:
		fatalAt(t, d, "%s\ndeltaview succeeds, PostgreSQL fails: %s %s", stmt, pe.Code, pe.Message)
	case err != nil && pe == nil:
		fatalAt(t, d, "%s\ndeltaview fails (%s %v), PostgreSQL succeeds", stmt, pgerr.Code(err), err)
	case err != nil:
		if c := pgerr.Code(err); c != pe.Code {
			fatalAt(t, d, "%s\ndeltaview fails with %s %v, PostgreSQL with %s %s", stmt, c, err, pe.Code, pe.Message)
		}
	}
	return err == nil
}

// isCopyToStdout reports whether stmt is COPY … TO STDOUT, whose data
// PostgreSQL's connection returns through the copy protocol.
func isCopyToStdout(stmt string) bool {
	s, err := sql.Parse(stmt)
	if err != nil || s == nil {
		return false
	}
	cs := s.Node.GetCopyStmt()
	return cs != nil && !cs.IsFrom && cs.Filename == "" && !cs.IsProgram
}

// checkPGViews compares every view's rows with PostgreSQL's plain view,
// when the session's connection is outside a transaction: it then sees
// the committed state, which the views hold.
func (h *harness) checkPGViews(t failer, d *datadriven.TestData, hs *hsession, stmt string) {
	if hs.pg.PgConn().TxStatus() != 'I' {
		return
	}
	views := h.e.Views()
	if len(views) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// One round trip reads every view.
	var q strings.Builder
	for _, name := range views {
		id := pgx.Identifier{name}
		if sc, n, ok := strings.Cut(name, "."); ok {
			id = pgx.Identifier{sc, n} // a view of schema sc, keyed "sc.n"
		}
		fmt.Fprintf(&q, "SELECT * FROM %s;", id.Sanitize())
	}
	prs, perr := hs.pg.PgConn().Exec(ctx, q.String()).ReadAll()
	if perr != nil || len(prs) != len(views) {
		fatalAt(t, d, "after %q: PostgreSQL cannot read the views: %v", stmt, perr)
	}
	for i, name := range views {
		_, rows, verr := h.e.ViewRows(name)
		if verr != nil {
			fatalAt(t, d, "ViewRows(%s): %v", name, verr)
		}
		got, want := sorted(rowTextsStyle(rows, hs.s.TextStyle(), hs.s.TimeZone())), sorted(pgTexts(pgRows(prs[i])))
		if !slices.Equal(got, want) {
			fatalAt(t, d, "after %q: view %s holds\n%s\nbut PostgreSQL computes\n%s", stmt, name, show(got), show(want))
		}
	}
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_$]*`)

// readsView reports whether stmt names a materialized view.
func (h *harness) readsView(stmt string) bool {
	views := h.e.Views()
	for _, w := range wordRE.FindAllString(strings.ToLower(stmt), -1) {
		if slices.Contains(views, w) {
			return true
		}
	}
	return false
}

func pgRows(r *pgconn.Result) [][]*string {
	out := make([][]*string, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = make([]*string, len(row))
		for j, v := range row {
			if v != nil {
				s := string(v)
				out[i][j] = &s
			}
		}
	}
	return out
}

// expandRepeats replaces each {{N*text}} of s by text repeated N times.
func expandRepeats(t failer, s string) string {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "}}")
		star := strings.IndexByte(s[i:], '*')
		if j < 0 || star < 0 || star > j {
			t.Fatalf("bad repetition in %q", s[i:])
		}
		n, err := strconv.Atoi(s[i+2 : i+star])
		if err != nil {
			t.Fatalf("bad repetition count in %q", s[i:i+j+2])
		}
		s = s[:i] + strings.Repeat(s[i+star+1:i+j], n) + s[i+j+2:]
	}
}
