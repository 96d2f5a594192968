package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// matIndex keeps the rows of a materialized view by the key of an index
// CREATE INDEX made on it, with their weights: built from the view's rows
// when the index is made (or the view built), then kept from each step's
// delta to the view (O(delta) per step). The rows are the view's own.
//
// A view here is maintained at every commit, so an index on it is kept at
// every commit too, where PostgreSQL's is rebuilt by REFRESH. A UNIQUE
// index holds at every step: a step that would give two of the view's rows
// one key (NULLs apart, unless NULLS NOT DISTINCT) fails its commit with
// 23505, as PostgreSQL's REFRESH fails, and the transaction changes
// nothing. An index on columns serves ad-hoc reads whose WHERE fixes them
// (viewLookup); every index is listed by the catalogs, kept in the
// database file as its statement, and dropped with its view.
type matIndex struct {
	name, view string
	text       string // the statement that made it
	cols       []int  // -1 where the element is an expression
	x          *keyExt
	unique     bool
	made       *sql.CreateIndex // the statement, bound: its method and options
	// colls are, per key element, the nondeterministic collation it
	// names (0: none): its strings are keyed under it, so that those
	// equal under it are one key, as in a table's unique index.
	colls []uint8
	// groups holds the view's rows by encoded key; nil while the view is
	// unpopulated.
	groups map[string][]zset.Entry
	// pending is the delta a prepare checked and commit applies; sums is
	// the prepare's scratch of weights per key.
	pending zset.ZSet
	sums    map[string]int64
	buf     []byte
}

// key encodes row's key in ix.buf (the step's: prepare and commit); ok
// is false for a row the index does not hold (its predicate), or whose
// key has a NULL and cannot match an equality or conflict (unless NULLS
// NOT DISTINCT).
func (ix *matIndex) key(row value.Row) (k []byte, ok bool, err error) {
	k, ok, err = ix.keyIn(ix.buf[:0], row)
	if ok {
		ix.buf = k
	}
	return k, ok, err
}

// keyIn is key encoding in buf, for readers, who share no buffer with a
// step.
func (ix *matIndex) keyIn(buf []byte, row value.Row) (k []byte, ok bool, err error) {
	if ix.x != nil {
		if ok, err := ix.x.holds(row); err != nil || !ok {
			return nil, false, err
		}
	}
	for i, c := range ix.cols {
		var v value.Value
		if ix.x != nil {
			if v, err = ix.x.elem(ix.cols, i, row); err != nil {
				return nil, false, err
			}
		} else {
			v = row[c]
		}
		if v.IsNull() {
			if ix.x == nil || !ix.x.nulls {
				return nil, false, nil
			}
			buf = append(buf, 0)
			continue
		}
		if i < len(ix.colls) && ix.colls[i] != 0 {
			v = v.Collated(ix.colls[i])
		}
		buf = value.AppendKey(append(buf, 1), v)
	}
	return buf, true, nil
}

// weight is the summed weight of the rows of key k.
func (ix *matIndex) weight(k []byte) int64 {
	var w int64
	for _, en := range ix.groups[string(k)] {
		w += en.W
	}
	return w
}

// add adds w to row's weight under its key.
func (ix *matIndex) add(k []byte, row value.Row, w int64) {
	g := ix.groups[string(k)]
	for i := range g {
		if zset.CompareRows(g[i].Row, row) == 0 {
			g[i].W += w
			if g[i].W <= 0 {
				g[i] = g[len(g)-1]
				g = g[:len(g)-1]
			}
			if len(g) == 0 {
				delete(ix.groups, string(k))
			} else {
				ix.groups[string(k)] = g
			}
			return
		}
	}
	if w > 0 {
		ix.groups[string(k)] = append(g, zset.Entry{Row: row, W: w})
	}
}

// build indexes rows, failing as PostgreSQL's CREATE UNIQUE INDEX (and
// REFRESH) does on a duplicated key.
func (ix *matIndex) build(rows zset.ZSet, cols []string) error {
	ix.groups = map[string][]zset.Entry{}
	for _, en := range rows {
		k, ok, err := ix.key(en.Row)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if ix.unique && ix.weight(k)+en.W > 1 {
			ix.groups = nil
			return &pgerr.Error{Code: pgerr.UniqueViolation,
				Message: fmt.Sprintf("could not create unique index %q", bareIndex(ix.name)),
				Detail:  fmt.Sprintf("Key %s is duplicated.", ix.keyText(en.Row, cols))}
		}
		ix.add(k, en.Row, en.W)
	}
	return nil
}

// stage checks a step's delta z to the view against the index: an
// expression's error, or a unique key that two rows would share, fails
// the step. Nothing changes until commit.
func (ix *matIndex) stage(z zset.ZSet, cols func() []string) error {
	ix.pending = nil
	if !ix.unique {
		for i := 0; ix.x != nil && i < len(z); i++ { // only expressions and predicates fail
			en := z[i]
			if _, _, err := ix.key(en.Row); err != nil {
				return err
			}
		}
		ix.pending = z
		return nil
	}
	if ix.sums == nil {
		ix.sums = map[string]int64{}
	}
	clear(ix.sums)
	for _, en := range z {
		k, ok, err := ix.key(en.Row)
		if err != nil {
			return err
		}
		if ok {
			ix.sums[string(k)] += en.W
		}
	}
	for _, en := range z {
		if en.W <= 0 {
			continue
		}
		k, ok, _ := ix.key(en.Row)
		if ok && ix.weight(k)+ix.sums[string(k)] > 1 {
			return &pgerr.Error{Code: pgerr.UniqueViolation,
				Message: fmt.Sprintf("duplicate key value violates unique constraint %q", bareIndex(ix.name)),
				Detail:  fmt.Sprintf("Key %s already exists.", ix.keyText(en.Row, cols()))}
		}
	}
	ix.pending = z
	return nil
}

// commit applies the delta stage checked.
func (ix *matIndex) commit() {
	for _, en := range ix.pending {
		if k, ok, _ := ix.key(en.Row); ok {
			ix.add(k, en.Row, en.W)
		}
	}
	ix.pending = nil
}

// keyText is row's key as PostgreSQL's DETAIL writes it: (a, b)=(1, 2).
func (ix *matIndex) keyText(row value.Row, cols []string) string {
	names := make([]string, len(ix.cols))
	vals := make([]string, len(ix.cols))
	for i, c := range ix.cols {
		var v value.Value
		if ix.x != nil && ix.x.exprs != nil && ix.x.exprs[i] != nil {
			names[i] = ix.x.keySQL[i]
			v, _ = ix.x.exprs[i].Eval(row)
		} else {
			names[i] = expr.QuoteIdent(cols[c])
			v = row[c]
		}
		if v.IsNull() {
			vals[i] = "null"
		} else {
			vals[i] = string(value.AppendText(nil, v))
		}
	}
	return "(" + strings.Join(names, ", ") + ")=(" + strings.Join(vals, ", ") + ")"
}

// viewFailDetail is the DETAIL of an error a view's step raised, which
// rolled its transaction back: the error's own detail (a unique index's
// key), then which view failed.
func viewFailDetail(detail, name string) string {
	d := fmt.Sprintf("while maintaining materialized view %q; the transaction was rolled back", name)
	if detail != "" {
		return detail + " (" + d + ")"
	}
	return d
}

// bareIndex is an index's key without its schema, as messages name it.
func bareIndex(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// bytes estimates the index's memory: a map entry per key and an entry
// per row (the rows are the view's).
func (ix *matIndex) bytes() int64 {
	var n int64
	for k, g := range ix.groups {
		n += 64 + int64(len(k)) + 32*int64(cap(g))
	}
	return n
}

// stageIndexes checks a step's delta to the view against its indexes
// (matIndex.stage).
func (m *viewMeta) stageIndexes(z zset.ZSet) error {
	names := func() []string { // for an error's DETAIL only
		out := make([]string, len(m.cols))
		for i, c := range m.cols {
			out[i] = c.Name
		}
		return out
	}
	for _, ix := range m.indexes {
		if err := ix.stage(z, names); err != nil {
			for _, o := range m.indexes {
				o.pending = nil
			}
			return err
		}
	}
	return nil
}

// commitIndexes applies the step stageIndexes checked.
func (m *viewMeta) commitIndexes() {
	for _, ix := range m.indexes {
		ix.commit()
	}
}

// abortIndexes forgets the step stageIndexes checked.
func (m *viewMeta) abortIndexes() {
	for _, ix := range m.indexes {
		ix.pending = nil
	}
}

// viewColNames are the names of the view's columns.
func viewColNames(v matView) []string {
	m := v.meta()
	names := make([]string, len(m.cols))
	for i, c := range m.cols {
		names[i] = c.Name
	}
	return names
}

// createViewIndex runs CREATE [UNIQUE] INDEX on the materialized view
// ci.Table: built now from its rows when it is populated, at REFRESH when
// it is not.
func (e *Engine) createViewIndex(ci *sql.CreateIndex, text string) (Result, error) {
	name := ci.Name
	if ci.DefaultName {
		for i := 1; e.relationExists(name); i++ {
			name = fmt.Sprintf("%s%d", ci.Name, i)
		}
	} else if e.relationExists(name) {
		if ci.IfNotExists {
			return Result{Tag: "CREATE INDEX", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", bareIndex(name))}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", bareIndex(name))
	}
	var colls []uint8
	for i, c := range ci.ElemColls {
		if coll := value.CollationByID(uint8(max(c, 0))); c > 0 && coll != nil && coll.Nondeterministic {
			if colls == nil {
				colls = make([]uint8, len(ci.ElemColls))
			}
			colls[i] = coll.ID
		}
	}
	ix := &matIndex{name: name, view: ci.Table, text: text, cols: ci.Cols, x: newKeyExt(ci), unique: ci.Unique, made: ci, colls: colls}
	if v, ok := e.views[ci.Table]; ok {
		if err := ix.build(v.snapshot(), viewColNames(v)); err != nil {
			return Result{}, err
		}
		v.meta().indexes = append(v.meta().indexes, ix)
	}
	if e.matIndexes == nil {
		e.matIndexes = map[string]*matIndex{}
	}
	e.matIndexes[name] = ix
	if e.store != nil {
		if err := e.store.Create(&StoredRelation{Name: name, Kind: KindIndex, SQL: text}); err != nil {
			e.forgetViewIndex(name)
			return Result{}, err
		}
	}
	return Result{Tag: "CREATE INDEX"}, nil
}

// forgetViewIndex drops the view index name from the engine.
func (e *Engine) forgetViewIndex(name string) {
	ix := e.matIndexes[name]
	if ix == nil {
		return
	}
	delete(e.matIndexes, name)
	if v, ok := e.views[ix.view]; ok {
		m := v.meta()
		m.indexes = slices.DeleteFunc(m.indexes, func(o *matIndex) bool { return o == ix })
	}
}

// viewIndexesOf returns the names of the indexes of the views in gone,
// sorted.
func (e *Engine) viewIndexesOf(gone map[string]bool) []string {
	var out []string
	for name, ix := range e.matIndexes {
		if gone[ix.view] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// attachViewIndexes gives a view just built its indexes, built from its
// rows (REFRESH of an unpopulated view, a view built again): a unique
// one its rows break fails, as PostgreSQL's REFRESH does.
func (e *Engine) attachViewIndexes(v matView) error {
	m := v.meta()
	m.indexes = nil
	var rows zset.ZSet
	for _, name := range sortedKeys(e.matIndexes) {
		ix := e.matIndexes[name]
		if ix.view != m.name {
			continue
		}
		if rows == nil {
			rows = v.snapshot()
		}
		if err := ix.build(rows, viewColNames(v)); err != nil {
			return err
		}
		m.indexes = append(m.indexes, ix)
	}
	return nil
}

// unbuildView lets go of the view name just built, whose indexes its
// rows break: it is unpopulated again, its indexes kept.
func (e *Engine) unbuildView(name string) {
	gone := map[string]bool{name: true}
	e.read, e.waves = nil, nil
	delete(e.views, name)
	e.order = slices.DeleteFunc(e.order, func(o matView) bool { return gone[o.meta().name] })
	e.shared.release(gone)
	e.detachViewIndexes(name)
}

// detachViewIndexes lets go of the state of the indexes of a view made
// unpopulated; their definitions stay.
func (e *Engine) detachViewIndexes(view string) {
	for _, ix := range e.matIndexes {
		if ix.view == view {
			ix.groups, ix.pending = nil, nil
		}
	}
}

// concurrentRefreshable reports whether the view has what REFRESH …
// CONCURRENTLY needs in PostgreSQL: a unique index on columns only, with
// no WHERE.
func (e *Engine) concurrentRefreshable(view string) bool {
	for _, ix := range e.matIndexes {
		if ix.view == view && ix.unique && !slices.Contains(ix.cols, -1) && (ix.x == nil || ix.x.where == nil) {
			return true
		}
	}
	return false
}

// namedViewLookup is viewLookup through an index CREATE INDEX made on the
// view, on columns that pred fixes all of; false when there is none.
func (e *Engine) namedViewLookup(v *zview, fixed map[int]value.Value, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	var ix *matIndex
	for _, o := range v.indexes {
		if o.groups == nil || (o.x != nil && (o.x.exprs != nil || o.x.where != nil || o.x.nulls)) {
			continue
		}
		all := true
		for _, c := range o.cols {
			if _, ok := fixed[c]; !ok {
				all = false
			}
		}
		if all {
			ix = o
			break
		}
	}
	if ix == nil {
		return false, nil
	}
	probe := make(value.Row, len(v.cols))
	for _, c := range ix.cols {
		probe[c] = fixed[c]
	}
	k, ok, err := ix.keyIn(nil, probe)
	if err != nil || !ok {
		return true, err // a NULL key matches no row
	}
	return true, v.emitAccepted(ix.groups[string(k)], pred, fn)
}

// viewIndexDetails describes the indexes of the view name, whose columns
// are cols, for Describe: their columns (an expression's left out).
func (e *Engine) viewIndexDetails(name string, cols []plan.Column) []IndexDetail {
	var out []IndexDetail
	for _, n := range sortedKeys(e.matIndexes) {
		ix := e.matIndexes[n]
		if ix.view != name {
			continue
		}
		d := IndexDetail{Name: n}
		for _, c := range ix.cols {
			if c >= 0 {
				d.Columns = append(d.Columns, cols[c].Name)
			}
		}
		out = append(out, d)
	}
	return out
}

// viewIndexRels adds the catalog's entries of the indexes of the
// materialized view r.
func (o *catalogObjects) viewIndexRels(r *catRel, add func(*catRel)) {
	e := o.e
	for _, name := range sortedKeys(e.matIndexes) {
		ix := e.matIndexes[name]
		if ix.view != r.name {
			continue
		}
		head := "CREATE INDEX "
		if ix.unique {
			head = "CREATE UNIQUE INDEX "
		}
		ci := &catIndex{unique: ix.unique, x: ix.x, method: ix.made.Method, opts: ix.made.KeyOpts, options: ix.made.KeyOptions}
		sc, n := e.splitKey(r.name)
		head += expr.QuoteIdent(e.bareName(name)) + " ON " + expr.QuoteIdent(sc) + "." + expr.QuoteIdent(n) + " USING " + ci.method
		cols := make([]int16, len(ix.cols))
		for i, c := range ix.cols {
			cols[i] = int16(c + 1)
		}
		ci.cols = cols
		elem := func(i int) string { return r.colList(cols[i : i+1]) }
		colName := func(c int) string { return expr.QuoteIdent(r.cols[c].name) }
		ci.def = ix.x.indexDef(head, len(cols), elem, ci.opts, colName, false)
		if p := ix.x.indexDef(head, len(cols), elem, ci.opts, colName, true); p != ci.def {
			ci.pretty = p
		}
		ir := &catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'i', on: r, index: ci}
		for i, c := range cols {
			if c == 0 {
				typ := ix.x.exprs[i].Type()
				ir.cols = append(ir.cols, catCol{name: "expr", typ: typ, typOID: e.typeOID(typ, nil)})
				continue
			}
			ir.cols = append(ir.cols, r.cols[c-1])
		}
		if ix.x != nil {
			for _, c := range ix.x.include {
				ir.cols = append(ir.cols, r.cols[c])
			}
		}
		add(ir)
	}
}
