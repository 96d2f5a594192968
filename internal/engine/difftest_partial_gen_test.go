package engine_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Generators of TestDifferentialPartial: star schemas of change-stream
// tables (a fact table f referencing dimension tables d1…d3 by key, a
// dimension possibly referencing another, each foreign key NOT NULL or
// nullable), views that the engine maintains partially (inner joins along
// the keys, predicates on the root and on dimensions, projections keeping
// the root's key, computed columns) or by normalisation (aggregates, outer
// joins, projections dropping the key, or WITH (propagation = normalise)),
// and transactions of change events of all seven kinds, as COPY … WITH
// (FORMAT debezium) or (FORMAT upsert) lines.
//
// The generator keeps its own copy of every table, so each event is
// truthful: an update carries the row as it was, a partial update or a
// true partial deletion names a key that exists and leaves unknown only
// columns that keep their value, an insertion a key that does not. The
// foreign keys hold after every event (a dimension row is deleted only
// when nothing references it; a new or re-pointed reference names an
// existing row), so they hold at every transaction boundary, as partial
// propagation assumes.

// pnull is NULL in a generated row; no generated text contains it.
const pnull = "\x00"

type pcol struct {
	name string
	text bool // text, else integer
	null bool // nullable
	ref  int  // index of the table a foreign key references, else -1
}

type ptable struct {
	name   string
	cols   []pcol // cols[0] is the key, id
	maxKey int64  // keys are drawn from 1..maxKey
	rows   map[int64][]string
	// complete: the table declares complete_rows, and its events leave
	// no column unknown.
	complete bool
}

// pgen generates one case: a schema, views, and transactions.
type pgen struct {
	*gen
	mixed  bool // views the engine normalises, as well as partial ones
	pt     []*ptable
	totals *partialTotals
	txid   int
}

// partialTotals counts what the generated cases check.
type partialTotals struct {
	cases, onlyPartial, views, partial, normalised, txns, committed, rolledBack, cancelling, copies int
	events                                                                                          map[string]int
}

// pdirective is one datadriven directive of a generated case.
type pdirective struct{ cmd, input string }

func (g *pgen) schema() []pdirective {
	f := &ptable{name: "f", maxKey: 10, cols: []pcol{{name: "id", ref: -1}, {name: "a", null: true, ref: -1}, {name: "s", text: true, null: true, ref: -1}}}
	g.pt = []*ptable{f}
	for i := 1; i <= 1+g.intn(3); i++ {
		d := &ptable{name: fmt.Sprintf("d%d", i), maxKey: 5, cols: []pcol{{name: "id", ref: -1}, {name: "x", text: true, null: true, ref: -1}, {name: "m", null: true, ref: -1}}}
		parent := g.pt[g.intn(len(g.pt))]
		parent.cols = append(parent.cols, pcol{name: d.name + "_id", null: g.chance(30), ref: i})
		g.pt = append(g.pt, d)
	}
	var b strings.Builder
	for _, t := range g.pt {
		t.rows = map[int64][]string{}
		var cols []string
		for i, c := range t.cols {
			def := c.name + " int"
			if c.text {
				def = c.name + " text"
			}
			switch {
			case i == 0:
				def += " PRIMARY KEY"
			case !c.null:
				def += " NOT NULL"
			}
			cols = append(cols, def)
		}
		opts := "change_stream = true"
		if t.complete = g.chance(25); t.complete {
			opts += ", complete_rows = true"
		}
		fmt.Fprintf(&b, "CREATE TABLE %s (%s) WITH (%s);\n", t.name, strings.Join(cols, ", "), opts)
	}
	return []pdirective{{"exec", b.String()}}
}

// ---- views ----

// children returns the joins below t: its foreign key columns.
func (g *pgen) children(t *ptable) []pcol {
	var out []pcol
	for _, c := range t.cols {
		if c.ref >= 0 {
			out = append(out, c)
		}
	}
	return out
}

// joinTree picks a root and the tables joined to it along foreign keys,
// and returns the FROM clause and the joined tables, root first.
func (g *pgen) joinTree(left bool) (string, []*ptable) {
	root := g.pt[0]
	var withKids []*ptable
	for _, t := range g.pt[1:] {
		if len(g.children(t)) > 0 {
			withKids = append(withKids, t)
		}
	}
	if len(withKids) > 0 && g.chance(25) {
		root = pick(g.gen, withKids)
	}
	from := root.name
	joined := []*ptable{root}
	join := " JOIN "
	if left {
		join = " LEFT JOIN "
	}
	for i := 0; i < len(joined); i++ {
		for _, c := range g.children(joined[i]) {
			if g.chance(65) {
				d := g.pt[c.ref]
				on := fmt.Sprintf("%s.%s = %s.id", joined[i].name, c.name, d.name)
				if g.chance(25) {
					on = fmt.Sprintf("%s.id = %s.%s", d.name, joined[i].name, c.name)
				}
				from += join + d.name + " ON " + on
				joined = append(joined, d)
			}
		}
	}
	return from, joined
}

func (g *pgen) colRef(ts []*ptable, text bool) string {
	var refs []string
	for _, t := range ts {
		for _, c := range t.cols[1:] {
			if c.text == text {
				refs = append(refs, t.name+"."+c.name)
			}
		}
	}
	return pick(g.gen, refs) // every table has a text and an integer column
}

// predicate reads the columns of ts.
func (g *pgen) predicate(ts []*ptable) string {
	switch g.intn(6) {
	case 0:
		return g.colRef(ts, false) + " > " + strconv.Itoa(g.intn(4))
	case 1:
		return g.colRef(ts, true) + " <> " + pick(g.gen, []string{"'x'", "'y'", "''"})
	case 2:
		return g.colRef(ts, true) + " IN ('x', 'z')"
	case 3:
		return g.colRef(ts, false) + " IS NOT NULL"
	case 4:
		return "(" + g.colRef(ts, false) + " < 2 OR " + g.colRef(ts, true) + " = 'y')"
	}
	return g.colRef(ts, true) + " IS NULL"
}

// expr is a computed column of one or two input columns: of two, a
// partial change may leave one unknown and set the other
// (testdata/partial_project.txt).
func (g *pgen) expr(ts []*ptable) string {
	switch g.intn(6) {
	case 0:
		return g.colRef(ts, false) + " + " + g.colRef(ts, false)
	case 1:
		return "coalesce(" + g.colRef(ts, true) + ", " + g.colRef(ts, true) + ")"
	case 2:
		return g.colRef(ts, false) + " * 2 - 1"
	case 3:
		return "upper(" + g.colRef(ts, true) + ")"
	case 4:
		return "CASE WHEN " + g.colRef(ts, false) + " > 2 THEN 'hi' ELSE 'lo' END"
	}
	return "coalesce(" + g.colRef(ts, true) + ", '-')"
}

// view returns a CREATE MATERIALIZED VIEW and marks the tables that must
// get no unknown columns. In a mixed case the first view is one the
// engine normalises, so that every run checks enough of them whatever
// rapid draws.
func (g *pgen) view(name string, first bool) string {
	// rapid's draws lean small: the common shapes take the small values.
	r := g.intn(100)
	switch {
	case !g.mixed:
		r = 0
	case first:
		r = 68 + r%32
	}
	switch {
	case r >= 85: // an aggregate over the join: normalised
		from, ts := g.joinTree(false)
		grp := g.colRef(ts, true)
		return fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS SELECT %s AS c0, count(*) AS c1, sum(%s) AS c2 FROM %s GROUP BY %s", name, grp, g.colRef(ts, false), from, grp)
	case r >= 75: // an outer join: normalised
		from, ts := g.joinTree(true)
		return fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS SELECT %s.id AS c0, %s AS c1, %s AS c2 FROM %s", name, ts[0].name, g.colRef(ts, true), g.colRef(ts, false), from)
	case r >= 68: // a projection without the root's key: normalised
		from, ts := g.joinTree(false)
		return fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS SELECT %s AS c0, %s AS c1 FROM %s", name, g.colRef(ts, true), g.colRef(ts, false), from)
	}
	from, ts := g.joinTree(false)
	root := ts[0]
	items := []string{root.name + ".id"}
	for range 1 + g.intn(3) {
		t := pick(g.gen, ts)
		items = append(items, t.name+"."+pick(g.gen, t.cols).name)
	}
	if g.chance(30) {
		items = append(items, g.expr(ts))
	}
	rand := g.intn(len(items))
	items[0], items[rand] = items[rand], items[0]
	for i := range items {
		items[i] += fmt.Sprintf(" AS c%d", i)
	}
	var preds []string
	if g.chance(40) {
		preds = append(preds, g.predicate(ts[:1]))
	}
	if len(ts) > 1 && g.chance(40) {
		preds = append(preds, g.predicate(ts[1:]))
	}
	if len(ts) > 1 && g.chance(15) {
		// Across the root and a dimension: it goes above the joins,
		// where the topmost join keeps its left rows.
		if g.chance(50) {
			preds = append(preds, g.colRef(ts[:1], false)+" <= "+g.colRef(ts[1:], false))
		} else {
			preds = append(preds, g.colRef(ts[:1], true)+" IS DISTINCT FROM "+g.colRef(ts[1:], true))
		}
	}
	with := ""
	switch r := g.intn(100); {
	case r >= 85 && (len(preds) == 0 || len(ts) > 1 || root.complete):
		// A predicate without a join is normalised unless the root
		// declares complete_rows.
		with = " WITH (propagation = partial)"
	case r >= 75 && g.mixed:
		with = " WITH (propagation = normalise)"
	}
	q := fmt.Sprintf("CREATE MATERIALIZED VIEW %s%s AS SELECT %s FROM %s", name, with, strings.Join(items, ", "), from)
	if len(preds) > 0 {
		q += " WHERE " + strings.Join(preds, " AND ")
	}
	return q
}

// ---- the tables' rows ----

func (g *pgen) value(c pcol) string {
	if c.ref >= 0 {
		keys := slices.Sorted(maps.Keys(g.pt[c.ref].rows))
		if len(keys) == 0 || (c.null && g.chance(10)) {
			return pnull
		}
		return strconv.FormatInt(pick(g.gen, keys), 10)
	}
	if c.null && g.chance(12) {
		return pnull
	}
	if c.text {
		return pick(g.gen, []string{"x", "y", "z", ""})
	}
	return strconv.Itoa(g.intn(5))
}

// referenced reports whether a row of another table references key of t.
func (g *pgen) referenced(t *ptable, key int64) bool {
	ti := slices.Index(g.pt, t)
	k := strconv.FormatInt(key, 10)
	for _, p := range g.pt {
		for i, c := range p.cols {
			if c.ref != ti {
				continue
			}
			for _, row := range p.rows {
				if row[i] == k {
					return true
				}
			}
		}
	}
	return false
}

// ptrans is one event: key's row before and after (nil when absent).
type ptrans struct {
	t             *ptable
	key           int64
	before, after []string
}

// op draws a change of t that keeps the foreign keys, and applies it to
// the generator's copy. ok is false when no change was possible.
func (g *pgen) op(t *ptable, upsert bool) (ptrans, bool) {
	var present, absent []int64
	for k := int64(1); k <= t.maxKey; k++ {
		if _, ok := t.rows[k]; ok {
			present = append(present, k)
		} else {
			absent = append(absent, k)
		}
	}
	r := g.intn(100)
	switch {
	case r < 45 && len(present) > 0:
		k := pick(g.gen, present)
		old := t.rows[k]
		row := slices.Clone(old)
		for range g.intn(3) {
			i := 1 + g.intn(len(t.cols)-1)
			if v := g.value(t.cols[i]); v != pnull || t.cols[i].null {
				row[i] = v
			}
		}
		return g.apply(ptrans{t: t, key: k, before: old, after: row}), true
	case r < 75 || len(present) == 0:
		if len(absent) == 0 {
			return ptrans{}, false
		}
		k := pick(g.gen, absent)
		if upsert && g.chance(15) { // a safe deletion of a key that is not there
			return ptrans{t: t, key: k}, true
		}
		row := []string{strconv.FormatInt(k, 10)}
		for _, c := range t.cols[1:] {
			v := g.value(c)
			if v == pnull && !c.null {
				return ptrans{}, false // nothing to reference yet
			}
			row = append(row, v)
		}
		return g.apply(ptrans{t: t, key: k, after: row}), true
	}
	var free []int64
	for _, k := range present {
		if !g.referenced(t, k) {
			free = append(free, k)
		}
	}
	if len(free) == 0 {
		return ptrans{}, false
	}
	k := pick(g.gen, free)
	return g.apply(ptrans{t: t, key: k, before: t.rows[k]}), true
}

func (g *pgen) apply(tr ptrans) ptrans {
	if tr.after == nil {
		delete(tr.t.rows, tr.key)
	} else {
		tr.t.rows[tr.key] = tr.after
	}
	return tr
}

func (tr ptrans) inverse() ptrans {
	return ptrans{t: tr.t, key: tr.key, before: tr.after, after: tr.before}
}

// ---- events ----

func (g *pgen) jsonValue(c pcol, v string) string {
	switch {
	case v == pnull:
		return "null"
	case c.text:
		b, _ := json.Marshal(v)
		return string(b)
	case g.chance(15):
		return strconv.Quote(v) // a number given as a string
	}
	return v
}

// jsonRow renders a row; unknown marks the columns sent as Debezium's
// unavailable-value placeholder, keyOnly sends the key alone (with the
// other columns NULL when nulls is set).
func (g *pgen) jsonRow(t *ptable, row []string, unknown []bool, keyOnly, nulls, skipKey bool) string {
	var fs []string
	for i, c := range t.cols {
		v := ""
		switch {
		case i == 0 && skipKey:
			continue
		case i == 0 || !keyOnly:
			v = g.jsonValue(c, row[i])
			if unknown != nil && unknown[i] {
				v = strconv.Quote(unavailableValue)
			}
		case nulls:
			v = "null"
		default:
			continue
		}
		fs = append(fs, strconv.Quote(c.name)+":"+v)
	}
	return "{" + strings.Join(fs, ",") + "}"
}

// debezium renders a change as a Debezium event and returns its kind.
func (g *pgen) debezium(tr ptrans, txid int) (string, string) {
	t := tr.t
	var ev []string
	kind := ""
	switch {
	case tr.before == nil:
		ev = append(ev, `"op":"`+pick(g.gen, []string{"c", "r"})+`"`, `"after":`+g.jsonRow(t, tr.after, nil, false, false, false))
		kind = "insert"
	case tr.after == nil:
		full := g.chance(50)
		if full {
			ev = append(ev, `"op":"d"`, `"before":`+g.jsonRow(t, tr.before, nil, false, false, false))
			kind = "delete"
		} else {
			ev = append(ev, `"op":"d"`, `"before":`+g.jsonRow(t, tr.before, nil, true, g.chance(30), false))
			kind = "true partial delete"
		}
		if full && allNull(tr.before[1:]) {
			kind = "true partial delete" // a whole row that says nothing but its key
		}
	default:
		unknown := make([]bool, len(t.cols))
		anyUnknown := false
		for i := 1; i < len(t.cols); i++ {
			if tr.before[i] == tr.after[i] && g.chance(35) {
				unknown[i], anyUnknown = true, true
			}
		}
		if g.chance(45) {
			// The whole old row: an update; unknown columns of after are
			// filled from it.
			ev = append(ev, `"op":"u"`, `"before":`+g.jsonRow(t, tr.before, nil, false, false, false),
				`"after":`+g.jsonRow(t, tr.after, unknown, false, false, false))
			kind = "update"
			if allNull(tr.before[1:]) {
				// A whole row that says nothing but its key: the
				// decoder reads a partial update, whose unknown columns
				// stay unknown.
				kind = "partial update"
				if t.complete {
					ev[len(ev)-1] = `"after":` + g.jsonRow(t, tr.after, nil, false, false, false)
				}
			}
			break
		}
		if t.complete || !anyUnknown {
			unknown = nil
		}
		ev = append(ev, `"op":"u"`)
		switch g.intn(3) {
		case 0:
			ev = append(ev, `"before":null`)
		case 1:
			ev = append(ev, `"before":`+g.jsonRow(t, tr.before, nil, true, g.chance(30), false))
		}
		ev = append(ev, `"after":`+g.jsonRow(t, tr.after, unknown, false, false, false))
		kind = "partial update"
	}
	if txid > 0 {
		if g.chance(50) {
			ev = append(ev, fmt.Sprintf(`"source":{"txId":%d}`, txid))
		} else {
			ev = append(ev, fmt.Sprintf(`"transaction":{"id":"tx%d"}`, txid))
		}
	}
	line := "{" + strings.Join(ev, ",") + "}"
	if g.chance(25) {
		line = `{"schema":{},"payload":` + line + "}"
	}
	return line, kind
}

func allNull(vals []string) bool {
	for _, v := range vals {
		if v != pnull {
			return false
		}
	}
	return true
}

// upsert renders a change as an upsert-topic record and returns its kind.
func (g *pgen) upsert(tr ptrans) (string, string) {
	key := strconv.FormatInt(tr.key, 10)
	if g.chance(30) {
		key = `{"id":` + key + `}`
	}
	if tr.after == nil {
		return `{"key":` + key + `,"value":null}`, "safe partial delete"
	}
	return `{"key":` + key + `,"value":` + g.jsonRow(tr.t, tr.after, nil, false, false, g.chance(50)) + `}`, "upsert"
}

// copyOf renders changes of one table as a COPY with its data; txids, when
// not nil, gives each change's source transaction.
func (g *pgen) copyOf(t *ptable, format string, trs []ptrans, txids []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "COPY %s FROM STDIN WITH (FORMAT %s);\n", t.name, format)
	for i, tr := range trs {
		var line, kind string
		if format == "upsert" {
			line, kind = g.upsert(tr)
		} else {
			id := 0
			if txids != nil {
				id = txids[i]
			}
			line, kind = g.debezium(tr, id)
		}
		g.totals.events[kind]++
		b.WriteString(line + "\n")
	}
	b.WriteString("\\.\n")
	g.totals.copies++
	return b.String()
}

// ops draws n changes of t.
func (g *pgen) ops(t *ptable, upsert bool, n int) []ptrans {
	var trs []ptrans
	for range n {
		if tr, ok := g.op(t, upsert); ok {
			trs = append(trs, tr)
		}
	}
	return trs
}

func (g *pgen) format() string {
	if g.chance(35) {
		return "upsert"
	}
	return "debezium"
}

// load is the first transaction: every table's rows, referenced tables
// first.
func (g *pgen) load() string {
	var b strings.Builder
	together := g.chance(50)
	if together {
		b.WriteString("BEGIN;\n")
	}
	for i := len(g.pt) - 1; i >= 0; i-- {
		t := g.pt[i]
		var trs []ptrans
		for k := int64(1); k <= t.maxKey; k++ {
			if !g.chance(70) {
				continue
			}
			row := []string{strconv.FormatInt(k, 10)}
			for _, c := range t.cols[1:] {
				row = append(row, g.value(c))
			}
			if slices.Contains(row, pnull) && !nullable(t, row) {
				continue
			}
			trs = append(trs, g.apply(ptrans{t: t, key: k, after: row}))
		}
		if len(trs) > 0 {
			b.WriteString(g.copyOf(t, g.format(), trs, nil))
		}
	}
	if together {
		b.WriteString("COMMIT;\n")
	}
	return b.String()
}

func nullable(t *ptable, row []string) bool {
	for i, c := range t.cols {
		if row[i] == pnull && !c.null {
			return false
		}
	}
	return true
}

func (g *pgen) snapshot() []map[int64][]string {
	out := make([]map[int64][]string, len(g.pt))
	for i, t := range g.pt {
		out[i] = maps.Clone(t.rows)
	}
	return out
}

func (g *pgen) restore(s []map[int64][]string) {
	for i, t := range g.pt {
		t.rows = s[i]
	}
}

// txn draws one transaction and returns the exec directive's input.
func (g *pgen) txn() string {
	g.totals.txns++
	switch r := g.intn(100); {
	case r >= 80: // a transaction that cancels out within one COPY
		g.totals.cancelling++
		g.totals.committed++
		t := pick(g.gen, g.pt)
		format := g.format()
		trs := g.ops(t, format == "upsert", 1+g.intn(3))
		for i := len(trs) - 1; i >= 0; i-- {
			trs = append(trs, g.apply(trs[i].inverse()))
		}
		if len(trs) == 0 {
			return ""
		}
		return g.copyOf(t, format, trs, nil)
	case r < 45: // one table, one COPY
		g.totals.committed++
		t := pick(g.gen, g.pt)
		format := g.format()
		trs := g.ops(t, format == "upsert", 1+g.intn(5))
		if len(trs) == 0 {
			return ""
		}
		return g.copyOf(t, format, trs, nil)
	case r < 68: // several tables, one transaction
		snap := g.snapshot()
		var b strings.Builder
		b.WriteString("BEGIN;\n")
		for range 2 + g.intn(2) {
			t := pick(g.gen, g.pt)
			format := g.format()
			if trs := g.ops(t, format == "upsert", 1+g.intn(4)); len(trs) > 0 {
				b.WriteString(g.copyOf(t, format, trs, nil))
			}
		}
		if g.chance(15) {
			g.totals.rolledBack++
			g.restore(snap)
			b.WriteString("ROLLBACK;\n")
		} else {
			g.totals.committed++
			b.WriteString("COMMIT;\n")
		}
		return b.String()
	}
	// One COPY of several source transactions.
	t := pick(g.gen, g.pt)
	var trs []ptrans
	var ids []int
	n := 2 + g.intn(2)
	for range n {
		g.txid++
		for _, tr := range g.ops(t, false, 1+g.intn(3)) {
			trs = append(trs, tr)
			ids = append(ids, g.txid)
		}
	}
	g.totals.txns += n - 1
	g.totals.committed += n
	if len(trs) == 0 {
		return ""
	}
	return g.copyOf(t, "debezium", trs, ids)
}

// generate draws a whole case: the schema, nviews views, the first load
// and ntx transactions, each an exec directive.
func (g *pgen) generate(nviews, ntx int) []pdirective {
	g.mixed = g.chance(50)
	dirs := g.schema()
	var views strings.Builder
	for i := range nviews {
		views.WriteString(g.view(fmt.Sprintf("v%d", i), i == 0) + ";\n")
	}
	dirs = append(dirs, pdirective{"exec", views.String()}, pdirective{"exec", g.load()})
	for range ntx {
		if in := g.txn(); in != "" {
			dirs = append(dirs, pdirective{"exec", in})
		}
	}
	return append(dirs, pdirective{"views", ""})
}
