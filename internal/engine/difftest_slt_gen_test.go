package engine_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestSelectLogic generates queries in the style of sqllogictest's
// select1–5: five-column integer tables t1…t5 (a, b, c, d, e) holding
// NULLs; CASE; scalar subqueries correlated by <, >, = and expressions;
// EXISTS under OR and CASE; IN lists and IN subqueries; aggregates with and
// without GROUP BY and HAVING; and joins of 2 to 60 of the two-column
// tables j1…j60 listed in random order in FROM, with equalities among them
// (chains, stars, and classes of equal columns). Every query PostgreSQL
// runs is created as a materialized view, and each view accepted is
// compared with PostgreSQL's answer at creation and after each of a
// series of random inserts, updates and deletes. It reports the share of
// the queries accepted as views and the shapes refused; it fails on a
// wrong answer, or a view that takes more than 5 s to create. (Unlike
// sqllogictest's, the queries have no ORDER BY: a view's rows are a
// multiset.)
//
// SLT_QUERIES sets the number of queries (default 200), SLT_SEED the seed.
func TestSelectLogic(t *testing.T) {
	nq := envInt("SLT_QUERIES", 200)
	if testing.Short() {
		nq = 60
	}
	seed := uint64(envInt("SLT_SEED", 17))
	conn := pgtest.Start(t).Conn(t)
	eng := engine.New()
	s := &slt{t: t, conn: conn, sess: eng.NewSession(), eng: eng,
		r: rand.New(rand.NewPCG(seed, seed^0x5eed)), refused: map[string]int{}, refusedBy: map[string][]string{}}
	s.schema()

	const batch = 20
	for done := 0; done < nq; {
		var views []sltView
		for ; len(views) < batch && done < nq; done++ {
			q := s.query()
			if v, ok := s.create(fmt.Sprintf("v%d", done), q); ok {
				views = append(views, v)
			}
		}
		for range 4 {
			s.change()
			for _, v := range views {
				s.compare(v)
			}
		}
		for _, v := range views {
			s.both("DROP MATERIALIZED VIEW "+v.name, "DROP VIEW "+v.name)
		}
	}
	pct := 100 * float64(s.accepted) / float64(max(s.pgAccepted, 1))
	msg := fmt.Sprintf("select logic: %d queries generated, %d run by PostgreSQL, %d accepted as views (%.1f%%), %d comparisons, slowest creation %v",
		nq, s.pgAccepted, s.accepted, pct, s.compared, s.slowest.Round(time.Millisecond))
	t.Log(msg)
	fmt.Println(msg)
	type kv struct {
		k string
		n int
	}
	var refused []kv
	for k, n := range s.refused {
		refused = append(refused, kv{k, n})
	}
	sort.Slice(refused, func(i, j int) bool {
		return refused[i].n > refused[j].n || refused[i].n == refused[j].n && refused[i].k < refused[j].k
	})
	for _, r := range refused {
		line := fmt.Sprintf("  refused %d×: %s\n    e.g. %s", r.n, r.k, s.refusedBy[r.k][0])
		t.Log(line)
		fmt.Println(line)
	}
}

type slt struct {
	t    *testing.T
	conn *pgx.Conn
	eng  *engine.Engine
	sess *engine.Session
	r    *rand.Rand

	// jrows[i] holds the a values present in j(i+1): a is kept unique so
	// that the long joins stay small.
	jrows [sltJoinTables]map[int]bool

	pgAccepted, accepted, compared int
	slowest                        time.Duration
	refused                        map[string]int
	refusedBy                      map[string][]string
}

type sltView struct {
	name, query string
}

const (
	sltJoinTables = 60
	sltRows       = 12 // rows of each of t1…t5
	sltJoinRows   = 8  // rows of each j table
)

func (s *slt) intn(n int) int          { return s.r.IntN(n) }
func (s *slt) chance(pct int) bool     { return s.r.IntN(100) < pct }
func (s *slt) pick(xs []string) string { return xs[s.r.IntN(len(xs))] }

// val is a column value: small, so that equalities and correlations
// match, and NULL one time in eight.
func (s *slt) val() string {
	if s.chance(12) {
		return "NULL"
	}
	return fmt.Sprint(s.intn(20))
}

func (s *slt) schema() {
	for i := 1; i <= 5; i++ {
		s.both(fmt.Sprintf("CREATE TABLE t%d (a integer, b integer, c integer, d integer, e integer)", i), "")
		for range sltRows {
			s.both(fmt.Sprintf("INSERT INTO t%d VALUES (%s, %s, %s, %s, %s)", i, s.val(), s.val(), s.val(), s.val(), s.val()), "")
		}
	}
	for i := 1; i <= sltJoinTables; i++ {
		s.both(fmt.Sprintf("CREATE TABLE j%d (a integer, b integer)", i), "")
		s.jrows[i-1] = map[int]bool{}
		var vals []string
		for a := 1; a <= sltJoinRows; a++ {
			s.jrows[i-1][a] = true
			vals = append(vals, fmt.Sprintf("(%d, %d)", a, 1+s.intn(sltJoinRows)))
		}
		s.both(fmt.Sprintf("INSERT INTO j%d VALUES %s", i, strings.Join(vals, ", ")), "")
	}
	// PostgreSQL plans the long joins by its statistics.
	if _, err := s.pgRun("ANALYZE"); err != nil {
		s.t.Fatal(err)
	}
}

// ---- running statements ----

// pgRun runs sql on PostgreSQL; rows sorted as rowKey encodes them.
func (s *slt) pgRun(sql string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.conn.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		return nil, err
	}
	var rows []string
	if len(res) > 0 {
		for _, r := range res[len(res)-1].Rows {
			vals := make([]*string, len(r))
			for i, v := range r {
				if v != nil {
					x := string(v)
					vals[i] = &x
				}
			}
			rows = append(rows, rowKey(vals))
		}
	}
	slices.Sort(rows)
	return rows, nil
}

func (s *slt) dvRun(sql string) error {
	return s.sess.ExecScript(sql, func(engine.Result) error { return nil })
}

// both runs a statement on both systems (pgSQL on PostgreSQL when set),
// failing on an error of either.
func (s *slt) both(sql, pgSQL string) {
	s.t.Helper()
	if pgSQL == "" {
		pgSQL = sql
	}
	if _, err := s.pgRun(pgSQL); err != nil {
		s.t.Fatalf("postgres: %s: %v", pgSQL, err)
	}
	if err := s.dvRun(sql); err != nil {
		s.t.Fatalf("deltaview: %s: %v", sql, err)
	}
}

var sltNumbers = regexp.MustCompile(`\d+`)

// create makes q a view on both systems when PostgreSQL runs it; it
// counts the acceptance and records the refusals.
func (s *slt) create(name, q string) (sltView, bool) {
	if _, err := s.pgRun(q); err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) {
			s.t.Fatalf("postgres: %s: %v", q, err)
		}
		return sltView{}, false // PostgreSQL refuses it: not counted
	}
	s.pgAccepted++
	start := time.Now()
	err := s.dvRun("CREATE MATERIALIZED VIEW " + name + " AS " + q)
	took := time.Since(start)
	if took > s.slowest {
		s.slowest = took
	}
	if err != nil {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		msg = sltNumbers.ReplaceAllString(msg, "N")
		s.refused[msg]++
		s.refusedBy[msg] = append(s.refusedBy[msg], q)
		return sltView{}, false
	}
	if took > 5*time.Second {
		s.t.Errorf("creating a view took %v: %s", took, q)
	}
	s.accepted++
	if _, err := s.pgRun("CREATE VIEW " + name + " AS " + q); err != nil {
		s.t.Fatalf("postgres: CREATE VIEW %s: %v", q, err)
	}
	v := sltView{name: name, query: q}
	s.compare(v)
	return v, true
}

func (s *slt) compare(v sltView) {
	s.t.Helper()
	s.compared++
	want, err := s.pgRun("SELECT * FROM " + v.name)
	if err != nil {
		s.t.Fatalf("postgres: %s: %v", v.query, err)
	}
	_, rows, err := s.eng.ViewRows(v.name)
	if err != nil {
		s.t.Fatalf("ViewRows %s: %v", v.name, err)
	}
	if got := keys(rows); !slices.Equal(got, want) {
		s.t.Fatalf("view %s differs from PostgreSQL: %s\n%s", v.name, v.query, diffRows("deltaview", got, "postgres", want))
	}
}

// change applies one random transaction of a few inserts, updates and
// deletes to both systems.
func (s *slt) change() {
	var stmts []string
	for range 1 + s.intn(3) {
		if s.chance(50) {
			t := 1 + s.intn(5)
			col := s.pick([]string{"a", "b", "c", "d", "e"})
			switch r := s.intn(3); r {
			case 0:
				stmts = append(stmts, fmt.Sprintf("INSERT INTO t%d VALUES (%s, %s, %s, %s, %s)", t, s.val(), s.val(), s.val(), s.val(), s.val()))
			case 1:
				stmts = append(stmts, fmt.Sprintf("UPDATE t%d SET %s = %s WHERE %s", t, col, s.val(), s.pick([]string{"a < 5", "b = 3", "c > 15", "e IS NULL", "d BETWEEN 4 AND 9"})))
			default:
				stmts = append(stmts, fmt.Sprintf("DELETE FROM t%d WHERE %s = %d", t, col, s.intn(20)))
			}
			continue
		}
		j := s.intn(sltJoinTables)
		a := 1 + s.intn(sltJoinRows+2)
		switch {
		case !s.jrows[j][a]:
			s.jrows[j][a] = true
			stmts = append(stmts, fmt.Sprintf("INSERT INTO j%d VALUES (%d, %d)", j+1, a, 1+s.intn(sltJoinRows+2)))
		case s.chance(60):
			stmts = append(stmts, fmt.Sprintf("UPDATE j%d SET b = %d WHERE a = %d", j+1, 1+s.intn(sltJoinRows+2), a))
		default:
			delete(s.jrows[j], a)
			stmts = append(stmts, fmt.Sprintf("DELETE FROM j%d WHERE a = %d", j+1, a))
		}
	}
	s.both("BEGIN", "")
	for _, st := range stmts {
		s.both(st, "")
	}
	s.both("COMMIT", "")
}

// ---- queries ----

// query is one query of select1–4 over t1…t5, or of select5 over the
// j tables.
func (s *slt) query() string {
	switch r := s.intn(100); {
	case r < 45:
		return s.selectRows()
	case r < 65:
		return s.selectAgg()
	case r < 75:
		return s.selectJoinT()
	}
	return s.selectJoinJ()
}

var sltCols = []string{"a", "b", "c", "d", "e"}

// scalar is an integer expression over the columns of t1 (the outer
// table is always t1, qualified for the subqueries).
func (s *slt) scalar(depth int) string {
	c := func() string { return "t1." + s.pick(sltCols) }
	if depth <= 0 {
		if s.chance(25) {
			return fmt.Sprint(s.intn(20))
		}
		return c()
	}
	switch s.intn(14) {
	case 0:
		return fmt.Sprintf("%s + %s", s.scalar(depth-1), s.scalar(depth-1))
	case 1:
		return fmt.Sprintf("%s * 2 - %s", c(), c())
	case 2:
		return fmt.Sprintf("abs(%s - %s)", c(), c())
	case 3:
		return fmt.Sprintf("(%s + %s + %s) / 3", c(), c(), c())
	case 4:
		return fmt.Sprintf("coalesce(%s, %s, %d)", c(), c(), s.intn(20))
	case 5:
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", s.cond(depth-1), s.scalar(depth-1), s.scalar(depth-1))
	case 6:
		return fmt.Sprintf("CASE %s + 1 WHEN %s THEN 111 WHEN %s THEN 222 ELSE 333 END", c(), c(), c())
	case 7:
		return fmt.Sprintf("CASE WHEN %s > (SELECT avg(x.%s) FROM t1 AS x) THEN %s * 2 ELSE %s * 10 END", c(), s.pick(sltCols), c(), c())
	case 8:
		return s.scalarSub()
	case 9:
		return fmt.Sprintf("CASE WHEN EXISTS (SELECT 1 FROM t%d AS x WHERE %s) THEN %s ELSE %s END", 1+s.intn(5), s.correlation(), c(), c())
	case 10:
		return fmt.Sprintf("%s - %s", c(), s.scalarSub())
	case 11:
		return fmt.Sprintf("(SELECT count(*) FROM t1 AS x WHERE x.%s > t1.%s AND x.%s < t1.%s)", s.pick(sltCols), s.pick(sltCols), s.pick(sltCols), s.pick(sltCols))
	case 12:
		return fmt.Sprintf("CASE WHEN %s < %s - 3 THEN 111 WHEN %s <= %s THEN 222 WHEN %s < %s + 3 THEN 333 ELSE 444 END", c(), c(), c(), c(), c(), c())
	}
	return c()
}

// correlation is a subquery's condition on its table x and the outer t1.
func (s *slt) correlation() string {
	col := func() string { return s.pick(sltCols) }
	switch s.intn(7) {
	case 0:
		return fmt.Sprintf("x.%s < t1.%s", col(), col())
	case 1:
		return fmt.Sprintf("x.%s > t1.%s", col(), col())
	case 2:
		return fmt.Sprintf("x.%s = t1.%s", col(), col())
	case 3:
		return fmt.Sprintf("x.%s = t1.%s + 1", col(), col())
	case 4:
		return fmt.Sprintf("x.%s > t1.%s AND x.%s < t1.%s", col(), col(), col(), col())
	case 5:
		return fmt.Sprintf("x.%s + x.%s < t1.%s * 2", col(), col(), col())
	}
	return fmt.Sprintf("x.%s = t1.%s AND x.%s <> t1.%s", col(), col(), col(), col())
}

func (s *slt) scalarSub() string {
	agg := s.pick([]string{"count(*)", "max(x.%s)", "min(x.%s)", "sum(x.%s)", "count(x.%s)"})
	if strings.Contains(agg, "%s") {
		agg = fmt.Sprintf(agg, s.pick(sltCols))
	}
	return fmt.Sprintf("(SELECT %s FROM t%d AS x WHERE %s)", agg, 1+s.intn(5), s.correlation())
}

// cond is a condition over t1's columns.
func (s *slt) cond(depth int) string {
	c := func() string { return "t1." + s.pick(sltCols) }
	switch r := s.intn(17); {
	case depth > 0 && r < 2:
		return fmt.Sprintf("(%s AND %s)", s.cond(depth-1), s.cond(depth-1))
	case depth > 0 && r < 4:
		return fmt.Sprintf("(%s OR %s)", s.cond(depth-1), s.cond(depth-1))
	case r == 4:
		return fmt.Sprintf("%s BETWEEN %s - 2 AND %s + 2", c(), c(), c())
	case r == 5:
		return fmt.Sprintf("%s NOT BETWEEN %d AND %d", c(), s.intn(10), 10+s.intn(10))
	case r == 6:
		return fmt.Sprintf("%s IS NULL", c())
	case r == 7:
		return fmt.Sprintf("%s IN (%d, %d, %d)", c(), s.intn(20), s.intn(20), s.intn(20))
	case r == 8:
		return fmt.Sprintf("%s NOT IN (%d, %d)", c(), s.intn(20), s.intn(20))
	case r == 9:
		return fmt.Sprintf("%s IN (SELECT x.%s FROM t%d AS x WHERE x.%s > %d)", c(), s.pick(sltCols), 1+s.intn(5), s.pick(sltCols), s.intn(20))
	case r == 10:
		return fmt.Sprintf("EXISTS (SELECT 1 FROM t%d AS x WHERE %s)", 1+s.intn(5), s.correlation())
	case r == 11:
		return fmt.Sprintf("(%s > %s OR EXISTS (SELECT 1 FROM t%d AS x WHERE %s))", c(), c(), 1+s.intn(5), s.correlation())
	case r == 12:
		return fmt.Sprintf("%s > %s", c(), s.scalarSub())
	case r == 13:
		return fmt.Sprintf("NOT EXISTS (SELECT 1 FROM t%d AS x WHERE %s)", 1+s.intn(5), s.correlation())
	case r == 14:
		return s.hardCond()
	}
	return fmt.Sprintf("%s %s %s", c(), s.pick([]string{"<", ">", "=", "<>", "<=", ">="}), s.scalar(0))
}

// selectRows is select1–4's row query over t1.
func (s *slt) selectRows() string {
	var items []string
	for range 1 + s.intn(4) {
		items = append(items, s.scalar(2))
	}
	q := "SELECT " + aliased(items) + " FROM t1"
	if s.chance(70) {
		var conds []string
		for range 1 + s.intn(3) {
			conds = append(conds, s.cond(1))
		}
		q += " WHERE " + strings.Join(conds, s.pick([]string{" AND ", " AND ", " OR "}))
	}
	if s.chance(10) {
		q = strings.Replace(q, "SELECT ", "SELECT DISTINCT ", 1)
	} else if s.chance(10) {
		// Ordered by a subquery first, then by every output column: the
		// rows kept are the same whatever order ties take.
		keys := []string{s.scalarSub() + " NULLS FIRST"}
		for i := range items {
			keys = append(keys, fmt.Sprint(i+1))
		}
		q += fmt.Sprintf(" ORDER BY %s LIMIT %d", strings.Join(keys, ", "), 1+s.intn(6))
	}
	return q
}

// selectAgg aggregates t1, grouped or not, with HAVING sometimes.
func (s *slt) selectAgg() string {
	aggs := func() []string {
		var out []string
		for range 1 + s.intn(3) {
			f := s.pick([]string{"count(*)", "count(t1.%s)", "sum(t1.%s)", "min(t1.%s)", "max(t1.%s)", "sum(t1.%s + t1.%s)", "count(DISTINCT t1.%s)"})
			for strings.Contains(f, "%s") {
				f = strings.Replace(f, "%s", s.pick(sltCols), 1)
			}
			out = append(out, f)
		}
		return out
	}
	where := ""
	if s.chance(50) {
		where = " WHERE " + s.cond(1)
	}
	if s.chance(35) {
		return "SELECT " + aliased(aggs()) + " FROM t1" + where
	}
	key := s.pick([]string{"t1.a", "t1.b", "t1.c % 3", "t1.d / 5", "t1.a + t1.b", "sub"})
	if key == "sub" {
		// A subquery as the group key, written again in the select list.
		key = s.scalarSub()
	}
	q := "SELECT " + aliased(append([]string{key}, aggs()...)) + " FROM t1" + where + " GROUP BY " + key
	if s.chance(50) {
		q += " HAVING " + s.pick([]string{"count(*) > 1", "max(t1.e) > 8", "sum(t1.b) < 40", "min(t1.c) IS NOT NULL", "count(*) > (SELECT count(*) FROM t2) / 10",
			"max(t1.e) > (SELECT avg(x.e) FROM t2 AS x)", "EXISTS (SELECT 1 FROM t3 AS x WHERE x.a = max(t1.b))"})
	}
	if s.chance(20) && !strings.Contains(key, " ") && !strings.Contains(key, "(") {
		q = strings.Replace(q, " FROM t1", fmt.Sprintf(", (SELECT max(x.a) FROM t2 AS x WHERE x.b = %s) AS sub FROM t1", key), 1)
	}
	return q
}

// selectJoinT joins two or three of t1…t5 in FROM in random order.
func (s *slt) selectJoinT() string {
	n := 2 + s.intn(2)
	tabs := s.r.Perm(5)[:n]
	var conds []string
	for i := 1; i < n; i++ {
		p := tabs[s.intn(i)]
		conds = append(conds, fmt.Sprintf("t%d.%s = t%d.%s", tabs[i]+1, s.pick(sltCols), p+1, s.pick(sltCols)))
	}
	if s.chance(40) {
		conds = append(conds, fmt.Sprintf("t%d.%s > %d", tabs[s.intn(n)]+1, s.pick(sltCols), s.intn(15)))
	}
	var names, items []string
	for _, t := range tabs {
		names = append(names, fmt.Sprintf("t%d", t+1))
		items = append(items, fmt.Sprintf("t%d.%s", t+1, s.pick(sltCols)))
	}
	s.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	s.r.Shuffle(len(conds), func(i, j int) { conds[i], conds[j] = conds[j], conds[i] })
	if s.chance(25) {
		return s.joinOn(tabs[0]+1, tabs[1]+1)
	}
	if s.chance(30) {
		return "SELECT count(*), max(" + items[0] + ") FROM " + strings.Join(names, ", ") + " WHERE " + strings.Join(conds, " AND ")
	}
	return "SELECT " + aliased(items) + " FROM " + strings.Join(names, ", ") + " WHERE " + strings.Join(conds, " AND ")
}

// selectJoinJ joins 2 to 60 of the j tables, listed in random order: a
// chain, a star, or a random tree, with equalities written in random
// order and direction, some by way of a shared column (x.a = y.b AND y.b
// = z.b).
func (s *slt) selectJoinJ() string {
	var n int
	switch r := s.intn(10); {
	case r < 4:
		n = 2 + s.intn(6)
	case r < 7:
		n = 8 + s.intn(20)
	default:
		n = 28 + s.intn(33)
	}
	tabs := s.r.Perm(sltJoinTables)[:n]
	name := func(i int) string { return fmt.Sprintf("j%d", tabs[i]+1) }
	shape := s.intn(3)
	var conds []string
	for i := 1; i < n; i++ {
		var p int
		switch shape {
		case 0:
			p = i - 1 // chain
		case 1:
			p = 0 // star
		default:
			p = s.intn(i)
		}
		l, r := name(i)+".b", name(p)+".a"
		if shape == 1 {
			l, r = name(i)+".a", name(p)+".a"
			if i > 1 && s.chance(50) {
				// By way of the previous spoke: equal columns form a class.
				r = name(i-1) + ".a"
			}
		}
		if s.chance(50) {
			l, r = r, l
		}
		conds = append(conds, l+" = "+r)
	}
	if s.chance(50) {
		conds = append(conds, fmt.Sprintf("%s.b < %d", name(s.intn(n)), 3+s.intn(6)))
	}
	var names []string
	for i := range n {
		names = append(names, name(i))
	}
	s.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	s.r.Shuffle(len(conds), func(i, j int) { conds[i], conds[j] = conds[j], conds[i] })
	items := []string{name(0) + ".a AS a", name(n-1) + ".b AS b"}
	if s.chance(30) {
		items = []string{"count(*)", "sum(" + name(n/2) + ".b)"}
	}
	return "SELECT " + strings.Join(items, ", ") + " FROM " + strings.Join(names, ", ") + " WHERE " + strings.Join(conds, " AND ")
}

// aliased names the select list's items c1, c2, … : a view's columns must
// have distinct names, where sqllogictest's queries repeat them.
func aliased(items []string) string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = fmt.Sprintf("%s AS c%d", it, i+1)
	}
	return strings.Join(out, ", ")
}

// hardCond is a condition of the rarer shapes: IN and NOT IN subqueries
// under OR, over grouped subqueries, subqueries nested two deep (the inner
// one correlated to the outer query), EXISTS compared in CASE.
func (s *slt) hardCond() string {
	col := func() string { return s.pick(sltCols) }
	t := func() int { return 1 + s.intn(5) }
	switch s.intn(10) {
	case 7, 8:
		return s.quantified()
	case 9:
		return fmt.Sprintf("CASE WHEN %s THEN 1 WHEN NOT %s THEN 0 END = %d", s.quantified(), s.quantified(), s.intn(2))
	case 0:
		return fmt.Sprintf("(t1.%s > %d OR t1.%s IN (SELECT x.%s FROM t%d AS x WHERE x.%s < t1.%s))", col(), s.intn(20), col(), col(), t(), col(), col())
	case 1:
		return fmt.Sprintf("t1.%s NOT IN (SELECT x.%s FROM t%d AS x WHERE x.%s IS NOT NULL)", col(), col(), t(), col())
	case 2:
		return fmt.Sprintf("t1.%s IN (SELECT x.%s FROM t%d AS x GROUP BY x.%s HAVING count(*) > 1)", col(), col(), t(), col())
	case 3:
		return fmt.Sprintf("EXISTS (SELECT 1 FROM t%d AS x WHERE x.%s < t1.%s AND x.%s > (SELECT avg(y.%s) FROM t%d AS y WHERE y.%s = t1.%s))", t(), col(), col(), col(), col(), t(), col(), col())
	case 4:
		return fmt.Sprintf("CASE WHEN EXISTS (SELECT 1 FROM t%d AS x WHERE %s) THEN t1.%s ELSE t1.%s END > %d", t(), s.correlation(), col(), col(), s.intn(20))
	case 5:
		return fmt.Sprintf("t1.%s > (SELECT max(x.%s) FROM t%d AS x WHERE x.%s < (SELECT min(y.%s) FROM t%d AS y WHERE y.%s > t1.%s))", col(), col(), t(), col(), col(), t(), col(), col())
	}
	return fmt.Sprintf("(NOT EXISTS (SELECT 1 FROM t%d AS x WHERE %s) OR t1.%s IS NULL)", t(), s.correlation(), col())
}

// quantified is t1.col op ANY / op ALL (subquery), any comparison,
// correlated or not, over a column that may hold NULLs, sometimes under
// NOT.
func (s *slt) quantified() string {
	col := func() string { return s.pick(sltCols) }
	where := ""
	switch s.intn(4) {
	case 0:
		where = " WHERE " + s.correlation()
	case 1:
		where = fmt.Sprintf(" WHERE x.%s > %d", col(), s.intn(20))
	case 2:
		where = " WHERE x.a IS NOT NULL AND x.b IS NOT NULL AND x.c IS NOT NULL AND x.d IS NOT NULL AND x.e IS NOT NULL"
	}
	q := fmt.Sprintf("t1.%s %s %s (SELECT x.%s FROM t%d AS x%s)", col(), s.pick([]string{"<", "<=", ">", ">=", "=", "<>"}),
		s.pick([]string{"ANY", "ALL", "SOME"}), col(), 1+s.intn(5), where)
	if s.chance(25) {
		return "NOT (" + q + ")"
	}
	return q
}

// joinOn joins tl and tr with JOIN … ON (inner or outer) whose condition
// holds a subquery reading one side, the other or both.
func (s *slt) joinOn(tl, tr int) string {
	col := func() string { return s.pick(sltCols) }
	l, r := fmt.Sprintf("t%d", tl), fmt.Sprintf("t%d", tr)
	if tl == tr {
		r = "r"
	}
	var sub string
	switch s.intn(5) {
	case 0:
		sub = fmt.Sprintf("%s.%s < (SELECT max(x.%s) FROM t%d AS x WHERE x.%s = %s.%s)", r, col(), col(), 1+s.intn(5), col(), l, col())
	case 1:
		sub = fmt.Sprintf("EXISTS (SELECT 1 FROM t%d AS x WHERE x.%s > %s.%s AND x.%s < %s.%s)", 1+s.intn(5), col(), l, col(), col(), r, col())
	case 2:
		sub = fmt.Sprintf("%s.%s IN (SELECT x.%s FROM t%d AS x WHERE x.%s > %d)", r, col(), col(), 1+s.intn(5), col(), s.intn(20))
	case 3:
		sub = fmt.Sprintf("%s.%s %s ALL (SELECT x.%s FROM t%d AS x WHERE x.%s = %s.%s)", l, col(), s.pick([]string{"<", ">=", "<>"}), col(), 1+s.intn(5), col(), r, col())
	default:
		sub = fmt.Sprintf("%s.%s = (SELECT min(x.%s) FROM t%d AS x)", l, col(), col(), 1+s.intn(5))
	}
	on := fmt.Sprintf("%s.%s = %s.%s AND %s", l, col(), r, col(), sub)
	kinds := []string{"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}
	if s.chance(30) {
		// PostgreSQL runs a FULL JOIN only with an equality of the sides.
		on, kinds = sub, kinds[:3]
	}
	from := l + " " + s.pick(kinds) + " t" + fmt.Sprint(tr)
	if r == "r" {
		from += " AS r"
	}
	items := []string{l + "." + col(), r + "." + col(), r + "." + col()}
	return "SELECT " + aliased(items) + " FROM " + from + " ON " + on
}
