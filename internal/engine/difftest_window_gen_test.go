package engine_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestDifferentialWindows is the differential test of window functions:
// row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag, lead
// (offsets and defaults), first_value, last_value, nth_value, and count,
// sum, avg, min, max, the variances, bool_and, bool_or, string_agg,
// array_agg, the regression aggregates and the json aggregates, some
// with a FILTER, over ROWS, RANGE and GROUPS frames with
// and without an exclusion, one to three of them
// per view, over random partitions and orders with ties and NULLs (first
// or last, ascending or descending), under a filter or above one. After
// every transaction of inserts, updates (moving rows within and between
// partitions) and deletes, each view must equal the from-scratch
// evaluation and PostgreSQL.
//
// Determinism: among rows tied on the ORDER BY, PostgreSQL numbers and
// frames rows in an unspecified order, so every function whose result
// depends on that order (row_number, ntile, lag, lead, the *_value
// functions, and anything over a ROWS frame) orders by the primary key
// last; the ranks, cume_dist and aggregates over RANGE frames, which
// treat peers alike, keep their ties. Float values are quarters, whose
// sums are exact both ways.
func TestDifferentialWindows(t *testing.T) {
	t.Parallel()
	runDifferential(t, diffShape{
		name:     "difftest-windows",
		tables:   (*gen).windowTables,
		view:     (*gen).windowView,
		stmts:    (*gen).windowStmts,
		minViews: 2, maxViews: 4, txns: 25,
		wantViews: 200, wantTxns: 2500,
	})
}

// windowTables is one table with a primary key, a partition column p of
// three values, an order column o of five (both nullable), values of
// each numeric kind and a timestamp.
func (g *gen) windowTables() []*dtable {
	t := &dtable{name: "w", pk: true, cols: []dcol{
		{name: "id", typ: "integer", k: kInt, notNull: true},
		{name: "p", typ: "integer", k: kInt, notNull: g.chance(30), dom: []string{"0", "1", "2"}},
		{name: "o", typ: "integer", k: kInt, notNull: g.chance(30), dom: []string{"0", "1", "2", "3", "4"}},
		{name: "v", typ: pick(g, []string{"smallint", "integer", "bigint"}), k: kInt, notNull: g.chance(30)},
		{name: "n", typ: "numeric(6,2)", k: kNum, scale: 2, notNull: g.chance(30)},
		{name: "q", typ: "double precision", k: kFloat, notNull: g.chance(30)},
		{name: "ts", typ: "timestamp", k: kTS, notNull: g.chance(30)},
	}}
	return []*dtable{t}
}

const maxWindowRows = 20

func (g *gen) windowStmts(st state) []string {
	t := g.tables[0]
	if st.size(t) > maxWindowRows {
		return []string{g.delete(st, t)}
	}
	switch r := g.intn(100); {
	case r < 35:
		return []string{g.insertValues(st, t, false)}
	case r < 50:
		// Move rows between partitions, or along the order.
		c := pick(g, []string{"p", "o"})
		return []string{fmt.Sprintf("UPDATE w SET %s = %s WHERE %s", c, g.valueLit(colNamed(t, c)), g.pred(t.cols, 1))}
	case r < 70:
		return []string{g.update(t)}
	case r < 80:
		// Two changes that may undo each other.
		return []string{g.insertValues(st, t, false), g.delete(st, t)}
	}
	return []string{g.delete(st, t)}
}

// windowOver is an OVER clause: a partition, an order (total when total
// is set: the primary key last), and the frame when given.
func (g *gen) windowOver(total bool, frame string) string {
	var parts []string
	switch g.intn(4) {
	case 0:
	case 1:
		parts = append(parts, "PARTITION BY p")
	case 2:
		parts = append(parts, "PARTITION BY p, o % 2")
	default:
		parts = append(parts, "PARTITION BY p")
	}
	var keys []string
	for _, c := range []string{"o", "v", "n"} {
		if g.chance(40) || c == "o" && g.chance(50) {
			k := c
			if g.chance(40) {
				k += " DESC"
			}
			if g.chance(30) {
				k += pick(g, []string{" NULLS FIRST", " NULLS LAST"})
			}
			keys = append(keys, k)
		}
	}
	if total {
		keys = append(keys, "id"+pick(g, []string{"", " DESC"}))
	}
	if len(keys) == 0 && strings.HasPrefix(frame, "GROUPS") {
		keys = append(keys, "o") // GROUPS requires an ORDER BY
	}
	if len(keys) > 0 {
		parts = append(parts, "ORDER BY "+strings.Join(keys, ", "))
	}
	if frame != "" {
		parts = append(parts, frame)
	}
	return "OVER (" + strings.Join(parts, " ") + ")"
}

// windowFrame is a frame, ROWS (needing a total order) or RANGE, or none,
// with an exclusion a quarter of the time.
func (g *gen) windowFrame() (frame string, rows bool) {
	frame, rows = g.windowExtent()
	if frame != "" && g.chance(25) {
		frame += pick(g, []string{" EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES", " EXCLUDE NO OTHERS"})
	}
	return frame, rows
}

// windowExtent is a frame's extent, ROWS or RANGE, or none.
func (g *gen) windowExtent() (frame string, rows bool) {
	bound := func(start bool) string {
		switch g.intn(5) {
		case 0:
			if start {
				return "UNBOUNDED PRECEDING"
			}
			return "UNBOUNDED FOLLOWING"
		case 1:
			return fmt.Sprintf("%d PRECEDING", g.intn(3))
		case 2:
			return fmt.Sprintf("%d FOLLOWING", g.intn(3))
		}
		return "CURRENT ROW"
	}
	mode, rows := "ROWS", true
	switch g.intn(5) {
	case 0:
		return "", false
	case 1:
		return "RANGE BETWEEN " + pick(g, []string{"UNBOUNDED PRECEDING", "CURRENT ROW"}) + " AND " +
			pick(g, []string{"CURRENT ROW", "UNBOUNDED FOLLOWING"}), false
	case 2:
		// GROUPS treats peers alike: no total order needed.
		mode, rows = "GROUPS", false
	}
	// ROWS or GROUPS: an end no earlier than the start, as PostgreSQL
	// requires of the bounds' kinds.
	for {
		s, e := bound(true), bound(false)
		rank := func(b string) int {
			switch {
			case strings.HasPrefix(b, "UNBOUNDED PRECEDING"):
				return 0
			case strings.HasSuffix(b, "PRECEDING"):
				return 1
			case b == "CURRENT ROW":
				return 2
			case strings.HasSuffix(b, "FOLLOWING") && !strings.HasPrefix(b, "UNBOUNDED"):
				return 3
			}
			return 4
		}
		if rank(s) <= rank(e) && !(rank(s) == 3 && rank(e) < 3) {
			return mode + " BETWEEN " + s + " AND " + e, rows
		}
	}
}

// windowCall is one window function call with its OVER clause.
func (g *gen) windowCall() string {
	val := pick(g, []string{"v", "n", "q", "id", "o"})
	switch g.intn(14) {
	case 0:
		return "row_number() " + g.windowOver(true, "")
	case 1:
		return "rank() " + g.windowOver(false, "")
	case 2:
		return "dense_rank() " + g.windowOver(false, "")
	case 3:
		return "percent_rank() " + g.windowOver(false, "")
	case 4:
		return "cume_dist() " + g.windowOver(false, "")
	case 5:
		return fmt.Sprintf("ntile(%d) ", 1+g.intn(4)) + g.windowOver(true, "")
	case 6, 7:
		f := pick(g, []string{"lag", "lead"})
		args := val
		if g.chance(60) {
			args += fmt.Sprintf(", %d", g.intn(4))
			if g.chance(50) {
				def := pick(g, []string{"0", "-1", "id"})
				if val == "n" || val == "q" {
					def = "0"
				}
				args += ", " + def
			}
		}
		return fmt.Sprintf("%s(%s) ", f, args) + g.windowOver(true, "")
	case 8:
		fr, _ := g.windowFrame()
		f := pick(g, []string{"first_value", "last_value"})
		return fmt.Sprintf("%s(%s) ", f, val) + g.windowOver(true, fr)
	case 9:
		fr, _ := g.windowFrame()
		return fmt.Sprintf("nth_value(%s, %d) ", val, 1+g.intn(3)) + g.windowOver(true, fr)
	}
	if g.chance(20) {
		return g.rangeOffsetCall(val)
	}
	fr, rows := g.windowFrame()
	var agg string
	switch g.intn(5) {
	case 1:
		// The regression aggregates, rounded (their exact sums and
		// PostgreSQL's Youngs–Cramer update differ in the last digits),
		// over columns whose values a double holds exactly (integers,
		// quarters): over n's hundredths PostgreSQL's update leaves a
		// constant frame a variance of rounding noise, and a corr or
		// slope of it where the exact sums give NULL. The json
		// aggregates list the frame in the window's order, which must be
		// total.
		y, x := pick(g, []string{"v", "q", "id"}), pick(g, []string{"o", "q", "v"})
		f := pick(g, []string{"corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy"})
		switch g.intn(4) {
		case 0:
			agg = "regr_count(" + y + ", " + x + ")"
		case 1:
			agg = pick(g, []string{"json_agg(" + val + ")", "jsonb_agg(" + val + ")", "json_object_agg(id, " + val + ")", "jsonb_object_agg(id % 4, " + val + ")"})
			rows = true
		default:
			if g.chance(20) {
				agg += " FILTER (WHERE " + pick(g, []string{"o > 1", "v IS NOT NULL", "id % 3 <> 0", "p = 1"}) + ")"
			}
			return fmt.Sprintf("round((%s(%s, %s)%s %s)::numeric, 6)", f, y, x, agg, g.windowOver(rows || g.chance(30), fr))
		}
	case 0:
		// The variances over integers and numeric only (see the
		// aggregates' test), the booleans; string_agg and array_agg list
		// the frame in the window's order, which must be total.
		exact := pick(g, []string{"v", "n", "id", "o"})
		agg = pick(g, []string{
			"var_pop(" + exact + ")", "var_samp(" + exact + ")", "stddev(" + exact + ")", "stddev_pop(" + exact + ")",
			"bool_and(" + val + " > 1)", "bool_or(" + val + " < 1)", "every(" + val + " <> 2)",
			"string_agg(" + val + "::text, ',')", "string_agg(o::text, id::text)", "array_agg(" + val + ")",
		})
		if strings.HasPrefix(agg, "string_agg") || strings.HasPrefix(agg, "array_agg") {
			rows = true
		}
	default:
		agg = pick(g, []string{"count(*)", "count(" + val + ")", "sum(" + val + ")", "avg(" + val + ")", "min(" + val + ")", "max(" + val + ")"})
	}
	if g.chance(20) {
		agg += " FILTER (WHERE " + pick(g, []string{"o > 1", "v IS NOT NULL", "id % 3 <> 0", "p = 1"}) + ")"
	}
	return agg + " " + g.windowOver(rows || g.chance(30), fr)
}

// rangeOffsetCall is an aggregate over a RANGE frame with an offset: one
// ORDER BY value (an integer, numeric, float, timestamp or date, with
// interval offsets for the last two, ascending or
// descending, NULLs first or last), offsets of its type, sometimes an
// exclusion. Only aggregates whose result does not depend on the order of
// peers: the one ORDER BY value ties.
func (g *gen) rangeOffsetCall(val string) string {
	key := pick(g, []string{"o", "v", "n", "q", "ts", "ts::date"})
	off := func() string {
		switch key {
		case "ts":
			return pick(g, []string{"'0 seconds'", "'10 hours'", "'1 day'", "'1 day 1 hour'"})
		case "ts::date":
			return pick(g, []string{"'0 days'", "'1 day'", "'2 days'", "'12 hours'"})
		case "n":
			return pick(g, []string{"0", "0.5", "1.25", "2"})
		case "q":
			return pick(g, []string{"0", "0.25", "1.5", "'Infinity'"})
		}
		return fmt.Sprint(g.intn(4))
	}
	bound := func(start bool) string {
		switch g.intn(4) {
		case 0:
			if start {
				return pick(g, []string{"UNBOUNDED PRECEDING", "CURRENT ROW"})
			}
			return pick(g, []string{"UNBOUNDED FOLLOWING", "CURRENT ROW"})
		case 1:
			return off() + " FOLLOWING"
		}
		return off() + " PRECEDING"
	}
	var s, e string
	for {
		// PostgreSQL refuses a frame starting at the current row and
		// ending before it, and one starting after it and ending at or
		// before it.
		s, e = bound(true), bound(false)
		cur := s == "CURRENT ROW"
		foll := strings.HasSuffix(s, " FOLLOWING")
		prec := strings.HasSuffix(e, " PRECEDING")
		if !(cur && prec) && !(foll && (prec || e == "CURRENT ROW")) {
			break
		}
	}
	isOff := func(b string) bool { return !strings.HasPrefix(b, "UNBOUNDED") && b != "CURRENT ROW" }
	if !isOff(s) && !isOff(e) {
		s = off() + " PRECEDING" // an offset at least
	}
	order := key
	if g.chance(40) {
		order += " DESC"
	}
	if g.chance(40) {
		order += pick(g, []string{" NULLS FIRST", " NULLS LAST"})
	}
	frame := "RANGE BETWEEN " + s + " AND " + e
	if g.chance(25) {
		frame += pick(g, []string{" EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES"})
	}
	part := pick(g, []string{"", "PARTITION BY p "})
	agg := pick(g, []string{"count(*)", "count(" + val + ")", "sum(" + val + ")", "avg(" + val + ")", "min(" + val + ")", "max(" + val + ")",
		"var_pop(" + pick(g, []string{"v", "n", "id"}) + ")", "bool_or(" + val + " > 1)"})
	if g.chance(20) {
		agg += " FILTER (WHERE id % 2 = 0)"
	}
	return agg + " OVER (" + part + "ORDER BY " + order + " " + frame + ")"
}

func (g *gen) windowView() (string, []dcol) {
	var sel []string
	cols := intCols("id")
	sel = append(sel, "id")
	if g.chance(50) {
		sel = append(sel, "p", "o")
		cols = append(cols, intCols("p", "o")...)
	}
	for i := range 1 + g.intn(3) {
		name := fmt.Sprintf("f%d", i)
		sel = append(sel, g.windowCall()+" AS "+name)
		cols = append(cols, dcol{name: name, typ: "text", k: kText})
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM w"
	if g.chance(25) {
		q += " WHERE " + g.pred(g.tables[0].cols, 1)
	}
	if g.chance(20) {
		// A filter over the results.
		q = fmt.Sprintf("SELECT * FROM (%s) s WHERE f0 IS NOT NULL", q)
	}
	return q, cols
}
