package engine

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/intmap"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// table keeps a stored table's rows, by row id in insertion order (an
// updated row keeps its id; where PostgreSQL's heap puts it, at the end,
// is kept in heap: see "Tables" in docs/architecture.md), and a
// hash index per PRIMARY KEY or UNIQUE constraint. A table without a
// primary key is a multiset: equal rows are stored once each.
type table struct {
	// stat is what pg_stat_all_tables counts (stat_counters.go).
	stat relStats
	name string
	temp bool // a session's temporary table, named tempPrefix… (temp.go)
	// cursorPins counts the cursors that keep ctids of the table's rows
	// (currentof.go): compact, which would renumber them, waits.
	cursorPins int
	def        *sql.CreateTable
	cols       []plan.Column
	rows       *rowStore
	nextID     uint64
	// heap is where the rows an UPDATE rewrote lie in PostgreSQL's heap
	// (heap_order.go), nil while none has moved.
	heap    *heapOrder
	uniques []*uniqueIndex // the primary key first, when there is one
	// prefixes index leading columns of composite keys, once looked up.
	prefixes []*prefixIndex
	indexes  []*namedIndex // CREATE INDEX
	// xindexes are the indexes CREATE INDEX made on expressions or with a
	// predicate (index_ext.go), evaluated on each write and kept in order
	// of their computed keys (exprpath.go); xuniques, the hash indexes of
	// the unique ones among them, enforced on each write and no part of
	// uniques (they serve no key-based path and no key).
	xindexes []*namedIndex
	xuniques []*uniqueIndex
	// excl are the table's EXCLUDE constraints (exclusion.go), nil for
	// none.
	excl []*exclusion
	// keyOrders are ordered indexes of primary and unique keys, each built
	// on the first range over its leading columns (accessPath).
	keyOrders []*namedIndex
	// clustered is the index CLUSTER … USING named last (storage.go).
	clustered string
	delta     zset.ZSet        // the last commit's batch, reused by the next
	spare     zset.ZSet        // the batch before, while a commit behind may read delta (directDelta)
	pre       []zset.RowPrefix // the prefixes of a big batch's rows
	// gathering is set while a commit gathers the table's batch; built,
	// while it takes the batch applyPending built.
	gathering, built bool
	bytes            int64
	stream           streamState // for a change-stream table (stream.go)
	// fkeyed is set while a FOREIGN KEY constraint references the table
	// or the table has one (fkey.go).
	fkeyed bool
	// trig are the table's triggers in name order, nil for none
	// (trigger.go).
	trig []*trigger
	// kids are a partitioned table's partitions (partition.go), whose
	// rows the table keeps.
	kids []*partition
	// dkeys are the DEFERRABLE ones among uniques (key_deferrable.go).
	dkeys []*uniqueIndex

	// gen are its stored generated columns (generated.go).
	gen generated

	// read caches whether some view reads the table, for the set of
	// views numbered readGen (Engine.isRead).
	read    bool
	readGen uint64

	// succ is the table an ALTER TABLE built in its place (a rename
	// keeps the rows under a new definition), for the statements that
	// hold this one while it runs (table_identity.go).
	succ *table

	// copyBare is set while a COPY writes into the table (copy_bare.go).
	copyBare []bool
}

// uniqueIndex maps the key of each row with no NULL in its key columns to
// the row's id. A key of one integer column is kept by its integer (see
// intmap.Map), which costs neither an encoding nor a string hash, with the
// row itself, so that a lookup by key reaches the row without going
// through the row store: a cache miss less on every change by key. A key
// of two integer columns is kept the same way, both integers packed in
// one, while every key's integers fit 32 bits (TPC-H's lineitem and
// partsupp: 24 bytes a key where an encoded key in a map takes about 70);
// the first key that does not fit moves the index to encoded keys. Any
// other key is encoded (value.AppendKey).
type uniqueIndex struct {
	name    string
	cols    []int
	primary bool
	ints    *intmap.Map[rowRef] // for a single integer column, or a pair packed
	pair    bool                // ints holds two columns' integers packed
	kinds   [2]value.Kind       // a pair's columns' kinds, to encode its packed keys (unpack)
	m       map[string]uint64
	x       *keyExt // expressions, predicate, NULLS NOT DISTINCT (index_ext.go); nil for none
	// colls are, per key column, the nondeterministic collation its
	// values take before their key is encoded, so that strings it holds
	// equal conflict (0: none); nil when no column has one.
	colls []uint8
	// deferrable is a DEFERRABLE key (key_deferrable.go): its keys are
	// encoded (m), and more holds, by key, the rows beside m's one while
	// the check waits; initDeferred is INITIALLY DEFERRED.
	deferrable, initDeferred bool
	more                     map[string][]uint64
}

// uniqueColls are uniqueIndex.colls of the key cols (-1: an expression)
// of a table def whose elements name elemColls.
func uniqueColls(cols []int, def *sql.CreateTable, elemColls []int16) []uint8 {
	var out []uint8
	for i, c := range cols {
		id := uint8(0)
		if c >= 0 {
			id = def.Cols[c].ICUCollation()
		}
		if i < len(elemColls) && elemColls[i] >= 0 {
			id = uint8(elemColls[i])
		}
		if id != 0 && value.CollationByID(id).Nondeterministic {
			if out == nil {
				out = make([]uint8, len(cols))
			}
			out[i] = id
		}
	}
	return out
}

// intKeyLen is the length of a key kept in ints: an integer's 8 bytes.
// An encoded key of two integers is longer (value.AppendKey).
const intKeyLen = 8

// rowRef is an integer key's entry: the row's id, its slot in the row
// store (rowStore.rows[id]). An entry holds no pointer, so that the
// index's array (16 MB for 1M keys before, 8 MB now) is memory the
// garbage collector neither scans nor whose entries it follows, at every
// cycle, to rows the row store's slots mark anyway; a change by key reads
// its row through the slot.
type rowRef struct {
	id uint64
}

func newUniqueIndex(name string, cols []int, primary bool, def *sql.CreateTable) *uniqueIndex {
	return newUniqueIndexColl(name, cols, primary, def, nil)
}

// newUniqueIndexColl is newUniqueIndex whose key elements' own
// collations (sql.CreateIndex.ElemColls; nil for none) replace their
// columns'.
func newUniqueIndexColl(name string, cols []int, primary bool, def *sql.CreateTable, elemColls []int16) *uniqueIndex {
	u := &uniqueIndex{name: name, cols: cols, primary: primary, colls: uniqueColls(cols, def, elemColls)}
	isInt := func(c int) bool {
		switch def.Cols[c].Type.Kind {
		case value.Int2, value.Int4, value.Int8:
			return true
		}
		return false
	}
	if len(cols) == 1 && isInt(cols[0]) || len(cols) == 2 && isInt(cols[0]) && isInt(cols[1]) {
		u.ints = intmap.NewPresence[rowRef]() // Has: a batch's replacements check their keys (replacePending)
		u.pair = len(cols) == 2
		if u.pair {
			u.kinds = [2]value.Kind{def.Cols[cols[0]].Type.Kind, def.Cols[cols[1]].Type.Kind}
		}
		return u
	}
	u.m = map[string]uint64{}
	return u
}

func newTable(def *sql.CreateTable) *table {
	t := &table{name: def.Name, def: def, rows: newRowStore(), nextID: 1}
	for _, c := range def.Cols {
		t.cols = append(t.cols, plan.Column{Name: c.Name, Type: c.Type, Coll: c.ICUCollation()})
	}
	if def.PrimaryKey != nil {
		t.uniques = append(t.uniques, newUniqueIndex(def.KeyName(-1), def.PrimaryKey, true, def))
		t.deferKey(-1)
	}
	for i, u := range def.Uniques {
		t.uniques = append(t.uniques, newUniqueIndex(def.KeyName(i), u, false, def))
		if slices.Contains(def.NullsNotDistinct, i) {
			t.uniques[len(t.uniques)-1].extend(&keyExt{nulls: true})
		}
		t.deferKey(i)
	}
	for i := range def.Exclusions {
		t.excl = append(t.excl, newExclusion(&def.Exclusions[i]))
	}
	return t
}

// key returns the encoded key of row, or ok=false when a key column is
// NULL (NULLs never conflict). An integer index's key is the integer's
// bytes.
func (u *uniqueIndex) key(row value.Row, buf []byte) ([]byte, bool) {
	buf = buf[:0]
	if u.x != nil {
		return u.extKey(row, buf)
	}
	if u.pair {
		a, b := row[u.cols[0]], row[u.cols[1]]
		if a.IsNull() || b.IsNull() {
			return nil, false
		}
		x, y := a.Int(), b.Int()
		if x == int64(int32(x)) && y == int64(int32(y)) {
			return binary.LittleEndian.AppendUint64(buf, uint64(x)<<32|uint64(uint32(y))), true
		}
		// Not packable: the encoded key, which ints holds none of.
		return value.AppendKey(value.AppendKey(buf, a), b), true
	}
	for i, c := range u.cols {
		if row[c].IsNull() {
			return nil, false
		}
		if u.ints != nil {
			return binary.LittleEndian.AppendUint64(buf, uint64(row[c].Int())), true
		}
		if u.colls != nil && u.colls[i] != 0 {
			buf = value.AppendKey(buf, row[c].Collated(u.colls[i]))
			continue
		}
		buf = value.AppendKey(buf, row[c])
	}
	return buf, true
}

// get returns the id stored under an encoded key.
func (u *uniqueIndex) get(k []byte) (uint64, bool) {
	if u.ints != nil {
		if len(k) != intKeyLen {
			return 0, false
		}
		r, ok := u.ints.Get(intKey(k))
		return r.id, ok
	}
	id, ok := u.m[string(k)]
	return id, ok
}

func intKey(k []byte) int64 { return int64(binary.LittleEndian.Uint64(k)) }

// set stores row's id under an encoded key (and, for an integer key, the
// row: set it again when the row under the key is replaced).
func (u *uniqueIndex) set(k []byte, id uint64, row value.Row) {
	if u.pair && len(k) != intKeyLen {
		u.unpack()
	}
	if u.ints != nil {
		u.ints.Set(intKey(k), rowRef{id: id})
		return
	}
	if u.deferrable {
		u.setDeferred(string(k), id)
		return
	}
	u.m[string(k)] = id
}

// unpack moves a packed pair index to encoded keys, once a key does not
// fit packing.
func (u *uniqueIndex) unpack() {
	m := make(map[string]uint64, u.ints.Len())
	var buf []byte
	u.ints.All(func(k int64, r rowRef) bool {
		// The packed key's integers, as key packed them, of the columns'
		// kinds, as the row's values are.
		a, b := value.NewInt(u.kinds[0], k>>32), value.NewInt(u.kinds[1], int64(int32(k)))
		buf = value.AppendKey(value.AppendKey(buf[:0], a), b)
		m[string(buf)] = r.id
		return true
	})
	u.ints, u.pair, u.m = nil, false, m
}

// drop removes an encoded key if it maps to id.
func (u *uniqueIndex) drop(k []byte, id uint64) {
	if u.ints != nil {
		if len(k) != intKeyLen {
			return
		}
		if r, ok := u.ints.Get(intKey(k)); ok && r.id == id {
			u.ints.Delete(intKey(k), r)
		}
		return
	}
	if u.deferrable {
		u.dropDeferred(string(k), id)
		return
	}
	if u.m[string(k)] == id {
		delete(u.m, string(k))
	}
}

func (u *uniqueIndex) len() int {
	if u.ints != nil {
		return u.ints.Len()
	}
	return len(u.m)
}

func (u *uniqueIndex) clear() {
	if u.ints != nil {
		u.ints.Clear()
	}
	clear(u.m)
	u.more = nil
}

// reserve makes room for n more keys.
func (u *uniqueIndex) reserve(n int64) {
	if int64(u.len()) >= n {
		return
	}
	if u.ints != nil {
		u.ints.Reserve(int(n))
		return
	}
	m := make(map[string]uint64, int64(len(u.m))+n)
	maps.Copy(m, u.m)
	u.m = m
}

// lookup returns the id of the row whose key equals row's.
func (u *uniqueIndex) lookup(row value.Row) (uint64, bool) {
	var arr [64]byte
	k, ok := u.key(row, arr[:0])
	if !ok {
		return 0, false
	}
	return u.get(k)
}

// byKey returns the id and the row whose key in u equals row's.
func (t *table) byKey(u *uniqueIndex, row value.Row) (uint64, value.Row, bool) {
	var arr [64]byte
	k, ok := u.key(row, arr[:0])
	if !ok {
		return 0, nil, false
	}
	if u.ints != nil {
		if len(k) != intKeyLen {
			return 0, nil, false
		}
		r, ok := u.ints.Get(intKey(k))
		if !ok {
			return 0, nil, false
		}
		return r.id, t.rows.rows[r.id], true
	}
	id, ok := u.m[string(k)]
	if !ok {
		return 0, nil, false
	}
	cur, _ := t.rows.Get(id)
	return id, cur, true
}

// check computes row's generated columns (in place) and validates row
// against the table's NOT NULL and CHECK constraints and its columns'
// domains.
func (t *table) check(row value.Row) error { return t.checkRow(nil, row) }

// checkRow is check for row replacing old (nil for a new row): of the
// domains, only the values that changed are checked.
func (t *table) checkRow(old, row value.Row) error {
	return t.checkRowAs(old, row, t.name, t.def.Cols, nil)
}

// checkRowAs checks row as held by the relation keyed rel (t itself, or
// a partition of t), whose columns cols say which are NOT NULL: t's
// checks and extra, which a partition has of its own. A partition's are
// evaluated as PostgreSQL's, by name, and the first failing named.
func (t *table) checkRowAs(old, row value.Row, rel string, cols []sql.ColumnDef, extra []sql.Check) error {
	if err := t.generate(row); err != nil {
		return err
	}
	uncollate(row)
	if err := t.checkDomains(old, row); err != nil {
		return err
	}
	for i := range cols { // by index: a column's definition is not copied
		if c := &cols[i]; c.NotNull && row[i].IsNull() {
			e := withFailingRow(&pgerr.Error{Code: pgerr.NotNullViolation,
				Message: fmt.Sprintf("null value in column %q of relation %q violates not-null constraint", c.Name, unqualified(rel))}, row)
			relationFields(e, rel)
			e.Column = c.Name
			return e
		}
	}
	if t.xindexes != nil {
		if err := t.checkExt(row); err != nil {
			return err
		}
	}
	byName := rel != t.name
	var failed *sql.Check
	for _, checks := range [2][]sql.Check{t.def.Checks, extra} {
		for i := range checks {
			ch := &checks[i]
			if failed != nil && (!byName || ch.Name > failed.Name) {
				continue
			}
			v, err := ch.Expr.Eval(row)
			if err != nil {
				return err
			}
			if !v.IsNull() && !v.Bool() {
				failed = ch
			}
		}
	}
	if failed != nil {
		e := withFailingRow(&pgerr.Error{Code: pgerr.CheckViolation,
			Message: fmt.Sprintf("new row for relation %q violates check constraint %q", unqualified(rel), t.bare(failed.Name))}, row)
		relationFields(e, rel)
		e.Constraint = t.bare(failed.Name)
		return e
	}
	return nil
}

// uncollate takes off the ICU collation that a value written from an
// expression under one carries (x COLLATE "en-x-icu"): a table's columns
// have the default collation, so their values must compare byte by byte
// afterwards, in the table's checks and wherever they are read.
func uncollate(row value.Row) {
	for i := range row {
		if row[i].CollationID() != 0 {
			row[i] = row[i].Collated(0)
		}
	}
}

func failingRow(row value.Row) string {
	return "(" + strings.Join(failingValues(row), ", ") + ")"
}

// failingValues are the texts of row's values as a DETAIL shows them.
func failingValues(row value.Row) []string {
	parts := make([]string, len(row))
	for i, v := range row {
		if v.IsNull() {
			parts[i] = "null"
		} else {
			parts[i] = clipField(string(value.AppendText(nil, v)))
		}
	}
	return parts
}

// withFailingRow gives e the DETAIL naming row, a row of the relation e
// names, which the statement cuts down to what its role may read
// (failing_row.go).
func withFailingRow(e *pgerr.Error, row value.Row) *pgerr.Error {
	e.FailingRow = failingValues(row)
	e.Detail = "Failing row contains (" + strings.Join(e.FailingRow, ", ") + ")."
	return e
}

// clipField cuts a value's text longer than 64 bytes after its last
// whole character within them and adds "...", as PostgreSQL's
// ExecBuildSlotValueDescription does.
func clipField(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// conflict returns the unique index and existing row id that row would
// duplicate, if any.
func (t *table) conflict(row value.Row) (*uniqueIndex, uint64, bool) {
	for _, u := range t.uniques {
		if u.deferrable { // checked at the statement's end (key_deferrable.go)
			continue
		}
		if id, ok := u.lookup(row); ok {
			return u, id, true
		}
	}
	for _, u := range t.xuniques {
		if id, ok := u.lookup(row); ok {
			return u, id, true
		}
	}
	return nil, 0, false
}

func uniqueViolation(u *uniqueIndex, t *table, row value.Row) error {
	if u.x != nil {
		return u.extViolation(t, row)
	}
	names := make([]string, len(u.cols))
	vals := make([]string, len(u.cols))
	for i, c := range u.cols {
		names[i] = t.cols[c].Name
		vals[i] = string(value.AppendText(nil, row[c]))
	}
	return t.constraintError(&pgerr.Error{Code: pgerr.UniqueViolation,
		Message: fmt.Sprintf("duplicate key value violates unique constraint %q", t.bare(u.name)),
		Detail:  fmt.Sprintf("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))}, u.name)
}

// bare is the name of an index or constraint of t keyed name, without
// the schema of t, as PostgreSQL's messages name it.
func (t *table) bare(name string) string {
	if i := strings.IndexByte(t.name, '.'); i > 0 && strings.HasPrefix(name, t.name[:i+1]) {
		return name[i+1:]
	}
	return name
}

// conflictExcept returns the unique index on which row, replacing old
// under id, would duplicate another row. An index whose key the
// replacement leaves unchanged cannot conflict and is not searched, nor
// are the first same of t.uniques, whose keys the caller knows unchanged.
func (t *table) conflictExcept(old, row value.Row, id uint64, same int) (*uniqueIndex, bool) {
	var a, b [64]byte
	for _, u := range t.uniques[same:] {
		if u.deferrable {
			continue
		}
		ko, okOld := u.key(old, a[:0])
		kn, okNew := u.key(row, b[:0])
		if !okNew || okOld && string(ko) == string(kn) {
			continue
		}
		if other, ok := u.get(kn); ok && other != id {
			return u, true
		}
	}
	for _, u := range t.xuniques {
		ko, okOld := u.key(old, a[:0])
		kn, okNew := u.key(row, b[:0])
		if !okNew || okOld && string(ko) == string(kn) {
			continue
		}
		if other, ok := u.get(kn); ok && other != id {
			return u, true
		}
	}
	return nil, false
}

// replace stores row in place of old under id, moving the index entries
// whose keys changed. The caller has checked constraints.
func (t *table) replace(id uint64, old, row value.Row) {
	t.reindex(id, old, row, 0)
	t.bytes += dataflow.RowBytes(row) - dataflow.RowBytes(old)
}

// replaceByKey is replace for a row found by its primary key, which row
// keeps. It reads old only for the indexes other than the primary key
// (most tables have none), and leaves old's bytes in t.bytes for the
// caller's log entry to settle (change.owes) when the commit reads old
// anyway: a change by key then does not wait for the old row to come
// into the cache, which in a big transaction is one cache miss a change
// less on the way, and one the commit's pass over the batch overlaps
// with the others.
func (t *table) replaceByKey(id uint64, old, row value.Row) {
	t.reindex(id, old, row, 1)
	t.bytes += dataflow.RowBytes(row)
}

// reindex moves the index entries of the row under id from old to row,
// and stores row. The first same of t.uniques keep their keys.
func (t *table) reindex(id uint64, old, row value.Row, same int) {
	var a, b [64]byte
	for k, u := range t.uniques {
		if k < same {
			if u.ints != nil { // the entry holds the row
				kn, _ := u.key(row, b[:0])
				u.set(kn, id, row)
			}
			continue
		}
		ko, okOld := u.key(old, a[:0])
		kn, okNew := u.key(row, b[:0])
		if okOld && okNew && string(ko) == string(kn) {
			if u.ints != nil {
				u.set(kn, id, row)
			}
			continue
		}
		if okOld {
			u.drop(ko, id)
		}
		if okNew {
			u.set(kn, id, row)
		}
	}
	for _, u := range t.xuniques {
		ko, okOld := u.key(old, a[:0])
		kn, okNew := u.key(row, b[:0])
		if okOld && okNew && string(ko) == string(kn) {
			continue
		}
		if okOld {
			u.drop(ko, id)
		}
		if okNew {
			u.set(kn, id, row)
		}
	}
	for _, p := range t.prefixes {
		p.drop(id, old)
		p.add(id, row)
	}
	for _, ix := range t.indexes {
		ix.ord.replace(id, old, row)
	}
	for _, ix := range t.keyOrders {
		ix.ord.replace(id, old, row)
	}
	for _, ix := range t.xindexes {
		ix.xord.replace(ix, id, old, row)
	}
	for _, x := range t.excl {
		x.drop(id, old)
		x.add(id, row)
	}
	t.rows.Set(id, row)
}

// put stores row under id and indexes it. The caller has checked
// constraints.
func (t *table) put(id uint64, row value.Row) {
	t.rows.Set(id, row)
	var arr [64]byte
	for _, u := range t.uniques {
		if k, ok := u.key(row, arr[:0]); ok {
			u.set(k, id, row)
		}
	}
	for _, u := range t.xuniques {
		if k, ok := u.key(row, arr[:0]); ok {
			u.set(k, id, row)
		}
	}
	for _, p := range t.prefixes {
		p.add(id, row)
	}
	for _, ix := range t.indexes {
		ix.ord.add(id, row)
	}
	for _, ix := range t.keyOrders {
		ix.ord.add(id, row)
	}
	for _, ix := range t.xindexes {
		ix.xord.add(ix, id, row)
	}
	for _, x := range t.excl {
		x.add(id, row)
	}
	t.bytes += dataflow.RowBytes(row)
	if id >= t.nextID {
		t.nextID = id + 1
	}
}

// remove deletes the row with id and returns it.
func (t *table) remove(id uint64) value.Row {
	row, ok := t.rows.Delete(id)
	if !ok {
		return nil
	}
	var arr [64]byte
	for _, u := range t.uniques {
		if k, ok := u.key(row, arr[:0]); ok {
			u.drop(k, id)
		}
	}
	for _, u := range t.xuniques {
		if k, ok := u.key(row, arr[:0]); ok {
			u.drop(k, id)
		}
	}
	for _, p := range t.prefixes {
		p.drop(id, row)
	}
	for _, ix := range t.indexes {
		ix.ord.drop(id, row)
	}
	for _, ix := range t.keyOrders {
		ix.ord.drop(id, row)
	}
	for _, ix := range t.xindexes {
		ix.xord.drop(ix, id, row)
	}
	for _, x := range t.excl {
		x.drop(id, row)
	}
	t.bytes -= dataflow.RowBytes(row)
	return row
}

// scan calls fn for every row in id order until fn returns false.
func (t *table) scan(fn func(id uint64, row value.Row) bool) {
	t.rows.Scan(fn)
}

// putAll hands every row to put in id order, stopping at put's first
// error: the store's Alter writes a table's rows again through it.
func (t *table) putAll(put func(uint64, value.Row) error) error {
	var err error
	t.scan(func(id uint64, row value.Row) bool {
		err = put(id, row)
		return err == nil
	})
	return err
}

// needsCompact reports whether compact would renumber the rows.
func (t *table) needsCompact() bool {
	holes := len(t.rows.rows) - 1 - t.rows.n
	return holes >= 1024 && holes >= t.rows.n
}

// compact renumbers the rows when deletions have left more holes than
// rows, so that a table that churns keeps memory in proportion to its
// rows. Only between transactions: the undo log refers to row ids.
func (t *table) compact() {
	if t.cursorPins > 0 || !t.needsCompact() {
		return
	}
	old := t.rows
	t.rows = newRowStore()
	t.rows.grow(old.n)
	for _, u := range t.uniques {
		u.clear()
	}
	for _, u := range t.xuniques {
		u.clear()
	}
	for _, x := range t.excl {
		x.reset() // refilled by put
	}
	t.prefixes = nil  // rebuilt on the next lookup
	t.keyOrders = nil // likewise
	for _, ix := range t.indexes {
		ix.ord = newOrderedIndex(ix.cols) // refilled by put
	}
	for _, ix := range t.xindexes {
		ix.xord.reset() // likewise
	}
	t.nextID = 1
	t.bytes = 0
	// Renumbered in id order, as the database file renumbers its copy
	// (internal/store); the places of rows an UPDATE rewrote follow.
	heap := t.heap
	var newOf []uint64 // newOf[old id]: the row's new id, while heap is kept
	if heap != nil {
		newOf = make([]uint64, len(old.rows))
	}
	old.Scan(func(id uint64, row value.Row) bool {
		if newOf != nil {
			newOf[id] = t.nextID
		}
		t.put(t.nextID, row)
		return true
	})
	t.heap = heap.renumbered(old, newOf, t.nextID)
}
