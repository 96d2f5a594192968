package engine_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestDifferentialMoney is the differential test of views over money:
// sum, min, max and count per group and over the whole table, HAVING on a
// sum, grouping by an amount, DISTINCT, arithmetic with integers, numerics
// and money (division rounds toward zero), casts to numeric and text,
// cash_words, a join on amounts and ORDER BY … LIMIT. Transactions insert,
// scale, shift, null and delete amounts, far from money's range. (The
// harness's own paired changes take money columns for text ones: those
// that compare an amount with a text literal fail, on both sides alike.)
// Each of the 100 rapid cases (20 under -short) makes 3–5 views and runs
// 30 transactions.
func TestDifferentialMoney(t *testing.T) {
	t.Parallel()
	runDifferential(t, diffShape{
		name:     "difftest-money",
		tables:   (*gen).moneyTables,
		view:     (*gen).moneyView,
		stmts:    (*gen).moneyStmts,
		minViews: 3, maxViews: 5, txns: 30,
		wantViews: 300, wantTxns: 3000,
	})
}

// moneyAmounts are the literals amounts take: separators, parentheses,
// a dropped third decimal, zero and negatives.
var moneyAmounts = []string{"'$1.50'", "'-0.25'", "'0'", "'1,000.01'", "'(3)'", "'12.345'", "'$7'", "'-$7.00'"}

// moneyTables is one table m of a group key g and two amounts a and b.
func (g *gen) moneyTables() []*dtable {
	t := &dtable{name: "m", pk: true, cols: []dcol{
		{name: "id", typ: "integer", k: kInt, notNull: true},
		{name: "g", typ: "integer", k: kInt, notNull: g.chance(50), dom: []string{"0", "1", "2"}},
		{name: "a", typ: "money", k: kText, notNull: g.chance(30), dom: moneyAmounts},
		{name: "b", typ: "money", k: kText, dom: moneyAmounts},
	}}
	return []*dtable{t}
}

// moneyCols are a view's output columns, which no other view reads.
func moneyCols(names ...string) []dcol {
	out := make([]dcol, len(names))
	for i, n := range names {
		out[i] = dcol{name: n, typ: "text", k: kText}
	}
	return out
}

func (g *gen) moneyView() (string, []dcol) {
	amt := pick(g, moneyAmounts)
	switch g.intn(10) {
	case 0:
		return "SELECT g, sum(a) AS s, min(a) AS lo, max(b) AS hi, count(a) AS n FROM m GROUP BY g", moneyCols("g", "s", "lo", "hi", "n")
	case 1:
		return fmt.Sprintf("SELECT g, sum(a + b) AS s FROM m GROUP BY g HAVING sum(a) > %s", amt), moneyCols("g", "s")
	case 2:
		return "SELECT a, count(*) AS n, sum(b) AS s FROM m GROUP BY a", moneyCols("a", "n", "s")
	case 3:
		return fmt.Sprintf("SELECT id, a * 3 AS x, a / 2 AS h, b * 1.5 AS f, 2 * b AS d, a::numeric AS n, b::text AS t FROM m WHERE a > b OR b = %s", amt),
			moneyCols("id", "x", "h", "f", "d", "n", "t")
	case 4:
		return "SELECT id, a FROM m ORDER BY a DESC NULLS LAST, id LIMIT 3", moneyCols("id", "a")
	case 5:
		return "SELECT sum(a) AS s, max(a) AS hi, min(b) AS lo FROM m", moneyCols("s", "hi", "lo")
	case 6:
		return "SELECT DISTINCT b FROM m", moneyCols("b")
	case 7:
		return "SELECT x.g, sum(x.a) AS s, count(*) AS n FROM m x JOIN m y ON x.a = y.b GROUP BY x.g", moneyCols("g", "s", "n")
	case 8:
		return "SELECT id, cash_words(a) AS w FROM m WHERE g IS NOT NULL", moneyCols("id", "w")
	}
	return fmt.Sprintf("SELECT g, min(a - b) AS d, max(a * 0.5) AS h FROM m WHERE a <> %s GROUP BY g", amt), moneyCols("g", "d", "h")
}

func (g *gen) moneyStmts(st state) []string {
	t := g.tables[0]
	where := func() string {
		if ids := st.ids(t); len(ids) > 0 && g.chance(50) {
			return "id = " + pick(g, ids)
		}
		return pick(g, []string{"g = " + pick(g, []string{"0", "1", "2"}), "a > " + pick(g, moneyAmounts), "b IS NULL"})
	}
	switch r := g.intn(100); {
	case r < 40 || st.size(t) == 0:
		var rows []string
		for range 1 + g.intn(3) {
			vals := []string{g.freshID()}
			for _, c := range t.cols[1:] {
				if !c.notNull && g.chance(15) {
					vals = append(vals, "NULL")
				} else {
					vals = append(vals, pick(g, c.dom))
				}
			}
			rows = append(rows, "("+strings.Join(vals, ", ")+")")
		}
		return []string{"INSERT INTO m VALUES " + strings.Join(rows, ", ")}
	case r < 75 && st.size(t) < 20:
		set := pick(g, []string{"a = a * 2", "a = a + b", "b = b / 3", "b = b * -1", "a = " + pick(g, moneyAmounts),
			"b = NULL", "a = b - " + pick(g, moneyAmounts), "g = 2 - g"})
		if strings.HasPrefix(set, "a") && g.tables[0].cols[2].notNull {
			set = "a = coalesce(" + set[len("a = "):] + ", '0'::money)"
		}
		return []string{fmt.Sprintf("UPDATE m SET %s WHERE %s", set, where())}
	}
	return []string{"DELETE FROM m WHERE " + where()}
}
