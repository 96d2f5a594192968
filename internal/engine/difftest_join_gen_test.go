package engine_test

import (
	"fmt"
	"strings"
)

// Generators of TestDifferentialJoins: schemas of 2–3 tables that share
// join key columns with small domains (k: integer or numeric, j: text, f:
// float with both zeros), NULL keys, tables without a primary key (so rows
// repeat), transactions that move join keys on several tables at once, and
// views over inner and outer joins, semi- and anti-joins and set
// operations.
//
// Set operations deduplicate: their numeric and float columns go through
// normalise, since PostgreSQL keeps an arbitrary one of the equal values
// that print differently (1.0 and 1.00, -0 and 0). Joins and semi-joins
// return their inputs' values as they are and need no normalising.

// keyCols are the join key columns: the same names in every table.
var keyCols = map[string]bool{"k": true, "j": true, "f": true}

func baseName(c dcol) string {
	if _, after, ok := strings.Cut(c.name, "."); ok {
		return after
	}
	return c.name
}

func qualify(alias string, cols []dcol) []dcol {
	out := make([]dcol, len(cols))
	for i, c := range cols {
		c.name = alias + "." + c.name
		out[i] = c
	}
	return out
}

// joinTables is a schema of 2–3 tables, each with the key column k, and
// some with j and f; the other columns are named after their table (a0, b1,
// …) so that NATURAL joins match on keys, and on id when both have one.
func (g *gen) joinTables() []*dtable {
	var ts []*dtable
	for i := range 2 + g.intn(2) {
		t := &dtable{name: fmt.Sprintf("t%d", i), pk: g.chance(50)}
		if t.pk {
			t.cols = append(t.cols, dcol{name: "id", typ: pick(g, []string{"integer", "bigint"}), k: kInt, notNull: true})
		}
		t.cols = append(t.cols, g.keyColumn("k"))
		if g.chance(60) {
			t.cols = append(t.cols, g.keyColumn("j"))
		}
		if g.chance(30) {
			t.cols = append(t.cols, g.keyColumn("f"))
		}
		for j := range 1 + g.intn(2) {
			c := g.column(fmt.Sprintf("%c%d", 'a'+j, i))
			t.cols = append(t.cols, c)
		}
		ts = append(ts, t)
	}
	return ts
}

// keyColumn is a join key column: k is an integer of some width or a
// numeric (1 = 1.0), j text, f a float where -0 = 0.
func (g *gen) keyColumn(name string) dcol {
	c := dcol{name: name, notNull: g.chance(15)}
	switch name {
	case "k":
		if g.chance(25) {
			c.typ, c.k, c.scale = "numeric(4,1)", kNum, 1
			c.dom = []string{"0", "1", "2", "2.5", "1.00"}
		} else {
			c.typ, c.k = pick(g, []string{"smallint", "integer", "bigint"}), kInt
			c.dom = []string{"0", "1", "2", "3"}
		}
	case "j":
		c.k = kText
		c.typ = pick(g, []string{"text", "varchar(3)"})
		if c.typ != "text" {
			c.maxLen = 3
		}
		c.dom = []string{"'a'", "'b'", "'c'", "''"}
	case "f":
		c.k = kFloat
		c.typ = pick(g, []string{"double precision", "real"})
		c.dom = []string{"0", "0.5", "1", "CAST('-0' AS float8)"}
	}
	return c
}

// ---- statements ----

// maxJoinRows bounds each table so that three-way joins stay small.
const maxJoinRows = 10

// joinStmts is one or two statements of a transaction; two when they move
// join keys on two tables at once.
func (g *gen) joinStmts(st state) []string {
	t := pick(g, g.tables)
	if st.size(t) > maxJoinRows {
		return []string{g.delete(st, t)}
	}
	switch r := g.intn(100); {
	case r < 35:
		return g.keyMoves()
	case r < 55:
		return []string{g.insertValues(st, t, t.pk && g.chance(30))}
	case r < 60:
		return []string{g.insertSelect(t)}
	case r < 80:
		return []string{g.update(t)}
	}
	return []string{g.delete(st, t)}
}

// keyMoves changes a key column on two tables (or twice on one) in the
// same transaction: swapping two key values, moving rows to and from
// NULL, or shifting keys.
func (g *gen) keyMoves() []string {
	var with []*dtable
	var cols []dcol
	name := pick(g, []string{"k", "k", "j", "f"})
	for {
		for _, t := range g.tables {
			for _, c := range t.cols {
				if c.name == name {
					with = append(with, t)
					cols = append(cols, c)
				}
			}
		}
		if len(with) > 0 {
			break
		}
		name = "k" // every table has k
	}
	var out []string
	for range 2 {
		i := g.intn(len(with))
		t, c := with[i], cols[i]
		a, b := g.valueLit(c), g.valueLit(c)
		switch r := g.intn(6); {
		case r == 0 && !c.notNull:
			out = append(out, fmt.Sprintf("UPDATE %s SET %s = NULL WHERE %s = %s", t.name, name, name, a))
		case r == 1 && !c.notNull:
			out = append(out, fmt.Sprintf("UPDATE %s SET %s = %s WHERE %s IS NULL", t.name, name, a, name))
		case r == 2:
			// A swap of two key values within the table.
			out = append(out, fmt.Sprintf("UPDATE %s SET %s = CASE WHEN %s = %s THEN %s ELSE %s END WHERE %s IN (%s, %s)", t.name, name, name, a, b, a, name, a, b))
		case r == 3 && c.k != kText:
			out = append(out, fmt.Sprintf("UPDATE %s SET %s = %s + 1 WHERE %s", t.name, name, name, g.pred(t.cols, 1)))
		case r == 4:
			out = append(out, fmt.Sprintf("UPDATE %s SET %s = %s WHERE %s", t.name, name, a, g.pred(t.cols, 1)))
		default:
			out = append(out, fmt.Sprintf("UPDATE %s SET %s = %s WHERE %s = %s", t.name, name, b, name, a))
		}
	}
	return out
}

// ---- views ----

func (g *gen) joinView() (string, []dcol) {
	switch r := g.intn(100); {
	case r < 45:
		return g.joinQuery()
	case r < 75:
		return g.semiQuery()
	}
	return g.setQuery()
}

// equi is an equality between a column of l and one of r: keys of the
// same name when they have one in common, else columns of the same kind.
func (g *gen) equi(l, r []dcol) string {
	type pair struct{ a, b dcol }
	var keys, same []pair
	for _, a := range l {
		for _, b := range r {
			switch {
			case keyCols[baseName(a)] && baseName(a) == baseName(b):
				keys = append(keys, pair{a, b})
			case a.k == b.k && a.k != kBool:
				same = append(same, pair{a, b})
			}
		}
	}
	var p pair
	switch {
	case len(keys) > 0 && (len(same) == 0 || g.chance(85)):
		p = pick(g, keys)
	case len(same) > 0:
		p = pick(g, same)
	default:
		return ""
	}
	if g.chance(50) {
		p.a, p.b = p.b, p.a
	}
	return fmt.Sprintf("%s = %s", p.a.name, p.b.name)
}

// from is a FROM clause over n tables (1–3) and the columns it makes
// visible, qualified by alias; merged are the unqualified columns of USING
// and NATURAL, natural whether SELECT * is safe (a NATURAL join, whose
// columns have distinct names).
type from struct {
	sql     string
	cols    []dcol
	merged  []dcol
	natural bool
	where   []string // conditions a comma join needs in WHERE
}

func (g *gen) joinFrom(n int) from {
	t0 := pick(g, g.tables)
	a0 := g.name("x")
	f := from{sql: t0.name + " AS " + a0, cols: qualify(a0, t0.cols)}
	if n > 1 && g.chance(15) {
		// Comma joins, conditions in WHERE.
		for i := 1; i < n; i++ {
			t := pick(g, g.tables)
			a := g.name("x")
			tc := qualify(a, t.cols)
			if eq := g.equi(f.cols, tc); eq != "" && g.chance(90) {
				f.where = append(f.where, eq)
			}
			f.sql += ", " + t.name + " AS " + a
			f.cols = append(f.cols, tc...)
		}
		return f
	}
	for i := 1; i < n; i++ {
		t := pick(g, g.tables)
		a := g.name("x")
		item, tc := t.name+" AS "+a, qualify(a, t.cols)
		if i == 1 && n == 3 && g.chance(20) {
			// A parenthesised join on the right.
			t2 := pick(g, g.tables)
			a2 := g.name("x")
			tc2 := qualify(a2, t2.cols)
			jt := pick(g, []string{"JOIN", "LEFT JOIN"})
			cond := g.equi(tc, tc2)
			if cond == "" {
				cond = "true"
			}
			item = fmt.Sprintf("(%s %s %s AS %s ON %s)", item, jt, t2.name, a2, cond)
			tc = append(tc, tc2...)
			i++
		}
		jt := pick(g, []string{"JOIN", "INNER JOIN", "LEFT JOIN", "LEFT OUTER JOIN", "RIGHT JOIN", "FULL JOIN", "FULL OUTER JOIN", "JOIN", "LEFT JOIN"})
		if i == 1 && n == 2 && g.chance(25) {
			// USING or NATURAL: the left side is one table, so its
			// columns' names are unique.
			var common []dcol
			for _, c := range t0.cols {
				for _, o := range t.cols {
					if c.name == o.name {
						m := c
						if c.k != o.k {
							m.k = kNum // integer and numeric k: numeric
						}
						common = append(common, m)
					}
				}
			}
			if len(common) > 0 {
				if g.chance(40) {
					f.sql += " NATURAL " + jt + " " + item
					f.merged = common
					f.natural = true
				} else {
					var using []dcol
					for _, c := range common {
						if g.chance(60) {
							using = append(using, c)
						}
					}
					if len(using) == 0 {
						using = common[:1]
					}
					f.sql += fmt.Sprintf(" %s %s USING (%s)", jt, item, names(using))
					f.merged = using
				}
				f.cols = append(f.cols, tc...)
				continue
			}
		}
		if n == 2 && g.chance(4) {
			f.sql += " CROSS JOIN " + item
			f.cols = append(f.cols, tc...)
			continue
		}
		var conds []string
		if eq := g.equi(f.cols, tc); eq != "" && (g.chance(90) || strings.HasPrefix(jt, "FULL")) {
			conds = append(conds, eq)
		} else if strings.HasPrefix(jt, "FULL") {
			// PostgreSQL runs FULL JOIN only on an equality.
			jt = "LEFT JOIN"
		}
		all := append(append([]dcol{}, f.cols...), tc...)
		if len(conds) == 0 || g.chance(40) {
			conds = append(conds, g.pred(all, 1))
		}
		f.sql += fmt.Sprintf(" %s %s ON %s", jt, item, strings.Join(conds, " AND "))
		f.cols = all
	}
	return f
}

// selectList is 1–4 columns or expressions over sc, named c0, c1, ….
func (g *gen) selectList(sc, merged []dcol) (string, []dcol) {
	n := 1 + g.intn(4)
	var items []string
	var cols []dcol
	for i := range n {
		var x string
		var k kind
		switch r := g.intn(100); {
		case r < 15 && len(merged) > 0:
			c := pick(g, merged)
			x, k = c.name, c.k
		case r < 65:
			c := pick(g, sc)
			x, k = c.name, c.k
		default:
			k = kind(g.intn(int(numKinds)))
			x = g.expr(sc, k, 1+g.intn(2))
		}
		name := fmt.Sprintf("c%d", i)
		items = append(items, x+" AS "+name)
		cols = append(cols, dcol{name: name, k: k})
	}
	return strings.Join(items, ", "), cols
}

func where(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// joinQuery is a SELECT over a join of 2–3 tables.
func (g *gen) joinQuery() (string, []dcol) {
	f := g.joinFrom(2 + g.intn(2))
	conds := f.where
	if g.chance(50) {
		conds = append(conds, g.pred(f.cols, 1+g.intn(2)))
	}
	if f.natural && g.chance(50) {
		// The columns' kinds matter only to views that read this one,
		// and these views read tables only.
		return "SELECT * FROM " + f.sql + where(conds), nil
	}
	sel, cols := g.selectList(f.cols, f.merged)
	return "SELECT " + sel + " FROM " + f.sql + where(conds), cols
}

// semiQuery is a SELECT over one table or a join, filtered by 1–2
// subquery conditions: EXISTS, NOT EXISTS, IN, NOT IN, = ANY, <> ALL.
func (g *gen) semiQuery() (string, []dcol) {
	f := g.joinFrom(1 + g.intn(100)/75)
	conds := f.where
	for range 1 + g.intn(2) {
		conds = append(conds, g.subCond(f.cols))
	}
	if g.chance(40) {
		conds = append(conds, g.pred(f.cols, 1))
	}
	g.shuffle(conds)
	sel, cols := g.selectList(f.cols, f.merged)
	return "SELECT " + sel + " FROM " + f.sql + where(conds), cols
}

func (g *gen) shuffle(xs []string) {
	for i := len(xs) - 1; i > 0; i-- {
		j := g.intn(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// subCond is a subquery condition on the outer columns sc.
func (g *gen) subCond(sc []dcol) string {
	if g.chance(40) {
		return g.corrCond(sc)
	}
	t := pick(g, g.tables)
	a := g.name("y")
	tc := qualify(a, t.cols)
	all := append(append([]dcol{}, sc...), tc...)
	inner := func() []string {
		var w []string
		if g.chance(40) {
			w = append(w, g.pred(tc, 1))
		}
		return w
	}
	switch r := g.intn(100); {
	case r < 35:
		// Correlated on an equality, with a residual condition.
		w := inner()
		if eq := g.equi(sc, tc); eq != "" {
			w = append(w, eq)
		}
		if g.chance(35) {
			w = append(w, g.pred(all, 1))
		}
		g.shuffle(w)
		return fmt.Sprintf("%sEXISTS (SELECT %s FROM %s AS %s%s)", pick(g, []string{"", "NOT "}), pick(g, []string{"1", "*", tc[0].name}), t.name, a, where(w))
	case r < 45:
		// Correlated on any condition.
		w := append(inner(), g.pred(all, 1))
		return fmt.Sprintf("%sEXISTS (SELECT 1 FROM %s AS %s%s)", pick(g, []string{"", "NOT "}), t.name, a, where(w))
	}
	// A column of the outer side and one of the subquery's, keys of the
	// same name when there are.
	eq := g.equi(sc, tc)
	if eq == "" {
		return fmt.Sprintf("EXISTS (SELECT 1 FROM %s AS %s)", t.name, a)
	}
	l, rr, _ := strings.Cut(eq, " = ")
	outer, in := l, rr
	if strings.HasPrefix(l, a+".") {
		outer, in = rr, l
	}
	w := inner()
	switch r := g.intn(100); {
	case r < 30:
		if g.chance(30) {
			// Correlated on another column.
			if c := g.equi(sc, tc); c != "" {
				w = append(w, c)
			}
		}
		return fmt.Sprintf("%s IN (SELECT %s FROM %s AS %s%s)", outer, in, t.name, a, where(w))
	case r < 50:
		if g.chance(30) {
			if c := g.equi(sc, tc); c != "" {
				w = append(w, c)
			}
		}
		return fmt.Sprintf("%s = ANY (SELECT %s FROM %s AS %s%s)", outer, in, t.name, a, where(w))
	case r < 80:
		// Uncorrelated: NOT IN with PostgreSQL's NULL semantics.
		var u []string
		if g.chance(50) {
			u = append(u, g.pred(tc, 1))
		}
		if g.chance(20) {
			u = append(u, in+" IS NOT NULL")
		}
		return fmt.Sprintf("%s NOT IN (SELECT %s FROM %s AS %s%s)", outer, in, t.name, a, where(u))
	}
	var u []string
	if g.chance(50) {
		u = append(u, g.pred(tc, 1))
	}
	return fmt.Sprintf("%s <> ALL (SELECT %s FROM %s AS %s%s)", outer, in, t.name, a, where(u))
}

// corrCond is a condition with a subquery that needs general
// decorrelation: correlated by an inequality or an expression, under OR
// or CASE, a correlated NOT IN, IN over a grouped or limited subquery, a
// subquery nested in a subquery, a scalar subquery compared.
func (g *gen) corrCond(sc []dcol) string {
	t := pick(g, g.tables)
	a := g.name("y")
	tc := qualify(a, t.cols)
	eq := g.equi(sc, tc)
	if eq == "" {
		return fmt.Sprintf("EXISTS (SELECT 1 FROM %s AS %s)", t.name, a)
	}
	l, rr, _ := strings.Cut(eq, " = ")
	outer, in := l, rr
	if strings.HasPrefix(l, a+".") {
		outer, in = rr, l
	}
	op := pick(g, []string{"<", ">", "<=", ">=", "<>", "="})
	corr := in + " " + op + " " + outer
	switch g.intn(9) {
	case 0:
		// Scalar count correlated by an inequality (count over no row: 0).
		return fmt.Sprintf("(SELECT count(*) FROM %s AS %s WHERE %s) %s %d", t.name, a, corr, pick(g, []string{">", "<", "=", ">="}), g.intn(3))
	case 1:
		// Scalar min/max compared with the outer column (NULL over no row).
		return fmt.Sprintf("%s %s (SELECT %s(%s) FROM %s AS %s WHERE %s)", outer, pick(g, []string{"<", ">=", "="}), pick(g, []string{"min", "max"}), in, t.name, a, corr)
	case 2:
		// EXISTS under OR, NOT EXISTS under CASE.
		return fmt.Sprintf("(%s OR %sEXISTS (SELECT 1 FROM %s AS %s WHERE %s))", g.pred(sc, 1), pick(g, []string{"", "NOT "}), t.name, a, corr)
	case 3:
		return fmt.Sprintf("CASE WHEN EXISTS (SELECT 1 FROM %s AS %s WHERE %s) THEN %s ELSE %s END", t.name, a, corr, g.pred(sc, 1), g.pred(sc, 1))
	case 4:
		// Correlated NOT IN, NULLs on both sides.
		return fmt.Sprintf("%s NOT IN (SELECT %s FROM %s AS %s WHERE %s)", outer, in, t.name, a, g.pred(append(append([]dcol{}, sc...), tc...), 1))
	case 5:
		// IN over a grouped subquery.
		return fmt.Sprintf("%s %sIN (SELECT %s FROM %s AS %s GROUP BY %s HAVING count(*) %s 1)", outer, pick(g, []string{"", "NOT "}), in, t.name, a, in, pick(g, []string{">", "="}))
	case 6:
		// IN over a subquery limited per outer row.
		return fmt.Sprintf("%s IN (SELECT %s FROM %s AS %s WHERE %s ORDER BY %s DESC NULLS LAST LIMIT %d)", outer, in, t.name, a, corr, in, 1+g.intn(2))
	case 7:
		// Nested: the inner subquery reads both enclosing levels.
		t2 := pick(g, g.tables)
		b := g.name("z")
		t2c := qualify(b, t2.cols)
		eq2 := g.equi(tc, t2c)
		if eq2 == "" {
			eq2 = "true"
		}
		return fmt.Sprintf("EXISTS (SELECT 1 FROM %s AS %s WHERE %s AND %sEXISTS (SELECT 1 FROM %s AS %s WHERE %s AND %s))",
			t.name, a, corr, pick(g, []string{"", "NOT "}), t2.name, b, eq2, g.pred(append(append([]dcol{}, sc...), t2c...), 1))
	}
	// IN under OR, correlated by another condition.
	return fmt.Sprintf("(%s OR %s IN (SELECT %s FROM %s AS %s WHERE %s))", g.pred(sc, 1), outer, in, t.name, a, g.pred(append(append([]dcol{}, sc...), tc...), 1))
}

// setQuery is a tree of UNION [ALL], INTERSECT [ALL] and EXCEPT [ALL]
// over SELECTs of one table or a join, with 1–2 columns.
func (g *gen) setQuery() (string, []dcol) {
	kinds := pick(g, [][]kind{{kInt}, {kInt}, {kText}, {kInt, kText}, {kInt, kInt}, {kNum}, {kFloat, kInt}})
	q, _ := g.setTree(kinds, 1+g.intn(2), true)
	cols := make([]dcol, len(kinds))
	for i, k := range kinds {
		cols[i] = dcol{name: fmt.Sprintf("c%d", i), k: k}
	}
	return q, cols
}

// setTree returns the query and whether it is a set operation (so needs
// parentheses as an operand, or may go without them on the left).
func (g *gen) setTree(kinds []kind, d int, top bool) (string, bool) {
	if d <= 0 || (!top && g.chance(30)) {
		return g.setBranch(kinds), false
	}
	l, lop := g.setTree(kinds, d-1, false)
	r, rop := g.setTree(kinds, d-1, false)
	op := pick(g, []string{"UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"})
	if lop || g.chance(30) {
		l = "(" + l + ")"
	}
	if rop || g.chance(30) {
		r = "(" + r + ")"
	}
	return l + " " + op + " " + r, true
}

// setBranch is a SELECT of the kinds, normalised, preferring key columns
// so that the operands share rows.
func (g *gen) setBranch(kinds []kind) string {
	f := g.joinFrom(1 + g.intn(100)/80)
	var items []string
	for i, k := range kinds {
		var keys, any []dcol
		for _, c := range f.cols {
			if c.k == k {
				any = append(any, c)
				if keyCols[baseName(c)] {
					keys = append(keys, c)
				}
			}
		}
		var x string
		switch {
		case len(keys) > 0 && g.chance(75):
			x = pick(g, keys).name
		case len(any) > 0 && g.chance(60):
			x = pick(g, any).name
		default:
			x = g.expr(f.cols, k, 1)
		}
		items = append(items, fmt.Sprintf("%s AS c%d", normalise(x, k), i))
	}
	conds := f.where
	if g.chance(50) {
		conds = append(conds, g.pred(f.cols, 1))
	}
	return "SELECT " + strings.Join(items, ", ") + " FROM " + f.sql + where(conds)
}
