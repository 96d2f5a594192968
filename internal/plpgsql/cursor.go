package plpgsql

import (
	"math"
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Cursors. A cursor variable (refcursor, held as text) names an open
// cursor of the call: OPEN runs its query and keeps the rows, FETCH and
// MOVE walk them as PostgreSQL's portal does, CLOSE forgets them. A bound
// cursor (c CURSOR [(args)] FOR query) is named after its variable; an
// unbound one (c refcursor) gets "<unnamed portal n>" at OPEN when NULL.
// Cursors live in the session's Portals when the Runtime keeps them
// (PortalTable), until CLOSE or the transaction's end; otherwise until
// the call returns: a refcursor returned is then a name only.

// Cursor options of PostgreSQL's grammar (cursor_options).
const (
	cursorScroll   = 0x2
	cursorNoScroll = 0x4
)

// Fetch directions of PostgreSQL's grammar.
const (
	fetchForward = iota
	fetchBackward
	fetchAbsolute
	fetchRelative
)

// fetchAll is how_many of ALL.
const fetchAll = math.MaxInt64

// cursorDecl is what a bound cursor's declaration says.
type cursorDecl struct {
	query   *pexpr
	argRow  int // the datum of its arguments' row; -1 without arguments
	options int
}

type (
	openStmt struct {
		curvar  int
		options int
		query   *pexpr // OPEN c FOR query
		dyn     *pexpr // OPEN c FOR EXECUTE dyn USING params
		params  []*pexpr
		args    *pexpr // OPEN c(args) of a bound cursor
	}
	fetchStmt struct {
		curvar    int
		direction int
		howMany   int64
		count     *pexpr // the count, when an expression gives it
		move      bool
		target    target
	}
	closeStmt struct{ curvar int }
	forCursor struct {
		label  string
		curvar int
		args   *pexpr
		target target
		body   []stmt
	}
)

func (*openStmt) isStmt()  {}
func (*fetchStmt) isStmt() {}
func (*closeStmt) isStmt() {}
func (*forCursor) isStmt() {}

// cursor is an open cursor: its rows and its position, 0 before the
// first row, len(rows)+1 after the last.
type cursor struct {
	res      *Result
	pos      int64
	noScroll bool
	scroll   bool // SCROLL, which pg_cursors shows
	binary   bool // BINARY, which pg_cursors shows
	// depth and created are what the session said of it when it was
	// opened (Opener); text is its statement (Portal.Text).
	depth   int
	created int64
	text    string
	// oids and tids are the table and the ctid of each row of a simply
	// updatable scan (currentof.go), nil for another query; a scan of a
	// table with inheritance children reads rows of several tables.
	oids   []uint32
	tids   []value.Value
	locked bool
	// release lets go of the relations its query keeps in use until
	// CLOSE (Holder); nil when the Runtime keeps none.
	release func()
	// seq is its number among the cursors opened (Portals.seq); pinned
	// is set while a FOR loop reads it, which a COMMIT leaves open.
	seq    int
	pinned bool
}

// close forgets the open cursor name, letting go of its relations.
func (c *call) close(name string) {
	c.cursors.remove(name)
}

// closeAll closes the cursors still open when the call returns, unless
// the session keeps them (PortalTable) until its transaction ends.
func (c *call) closeAll() {
	if !c.shared {
		c.cursors.CloseAll()
	}
}

// cursorName is the name a cursor variable holds; open names an unbound
// one that has none.
func (c *call) cursorName(dno int, open bool) (string, *variable, error) {
	v, err := c.variable(dno)
	if err != nil {
		return "", nil, err
	}
	if v.v.IsNull() {
		if !open {
			return "", nil, pgerr.New("22004", "cursor variable %q is null", v.name)
		}
		v.v = value.NewText(value.RefCursor, "<unnamed portal "+strconv.Itoa(c.nextPortal())+">")
	}
	return v.v.String(), v, nil
}

// nextPortal numbers an unnamed portal the call opens.
func (c *call) nextPortal() int {
	if pn, ok := c.rt.(PortalNamer); ok {
		return pn.NextPortal()
	}
	c.portals++
	return c.portals
}

// open runs OPEN: the cursor's query, run now, its rows kept.
func (c *call) open(s *openStmt) error {
	name, _, err := c.cursorName(s.curvar, true)
	if err != nil {
		return err
	}
	if c.cursors.Has(name) {
		return pgerr.New("42P03", "cursor %q already in use", name)
	}
	opts := s.options
	var res *Result
	var scan *cursorScan
	switch {
	case s.query != nil:
		res, scan, err = c.runScan(s.query)
	case s.dyn != nil:
		res, _, err = c.dynamic(s.dyn, s.params)
	default:
		decl := c.f.datums[s.curvar].cursor
		if decl == nil {
			return pgerr.New("42P11", "cursor %q has no query", c.f.datums[s.curvar].name)
		}
		opts |= decl.options
		res, scan, err = c.boundQuery(decl, s.args)
	}
	if err != nil {
		return err
	}
	cur := &cursor{res: res, noScroll: opts&cursorNoScroll != 0, scroll: opts&cursorScroll != 0}
	if o, ok := c.rt.(Opener); ok {
		cur.depth, cur.created = o.OpenMark()
	}
	switch {
	case s.query != nil:
		cur.text = s.query.text
	case s.dyn != nil:
		cur.text = c.dynText
	case c.f.datums[s.curvar].cursor != nil:
		cur.text = c.f.datums[s.curvar].cursor.query.text
	}
	if scan != nil {
		cur.oids, cur.tids, cur.locked = scan.oids, scan.tids, scan.locked
	}
	if h, ok := c.rt.(Holder); ok {
		// Its relations stay in use until CLOSE, as PostgreSQL's portal
		// keeps them.
		cur.release = h.HoldLast()
	}
	c.cursors.put(name, cur)
	return nil
}

// boundQuery runs a bound cursor's query with its arguments' values,
// args, as variables of their declared types.
func (c *call) boundQuery(decl *cursorDecl, args *pexpr) (*Result, *cursorScan, error) {
	if decl.argRow < 0 {
		return c.runScan(decl.query)
	}
	res, err := c.run(args)
	if err != nil {
		return nil, nil, err
	}
	saved := c.fr
	c.fr = newFrame(saved, "")
	defer func() { c.fr = saved }()
	var row value.Row
	if len(res.Rows) > 0 {
		row = res.Rows[0]
	}
	for i, dno := range c.f.datums[decl.argRow].fields {
		dt, err := c.declType(dno)
		if err != nil {
			return nil, nil, err
		}
		v := &variable{name: c.f.datums[dno].name, t: dt.t, v: value.Null}
		c.bind(dno, v)
		if i < len(row) {
			if err := c.setVar(v, row[i], true); err != nil {
				return nil, nil, err
			}
		}
	}
	return c.runScan(decl.query)
}

// openCursor is the open cursor a variable names.
func (c *call) openCursor(dno int) (string, *cursor, error) {
	name, _, err := c.cursorName(dno, false)
	if err != nil {
		return "", nil, err
	}
	cur := c.cursors.m[name]
	if cur == nil {
		return "", nil, pgerr.New("34000", "cursor %q does not exist", name)
	}
	return name, cur, nil
}

// fetch runs FETCH and MOVE: FETCH puts the row it reaches into its
// target (NULLs when none); FOUND and ROW_COUNT say whether it reached
// one (for MOVE, how many rows it passed).
func (c *call) fetch(s *fetchStmt) error {
	_, cur, err := c.openCursor(s.curvar)
	if err != nil {
		return err
	}
	n := s.howMany
	if s.count != nil {
		v, _, err := c.scalar(s.count)
		if err != nil {
			return err
		}
		if v.IsNull() {
			return pgerr.New("22004", "relative or absolute cursor position is null")
		}
		iv, err := c.rt.Assign(v, value.Int8Type)
		if err != nil {
			return err
		}
		n = iv.Int()
	}
	row, processed, err := cur.move(s.direction, n)
	if err != nil {
		return err
	}
	c.rowCount = processed
	if !s.move {
		if err := c.into(s.target, cur.res, row); err != nil {
			return err
		}
	}
	c.setFound(processed > 0)
	return nil
}

// move moves a cursor as PostgreSQL's FETCH and MOVE do: the row it lands
// on (nil when none) and the number of rows processed.
func (cur *cursor) move(direction int, n int64) (value.Row, int64, error) {
	size := int64(len(cur.res.Rows))
	from := cur.pos
	var to int64
	switch direction {
	case fetchForward, fetchBackward:
		if direction == fetchBackward {
			n = -n
		}
		if n == 0 {
			to = from
			break
		}
		to = clampAdd(from, n)
	case fetchAbsolute:
		switch {
		case n > 0:
			to = n
		case n < 0:
			to = clampAdd(size+1, n)
		}
	case fetchRelative:
		to = clampAdd(from, n)
	}
	if cur.noScroll && to < from {
		return nil, 0, pgerr.New("55000", "cursor can only scan forward").
			WithHint("Declare it with SCROLL option to enable backward scan.")
	}
	to = max(0, min(to, size+1))
	cur.pos = to
	var row value.Row
	if to >= 1 && to <= size {
		row = cur.res.Rows[to-1]
	}
	processed := int64(0)
	if (direction == fetchForward || direction == fetchBackward) && n != 0 {
		// The rows passed, the one landed on included.
		lo, hi := min(from, to), max(from, to)
		processed = hi - lo
		if row == nil {
			processed--
		}
		processed = max(0, min(processed, size))
	} else if row != nil {
		processed = 1
	}
	return row, processed, nil
}

// clampAdd is a+b, kept from overflowing.
func clampAdd(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	if b < 0 && a < math.MinInt64-b {
		return math.MinInt64
	}
	return a + b
}

// closeCursor runs CLOSE.
func (c *call) closeCursor(s *closeStmt) error {
	name, _, err := c.openCursor(s.curvar)
	if err != nil {
		return err
	}
	c.close(name)
	return nil
}

// forCursor runs FOR target IN cursor [(args)] LOOP: the bound cursor
// opened, each of its rows in turn, the cursor closed at the end.
func (c *call) forCursor(s *forCursor) (control, error) {
	if err := c.open(&openStmt{curvar: s.curvar, args: s.args}); err != nil {
		return control{}, err
	}
	name, cur, err := c.openCursor(s.curvar)
	if err != nil {
		return control{}, err
	}
	defer c.close(name)
	cur.pinned = true
	saved := c.fr
	c.fr = newFrame(saved, s.label)
	defer func() { c.fr = saved }()
	for i, row := range cur.res.Rows {
		cur.pos = int64(i) + 1 // WHERE CURRENT OF in the body reads it
		if err := c.into(s.target, cur.res, row); err != nil {
			return control{}, err
		}
		if stop, ct, err := c.iterate(s.label, s.body); stop {
			c.setFound(true)
			return ct, err
		}
	}
	c.setFound(len(cur.res.Rows) > 0)
	return control{}, nil
}
