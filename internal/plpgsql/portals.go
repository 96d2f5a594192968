package plpgsql

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Portals keeps a session's open cursors by name, as PostgreSQL's portals:
// a cursor a call opens stays open when the call returns, until CLOSE or
// the end of its transaction, and another call's FETCH, MOVE and CLOSE, or
// the SQL level's, read it; a cursor the SQL level declares (Declare) is
// read by the calls the same way. The zero value is empty.
type Portals struct {
	m map[string]*cursor
	// order are the names in the order they were opened, for listing.
	order []string
	// seq numbers the cursors as they open (cursor.seq), which a block's
	// EXCEPTION clause compares (CloseAfter).
	seq int
}

// PortalTable is a Runtime whose session keeps the cursors (Portals) of
// its transaction; without it a call's cursors are its own and close when
// it returns.
type PortalTable interface {
	Portals() *Portals
}

// Portal is an open cursor as the SQL level sees it.
type Portal struct {
	Name string
	Res  *Result
	// Scroll, NoScroll and Binary are the options it was opened with.
	Scroll, NoScroll, Binary bool
	// Text is its statement: DECLARE's, or the query OPEN ran.
	Text string
	// Created is when it was opened, in microseconds since 2000.
	Created int64
}

func (p *Portals) put(name string, cur *cursor) {
	if p.m == nil {
		p.m = map[string]*cursor{}
	}
	p.seq++
	cur.seq = p.seq
	p.m[name] = cur
	p.order = append(p.order, name)
}

func (p *Portals) remove(name string) {
	if cur := p.m[name]; cur != nil && cur.release != nil {
		cur.release()
	}
	delete(p.m, name)
	if i := slices.Index(p.order, name); i >= 0 {
		p.order = slices.Delete(p.order, i, i+1)
	}
}

// Has reports whether a cursor of the name is open.
func (p *Portals) Has(name string) bool { return p != nil && p.m[name] != nil }

// Len is the number of open cursors.
func (p *Portals) Len() int {
	if p == nil {
		return 0
	}
	return len(p.m)
}

// Declare opens the cursor name over the rows of res, a query's (SQL's
// DECLARE): 42P03 when the name is taken. oids and tids are the table and
// ctid of each row of a simply updatable scan (nil for another query),
// locked its FOR UPDATE or FOR SHARE; release, when not nil, is called
// when the cursor closes. depth and created are as Opener's.
func (p *Portals) Declare(name, text string, res *Result, scroll, noScroll, binary bool, oids []uint32, tids []value.Value, locked bool, release func(), depth int, created int64) error {
	if p.Has(name) {
		return pgerr.New("42P03", "cursor %q already exists", name)
	}
	p.put(name, &cursor{res: res, noScroll: noScroll, scroll: scroll, binary: binary, oids: oids, tids: tids, locked: locked, release: release,
		depth: depth, text: text, created: created})
	return nil
}

// Close closes the cursor name (CLOSE), 34000 when none is open.
func (p *Portals) Close(name string) error {
	if !p.Has(name) {
		return pgerr.New("34000", "cursor %q does not exist", name)
	}
	p.remove(name)
	return nil
}

// CloseAll closes every cursor: the transaction ended.
func (p *Portals) CloseAll() {
	for len(p.order) > 0 {
		p.remove(p.order[0])
	}
}

// CloseFrom closes the cursors opened at depth d or deeper (a ROLLBACK TO
// of the savepoint they were opened under).
func (p *Portals) CloseFrom(d int) {
	for _, name := range slices.Clone(p.order) {
		if p.m[name].depth >= d {
			p.remove(name)
		}
	}
}

// closeAfter closes the cursors opened after mark (a value of seq), as
// PostgreSQL's rollback of a subtransaction drops the portals it made.
func (p *Portals) closeAfter(mark int) {
	for _, name := range slices.Clone(p.order) {
		if p.m[name].seq > mark {
			p.remove(name)
		}
	}
}

// closeUnpinned closes the cursors that no FOR loop is reading, as
// PostgreSQL's COMMIT and ROLLBACK in a procedure close the portals but
// the pinned ones, which it keeps as holdable.
func (p *Portals) closeUnpinned() {
	for _, name := range slices.Clone(p.order) {
		if !p.m[name].pinned {
			p.remove(name)
		}
	}
}

// List are the open cursors, in the order they were opened.
func (p *Portals) List() []Portal {
	if p == nil {
		return nil
	}
	out := make([]Portal, 0, len(p.order))
	for _, name := range p.order {
		cur := p.m[name]
		out = append(out, Portal{Name: name, Res: cur.res, Scroll: cur.scroll, NoScroll: cur.noScroll, Binary: cur.binary, Text: cur.text, Created: cur.created})
	}
	return out
}

// Fetch directions of the SQL level's FETCH and MOVE.
const (
	FetchForward  = fetchForward
	FetchBackward = fetchBackward
	FetchAbsolute = fetchAbsolute
	FetchRelative = fetchRelative
)

// Fetch runs the SQL level's FETCH (move false) or MOVE of the cursor
// name: direction and count as PostgreSQL's FetchStmt gives them
// (FETCH ALL's count math.MaxInt64). It returns the rows FETCH returns
// and the count its command tag reports.
func (p *Portals) Fetch(name string, direction int, count int64, move bool) (*Result, []value.Row, int64, error) {
	if !p.Has(name) {
		return nil, nil, 0, pgerr.New("34000", "cursor %q does not exist", name)
	}
	cur := p.m[name]
	if (direction == fetchAbsolute || direction == fetchRelative) || count == 0 {
		row, n, err := cur.move(direction, count)
		if err != nil || row == nil || move {
			return cur.res, nil, n, err
		}
		return cur.res, []value.Row{row}, n, nil
	}
	if move {
		_, n, err := cur.move(direction, count)
		return cur.res, nil, n, err
	}
	var rows []value.Row
	for n := int64(0); n < count; n++ {
		row, _, err := cur.move(direction, 1)
		if err != nil {
			return nil, nil, 0, err
		}
		if row == nil {
			break
		}
		rows = append(rows, row)
	}
	return cur.res, rows, int64(len(rows)), nil
}

// CurrentOf answers WHERE CURRENT OF name of a statement at the SQL
// level, as a call's CurrentOf does.
func (p *Portals) CurrentOf(name string) (uint32, value.Value, bool, error) {
	if !p.Has(name) {
		return 0, value.Null, false, pgerr.New("34000", "cursor %q does not exist", name)
	}
	return p.m[name].currentOf(name)
}

// Opener is a Runtime that tells, at an OPEN, the depth of the session's
// savepoints, which a ROLLBACK TO compares (Portals.CloseFrom), and the
// time, which pg_cursors shows.
type Opener interface {
	OpenMark() (depth int, micros int64)
}
