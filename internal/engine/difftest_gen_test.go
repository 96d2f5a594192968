package engine_test

import (
	"fmt"
	"strconv"
	"strings"

	"pgregory.net/rapid"
)

// The generators of the differential test (difftest_test.go): random
// schemas, views and DML over the supported SQL subset, written as SQL text
// that deltaview and PostgreSQL both accept and must answer alike.
//
// Value domains are small so that filters match often and equal rows
// repeat. Expressions in views never raise an error on any data the DML
// can produce (no unguarded division, no overflow, no failing cast):
// PostgreSQL evaluates a plain view when it is read, deltaview when a
// transaction commits, so an error would surface at different statements.

// kind is the category of a generated expression's type; the exact type
// (smallint or bigint, real or double precision, …) is left to both
// systems' type resolution.
type kind uint8

const (
	kInt kind = iota
	kNum
	kFloat
	kText
	kBool
	kDate
	kTS
	numKinds
)

// dcol is a column of a generated table or view, as its SQL name.
type dcol struct {
	name    string
	typ     string // type as declared in CREATE TABLE
	k       kind
	notNull bool
	maxLen  int // varchar(n): n; 0 when unbounded
	scale   int // numeric(p,s): s
	def     string
	dom     []string // when set, the literals valueLit picks from
}

type dtable struct {
	name string
	cols []dcol // with a primary key, cols[0] is id
	pk   bool
}

type dview struct {
	name string
	cols []dcol
}

type gen struct {
	t      *rapid.T
	tables []*dtable
	views  []*dview
	seq    int // names of subquery aliases and CTEs
	nextID int // fresh primary key values
}

// intn draws from [0, n) about uniformly (rapid's IntRange favours small
// values strongly); shrinking still moves toward 0, the first choice.
func (g *gen) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(rapid.Uint64().Draw(g.t, "n") % uint64(n))
}

// chance is true with probability pct%; a shrunk draw makes it false.
func (g *gen) chance(pct int) bool { return g.intn(100) >= 100-pct }

func pick[T any](g *gen, xs []T) T { return xs[g.intn(len(xs))] }

func (g *gen) name(prefix string) string {
	g.seq++
	return prefix + strconv.Itoa(g.seq)
}

// ---- schema ----

func (g *gen) table(i int) *dtable {
	t := &dtable{name: fmt.Sprintf("t%d", i), pk: g.chance(60)}
	if t.pk {
		typ := pick(g, []string{"integer", "bigint"})
		t.cols = append(t.cols, dcol{name: "id", typ: typ, k: kInt, notNull: true})
	}
	n := 2 + g.intn(4)
	for j := 0; j < n; j++ {
		t.cols = append(t.cols, g.column(string(rune('a'+j))))
	}
	return t
}

func (g *gen) column(name string) dcol {
	c := dcol{name: name, k: kind(g.intn(int(numKinds)))}
	switch c.k {
	case kInt:
		c.typ = pick(g, []string{"smallint", "integer", "bigint"})
	case kNum:
		ps := pick(g, [][2]int{{6, 2}, {8, 3}, {5, 1}, {7, 0}})
		c.typ, c.scale = fmt.Sprintf("numeric(%d,%d)", ps[0], ps[1]), ps[1]
	case kFloat:
		c.typ = pick(g, []string{"double precision", "real", "float8"})
	case kText:
		if g.chance(50) {
			c.maxLen = 3 + g.intn(4)
			c.typ = fmt.Sprintf("varchar(%d)", c.maxLen)
		} else {
			c.typ = "text"
		}
	case kBool:
		c.typ = "boolean"
	case kDate:
		c.typ = "date"
	case kTS:
		c.typ = "timestamp"
	}
	c.notNull = g.chance(20)
	if g.chance(20) {
		c.def = g.valueLit(c)
	}
	return c
}

func (t *dtable) ddl(g *gen) string {
	var parts []string
	for i, c := range t.cols {
		s := c.name + " " + c.typ
		if t.pk && i == 0 {
			s += " PRIMARY KEY"
		} else if c.notNull {
			s += " NOT NULL"
		}
		if c.def != "" {
			s += " DEFAULT " + c.def
		}
		parts = append(parts, s)
	}
	for _, c := range t.cols[1:] {
		if c.k == kInt && g.chance(30) {
			parts = append(parts, fmt.Sprintf("CHECK (%s >= -5)", c.name))
			break
		}
	}
	return fmt.Sprintf("CREATE TABLE %s (%s)", t.name, strings.Join(parts, ", "))
}

// ---- literals ----

var (
	textValues = []string{"a", "b", "ab", "ba", "A", "abc", "", " a", "b ", "x%y", "a_b", "B"}
	likePats   = []string{"a%", "%b", "_", "a_%", "%", "%a%", "A%", "b_", "", "x\\%y"}
)

// quarter returns n/4 for a small n, as a decimal literal: exactly
// representable in binary floating point.
func (g *gen) quarter() string {
	n := g.intn(33) - 12
	return strconv.FormatFloat(float64(n)/4, 'f', -1, 64)
}

func (g *gen) eighth() string {
	n := g.intn(65) - 24
	return strconv.FormatFloat(float64(n)/8, 'f', -1, 64)
}

func paren(s string) string {
	if strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

// valueLit is a literal to store in column c (never NULL).
func (g *gen) valueLit(c dcol) string {
	if len(c.dom) > 0 {
		return pick(g, c.dom)
	}
	switch c.k {
	case kInt:
		return paren(strconv.Itoa(g.intn(10) - 3))
	case kNum:
		// Eighths round to the column's scale on the way in.
		return paren(g.eighth())
	case kFloat:
		return paren(g.quarter())
	case kText:
		for {
			s := pick(g, textValues)
			if c.maxLen == 0 || len(s) <= c.maxLen {
				return quote(s)
			}
		}
	case kBool:
		return pick(g, []string{"true", "false"})
	case kDate:
		return quote(pick(g, []string{"2024-01-01", "2024-01-02", "2024-01-03", "2023-12-31", "2024-02-29"}))
	case kTS:
		return quote(pick(g, []string{"2024-01-01 00:00:00", "2024-01-01 10:30:00", "2024-01-02 10:30:00.5", "2023-12-31 23:59:59", "2024-01-01 00:00:00.25"}))
	}
	panic("unreachable")
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// lit is a typed literal of kind k for use in an expression.
func (g *gen) lit(k kind) string {
	switch k {
	case kInt:
		return paren(strconv.Itoa(g.intn(10) - 3))
	case kNum:
		// With a decimal point: 3 would be an integer.
		return paren(pick(g, []string{"0.0", "1.5", "2.25", "-0.5", "3.0", "0.125", "1.50", "10.00"}))
	case kFloat:
		return fmt.Sprintf("CAST(%s AS %s)", g.quarter(), pick(g, []string{"double precision", "real", "float8"}))
	case kText:
		return quote(pick(g, textValues))
	case kBool:
		return pick(g, []string{"true", "false"})
	case kDate:
		return "DATE " + g.valueLit(dcol{k: kDate})
	case kTS:
		return "TIMESTAMP " + g.valueLit(dcol{k: kTS})
	}
	panic("unreachable")
}

func sqlType(k kind) string {
	return [...]string{"integer", "numeric", "double precision", "text", "boolean", "date", "timestamp"}[k]
}

// ---- expressions ----

func colsOf(sc []dcol, k kind) []dcol {
	var out []dcol
	for _, c := range sc {
		if c.k == k {
			out = append(out, c)
		}
	}
	return out
}

// leaf is a column of kind k from sc, a literal, or rarely a typed NULL.
func (g *gen) leaf(sc []dcol, k kind) string {
	cs := colsOf(sc, k)
	switch {
	case len(cs) > 0 && g.chance(70):
		return pick(g, cs).name
	case g.chance(8):
		return "CAST(NULL AS " + sqlType(k) + ")"
	}
	return g.lit(k)
}

// expr is an expression of kind k over the columns sc, at most d levels
// deep. It raises no error on any data.
func (g *gen) expr(sc []dcol, k kind, d int) string {
	if d <= 0 || g.chance(30) {
		return g.leaf(sc, k)
	}
	e := func(k kind) string { return g.expr(sc, k, d-1) }
	// Forms common to every kind.
	switch g.intn(12) {
	case 0:
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", e(kBool), e(k), e(k))
	case 1:
		if g.chance(50) {
			return fmt.Sprintf("CASE WHEN %s THEN %s END", e(kBool), e(k))
		}
		return fmt.Sprintf("CASE %s WHEN %s THEN %s WHEN %s THEN %s ELSE %s END", e(k), g.lit(k), e(k), g.lit(k), e(k), e(k))
	case 2:
		return fmt.Sprintf("COALESCE(%s, %s)", e(k), e(k))
	case 3:
		if k != kBool {
			return fmt.Sprintf("%s(%s, %s)", pick(g, []string{"greatest", "least"}), e(k), e(k))
		}
	case 4:
		if k != kBool {
			return fmt.Sprintf("NULLIF(%s, %s)", e(k), g.lit(k))
		}
	}
	switch k {
	case kInt:
		switch g.intn(16) {
		case 0, 1:
			return fmt.Sprintf("(%s + %s)", e(kInt), e(kInt))
		case 2:
			return fmt.Sprintf("(%s - %s)", e(kInt), e(kInt))
		case 3:
			return fmt.Sprintf("(%s * %s)", e(kInt), pick(g, []string{"2", "3", "(-1)"}))
		case 4:
			// Widened first: smallint * smallint overflows soon.
			return fmt.Sprintf("(CAST(%s AS bigint) * %s)", e(kInt), g.leaf(sc, kInt))
		case 5:
			return fmt.Sprintf("(- %s)", e(kInt))
		case 6:
			return fmt.Sprintf("abs(%s)", e(kInt))
		case 7:
			return fmt.Sprintf("mod(%s, %s)", e(kInt), pick(g, []string{"2", "3", "(-2)"}))
		case 8:
			return fmt.Sprintf("(%s / %s)", e(kInt), pick(g, []string{"2", "3", "(-2)"}))
		case 9:
			return fmt.Sprintf("(%s / NULLIF(%s, 0))", e(kInt), e(kInt))
		case 10:
			return fmt.Sprintf("length(%s)", e(kText))
		case 11:
			return fmt.Sprintf("CAST(%s AS integer)", e(kNum))
		case 12:
			return fmt.Sprintf("CAST(%s AS bigint)", e(kFloat))
		case 13:
			return fmt.Sprintf("(%s - %s)", e(kDate), e(kDate))
		case 14:
			return fmt.Sprintf("CAST(%s AS smallint)", g.leaf(sc, kInt))
		}
		return fmt.Sprintf("%s(%s, 2)", pick(g, []string{"mod", "greatest", "least"}), e(kInt))
	case kNum:
		switch g.intn(14) {
		case 0:
			return fmt.Sprintf("(%s + %s)", e(kNum), e(pick(g, []kind{kNum, kInt})))
		case 1:
			return fmt.Sprintf("(%s - %s)", e(pick(g, []kind{kNum, kInt})), e(kNum))
		case 2:
			return fmt.Sprintf("(%s * %s)", e(kNum), pick(g, []string{"2", "1.5", "(-0.25)", "0.1"}))
		case 3:
			return fmt.Sprintf("(- %s)", e(kNum))
		case 4:
			return fmt.Sprintf("abs(%s)", e(kNum))
		case 5:
			return fmt.Sprintf("round(%s, %d)", e(kNum), g.intn(4)-1)
		case 6:
			return fmt.Sprintf("round(%s)", e(kNum))
		case 7:
			return fmt.Sprintf("trunc(%s, %d)", e(kNum), g.intn(3))
		case 8:
			return fmt.Sprintf("(%s / %s)", e(kNum), pick(g, []string{"3", "2", "(-4)", "0.5", "7"}))
		case 9:
			return fmt.Sprintf("CAST(%s AS numeric)", e(kInt))
		case 10:
			return fmt.Sprintf("CAST(%s AS numeric(12,%d))", e(pick(g, []kind{kNum, kInt, kFloat})), g.intn(4))
		case 11:
			return fmt.Sprintf("mod(%s, %s)", e(kNum), pick(g, []string{"1.5", "2", "0.25"}))
		case 12:
			return fmt.Sprintf("(%s * %s)", e(kNum), g.leaf(sc, kNum))
		}
		return fmt.Sprintf("trunc(%s)", e(kNum))
	case kFloat:
		// Float expressions stay exact: quarters added, multiplied by
		// quarters and halved keep few significant bits, so both systems
		// print the same shortest text. Division by a column, or by 3,
		// would round, and PostgreSQL and Go round alike only in theory.
		switch g.intn(12) {
		case 0:
			return fmt.Sprintf("(%s + %s)", e(kFloat), e(pick(g, []kind{kFloat, kInt})))
		case 1:
			return fmt.Sprintf("(%s - %s)", e(kFloat), e(kFloat))
		case 2:
			return fmt.Sprintf("(%s * %s)", e(kFloat), pick(g, []string{"2", "0.5", "(-1.5)", "CAST(0.25 AS real)"}))
		case 3:
			return fmt.Sprintf("(- %s)", e(kFloat))
		case 4:
			return fmt.Sprintf("abs(%s)", e(kFloat))
		case 5:
			return fmt.Sprintf("round(%s)", e(kFloat))
		case 6:
			return fmt.Sprintf("trunc(%s)", e(kFloat))
		case 7:
			return fmt.Sprintf("(%s / %s)", e(kFloat), pick(g, []string{"2", "4", "(-0.5)"}))
		case 8:
			return fmt.Sprintf("CAST(%s AS double precision)", e(pick(g, []kind{kInt, kFloat})))
		case 9:
			return fmt.Sprintf("CAST(%s AS real)", e(pick(g, []kind{kInt, kFloat})))
		case 10:
			return fmt.Sprintf("(%s * %s)", e(kFloat), g.leaf(sc, kFloat))
		}
		return fmt.Sprintf("CAST(%s AS double precision)", e(kNum))
	case kText:
		switch g.intn(14) {
		case 0, 1:
			return fmt.Sprintf("(%s || %s)", e(kText), e(kText))
		case 2:
			return fmt.Sprintf("lower(%s)", e(kText))
		case 3:
			return fmt.Sprintf("upper(%s)", e(kText))
		case 4:
			return fmt.Sprintf("substr(%s, %d, %d)", e(kText), g.intn(4), g.intn(4))
		case 5:
			return fmt.Sprintf("substr(%s, %d)", e(kText), g.intn(4))
		case 6:
			return fmt.Sprintf("trim(%s)", e(kText))
		case 7:
			return fmt.Sprintf("replace(%s, %s, %s)", e(kText), quote(pick(g, []string{"a", "b", "ab", ""})), quote(pick(g, []string{"x", "", "yy"})))
		case 8:
			return fmt.Sprintf("CAST(%s AS text)", e(pick(g, []kind{kInt, kNum, kFloat, kDate, kTS, kBool})))
		case 9:
			return fmt.Sprintf("(%s || %s)", e(kText), e(pick(g, []kind{kInt, kNum, kDate})))
		case 10:
			return fmt.Sprintf("CAST(%s AS varchar(2))", e(kText))
		case 11:
			return fmt.Sprintf("%s(%s)", pick(g, []string{"lower", "upper", "trim"}), g.leaf(sc, kText))
		}
		return fmt.Sprintf("(%s || %s)", g.leaf(sc, kText), g.lit(kText))
	case kBool:
		return g.pred(sc, d)
	case kDate:
		switch g.intn(4) {
		case 0:
			return fmt.Sprintf("(%s + CAST(%s AS integer))", e(kDate), g.leaf(sc, kInt))
		case 1:
			return fmt.Sprintf("(%s - %s)", e(kDate), pick(g, []string{"1", "2", "(-3)"}))
		case 2:
			return fmt.Sprintf("CAST(%s AS date)", e(kTS))
		}
		return fmt.Sprintf("(%s + 1)", e(kDate))
	case kTS:
		if g.chance(50) {
			return fmt.Sprintf("CAST(%s AS timestamp)", e(kDate))
		}
		return e(kTS)
	}
	panic("unreachable")
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">=", "!="}

// pred is a boolean expression over sc.
func (g *gen) pred(sc []dcol, d int) string {
	if d <= 0 {
		if cs := colsOf(sc, kBool); len(cs) > 0 && g.chance(30) {
			return pick(g, cs).name
		}
		k := g.cmpKind(sc)
		return fmt.Sprintf("(%s %s %s)", g.leaf(sc, k), pick(g, cmpOps), g.leaf(sc, k))
	}
	e := func(k kind) string { return g.expr(sc, k, d-1) }
	k := g.cmpKind(sc)
	switch g.intn(16) {
	case 0, 1, 2:
		l, r := k, k
		switch {
		case k == kInt && g.chance(20):
			r = kNum
		case k == kDate && g.chance(30):
			r = kTS
		case k == kFloat && g.chance(30):
			r = kInt
		}
		return fmt.Sprintf("(%s %s %s)", e(l), pick(g, cmpOps), e(r))
	case 3:
		return fmt.Sprintf("(%s AND %s)", g.pred(sc, d-1), g.pred(sc, d-1))
	case 4:
		return fmt.Sprintf("(%s OR %s)", g.pred(sc, d-1), g.pred(sc, d-1))
	case 5:
		return fmt.Sprintf("(NOT %s)", g.pred(sc, d-1))
	case 6:
		return fmt.Sprintf("(%s IS %sNULL)", e(k), pick(g, []string{"", "NOT "}))
	case 7:
		return fmt.Sprintf("(%s IS %sDISTINCT FROM %s)", e(k), pick(g, []string{"", "NOT "}), e(k))
	case 8:
		return fmt.Sprintf("(%s %sBETWEEN %s AND %s)", e(k), pick(g, []string{"", "NOT "}), g.leaf(sc, k), g.leaf(sc, k))
	case 9:
		n := 1 + g.intn(3)
		items := make([]string, n)
		for i := range items {
			items[i] = g.lit(k)
			if g.chance(10) {
				items[i] = "NULL"
			}
		}
		return fmt.Sprintf("(%s %sIN (%s))", e(k), pick(g, []string{"", "NOT "}), strings.Join(items, ", "))
	case 10:
		op := pick(g, []string{"LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE"})
		return fmt.Sprintf("(%s %s %s)", e(kText), op, quote(pick(g, likePats)))
	case 11:
		return fmt.Sprintf("(%s = %s)", e(kBool), e(kBool))
	case 12:
		if cs := colsOf(sc, kBool); len(cs) > 0 {
			return pick(g, cs).name
		}
	}
	return fmt.Sprintf("(%s %s %s)", e(k), pick(g, cmpOps), g.leaf(sc, k))
}

// cmpKind picks a kind to compare, preferring those sc has columns of.
func (g *gen) cmpKind(sc []dcol) kind {
	if len(sc) > 0 && g.chance(80) {
		if c := pick(g, sc); c.k != kBool {
			return c.k
		}
	}
	return pick(g, []kind{kInt, kNum, kFloat, kText, kDate, kTS})
}

// ---- queries ----

// source is a FROM item: a table, a materialized view, or a subquery.
func (g *gen) source(d int) (string, []dcol) {
	r := g.intn(100)
	switch {
	case r < 25 && len(g.views) > 0:
		v := pick(g, g.views)
		return v.name, v.cols
	case r < 60 && d > 0:
		q, cols := g.query(d-1, nil, false)
		return "(" + q + ") AS " + g.name("s"), cols
	case r < 70:
		if q, cols := g.joinOn(); q != "" {
			return q, cols
		}
	}
	t := pick(g, g.tables)
	return t.name, t.cols
}

// query is a query whose columns have kinds (any, when nil). With dedup,
// the query's output goes through DISTINCT or UNION: values that compare
// equal but print differently (1.5 and 1.50, -0 and 0) are then
// normalised, since PostgreSQL keeps an arbitrary one of them.
func (g *gen) query(d int, kinds []kind, dedup bool) (string, []dcol) {
	r := g.intn(100)
	switch {
	case d > 0 && r < 20:
		all := g.chance(50)
		l, cols := g.simple(d-1, kinds, dedup || !all)
		ks := make([]kind, len(cols))
		for i, c := range cols {
			ks[i] = c.k
		}
		rq, _ := g.simple(d-1, ks, dedup || !all)
		op := " UNION "
		if all {
			op = " UNION ALL "
		}
		return l + op + rq, cols
	case d > 0 && r < 35:
		w := g.name("w")
		inner, icols := g.query(d-1, nil, false)
		q, cols := g.simpleFrom(w, icols, kinds, dedup)
		return fmt.Sprintf("WITH %s AS (%s) %s", w, inner, q), cols
	}
	return g.simple(d, kinds, dedup)
}

func (g *gen) simple(d int, kinds []kind, dedup bool) (string, []dcol) {
	src, sc := g.source(d)
	return g.simpleFrom(src, sc, kinds, dedup)
}

func (g *gen) simpleFrom(src string, sc []dcol, kinds []kind, dedup bool) (string, []dcol) {
	distinct := g.chance(20)
	dedup = dedup || distinct
	var b strings.Builder
	b.WriteString("SELECT ")
	if distinct {
		b.WriteString("DISTINCT ")
	}
	var cols []dcol
	if kinds == nil && !dedup && g.chance(15) {
		b.WriteString("*")
		cols = sc
	} else {
		n := len(kinds)
		if kinds == nil {
			n = 1 + g.intn(4)
		}
		for i := 0; i < n; i++ {
			var k kind
			var x string
			if kinds != nil {
				k = kinds[i]
			} else if g.chance(40) {
				c := pick(g, sc)
				k, x = c.k, c.name
			} else {
				k = kind(g.intn(int(numKinds)))
			}
			if x == "" {
				x = g.expr(sc, k, 1+g.intn(3))
			}
			if dedup {
				x = normalise(x, k)
			}
			if i > 0 {
				b.WriteString(", ")
			}
			name := fmt.Sprintf("c%d", i)
			fmt.Fprintf(&b, "%s AS %s", x, name)
			cols = append(cols, dcol{name: name, k: k})
		}
		if kinds == nil && g.chance(15) {
			if x := g.scalarSub(src, sc); x != "" {
				name := fmt.Sprintf("c%d", len(cols))
				fmt.Fprintf(&b, ", %s AS %s", x, name)
				cols = append(cols, dcol{name: name, k: kInt})
			}
		}
	}
	fmt.Fprintf(&b, " FROM %s", src)
	var conds []string
	if g.chance(70) {
		conds = append(conds, g.pred(sc, 1+g.intn(2)))
	}
	if g.chance(15) {
		if x := g.existsSub(src, sc); x != "" {
			conds = append(conds, x)
		}
	}
	if len(conds) > 0 {
		fmt.Fprintf(&b, " WHERE %s", strings.Join(conds, pick(g, []string{" AND ", " OR "})))
	}
	return b.String(), cols
}

// correlation is a condition between a column of the FROM item src and
// one of a table aliased a (a column of the same kind), with a random
// comparison; "" when the two have no kinds in common.
func (g *gen) correlation(src string, sc []dcol, a string, t *dtable) string {
	qual := src
	if i := strings.LastIndex(src, " AS "); i >= 0 {
		qual = src[i+4:]
	}
	var pairs [][2]string
	for _, o := range sc {
		for _, c := range t.cols {
			if o.k == c.k && o.k != kBool {
				pairs = append(pairs, [2]string{qual + "." + o.name, a + "." + c.name})
			}
		}
	}
	if len(pairs) == 0 {
		return ""
	}
	p := pick(g, pairs)
	return p[1] + " " + pick(g, []string{"=", "<", ">", "<=", "<>"}) + " " + p[0]
}

// scalarSub is a scalar subquery correlated with src's columns by any
// comparison: a count, 0 over no row.
func (g *gen) scalarSub(src string, sc []dcol) string {
	t := pick(g, g.tables)
	a := g.name("y")
	corr := g.correlation(src, sc, a, t)
	if corr == "" {
		return ""
	}
	if g.chance(40) {
		if x := g.deepSub(src, sc, t, a, corr); x != "" {
			return x
		}
	}
	return fmt.Sprintf("(SELECT count(*) FROM %s AS %s WHERE %s)", t.name, a, corr)
}

// deepSub is a count over a subquery whose outer column sits deeper than
// its WHERE: one side of a FULL JOIN, a LIMIT and OFFSET, a recursion's
// anchor and step, a window count or frame offset; "" when src has no
// integer column for the forms that need one.
func (g *gen) deepSub(src string, sc []dcol, t *dtable, a, corr string) string {
	qual := src
	if i := strings.LastIndex(src, " AS "); i >= 0 {
		qual = src[i+4:]
	}
	var ints []string
	for _, c := range sc {
		if c.k == kInt {
			ints = append(ints, qual+"."+c.name)
		}
	}
	var keys []dcol
	for _, c := range t.cols {
		if c.k != kBool {
			keys = append(keys, c)
		}
	}
	switch g.intn(5) {
	case 3:
		if len(ints) == 0 || len(keys) == 0 {
			return ""
		}
		// ntile's count read from the outer query: the first bucket's
		// size is the same whichever order the ties take.
		return fmt.Sprintf("(SELECT count(*) FROM (SELECT ntile((coalesce(abs(%s) %% 3, 0) + 1)::int) OVER (ORDER BY %s.%s) AS b FROM %s AS %s WHERE %s) AS %s_n WHERE %s_n.b = 1)",
			pick(g, ints), a, pick(g, keys).name, t.name, a, corr, a, a)
	case 4:
		if len(ints) == 0 || len(keys) == 0 {
			return ""
		}
		// A frame offset read from the outer query: the largest frame
		// counted is the same whichever order the ties take under ROWS.
		frame := "ROWS"
		if g.chance(50) {
			frame = "GROUPS"
		}
		return fmt.Sprintf("(SELECT max(s) FROM (SELECT count(*) OVER (ORDER BY %s.%s %s BETWEEN coalesce(abs(%s) %% 3, 1) PRECEDING AND CURRENT ROW) AS s FROM %s AS %s WHERE %s) AS %s_f)",
			a, pick(g, keys).name, frame, pick(g, ints), t.name, a, corr, a)
	case 0:
		if len(keys) == 0 {
			return ""
		}
		// The correlated side left or right, the other crossed with
		// the outer values.
		k, b := pick(g, keys).name, g.name("y")
		side := fmt.Sprintf("(SELECT * FROM %s AS %s WHERE %s) AS %s_w", t.name, a, corr, a)
		if g.chance(50) {
			return fmt.Sprintf("(SELECT count(*) FROM %s AS %s FULL JOIN %s ON %s.%s = %s_w.%s)", t.name, b, side, b, k, a, k)
		}
		return fmt.Sprintf("(SELECT count(*) FROM %s FULL JOIN %s AS %s ON %s.%s = %s_w.%s)", side, t.name, b, b, k, a, k)
	case 1:
		if len(ints) == 0 || len(keys) == 0 {
			return ""
		}
		// A count is the same whichever tied rows the limit keeps.
		return fmt.Sprintf("(SELECT count(*) FROM (SELECT 1 FROM %s AS %s WHERE %s ORDER BY %s.%s LIMIT abs(%s) %% 3 OFFSET abs(%s) %% 2) AS %s_l)",
			t.name, a, corr, a, pick(g, keys).name, pick(g, ints), pick(g, ints), a)
	}
	if len(ints) == 0 {
		return ""
	}
	x := pick(g, ints)
	var tint []string
	for _, c := range t.cols {
		if c.k == kInt {
			tint = append(tint, c.name)
		}
	}
	if len(tint) == 0 {
		return ""
	}
	// At most three rounds: the step stops at the outer value plus 3.
	return fmt.Sprintf("(SELECT count(*) FROM (WITH RECURSIVE %s_r(n) AS (SELECT %s %% 5 UNION ALL SELECT n + 1 FROM %s_r WHERE n < %s %% 5 + 3) SELECT n FROM %s_r) AS %s_s, %s AS %s WHERE %s.%s = %s_s.n)",
		a, x, a, x, a, a, t.name, a, a, pick(g, tint), a)
}

// existsSub is [NOT] EXISTS or a comparison with a count, correlated with
// src's columns by any comparison.
func (g *gen) existsSub(src string, sc []dcol) string {
	t := pick(g, g.tables)
	a := g.name("y")
	corr := g.correlation(src, sc, a, t)
	if corr == "" {
		return ""
	}
	if g.chance(30) {
		return fmt.Sprintf("(SELECT count(*) FROM %s AS %s WHERE %s) > %d", t.name, a, corr, g.intn(3))
	}
	if g.chance(30) {
		if q := g.quantSub(src, sc, t, a, corr); q != "" {
			return q
		}
	}
	return fmt.Sprintf("%sEXISTS (SELECT 1 FROM %s AS %s WHERE %s)", pick(g, []string{"", "NOT "}), t.name, a, corr)
}

// joinOn is a join of two tables, inner or outer, whose ON condition
// holds a subquery correlated with one side or both, as a FROM item; ""
// when the tables have no kinds in common.
func (g *gen) joinOn() (string, []dcol) {
	lt, rt := pick(g, g.tables), pick(g, g.tables)
	l, r := g.name("p"), g.name("q")
	on := g.correlation(lt.name+" AS "+l, lt.cols, r, rt)
	if on == "" {
		return "", nil
	}
	t := pick(g, g.tables)
	a := g.name("y")
	var sub string
	lc, rc := g.correlation(lt.name+" AS "+l, lt.cols, a, t), g.correlation(rt.name+" AS "+r, rt.cols, a, t)
	switch {
	case lc != "" && rc != "" && g.chance(50):
		sub = fmt.Sprintf("%sEXISTS (SELECT 1 FROM %s AS %s WHERE %s AND %s)", pick(g, []string{"", "NOT "}), t.name, a, lc, rc)
	case rc != "" && g.chance(50):
		sub = fmt.Sprintf("(SELECT count(*) FROM %s AS %s WHERE %s) > %d", t.name, a, rc, g.intn(3))
	case lc != "":
		if sub = g.quantSub(lt.name+" AS "+l, lt.cols, t, a, lc); sub == "" {
			sub = fmt.Sprintf("(SELECT count(*) FROM %s AS %s WHERE %s) <= %d", t.name, a, lc, g.intn(3))
		}
	default:
		return "", nil
	}
	// PostgreSQL runs a FULL JOIN only with an equality of the two sides.
	kinds := []string{"JOIN", "LEFT JOIN", "RIGHT JOIN"}
	if g.chance(70) {
		if strings.Contains(on, " = ") {
			kinds = append(kinds, "FULL JOIN")
		}
		on += " AND " + sub
	} else {
		on = sub
	}
	var items []string
	var cols []dcol
	for _, side := range []struct {
		alias string
		t     *dtable
	}{{l, lt}, {r, rt}} {
		for _, c := range side.t.cols {
			name := fmt.Sprintf("j%d", len(cols))
			items = append(items, side.alias+"."+c.name+" AS "+name)
			cols = append(cols, dcol{name: name, k: c.k})
		}
	}
	kind := pick(g, kinds)
	return fmt.Sprintf("(SELECT %s FROM %s AS %s %s %s AS %s ON %s) AS %s", strings.Join(items, ", "), lt.name, l, kind, rt.name, r, on, g.name("s")), cols
}

// quantSub is x op ANY / op ALL (SELECT y FROM t AS a [WHERE corr]), x a
// column of src and y one of t of the same kind, sometimes under NOT or
// told apart from NULL; "" when they have no kind in common.
func (g *gen) quantSub(src string, sc []dcol, t *dtable, a, corr string) string {
	qual := src
	if i := strings.LastIndex(src, " AS "); i >= 0 {
		qual = src[i+4:]
	}
	var pairs [][2]string
	for _, o := range sc {
		for _, c := range t.cols {
			if o.k == c.k && o.k != kBool {
				pairs = append(pairs, [2]string{qual + "." + o.name, a + "." + c.name})
			}
		}
	}
	if len(pairs) == 0 {
		return ""
	}
	p := pick(g, pairs)
	where := ""
	if g.chance(60) {
		where = " WHERE " + corr
	}
	q := fmt.Sprintf("(%s %s %s (SELECT %s FROM %s AS %s%s))", p[0], pick(g, cmpOps), pick(g, []string{"ANY", "ALL", "SOME"}), p[1], t.name, a, where)
	switch g.intn(4) {
	case 0:
		return "(NOT " + q + ")"
	case 1:
		return "(" + q + " IS " + pick(g, []string{"NULL", "NOT NULL", "NOT TRUE", "FALSE"}) + ")"
	}
	return q
}

// normalise gives each value of x a single text form: numeric to a fixed
// scale, and float -0 to 0.
func normalise(x string, k kind) string {
	switch k {
	case kNum:
		return "round(" + x + ", 4)"
	case kFloat:
		return "(CASE WHEN " + x + " = 0 THEN abs(" + x + ") ELSE " + x + " END)"
	}
	return x
}

// ---- DML ----

// state answers questions about the data as the open transaction sees it;
// the test asks PostgreSQL.
type state interface {
	ids(t *dtable) []string                   // primary key values, as literals
	cell(t *dtable, c dcol, id string) string // a column's value as a literal, or NULL
	size(t *dtable) int
}

func (g *gen) pkTables() []*dtable {
	var out []*dtable
	for _, t := range g.tables {
		if t.pk {
			out = append(out, t)
		}
	}
	return out
}

func (g *gen) freshID() string {
	g.nextID++
	return strconv.Itoa(g.nextID)
}

// assignable wraps x, of c's kind, so that storing it in c rarely fails.
func (g *gen) assignable(x string, c dcol) string {
	if c.maxLen > 0 {
		x = fmt.Sprintf("substr(%s, 1, %d)", x, c.maxLen)
	}
	if c.notNull {
		x = fmt.Sprintf("COALESCE(%s, %s)", x, g.valueLit(c))
	}
	return x
}

// setExpr is a new value for column c of a row over sc. Integer and
// numeric values stay small so that the views' arithmetic cannot overflow.
func (g *gen) setExpr(sc []dcol, c dcol) string {
	others := colsOf(sc, c.k)
	switch r := g.intn(100); {
	case r < 30:
		return g.valueLit(c)
	case r < 40 && !c.notNull:
		return "NULL"
	case r < 55:
		return g.assignable(pick(g, others).name, c)
	case r < 75:
		return g.assignable(fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", g.pred(sc, 1), g.valueLit(c), c.name), c)
	}
	var x string
	switch c.k {
	case kInt:
		x = pick(g, []string{c.name + " + 1", c.name + " - 1", "- " + c.name, "abs(" + c.name + ")", "mod(" + c.name + ", 3)"})
	case kNum:
		x = pick(g, []string{c.name + " + 1.25", c.name + " - 0.5", "- " + c.name, "round(" + c.name + ")", c.name + " / 2"})
	case kFloat:
		x = pick(g, []string{c.name + " + 0.25", c.name + " - 1", "- " + c.name, "abs(" + c.name + ")", c.name + " * 0.5"})
	case kText:
		x = pick(g, []string{"lower(" + c.name + ")", "upper(" + c.name + ")", "trim(" + c.name + ")", c.name + " || 'z'", "replace(" + c.name + ", 'a', '')"})
	case kBool:
		x = pick(g, []string{"NOT " + c.name, g.pred(sc, 1)})
	case kDate:
		x = pick(g, []string{c.name + " + 1", c.name + " - 2"})
	case kTS:
		x = pick(g, []string{"CAST(CAST(" + c.name + " AS date) AS timestamp)", g.valueLit(c)})
	}
	return g.assignable(x, c)
}

func (g *gen) returning(t *dtable) string {
	switch g.intn(10) {
	case 0:
		return " RETURNING *"
	case 1:
		c := pick(g, t.cols)
		return fmt.Sprintf(" RETURNING %s, %s AS x", c.name, g.expr(t.cols, pick(g, []kind{kInt, kText, kNum}), 1))
	}
	return ""
}

// insertCols picks the columns an INSERT names: the key, those that need
// a value, and some others, in table order.
func (g *gen) insertCols(t *dtable) []dcol {
	var cols []dcol
	for i, c := range t.cols {
		if (t.pk && i == 0) || (c.notNull && c.def == "") || g.chance(70) {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		cols = append(cols, t.cols[0])
	}
	return cols
}

func names(cols []dcol) string {
	s := make([]string, len(cols))
	for i, c := range cols {
		s[i] = c.name
	}
	return strings.Join(s, ", ")
}

// insertValues is INSERT … VALUES, with ON CONFLICT on a keyed table when
// upsert is set.
func (g *gen) insertValues(st state, t *dtable, upsert bool) string {
	cols := g.insertCols(t)
	var existing []string
	if upsert {
		existing = st.ids(t)
	}
	n := 1 + g.intn(4)
	used := map[string]bool{}
	var rows []string
	for r := 0; r < n; r++ {
		vals := make([]string, len(cols))
		for i, c := range cols {
			switch {
			case t.pk && i == 0:
				id := g.freshID()
				if len(existing) > 0 && g.chance(60) {
					id = pick(g, existing)
				}
				if used[id] && !g.chance(5) {
					id = g.freshID()
				}
				used[id] = true
				vals[i] = id
			case !c.notNull && g.chance(12):
				vals[i] = "NULL"
			case (c.def != "" || !c.notNull) && g.chance(8):
				vals[i] = "DEFAULT"
			case c.maxLen == 0 && g.chance(10):
				vals[i] = g.expr(nil, c.k, 1)
				if c.notNull {
					vals[i] = g.assignable(vals[i], c)
				}
			default:
				vals[i] = g.valueLit(c)
			}
		}
		rows = append(rows, "("+strings.Join(vals, ", ")+")")
	}
	s := fmt.Sprintf("INSERT INTO %s (%s) VALUES %s", t.name, names(cols), strings.Join(rows, ", "))
	if upsert {
		s += g.onConflict(t)
	}
	return s + g.returning(t)
}

func (g *gen) onConflict(t *dtable) string {
	switch g.intn(4) {
	case 0:
		return " ON CONFLICT DO NOTHING"
	case 1:
		return " ON CONFLICT (id) DO NOTHING"
	}
	// The existing row under the table's name, the proposed one as
	// excluded.
	var sc []dcol
	for _, c := range t.cols {
		q := c
		q.name = t.name + "." + c.name
		sc = append(sc, q)
		x := c
		x.name = "excluded." + c.name
		sc = append(sc, x)
	}
	var sets []string
	for i, c := range t.cols[1:] {
		if g.chance(50) || (i == len(t.cols)-2 && len(sets) == 0) {
			v := "excluded." + c.name
			if g.chance(40) {
				q := c
				q.name = t.name + "." + c.name
				v = g.setExpr(sc, q)
			}
			sets = append(sets, c.name+" = "+v)
		}
	}
	s := " ON CONFLICT (id) DO UPDATE SET " + strings.Join(sets, ", ")
	if g.chance(30) {
		s += " WHERE " + g.pred(sc, 1)
	}
	return s
}

// insertSelect is INSERT … SELECT from a table; into a keyed table it
// shifts the source's keys out of the way and skips conflicts.
func (g *gen) insertSelect(t *dtable) string {
	cols := g.insertCols(t)
	var src *dtable
	if t.pk {
		src = pick(g, g.pkTables())
	} else {
		src = pick(g, g.tables)
	}
	exprs := make([]string, len(cols))
	for i, c := range cols {
		if t.pk && i == 0 {
			exprs[i] = fmt.Sprintf("id + %d", 1000*(1+g.intn(3)))
			continue
		}
		exprs[i] = g.assignable(g.expr(src.cols, c.k, g.intn(2)), c)
	}
	s := fmt.Sprintf("INSERT INTO %s (%s) SELECT %s FROM %s WHERE %s", t.name, names(cols), strings.Join(exprs, ", "), src.name, g.pred(src.cols, 1+g.intn(2)))
	if t.pk {
		s += " ON CONFLICT DO NOTHING"
	}
	return s
}

func (g *gen) update(t *dtable) string {
	if t.pk && g.chance(10) {
		// Negation is an involution: whether a key collides does not
		// depend on the order the rows are visited in.
		return fmt.Sprintf("UPDATE %s SET id = - id WHERE %s", t.name, g.pred(t.cols, 1))
	}
	data := t.cols
	if t.pk {
		data = t.cols[1:]
	}
	var sets []string
	for _, i := range []int{g.intn(len(data)), g.intn(len(data))} {
		c := data[i]
		set := c.name + " = " + g.setExpr(t.cols, c)
		if len(sets) == 0 || !strings.HasPrefix(sets[0], c.name+" ") {
			sets = append(sets, set)
		}
		if g.chance(50) {
			break
		}
	}
	s := fmt.Sprintf("UPDATE %s SET %s", t.name, strings.Join(sets, ", "))
	if g.chance(85) {
		s += " WHERE " + g.pred(t.cols, 1+g.intn(2))
	}
	return s + g.returning(t)
}

func (g *gen) delete(st state, t *dtable) string {
	if t.pk && g.chance(40) {
		if ids := st.ids(t); len(ids) > 0 {
			return fmt.Sprintf("DELETE FROM %s WHERE id = %s", t.name, pick(g, ids)) + g.returning(t)
		}
	}
	return fmt.Sprintf("DELETE FROM %s WHERE %s", t.name, g.pred(t.cols, 1+g.intn(2))) + g.returning(t)
}

// stmt is a random data-changing statement.
func (g *gen) stmt(st state) string {
	t := pick(g, g.tables)
	if st.size(t) > 60 {
		return g.delete(st, t)
	}
	switch r := g.intn(100); {
	case r < 25:
		return g.insertValues(st, t, false)
	case r < 35:
		return g.insertSelect(t)
	case r < 45 && t.pk:
		return g.insertValues(st, t, true)
	case r < 75:
		return g.update(t)
	}
	return g.delete(st, t)
}

// pair returns a statement and another that undoes it, when run right
// after it or after other such pairs that were undone. exact leaves out
// the float pair, since x + 0.25 - 0.25 turns -0 into 0.
func (g *gen) pair(st state, exact bool) (do, undo string, ok bool) {
	t := pick(g, g.tables)
	data := t.cols
	if t.pk {
		data = t.cols[1:]
	}
	c := pick(g, data)
	switch g.intn(3) {
	case 0:
		if !t.pk {
			return "", "", false
		}
		// Insert a row, then delete it.
		id := g.freshID()
		return g.insertValuesWithID(t, id), fmt.Sprintf("DELETE FROM %s WHERE id = %s", t.name, id), true
	case 1:
		if !t.pk {
			return "", "", false
		}
		// Change one row's column, then set it back.
		ids := st.ids(t)
		if len(ids) == 0 {
			return "", "", false
		}
		id := pick(g, ids)
		old := st.cell(t, c, id)
		if old == "NULL" && c.notNull {
			return "", "", false
		}
		return fmt.Sprintf("UPDATE %s SET %s = %s WHERE id = %s", t.name, c.name, g.setExpr(t.cols, c), id),
			fmt.Sprintf("UPDATE %s SET %s = %s WHERE id = %s", t.name, c.name, old, id), true
	}
	// Shift a column of the rows a predicate on the other columns picks,
	// then shift it back.
	var rest []dcol
	for _, o := range t.cols {
		if o.name != c.name {
			rest = append(rest, o)
		}
	}
	where := ""
	if len(rest) > 0 && g.chance(80) {
		where = " WHERE " + g.pred(rest, 1)
	}
	var fwd, back string
	switch c.k {
	case kInt:
		fwd, back = c.name+" + 1", c.name+" - 1"
	case kNum:
		fwd, back = c.name+" + 2", c.name+" - 2"
	case kDate:
		fwd, back = c.name+" + 3", c.name+" - 3"
	case kBool:
		fwd, back = "NOT "+c.name, "NOT "+c.name
	case kFloat:
		if exact {
			return "", "", false
		}
		fwd, back = c.name+" + 0.25", c.name+" - 0.25"
	default:
		return "", "", false
	}
	return fmt.Sprintf("UPDATE %s SET %s = %s%s", t.name, c.name, fwd, where),
		fmt.Sprintf("UPDATE %s SET %s = %s%s", t.name, c.name, back, where), true
}

// insertValuesWithID inserts one row with key id into a keyed table.
func (g *gen) insertValuesWithID(t *dtable, id string) string {
	cols := g.insertCols(t)
	vals := []string{id}
	for _, c := range cols[1:] {
		vals = append(vals, g.valueLit(c))
	}
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", t.name, names(cols), strings.Join(vals, ", "))
}
