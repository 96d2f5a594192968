package sql

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// fakeCatalog is a fixed catalog for binder tests: tables t and u, and a
// plain view pv over t.
type fakeCatalog map[string]*Relation

func (c fakeCatalog) Relation(name string) (*Relation, bool) {
	r, ok := c[name]
	return r, ok
}

func testCatalog(tb testing.TB) fakeCatalog {
	cols := func(spec ...any) []plan.Column {
		var out []plan.Column
		for i := 0; i < len(spec); i += 2 {
			out = append(out, plan.Column{Name: spec[i].(string), Type: spec[i+1].(value.Type)})
		}
		return out
	}
	cat := fakeCatalog{
		"t": {Name: "t", Kind: KindTable, Cols: cols("id", value.Int4Type, "g", value.TextType, "n", value.Int4Type,
			"x", value.NumericType, "f", value.Float8Type, "d", value.DateType, "ts", value.TimestampTZType, "b", value.BoolType)},
		"u":  {Name: "u", Kind: KindTable, Cols: cols("id", value.Int4Type, "name", value.TextType)},
		"mv": {Name: "mv", Kind: KindMatView, Cols: cols("id", value.Int4Type)},
	}
	for _, r := range cat {
		if r.Kind == KindTable {
			r.Defaults = make([]expr.Expr, len(r.Cols))
		}
	}
	q, err := Parse("SELECT id, g FROM t WHERE n > 0")
	if err != nil {
		tb.Fatal(err)
	}
	cat["pv"] = &Relation{Name: "pv", Kind: KindView, Cols: cols("id", value.Int4Type, "g", value.TextType), Query: q}
	return cat
}

// refusal is a construct a materialized view cannot hold.
type refusal struct {
	query string // the view's defining query
	code  string // SQLSTATE; 0A000 when empty
	// at is the text the error's position points at (a prefix of it,
	// case-insensitive), and msg a substring of the message that names the
	// construct; either may list alternatives separated by |, where work
	// on the construct may report it either way.
	at   string
	msg  string
	hint string // a substring of the hint, when there is an alternative
}

// refusals are the constructs outside the subset that users are likely to
// write in CREATE MATERIALIZED VIEW … AS ….
var refusals = []refusal{
	// Window functions.
	{query: "SELECT id, xmlagg(n::text::xml) OVER (PARTITION BY g) FROM t", at: "xmlagg", msg: "window"},
	{query: "SELECT id, sum(DISTINCT n) OVER (PARTITION BY g) FROM t", at: "sum", msg: "DISTINCT"},
	{query: "SELECT id, string_agg(g::text, ',' ORDER BY id) OVER (PARTITION BY g) FROM t", at: "string_agg", msg: "ORDER BY"},
	{query: "SELECT id, rank() FILTER (WHERE g > 1) OVER (PARTITION BY g) FROM t", at: "rank", msg: "FILTER"},
	{query: "SELECT id, sum(n) OVER (ORDER BY n RANGE 1.5 PRECEDING) FROM t", at: "1.5", msg: "RANGE", hint: "Cast"},
	{query: "SELECT id, sum(n) OVER (ORDER BY g RANGE 1 PRECEDING) FROM t", at: "1 PRECEDING", msg: "column type text"},
	// Ordering and limits.
	{query: "SELECT id FROM t LIMIT 10", at: "LIMIT", msg: "LIMIT", hint: "ORDER BY"},
	{query: "SELECT id FROM t OFFSET 5", at: "OFFSET", msg: "OFFSET"},
	{query: "SELECT id FROM t FETCH FIRST 5 ROWS ONLY", at: "FETCH", msg: "FETCH"},
	// Set operations other than UNION.
	// Recursion and data-modifying WITH.
	{query: "WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT DISTINCT n + 1 FROM r WHERE n < 5) SELECT n FROM r", at: "r WHERE", msg: "DISTINCT", hint: "filter, project and join"},
	{query: "WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT a.n FROM r a, r b) SELECT n FROM r", code: pgerr.InvalidRecursion, at: "r b", msg: "more than once", hint: "linear"},
	{query: "WITH RECURSIVE a(n) AS (SELECT 1 UNION SELECT n FROM b), b(n) AS (SELECT n FROM a) SELECT n FROM a", at: "b), b", msg: "later item", hint: "mutual recursion"},
	{query: "WITH d AS (DELETE FROM t RETURNING id) SELECT id FROM d", at: "d AS (DELETE", msg: "data-modifying"},
	// Volatile functions.
	{query: "SELECT id, random() FROM t", at: "random", msg: "random", hint: "store"},
	{query: "SELECT id FROM t WHERE ts <> now()", at: "now", msg: "now", hint: "store"},
	{query: "SELECT id FROM t WHERE ts > now() OR id > 3", at: "now", msg: "now", hint: "ts > now() - interval"},
	{query: "SELECT id FROM t WHERE ts > now() - id * interval '1 minute'", at: "now", msg: "columns", hint: "ts > now() - interval"},
	{query: "SELECT id FROM t WHERE ts > date_trunc('hour', now())", at: "now", msg: "plus or minus a constant"},
	{query: "SELECT id FROM t WHERE id IN (SELECT id FROM t WHERE ts > now())", at: "now", msg: "now", hint: "ts > now() - interval"},
	{query: "SELECT id, CURRENT_TIMESTAMP FROM t", at: "CURRENT_TIMESTAMP", msg: "current_timestamp", hint: "store"},
	{query: "SELECT id FROM t WHERE d <> current_date", at: "current_date", msg: "current_date", hint: "store"},
	{query: "SELECT id, age(ts) FROM t", at: "age", msg: "age", hint: "store"},
	{query: "SELECT id, clock_timestamp() FROM t", at: "clock_timestamp", msg: "clock_timestamp", hint: "store"},
	{query: "SELECT id, LOCALTIMESTAMP FROM t", at: "LOCALTIMESTAMP", msg: "LOCALTIMESTAMP"},
	{query: "SELECT id, current_user FROM t", at: "current_user", msg: "CURRENT_USER"},
	// Set-returning functions.
	{query: "SELECT * FROM generate_series(1, (random() * 10)::int)", at: "random", msg: "random"},
	// Operators and expressions outside the subset.
	// Types outside the subset.
	{query: "SELECT g::regclass FROM t", at: "regclass", msg: "regclass"},
	{query: "SELECT g::nosuchtype FROM t", code: pgerr.UndefinedObject, at: "nosuchtype", msg: "nosuchtype"},
	// Locking and sampling.
	{query: "SELECT id FROM t FOR UPDATE", at: "FOR UPDATE", msg: "FOR UPDATE"},
	{query: "SELECT id FROM t WHERE id = 1 FOR KEY SHARE OF t NOWAIT", at: "FOR KEY", msg: "FOR KEY SHARE"},
	{query: "SELECT id FROM t FOR SHARE", at: "FOR SHARE", msg: "FOR"},
	{query: "SELECT id FROM t TABLESAMPLE SYSTEM (10)", at: "TABLESAMPLE", msg: "TABLESAMPLE"},
	// Errors that are not about the subset keep their own codes.
	{query: "SELECT nope FROM t", code: pgerr.UndefinedColumn, at: "nope", msg: "nope"},
	{query: "SELECT id FROM nope", code: pgerr.UndefinedTable, at: "nope", msg: "nope"},
	{query: "SELECT nosuchfn(id) FROM t", code: pgerr.UndefinedFunction, at: "nosuchfn", msg: "nosuchfn"},
	{query: "SELECT id FROM t WHERE g", code: pgerr.DatatypeMismatch, at: "g", msg: "boolean"},
	{query: "SELECT id FROM t UNION SELECT g FROM t", code: pgerr.DatatypeMismatch, at: "g FROM t", msg: "UNION"},
	{query: "SELECT id FROM t WHERE id = $1", code: pgerr.UndefinedParameter, at: "$1", msg: "$1", hint: "parameters"},
}

// TestRefusals checks that each construct is refused when a materialized
// view is created with it: the code, a position at the construct, a
// message that names it and, where there is one, a hint at what to write
// instead. The same query inside a plain view is refused when a
// materialized view reads the plain view.
func TestRefusals(t *testing.T) {
	cat := testCatalog(t)
	seen := map[string]bool{}
	for _, r := range refusals {
		if seen[r.query] {
			t.Errorf("%s: listed twice", r.query)
		}
		seen[r.query] = true
		t.Run(r.query, func(t *testing.T) {
			want := r.code
			if want == "" {
				want = pgerr.FeatureNotSupported
			}
			const prefix = "CREATE MATERIALIZED VIEW v AS "
			text := prefix + r.query
			e := bindErr(t, cat, text)
			if e == nil {
				t.Fatalf("bound without error")
			}
			if e.Code != want {
				t.Errorf("code %s (%s), want %s", e.Code, e.Message, want)
			}
			if !anyOf(r.msg, func(m string) bool { return strings.Contains(strings.ToLower(e.Message), strings.ToLower(m)) }) {
				t.Errorf("message %q does not name %q", e.Message, r.msg)
			}
			if r.hint != "" && !strings.Contains(strings.ToLower(e.Hint), strings.ToLower(r.hint)) {
				t.Errorf("hint %q does not mention %q", e.Hint, r.hint)
			}
			if e.Position <= 0 {
				t.Fatalf("unpositioned: %s", e.Message)
			}
			runes := []rune(text)
			if e.Position > len(runes) {
				t.Fatalf("position %d beyond the text (%d characters)", e.Position, len(runes))
			}
			at := string(runes[e.Position-1:])
			if !anyOf(r.at, func(a string) bool { return strings.HasPrefix(strings.ToLower(at), strings.ToLower(a)) }) {
				t.Errorf("position %d points at %q, want %q\n%s", e.Position, at, r.at, pgerr.Format(e, text))
			}
		})
	}
	if n := len(refusals); n < 30 {
		t.Errorf("only %d refusals listed", n)
	}
}

// anyOf reports whether ok holds for one of the |-separated alternatives.
func anyOf(alts string, ok func(string) bool) bool {
	for _, a := range strings.Split(alts, "|") {
		if ok(a) {
			return true
		}
	}
	return false
}

// maintainedInViews were once refused and are now maintained: they must
// bind as a view's query.
var maintainedInViews = []string{
	"SELECT * FROM (SELECT id, g, row_number() OVER (PARTITION BY g ORDER BY n DESC, id) AS rn FROM t) s WHERE rn <= 3",
	"SELECT id FROM (SELECT id, row_number() OVER (ORDER BY n, id) AS rn FROM t) s WHERE rn = 1",
	"SELECT id, row_number() OVER (ORDER BY id) FROM t",
	"SELECT id, rank() OVER w, sum(n) OVER (w ROWS 1 PRECEDING) FROM t WINDOW w AS (PARTITION BY g ORDER BY id)",
	"SELECT id, sum(n) OVER (PARTITION BY g), rank() OVER (ORDER BY n), lag(id) OVER (ORDER BY id) FROM t",
	"SELECT id, (SELECT max(id) FROM u) FROM t",
	"SELECT id, (SELECT count(*) FROM u WHERE u.id = t.id) AS n FROM t",
	"SELECT id FROM t WHERE n > (SELECT avg(id) FROM u)",
	"SELECT g, n FROM t GROUP BY GROUPING SETS ((g), (n))",
	"SELECT g, n FROM t GROUP BY ROLLUP (g, n)",
	"SELECT g, n FROM t GROUP BY CUBE (g, n)",
	"SELECT t.id, u.name FROM t JOIN u ON t.id = u.id",
	"SELECT * FROM t INNER JOIN u USING (id)",
	"SELECT t.id, u.name FROM t LEFT JOIN u ON t.id = u.id",
	"SELECT t.id, u.name FROM t RIGHT OUTER JOIN u ON t.id = u.id",
	"SELECT t.id, u.name FROM t FULL JOIN u ON t.id = u.id",
	"SELECT t.id, u.name FROM t CROSS JOIN u",
	"SELECT * FROM t NATURAL JOIN u",
	"SELECT t.id FROM t, u WHERE t.id = u.id",
	"SELECT a.id, u.name FROM (SELECT id FROM t) a JOIN u ON a.id = u.id",
	"SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id)",
	"SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM u)",
	"SELECT id FROM t WHERE id IN (SELECT id FROM u)",
	"SELECT id FROM t WHERE id NOT IN (SELECT id FROM u)",
	"SELECT count(*) FROM t",
	"SELECT g, sum(n) FROM t GROUP BY g",
	"SELECT g FROM t GROUP BY g",
	"SELECT 1 AS one FROM t HAVING true",
	"SELECT count(DISTINCT g) FROM t",
	"SELECT max(n) FILTER (WHERE n > 0) FROM t",
	"SELECT string_agg(g, ',' ORDER BY g) FROM t",
	"SELECT id FROM t ORDER BY id LIMIT 10",
	"SELECT id FROM t ORDER BY id",
	"SELECT * FROM (SELECT id FROM t ORDER BY id) s",
	"SELECT DISTINCT ON (g) g, n FROM t",
	"SELECT id FROM t INTERSECT SELECT id FROM u",
	"SELECT id FROM t EXCEPT SELECT id FROM u",
	"SELECT id FROM t EXCEPT ALL SELECT id FROM u",
	"SELECT id FROM t WHERE n = ANY (ARRAY[1, 2])",
	"SELECT id FROM t WHERE n <> ALL ('{1,2}')",
	"SELECT ARRAY[id, n] AS a, (ARRAY[id, n])[2] AS b, cardinality(ARRAY[n]) FROM t",
	"SELECT g, array_agg(n ORDER BY id) FROM t GROUP BY g",
	"SELECT * FROM unnest(ARRAY[1, 2])",
	"SELECT t.id, u.x FROM t, unnest(ARRAY[t.n, t.id]) WITH ORDINALITY AS u(x, o)",
	"SELECT id, unnest(ARRAY[n, 1]) FROM t",
}

func TestMaintainedInViews(t *testing.T) {
	cat := testCatalog(t)
	for _, q := range maintainedInViews {
		if e := bindErr(t, cat, "CREATE MATERIALIZED VIEW v AS "+q); e != nil {
			t.Errorf("%s: %s", q, pgerr.Format(e, q))
		}
	}
}

// TestRefusalsAllowedAdHoc checks that the constructs refused in views
// because they cannot be maintained, rather than because deltaview lacks
// them altogether, still work in a query evaluated once.
func TestRefusalsAllowedAdHoc(t *testing.T) {
	cat := testCatalog(t)
	for _, q := range []string{
		"SELECT id FROM t ORDER BY id",
		"SELECT id FROM t ORDER BY id LIMIT 10",
		"SELECT id FROM t LIMIT 10",
		"SELECT id FROM t OFFSET 5",
		"SELECT id FROM t FETCH FIRST 5 ROWS ONLY",
		"SELECT id, random() FROM t",
		"SELECT id FROM t WHERE ts > now()",
		"SELECT * FROM generate_series(1, 10)",
		"SELECT generate_series(1, n) FROM t",
		"SELECT * FROM t, generate_series(1, t.id) s",
		"SELECT * FROM generate_series(date '2024-01-01', date '2024-02-01', interval '1 day')",
		"SELECT * FROM t, generate_series(t.ts, t.ts + interval '1 day', interval '1 hour') s",
		"SELECT * FROM (SELECT id FROM t ORDER BY id) s",
	} {
		if e := bindErr(t, cat, q); e != nil {
			t.Errorf("%s: %s %s", q, e.Code, e.Message)
		}
	}
}

// TestPlainViewRefusedWhereRead checks that a plain view holding a refused
// construct can be created, and that a materialized view over it is
// refused with the construct named.
func TestPlainViewRefusedWhereRead(t *testing.T) {
	cat := testCatalog(t)
	q, err := Parse("SELECT id FROM t LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	cat["ordered"] = &Relation{Name: "ordered", Kind: KindView, Cols: []plan.Column{{Name: "id", Type: value.Int4Type}}, Query: q}
	if e := bindErr(t, cat, "CREATE VIEW ordered2 AS SELECT id FROM t LIMIT 1"); e != nil {
		t.Fatalf("plain view refused: %s", e.Message)
	}
	text := "CREATE MATERIALIZED VIEW v AS SELECT id FROM ordered"
	e := bindErr(t, cat, text)
	if e == nil || e.Code != pgerr.FeatureNotSupported || !strings.Contains(e.Message, "LIMIT") || !strings.Contains(e.Message, "ordered") {
		t.Fatalf("got %v, want 0A000 naming LIMIT and the view", e)
	}
	if got := string([]rune(text)[e.Position-1:]); !strings.HasPrefix(got, "ordered") {
		t.Errorf("position points at %q, want the view's name", got)
	}
}

// bindErr parses and binds text, returning the error as a *pgerr.Error (nil
// when it binds). Any other error fails the test.
func bindErr(t *testing.T, cat Catalog, text string) *pgerr.Error {
	t.Helper()
	s, err := Parse(text)
	if err == nil {
		_, err = Bind(cat, s)
	}
	if err == nil {
		return nil
	}
	e, ok := err.(*pgerr.Error)
	if !ok {
		t.Fatalf("%s: error of type %T: %v", text, err, err)
	}
	return e
}
