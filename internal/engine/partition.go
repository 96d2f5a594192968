package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// partition is a partition of a partitioned table; it keeps no rows. The
// root of its tree, an ordinary stored table, keeps every partition's
// rows, and the partition is the root's rows that its constraint accepts:
// a change to a partition is a change to the root, which the views over
// the root read as they read any table, and which a view over the
// partition filters (see "Partitioned tables" in docs/sql.md).
type partition struct {
	def    *sql.CreateTable // PartitionOf set; PartitionBy when partitioned itself
	parent string
	root   *table
	kids   []*partition // its partitions, when partitioned
	text   string       // the statement that created it, for the store
}

// partitionsOf returns the partition list and key of a partitioned table
// (a root or a partitioned partition), nil when name is no such table.
func (e *Engine) partitionsOf(name string) (*[]*partition, *expr.PartitionKey, *table) {
	if t, ok := e.tables[name]; ok && t.def.PartitionBy != nil {
		return &t.kids, t.def.PartitionBy, t
	}
	if p, ok := e.parts[name]; ok && p.def.PartitionBy != nil {
		return &p.kids, p.def.PartitionBy, p.root
	}
	return nil, nil, nil
}

// partitionRelation is Relation for a partition: the root's columns and
// keys, read through the partition's constraint.
func (e *Engine) partitionRelation(p *partition) *sql.Relation {
	root := p.root
	uniques := make([][]int, len(root.uniques))
	for i, u := range root.uniques {
		uniques[i] = u.cols
	}
	rel := &sql.Relation{Name: p.def.Name, Kind: sql.KindTable, Cols: root.cols, Rows: int64(root.rows.Len()),
		Uniques: uniques, PrimaryKey: root.def.PrimaryKey, Def: p.def,
		Partition: &sql.PartitionRel{Root: root.name, Filter: e.partitionFilter(p), Partitioned: p.def.PartitionBy != nil, Defaults: partitionDefaults(p)}}
	if p.def.PartitionBy != nil {
		rel.TableOID = tableOID(root)
	}
	return rel
}

// tableOID is a partitioned table's tableoid: the oid of the partition
// that holds the row, as the table's partitions are when it is read.
func tableOID(root *table) expr.Expr {
	args := make([]expr.Expr, len(root.cols))
	for i, c := range root.cols {
		args[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	def := &expr.FuncDef{Name: "tableoid", Result: value.OidType, Eval: func(row []value.Value) (value.Value, error) {
		leaf, err := routeLeaf(root, row)
		if err != nil || leaf == nil {
			return value.Null, err
		}
		return value.NewOid(RelationOID(leaf.def.Name)), nil
	}}
	return &expr.Func{Def: def, Args: args, T: value.OidType}
}

// partitionFilter is p's constraint over its root's rows: one level per
// partitioned table from the root down to p. A default partition's level
// holds its siblings' bounds as they are now: a view that reads it keeps
// them, so the siblings cannot change under it (refuseDefaultReaders).
func (e *Engine) partitionFilter(p *partition) *expr.PartitionOf {
	var chain []*partition
	for q := p; ; {
		chain = append(chain, q)
		up, ok := e.parts[q.parent]
		if !ok {
			break
		}
		q = up
	}
	f := &expr.PartitionOf{Name: p.def.Name}
	for i := len(chain) - 1; i >= 0; i-- {
		q := chain[i]
		kids, key, _ := e.partitionsOf(q.parent)
		l := expr.PartitionLevel{Key: key, Bound: &q.def.PartitionOf.Bound}
		if l.Bound.Default {
			for _, s := range *kids {
				if s != q {
					l.Siblings = append(l.Siblings, &s.def.PartitionOf.Bound)
				}
			}
		}
		f.Levels = append(f.Levels, l)
	}
	return f
}

// createPartition creates CREATE TABLE … PARTITION OF: it checks that the
// bound overlaps no sibling's, and that a default sibling keeps no row
// the new partition would take.
func (e *Engine) createPartition(ct *sql.CreateTable, text string) (Result, error) {
	if e.relationExists(ct.Name) {
		if ct.IfNotExists {
			return Result{Tag: "CREATE TABLE", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", ct.Name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ct.Name)
	}
	of := ct.PartitionOf
	kids, key, root := e.partitionsOf(of.Parent)
	if kids == nil {
		return Result{}, pgerr.New(pgerr.InvalidObjectDef, "%q is not partitioned", of.Parent)
	}
	if err := checkBound(ct.Name, of, key, *kids, text); err != nil {
		return Result{}, err
	}
	if err := e.refuseDefaultReaders(*kids, "create a partition of"); err != nil {
		return Result{}, err
	}
	if d := defaultPartition(*kids); d != nil && !of.Bound.Default {
		if err := e.checkDefaultRows(d, key, &of.Bound); err != nil {
			return Result{}, err
		}
	}
	if e.parts == nil {
		e.parts = map[string]*partition{}
	}
	p := &partition{def: ct, parent: of.Parent, root: root, text: text}
	*kids = append(*kids, p)
	e.parts[ct.Name] = p
	e.read = nil // views over the parent read the root as before; names changed
	if isTemp(ct.Name) {
		return Result{Tag: "CREATE TABLE"}, nil // the session's, never stored
	}
	if err := e.storeCreate(ct.Name, KindPartition, text); err != nil {
		e.forgetPartition(ct.Name)
		return Result{}, err
	}
	return Result{Tag: "CREATE TABLE"}, nil
}

func defaultPartition(kids []*partition) *partition {
	for _, k := range kids {
		if k.def.PartitionOf.Bound.Default {
			return k
		}
	}
	return nil
}

// checkDefaultRows fails when the default partition d holds a row that
// a new sibling with bound b would take.
func (e *Engine) checkDefaultRows(d *partition, key *expr.PartitionKey, b *expr.PartitionBound) error {
	f := e.partitionFilter(d)
	var err error
	bad := false
	var buf []value.Value
	d.root.scan(func(_ uint64, row value.Row) bool {
		var in bool
		if in, err = f.Accepts(row); err != nil || !in {
			return err == nil
		}
		if buf, err = key.Key(row, buf); err != nil {
			return false
		}
		bad = b.Accepts(key.Strategy, buf)
		return !bad
	})
	if err != nil {
		return err
	}
	if bad {
		return pgerr.New(pgerr.CheckViolation, "updated partition constraint for default partition %q would be violated by some row", d.def.Name)
	}
	return nil
}

// refuseDefaultReaders refuses to change the partitions of a table while
// a materialized view reads its default partition, whose constraint the
// view keeps as it was.
func (e *Engine) refuseDefaultReaders(kids []*partition, what string) error {
	d := defaultPartition(kids)
	if d == nil {
		return nil
	}
	if views := e.dependentsIndex()[d.def.Name]; len(views) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot %s %q while view %q reads its default partition %q", what, d.parent, views[0], d.def.Name).
			WithHint("drop the view, change the partitions, then create it again")
	}
	return nil
}

// checkBound fails when the bound of a new partition name overlaps a
// sibling's, with PostgreSQL's errors.
func checkBound(name string, of *sql.PartitionOf, key *expr.PartitionKey, kids []*partition, text string) error {
	nb := &of.Bound
	overlap := func(other string, loc int32) error {
		return pgerr.New(pgerr.InvalidObjectDef, "partition %q would overlap partition %q", name, other).At(text, int(loc))
	}
	if nb.Default {
		if d := defaultPartition(kids); d != nil {
			return pgerr.New(pgerr.InvalidObjectDef, "partition %q conflicts with existing default partition %q", name, d.def.Name).At(text, int(of.Loc))
		}
		return nil
	}
	switch key.Strategy {
	case expr.PartitionList:
		for i, v := range nb.In {
			for _, k := range kids {
				if ob := &k.def.PartitionOf.Bound; !ob.Default && ob.Accepts(key.Strategy, []value.Value{v}) {
					return overlap(k.def.Name, of.InLocs[i])
				}
			}
		}
	case expr.PartitionRange:
		for _, k := range kids {
			ob := &k.def.PartitionOf.Bound
			if ob.Default || expr.RangeBoundCmp(nb.From, ob.To) >= 0 || expr.RangeBoundCmp(ob.From, nb.To) >= 0 {
				continue
			}
			return overlap(k.def.Name, of.FromLocs[0])
		}
	case expr.PartitionHash:
		// Each modulus must divide the next larger one, as PostgreSQL
		// requires; then two bounds overlap when their remainders agree
		// modulo the smaller modulus.
		var above, below *partition
		for _, k := range kids {
			m := k.def.PartitionOf.Bound.Modulus
			if m >= nb.Modulus && (above == nil || m < above.def.PartitionOf.Bound.Modulus) {
				above = k
			}
			if m <= nb.Modulus && (below == nil || m > below.def.PartitionOf.Bound.Modulus) {
				below = k
			}
		}
		if above != nil && above.def.PartitionOf.Bound.Modulus%nb.Modulus != 0 {
			return pgerr.New(pgerr.InvalidObjectDef, "every hash partition modulus must be a factor of the next larger modulus").
				WithDetail("The new modulus %d is not a factor of %d, the modulus of existing partition %q.", nb.Modulus, above.def.PartitionOf.Bound.Modulus, above.def.Name)
		}
		if below != nil && nb.Modulus%below.def.PartitionOf.Bound.Modulus != 0 {
			return pgerr.New(pgerr.InvalidObjectDef, "every hash partition modulus must be a factor of the next larger modulus").
				WithDetail("The new modulus %d is not divisible by %d, the modulus of existing partition %q.", nb.Modulus, below.def.PartitionOf.Bound.Modulus, below.def.Name)
		}
		for _, k := range kids {
			ob := &k.def.PartitionOf.Bound
			m := min(ob.Modulus, nb.Modulus)
			if ob.Remainder%m == nb.Remainder%m {
				return overlap(k.def.Name, of.Loc)
			}
		}
	}
	return nil
}

// route checks that a row of the root table t has a partition to go to,
// at every level of the tree, with PostgreSQL's error when it has none.
func route(t *table, row value.Row) error {
	_, err := routeLeaf(t, row)
	return err
}

// routeLeaf returns the leaf partition of the root table t that takes
// row.
func routeLeaf(t *table, row value.Row) (*partition, error) {
	kids, key, name := t.kids, t.def.PartitionBy, t.name
	var arr [4]value.Value
	for {
		k, err := key.Key(row, arr[:0])
		if err != nil {
			return nil, err
		}
		var hit, def *partition
		for _, p := range kids {
			b := &p.def.PartitionOf.Bound
			if b.Default {
				def = p
			} else if b.Accepts(key.Strategy, k) {
				hit = p
				break
			}
		}
		if hit == nil {
			hit = def
		}
		if hit == nil {
			return nil, &pgerr.Error{Code: pgerr.CheckViolation, Message: fmt.Sprintf("no partition of relation %q found for row", name),
				Detail: "Partition key of the failing row contains " + key.KeyText(row) + "."}
		}
		if hit.def.PartitionBy == nil {
			return hit, nil
		}
		kids, key, name = hit.kids, hit.def.PartitionBy, hit.def.Name
	}
}

// partitionCheck is checkRow for a row of a partitioned table: the row
// must have a partition, and when the statement names a partition
// (e.within), be one of that partition's. As in PostgreSQL, a row
// written through a partitioned table is routed before its constraints
// are checked, and one inserted into a leaf partition is checked first.
func (e *Engine) partitionCheck(t *table, old, row value.Row) error {
	w := e.within
	if w.of == nil || w.root != t {
		leaf, err := routeLeaf(t, row)
		if err != nil {
			return err
		}
		return e.checkLeafRow(t, leaf, old, row)
	}
	first := w.leaf && old == nil // an INSERT into a leaf; an UPDATE checks the partition first
	if first {
		if err := e.checkLeafRow(t, e.parts[w.of.Name], old, row); err != nil {
			return err
		}
	}
	if ok, err := w.of.Accepts(row); err != nil {
		return err
	} else if !ok {
		pe := &pgerr.Error{Code: pgerr.CheckViolation, Message: fmt.Sprintf("new row for relation %q violates partition constraint", w.of.Name)}
		return withFailingRow(relationFields(pe, w.of.Name), row)
	}
	leaf, err := routeLeaf(t, row)
	if err != nil || first {
		return err
	}
	return e.checkLeafRow(t, leaf, old, row)
}

// withinPartition is the partition a DML statement names, whose rows it
// writes in its root.
type withinPartition struct {
	root *table
	of   *expr.PartitionOf
	leaf bool // a partition not partitioned again
}

// setWithin makes the statement's writes to table name stay in the
// partition of (nil: no partition); the returned function restores the
// enclosing statement's.
func (e *Engine) setWithin(name string, of *expr.PartitionOf) func() {
	prev := e.within
	e.within = withinPartition{root: e.tables[name], of: of}
	if of != nil {
		p := e.parts[of.Name]
		e.within.leaf = p != nil && p.def.PartitionBy == nil
	}
	return func() { e.within = prev }
}

// descendants are the partitions under a partitioned table, deepest
// first.
func (e *Engine) descendants(name string) []string {
	kids, _, _ := e.partitionsOf(name)
	if kids == nil {
		return nil
	}
	var out []string
	for _, k := range *kids {
		out = append(out, e.descendants(k.def.Name)...)
		out = append(out, k.def.Name)
	}
	return out
}

// forgetPartition removes a partition from its parent's list.
func (e *Engine) forgetPartition(name string) {
	p, ok := e.parts[name]
	if !ok {
		return
	}
	delete(e.parts, name)
	if kids, _, _ := e.partitionsOf(p.parent); kids != nil {
		*kids = slices.DeleteFunc(*kids, func(k *partition) bool { return k == p })
	}
}

// deletePartitionRows deletes a dropped partition's rows from its root,
// in a transaction of its own: the views over the root see them go.
func (e *Engine) deletePartitionRows(p *partition) error {
	f := e.partitionFilter(p)
	_, err := e.autocommit(func() (Result, error) {
		var ids []uint64
		var err error
		p.root.scan(func(id uint64, row value.Row) bool {
			var ok bool
			if ok, err = f.Accepts(row); ok {
				ids = append(ids, id)
			}
			return err == nil
		})
		if err != nil {
			return Result{}, err
		}
		for _, id := range ids {
			e.deleteRow(p.root, id)
		}
		return Result{}, nil
	})
	return err
}

// dropPartitions deletes from their roots the rows of the partitions a
// DROP TABLE removes without their root, and refuses when a view reads
// a default sibling of one of them.
func (e *Engine) dropPartitions(targets []string) error {
	for _, name := range targets {
		p, ok := e.parts[name]
		if !ok || slices.Contains(targets, p.root.name) {
			continue
		}
		if _, up := e.parts[p.parent]; up && slices.Contains(targets, p.parent) {
			continue // its parent's rows go, its own with them
		}
		if kids, _, _ := e.partitionsOf(p.parent); kids != nil && !p.def.PartitionOf.Bound.Default {
			if err := e.refuseDefaultReaders(*kids, "drop a partition of"); err != nil {
				return err
			}
		}
		if err := e.deletePartitionRows(p); err != nil {
			return err
		}
	}
	return nil
}

// relKind is pg_class.relkind: an index of a partitioned table is a
// partitioned index, 'I'.
func relKind(rel *catRel) string {
	if rel.kind == 'i' && rel.on != nil && rel.on.kind == 'p' {
		return "I"
	}
	return string(rune(rel.kind))
}

// partBound is pg_class.relpartbound: a partition's bound as
// pg_get_expr prints it, NULL for other relations.
func partBound(rel *catRel) any {
	if rel.part == nil {
		return nil
	}
	return sql.BoundSQL(&rel.part.def.PartitionOf.Bound)
}

func (o *catalogObjects) hasPartitions(rel *catRel) bool {
	if rel.kind == 'i' && rel.on != nil && rel.on.kind == 'p' {
		return true // a partitioned index has its partitions' indexes
	}
	if rel.partBy == nil {
		return false
	}
	for _, r := range o.rels {
		if r.part != nil && r.part.parent == rel.name {
			return true
		}
	}
	return false
}

func pgInherits(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.part != nil {
			r.add("inhrelid", rel.oid, "inhparent", RelationOID(rel.part.parent), "inhseqno", 1, "inhdetachpending", false)
		}
	}
	inheritRows(o, r)
}

func pgPartitionedTable(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		k := rel.partBy
		if k == nil {
			continue
		}
		var attrs []int16
		var exprs []string
		for i, e := range k.Exprs {
			if c, ok := e.(*expr.Col); ok {
				attrs = append(attrs, int16(c.Idx+1))
				if c.Idx < len(rel.cols) {
					attrs[len(attrs)-1] = rel.num(c.Idx)
				}
			} else {
				attrs = append(attrs, 0)
				exprs = append(exprs, k.SQL[i])
			}
		}
		def := uint32(0)
		for _, p := range o.rels {
			if p.part != nil && p.part.parent == rel.name && p.part.def.PartitionOf.Bound.Default {
				def = p.oid
			}
		}
		var partExprs any
		if len(exprs) > 0 {
			partExprs = strings.Join(exprs, ", ")
		}
		zeros := strings.TrimSpace(strings.Repeat("0 ", len(attrs)))
		r.add("partrelid", rel.oid, "partstrat", string(rune(k.Strategy)), "partnatts", len(k.Exprs), "partdefid", def,
			"partattrs", attrs, "partclass", zeros, "partcollation", zeros, "partexprs", partExprs)
	}
}

// samePartition refuses an ON CONFLICT DO UPDATE that would move the row
// to another partition, as PostgreSQL does.
func samePartition(t *table, old, row value.Row) error {
	from, err := routeLeaf(t, old)
	if err != nil {
		return err
	}
	to, err := routeLeaf(t, row)
	if err != nil {
		return err
	}
	if from != to {
		return pgerr.New(pgerr.FeatureNotSupported, "invalid ON UPDATE specification").
			WithDetail("The result tuple would appear in a different partition than the original tuple.")
	}
	return nil
}

// partitionOrder orders an UPDATE's or DELETE's rows as PostgreSQL visits
// them, one partition after the other in the order of their bounds, each
// partition's rows in the order of its heap (table.place), so that of two
// rows whose new keys collide, the same one fails. Without heap, each
// partition's rows keep the order they come in (a unique key's).
func partitionOrder(t *table, ts []target, heap bool) {
	if len(ts) < 2 {
		return
	}
	rank := leafRanks(t)
	type ranked struct {
		scanKey
		tg target
	}
	rs := make([]ranked, len(ts))
	for i, tg := range ts {
		leaf, _ := routeLeaf(t, tg.row)
		rs[i] = ranked{scanKey: scanKey{rank: rank[leaf]}, tg: tg}
		if heap {
			rs[i].place = t.place(tg.id)
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return a.compare(b.scanKey) })
	for i := range rs {
		ts[i] = rs[i].tg
	}
}

// leafRanks numbers the leaf partitions of t in the order PostgreSQL's
// scan of t reads them: by the order of their bounds at each level
// (boundOrder), a partitioned partition's leaves in its place.
func leafRanks(t *table) map[*partition]uint64 {
	rank := map[*partition]uint64{}
	var walk func(kids []*partition, key *expr.PartitionKey)
	walk = func(kids []*partition, key *expr.PartitionKey) {
		kids = slices.Clone(kids)
		slices.SortStableFunc(kids, func(a, b *partition) int { return boundOrder(key, a, b) })
		for _, k := range kids {
			if k.def.PartitionBy != nil {
				walk(k.kids, k.def.PartitionBy)
			} else {
				rank[k] = uint64(len(rank))
			}
		}
	}
	walk(t.kids, t.def.PartitionBy)
	return rank
}

// boundOrder orders two partitions of a table partitioned by key as
// PostgreSQL orders its partitions: by lower bound, by least listed value
// (the partition of NULL alone after), by modulus and remainder; the
// default last.
func boundOrder(key *expr.PartitionKey, a, b *partition) int {
	x, y := &a.def.PartitionOf.Bound, &b.def.PartitionOf.Bound
	switch {
	case x.Default || y.Default:
		if x.Default == y.Default {
			return 0
		}
		if x.Default {
			return 1
		}
		return -1
	case key.Strategy == expr.PartitionRange:
		return expr.RangeBoundCmp(x.From, y.From)
	case key.Strategy == expr.PartitionHash:
		if x.Modulus != y.Modulus {
			return x.Modulus - y.Modulus
		}
		return x.Remainder - y.Remainder
	}
	least := func(b *expr.PartitionBound) (value.Value, bool) {
		var m value.Value
		ok := false
		for _, v := range b.In {
			if !v.IsNull() && (!ok || value.Compare(v, m) < 0) {
				m, ok = v, true
			}
		}
		return m, ok
	}
	mx, okx := least(x)
	my, oky := least(y)
	switch {
	case okx && oky:
		return value.Compare(mx, my)
	case okx:
		return -1
	case oky:
		return 1
	}
	return 0
}

// attachPartition runs ALTER TABLE … ATTACH PARTITION: the table's rows
// are checked against the bound, then inserted into the root in a commit
// of their own (the views over the partitioned table see them come), and
// the table becomes a partition.
func (e *Engine) attachPartition(a *sql.AttachPartition, text string) (Result, error) {
	name := a.Table.Name
	t, ok := e.tables[name]
	if !ok || t.temp {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if deps := e.dependentsIndex()[name]; len(deps) > 0 {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot attach table %q while %s %s reads it", name, e.kindName(deps[0]), deps[0]).
			WithHint("drop the views that read the table, attach it, then create them again over the partition")
	}
	if len(t.indexes) > 0 || t.trig != nil || t.fkeyed {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "attaching table %q with indexes, triggers or foreign keys of its own is not supported", name)
	}
	of := a.Partition.PartitionOf
	kids, key, root := e.partitionsOf(of.Parent)
	if kids == nil {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "table %q is not partitioned", of.Parent)
	}
	if err := checkBound(name, of, key, *kids, text); err != nil {
		return Result{}, err
	}
	if err := e.refuseDefaultReaders(*kids, "attach a partition to"); err != nil {
		return Result{}, err
	}
	if d := defaultPartition(*kids); d != nil && !of.Bound.Default {
		if err := e.checkDefaultRows(d, key, &of.Bound); err != nil {
			return Result{}, err
		}
	}
	sqlText := "CREATE TABLE " + expr.QuoteIdent(name) + " PARTITION OF " + expr.QuoteIdent(of.Parent) + " " + sql.BoundSQL(&of.Bound)
	p := &partition{def: a.Partition, parent: of.Parent, root: root, text: sqlText}
	*kids = append(*kids, p)
	if e.parts == nil {
		e.parts = map[string]*partition{}
	}
	e.parts[name] = p
	f := e.partitionFilter(p)
	var rows []value.Row
	var err error
	bad := false
	t.scan(func(_ uint64, row value.Row) bool {
		var in bool
		if in, err = f.Accepts(row); err != nil || !in {
			bad = err == nil
			return false
		}
		rows = append(rows, row)
		return true
	})
	if err == nil && bad {
		err = pgerr.New(pgerr.CheckViolation, "partition constraint of relation %q is violated by some row", name)
	}
	if err == nil {
		_, err = e.autocommit(func() (Result, error) {
			for _, row := range rows {
				if _, err := e.insertRow(root, row); err != nil {
					return Result{}, err
				}
			}
			return Result{}, nil
		})
	}
	if err != nil {
		e.forgetPartition(name)
		return Result{}, err
	}
	delete(e.tables, name)
	e.read, e.waves = nil, nil
	if e.store != nil {
		if err := e.store.Drop([]string{name}); err != nil {
			return Result{}, err
		}
	}
	if err := e.storeCreate(name, KindPartition, sqlText); err != nil {
		return Result{}, err
	}
	return Result{Tag: "ALTER TABLE"}, nil
}

// detachPartition runs ALTER TABLE … DETACH PARTITION: the partition
// becomes a table of its own with its parent's columns and keys, and its
// rows move there in a commit of their own (the views over the
// partitioned table see them go).
func (e *Engine) detachPartition(d *sql.DetachPartition) (Result, error) {
	p, ok := e.parts[d.Name]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q is not a partition of relation %q", d.Name, d.Parent)
	}
	if kids, _, _ := e.partitionsOf(p.parent); d.Concurrent && kids != nil && defaultPartition(*kids) != nil {
		return Result{}, pgerr.New(pgerr.ObjectNotInPrereqState, "cannot detach partitions concurrently when a default partition exists")
	}
	if deps := e.dependentsIndex()[d.Name]; len(deps) > 0 {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot detach partition %q while %s %s reads it", d.Name, e.kindName(deps[0]), deps[0]).
			WithHint("drop the views that read the partition, detach it, then create them again over the table")
	}
	if kids, _, _ := e.partitionsOf(p.parent); kids != nil && !p.def.PartitionOf.Bound.Default {
		if err := e.refuseDefaultReaders(*kids, "detach a partition of"); err != nil {
			return Result{}, err
		}
	}
	f := e.partitionFilter(p)
	root := p.root
	var ids []uint64
	var rows []value.Row
	var err error
	root.scan(func(id uint64, row value.Row) bool {
		var in bool
		if in, err = f.Accepts(row); in {
			ids, rows = append(ids, id), append(rows, row)
		}
		return err == nil
	})
	if err != nil {
		return Result{}, err
	}
	if err := e.detachReferenced(p, rows); err != nil {
		return Result{}, err
	}
	e.forgetPartition(d.Name)
	t := newTable(d.Table)
	t.temp = isTemp(d.Name) // a temporary partition stays the session's
	e.tables[d.Name] = t
	e.read, e.waves = nil, nil
	if e.store != nil && !t.temp {
		if err := e.store.Drop([]string{d.Name}); err != nil {
			return Result{}, err
		}
	}
	if !t.temp {
		if err := e.storeCreate(d.Name, KindTable, d.Table.SQL()); err != nil {
			return Result{}, err
		}
	}
	if e.fkeys != nil || len(d.Table.ForeignKeys) > 0 {
		e.linkForeignKeys() // the table's copy of its root's constraints
	}
	_, err = e.autocommit(func() (Result, error) {
		for i, id := range ids {
			e.deleteRow(root, id)
			if _, err := e.insertRow(t, rows[i]); err != nil {
				return Result{}, err
			}
		}
		return Result{}, nil
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Tag: "ALTER TABLE"}, nil
}

func isPartitionOf(e expr.Expr) bool {
	_, ok := e.(*expr.PartitionOf)
	return ok
}
