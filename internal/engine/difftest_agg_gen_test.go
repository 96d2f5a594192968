package engine_test

import (
	"fmt"
	"strconv"
	"strings"
)

// Generators of TestDifferentialAggregates: tables with group keys of
// small domains (k integer, j text) and value columns of every kind the
// aggregates take; GROUP BY views (columns, expressions, positions, global
// aggregates), HAVING, FILTER, DISTINCT aggregates, over one table or a
// join, and ORDER BY … LIMIT [OFFSET] views; transactions that delete or
// lower the current extreme of a group, empty a group and refill it, and
// move rows between groups.
//
// Exactness: PostgreSQL rounds a float sum or average at each row, in
// arrival order; the view keeps exact sums and rounds once; the two agree
// when every partial sum is exact. Float columns therefore hold quarters
// (and the DML only adds quarters to them, or sets them to quarters),
// which stay exact, and never -0. var_pop, var_samp, variance and the
// stddevs are generated over integer and numeric columns only: over float8
// PostgreSQL accumulates a rounded sum of squares (Youngs-Cramer) whose
// value depends on the order of the rows and may differ from the exact
// result, rounded once, in the last digits.
//
// Order: string_agg and array_agg always have an ORDER BY that ends with
// the aggregated value itself, so that rows tied on the ORDER BY produce
// the same text whichever comes first; ORDER BY … LIMIT views order by
// every output column, for the same reason.

// aggTables is 1–2 tables (two when a view may join them) with group keys
// k and j and value columns v (integer), n (numeric), q (float), s (text),
// b (boolean), d (date), named after their table (v0, n1, …).
func (g *gen) aggTables() []*dtable {
	var ts []*dtable
	for i := range 1 + g.intn(2) {
		t := &dtable{name: fmt.Sprintf("t%d", i), pk: g.chance(60)}
		if t.pk {
			t.cols = append(t.cols, dcol{name: "id", typ: "integer", k: kInt, notNull: true})
		}
		k := dcol{name: "k", typ: pick(g, []string{"smallint", "integer", "bigint"}), k: kInt, notNull: g.chance(20),
			dom: []string{"0", "1", "2", "3"}}
		j := dcol{name: "j", typ: "text", k: kText, notNull: g.chance(20), dom: []string{"'a'", "'b'", "'c'"}}
		t.cols = append(t.cols, k, j)
		s := strconv.Itoa(i)
		t.cols = append(t.cols,
			dcol{name: "v" + s, typ: pick(g, []string{"smallint", "integer", "bigint"}), k: kInt, notNull: g.chance(20)},
			dcol{name: "n" + s, typ: "numeric(6,2)", k: kNum, scale: 2, notNull: g.chance(20)},
			dcol{name: "q" + s, typ: pick(g, []string{"double precision", "real"}), k: kFloat, notNull: g.chance(20)},
			dcol{name: "s" + s, typ: "text", k: kText, notNull: g.chance(20), dom: []string{"'a'", "'ab'", "'b'", "'B'", "''", "'x,y'"}},
			dcol{name: "b" + s, typ: "boolean", k: kBool, notNull: g.chance(20)},
			dcol{name: "d" + s, typ: "date", k: kDate, notNull: g.chance(20)},
		)
		ts = append(ts, t)
	}
	return ts
}

// ---- statements ----

const maxAggRows = 24

// aggLit is a literal for c, or NULL when c may hold one.
func (g *gen) aggLit(c dcol) string {
	if !c.notNull && g.chance(12) {
		return "NULL"
	}
	if c.k == kNum && g.chance(8) {
		// NaN is a value: sums, averages and variances with it are NaN,
		// and it is the largest numeric.
		return "'NaN'"
	}
	return g.valueLit(c)
}

// aggInsert inserts 1–3 rows into t, with k fixed when k is not empty.
func (g *gen) aggInsert(t *dtable, k string) string {
	var rows []string
	for range 1 + g.intn(3) {
		var vals []string
		for i, c := range t.cols {
			switch {
			case t.pk && i == 0:
				vals = append(vals, g.freshID())
			case c.name == "k" && k != "":
				vals = append(vals, k)
			default:
				vals = append(vals, g.aggLit(c))
			}
		}
		rows = append(rows, "("+strings.Join(vals, ", ")+")")
	}
	return fmt.Sprintf("INSERT INTO %s VALUES %s", t.name, strings.Join(rows, ", "))
}

// aggSet is an exact new value for c: a literal, NULL, or a small step.
func (g *gen) aggSet(c dcol) string {
	switch r := g.intn(10); {
	case r < 4:
		return g.valueLit(c)
	case r < 5 && !c.notNull:
		return "NULL"
	}
	switch c.k {
	case kInt:
		return fmt.Sprintf("%s + %s", c.name, pick(g, []string{"1", "(-1)", "3", "(-4)"}))
	case kNum:
		return fmt.Sprintf("%s + %s", c.name, pick(g, []string{"0.25", "(-1.5)", "2"}))
	case kFloat:
		return fmt.Sprintf("%s + %s", c.name, pick(g, []string{"0.25", "(-1.75)", "2"}))
	case kText:
		return fmt.Sprintf("COALESCE(%s, %s)", g.valueLit(c), c.name)
	case kBool:
		return "NOT " + c.name
	case kDate:
		return fmt.Sprintf("%s + %d", c.name, g.intn(5)-2)
	}
	return g.valueLit(c)
}

// extreme returns a group key and the extreme (min or max) of a value
// column in that group, as PostgreSQL sees them in the open transaction,
// or ok false.
func (d *difftest) extreme(t *dtable, c dcol, max bool) (k, v string, ok bool) {
	f := "min"
	if max {
		f = "max"
	}
	rows := d.pgMust(fmt.Sprintf("SELECT k, %s(%s) FROM %s WHERE k IS NOT NULL GROUP BY k HAVING %s(%s) IS NOT NULL ORDER BY k", f, c.name, t.name, f, c.name)).rows
	if len(rows) == 0 {
		return "", "", false
	}
	r := pick(d.g, rows)
	kq, vq, _ := strings.Cut(r, ",")
	k, _ = strconv.Unquote(kq)
	v, _ = strconv.Unquote(vq)
	return k, fmt.Sprintf("CAST(%s AS %s)", quote(v), c.typ), true
}

func colNamed(t *dtable, name string) dcol {
	for _, c := range t.cols {
		if c.name == name {
			return c
		}
	}
	panic("no column " + name)
}

// aggStmts is one or two statements of a transaction.
func (g *gen) aggStmts(st state) []string {
	d := st.(*difftest)
	t := pick(g, g.tables)
	if d.size(t) > maxAggRows {
		return []string{fmt.Sprintf("DELETE FROM %s WHERE %s", t.name, g.pred(t.cols, 1))}
	}
	var vals []dcol
	for _, c := range t.cols {
		if c.name != "id" && c.name != "k" {
			vals = append(vals, c)
		}
	}
	c := pick(g, vals)
	k := g.valueLit(colNamed(t, "k"))
	switch r := g.intn(100); {
	case r < 15:
		// Delete the extreme of a group, or move it past the others.
		if c.k == kBool || c.k == kText && g.chance(50) {
			break
		}
		gk, v, ok := d.extreme(t, c, g.chance(50))
		if !ok {
			break
		}
		if g.chance(50) {
			return []string{fmt.Sprintf("DELETE FROM %s WHERE k = %s AND %s = %s", t.name, gk, c.name, v)}
		}
		return []string{fmt.Sprintf("UPDATE %s SET %s = %s WHERE k = %s AND %s = %s", t.name, c.name, g.aggSet(c), gk, c.name, v)}
	case r < 25:
		// Empty a group, and maybe refill it at once.
		out := []string{fmt.Sprintf("DELETE FROM %s WHERE k = %s", t.name, k)}
		if g.chance(60) {
			out = append(out, g.aggInsert(t, k))
		}
		return out
	case r < 40:
		// Move rows between groups.
		to := g.valueLit(colNamed(t, "k"))
		if g.chance(15) && !colNamed(t, "k").notNull {
			to = "NULL"
		}
		w := fmt.Sprintf("k = %s", k)
		if g.chance(50) {
			w += " AND " + g.pred(t.cols, 1)
		}
		return []string{fmt.Sprintf("UPDATE %s SET k = %s WHERE %s", t.name, to, w)}
	case r < 45:
		return []string{fmt.Sprintf("UPDATE %s SET j = %s WHERE %s", t.name, g.aggLit(colNamed(t, "j")), g.pred(t.cols, 1))}
	case r < 65:
		return []string{g.aggInsert(t, "")}
	case r < 85:
		set := c.name + " = " + g.aggSet(c)
		if c.notNull {
			set = fmt.Sprintf("%s = COALESCE(%s, %s)", c.name, g.aggSet(c), g.valueLit(c))
		}
		return []string{fmt.Sprintf("UPDATE %s SET %s WHERE %s", t.name, set, g.pred(t.cols, 1))}
	}
	return []string{fmt.Sprintf("DELETE FROM %s WHERE %s", t.name, g.pred(t.cols, 1+g.intn(2)))}
}

// ---- views ----

func (g *gen) aggView() (string, []dcol) {
	if g.chance(15) {
		return g.topkQuery()
	}
	q, cols, _ := g.aggQuery()
	return q, cols
}

// aggFrom is one table (or, with two tables, sometimes a join of both).
func (g *gen) aggFrom() from {
	if len(g.tables) > 1 && g.chance(35) {
		return g.joinFrom(2)
	}
	return g.joinFrom(1)
}

// groupKey is a grouping expression over sc.
func (g *gen) groupKey(sc []dcol) (string, kind) {
	var keys, other []dcol
	for _, c := range sc {
		switch baseName(c) {
		case "k", "j":
			keys = append(keys, c)
		case "id":
		default:
			if c.k != kFloat {
				other = append(other, c)
			}
		}
	}
	switch r := g.intn(100); {
	case r < 50:
		c := pick(g, keys)
		return c.name, c.k
	case r < 65:
		c := pick(g, other)
		return c.name, c.k
	}
	ints := colsOf(sc, kInt)
	c := pick(g, ints)
	switch g.intn(6) {
	case 0:
		return fmt.Sprintf("mod(%s, 2)", c.name), kInt
	case 1:
		return fmt.Sprintf("(%s + 1)", c.name), kInt
	case 2:
		return fmt.Sprintf("COALESCE(%s, -1)", c.name), kInt
	case 3:
		return fmt.Sprintf("(%s > 1)", c.name), kBool
	case 4:
		return fmt.Sprintf("lower(%s)", pick(g, colsOf(sc, kText)).name), kText
	}
	return fmt.Sprintf("CASE WHEN %s > 0 THEN 'p' ELSE 'n' END", c.name), kText
}

// agg is one aggregate call over sc, with its result kind.
func (g *gen) agg(sc []dcol, pk string) (string, kind) {
	col := func(ks ...kind) dcol {
		var cs []dcol
		for _, k := range ks {
			cs = append(cs, colsOf(sc, k)...)
		}
		return pick(g, cs)
	}
	distinct := ""
	if g.chance(15) {
		distinct = "DISTINCT "
	}
	var x string
	var k kind
	switch g.intn(14) {
	case 0:
		x, k = "count(*)", kInt
	case 1:
		x, k = fmt.Sprintf("count(%s%s)", distinct, col(kInt, kText, kNum, kFloat, kBool, kDate).name), kInt
	case 2:
		x, k = fmt.Sprintf("sum(%s%s)", distinct, col(kInt, kNum, kFloat).name), kNum
	case 3:
		x, k = fmt.Sprintf("avg(%s%s)", distinct, col(kInt, kNum, kFloat).name), kNum
	case 4, 5:
		x, k = fmt.Sprintf("%s(%s)", pick(g, []string{"min", "max"}), col(kInt, kNum, kFloat, kText, kDate).name), kNum
	case 6:
		f := pick(g, []string{"bool_and", "bool_or", "every"})
		if g.chance(50) {
			x = fmt.Sprintf("%s(%s)", f, col(kBool).name)
		} else {
			x = fmt.Sprintf("%s(%s)", f, g.pred(sc, 1))
		}
		k = kBool
	case 7, 8:
		f := pick(g, []string{"var_pop", "var_samp", "variance", "stddev_pop", "stddev_samp", "stddev"})
		x, k = fmt.Sprintf("%s(%s%s)", f, distinct, col(kInt, kNum).name), kNum
	case 9, 10:
		c := col(kText, kInt, kDate)
		arg := c.name
		if c.k != kText {
			arg = fmt.Sprintf("CAST(%s AS text)", c.name)
		}
		sep := pick(g, []string{"','", "'|'", "''", "', '"})
		if distinct != "" {
			x = fmt.Sprintf("string_agg(DISTINCT %s, %s ORDER BY %s%s)", arg, sep, arg, g.dir())
		} else {
			x = fmt.Sprintf("string_agg(%s, %s ORDER BY %s)", arg, sep, g.orderBy(sc, c.name, pk))
		}
		k = kText
	case 13:
		// The ordered-set aggregates; not over numeric, whose equal values
		// may print differently and are then shown as either.
		frac := pick(g, []string{"0", "0.25", "0.5", "0.9", "1"})
		switch c := col(kInt, kText, kDate); g.intn(3) {
		case 0:
			x, k = fmt.Sprintf("percentile_cont(%s) WITHIN GROUP (ORDER BY %s%s)", frac, col(kInt).name, g.dir()), kFloat
		case 1:
			x, k = fmt.Sprintf("percentile_disc(%s) WITHIN GROUP (ORDER BY %s%s)", frac, c.name, g.dir()), c.k
		default:
			x, k = fmt.Sprintf("mode() WITHIN GROUP (ORDER BY %s%s)", c.name, g.dir()), c.k
		}
	default:
		c := col(kInt, kText, kNum, kDate, kBool)
		if distinct != "" {
			x = fmt.Sprintf("array_agg(DISTINCT %s ORDER BY %s%s)", c.name, c.name, g.dir())
		} else {
			x = fmt.Sprintf("array_agg(%s ORDER BY %s)", c.name, g.orderBy(sc, c.name, pk))
		}
		k = kText
	}
	if g.chance(25) {
		x += fmt.Sprintf(" FILTER (WHERE %s)", g.pred(sc, 1))
	}
	return x, k
}

func (g *gen) dir() string {
	return pick(g, []string{"", " DESC", " NULLS FIRST", " DESC NULLS LAST", " ASC"})
}

// orderBy is an ORDER BY list for an ordered aggregate of arg: maybe
// another column first, then arg itself, then the key when there is one.
func (g *gen) orderBy(sc []dcol, arg, pk string) string {
	var items []string
	if g.chance(40) {
		items = append(items, pick(g, sc).name+g.dir())
	}
	items = append(items, arg+g.dir())
	if pk != "" && g.chance(50) {
		items = append(items, pk+g.dir())
	}
	return strings.Join(items, ", ")
}

// aggQuery is a grouping over one table or a join: the keys and the
// aggregates, in some order.
func (g *gen) aggQuery() (string, []dcol, int) {
	f := g.aggFrom()
	pk := ""
	for _, c := range f.cols {
		if baseName(c) == "id" {
			pk = c.name
			break
		}
	}
	var keys []string
	var kk []kind
	if !g.chance(20) {
		for range 1 + g.intn(2) {
			x, k := g.groupKey(f.cols)
			keys = append(keys, x)
			kk = append(kk, k)
		}
	}
	var items []string
	var cols []dcol
	add := func(x string, k kind) {
		name := fmt.Sprintf("c%d", len(items))
		items = append(items, x+" AS "+name)
		cols = append(cols, dcol{name: name, k: k})
	}
	for i, x := range keys {
		if g.chance(85) {
			add(x, kk[i])
		}
	}
	nk := len(items)
	for range 1 + g.intn(4) {
		add(g.agg(f.cols, pk))
	}
	var groupSub string
	// A subquery may read a grouped column, not an expression of one.
	if len(keys) > 0 && !strings.ContainsAny(keys[0], "( ") && g.chance(25) {
		groupSub = g.groupSub(keys[0], kk[0])
		if groupSub != "" && g.chance(50) {
			add(groupSub, kInt)
		}
	}
	q := "SELECT " + strings.Join(items, ", ") + " FROM " + f.sql
	conds := f.where
	if g.chance(40) {
		conds = append(conds, g.pred(f.cols, 1))
	}
	q += where(conds)
	if len(keys) > 0 {
		by := keys
		if nk == len(keys) && g.chance(40) {
			by = nil
			for i := range keys {
				by = append(by, strconv.Itoa(i+1))
			}
		}
		q += " GROUP BY " + strings.Join(by, ", ")
	}
	switch {
	case groupSub != "" && g.chance(50):
		q += fmt.Sprintf(" HAVING count(*) %s %s - 1", pick(g, []string{">", "<=", "="}), groupSub)
	case g.chance(35):
		q += " HAVING " + g.having(f.cols)
	}
	return q, cols, nk
}

// groupSub is a scalar count correlated with a group key by a comparison,
// for the select list or HAVING of a grouped query; "" when no table has
// a column of the key's kind.
func (g *gen) groupSub(key string, k kind) string {
	t := pick(g, g.tables)
	var cs []dcol
	for _, c := range t.cols {
		if c.k == k && k != kBool {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return ""
	}
	a := g.name("y")
	return fmt.Sprintf("(SELECT count(*) FROM %s AS %s WHERE %s.%s %s %s)", t.name, a, a, pick(g, cs).name, pick(g, []string{"<", "=", ">=", "<>"}), key)
}

// having is a condition on aggregates.
func (g *gen) having(sc []dcol) string {
	v := pick(g, colsOf(sc, kInt)).name
	switch g.intn(6) {
	case 0:
		return fmt.Sprintf("count(*) > %d", g.intn(3))
	case 1:
		return fmt.Sprintf("sum(%s) > %d", v, g.intn(6)-2)
	case 2:
		return fmt.Sprintf("min(%s) < max(%s)", v, v)
	case 3:
		return fmt.Sprintf("bool_or(%s)", g.pred(sc, 1))
	case 4:
		return fmt.Sprintf("count(DISTINCT %s) >= 2", pick(g, colsOf(sc, kText)).name)
	}
	return fmt.Sprintf("(count(*) FILTER (WHERE %s) = 0 OR avg(%s) > 1)", g.pred(sc, 1), v)
}

// topkQuery is ORDER BY … LIMIT [OFFSET] (or [OFFSET] FETCH … WITH TIES) over a table or a grouping,
// ordered by every output column, so ties are equal rows.
func (g *gen) topkQuery() (string, []dcol) {
	var q string
	var cols []dcol
	if g.chance(50) {
		// Not over avg, var or stddev: equal numeric results may print
		// with different scales, and a tie between them is no total order.
		// Not over array_agg: deltaview orders its arrays as their text
		// ({NULL,NULL} before {NULL}, {10} before {2}), PostgreSQL element
		// by element.
		for {
			q, cols, _ = g.aggQuery()
			if !strings.Contains(q, "avg(") && !strings.Contains(q, "var") && !strings.Contains(q, "stddev") && !strings.Contains(q, "array_agg(") {
				break
			}
		}
	} else {
		f := g.aggFrom()
		var items []string
		for i := range 1 + g.intn(3) {
			c := pick(g, f.cols)
			if c.k == kFloat && g.chance(50) {
				c = pick(g, f.cols)
			}
			name := fmt.Sprintf("c%d", i)
			items = append(items, c.name+" AS "+name)
			cols = append(cols, dcol{name: name, k: c.k})
		}
		q = "SELECT " + strings.Join(items, ", ") + " FROM " + f.sql
		conds := f.where
		if g.chance(40) {
			conds = append(conds, g.pred(f.cols, 1))
		}
		q += where(conds)
	}
	var by []string
	for _, i := range permutation(g, len(cols)) {
		by = append(by, strconv.Itoa(i+1)+g.dir())
	}
	q += " ORDER BY " + strings.Join(by, ", ")
	if g.chance(30) {
		// WITH TIES keeps the copies of the last row (the order is the
		// whole row's), after an OFFSET too.
		if g.chance(50) {
			q += fmt.Sprintf(" OFFSET %d ROWS", g.intn(3))
		}
		return q + fmt.Sprintf(" FETCH FIRST %d ROWS WITH TIES", g.intn(4)), cols
	}
	q += fmt.Sprintf(" LIMIT %d", 1+g.intn(4))
	if g.chance(40) {
		q += fmt.Sprintf(" OFFSET %d", g.intn(3))
	}
	return q, cols
}

func permutation(g *gen, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := g.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}
