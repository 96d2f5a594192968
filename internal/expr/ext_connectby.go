package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// ConnectbySRF is tablefunc's connectby over rows, the array of the
// records (key, parent key) of the table's rows whose key is not NULL and
// differs from the parent key (of type parentType), in the order the
// call asked for: the
// subtree under the start key, depth first, as PostgreSQL 15's. The start
// key's row comes first (its parent NULL, level 0), then each child in
// the rows' order followed by its own subtree, down to max depth (0 or
// less: no limit). Each row carries its level, with a branch its path of
// keys as text joined by the delimiter, with serial a running number from
// 1. A key already on the path is 42P19, as the path's text tells it (the
// delimiter, "~" when the call gives none, around each key). mismatch,
// when not nil, is the error of the rows' types differing from the
// call's columns, raised as PostgreSQL raises it: when a key first has
// children.
func ConnectbySRF(rows, start, depth, delim Expr, cols []value.Type, names []string, serial bool, parentType value.Type, mismatch error, clock *StmtClock) *SRF {
	args := []Expr{rows, start, depth}
	if delim != nil {
		args = append(args, delim)
	}
	gen := func(a []value.Value, emit func(value.Row) error) error {
		for _, v := range a[1:] {
			if v.IsNull() {
				return nil // strict
			}
		}
		c := connectby{cols: cols, serial: serial, branch: delim != nil, delim: "~", maxDepth: a[2].Int(), mismatch: mismatch, emit: emit, next: 1}
		if c.branch {
			c.delim = textOf(a[3])
		}
		c.children = map[string][]value.Value{}
		var key []byte
		if !a[0].IsNull() {
			for _, r := range a[0].Elems() {
				f := r.Fields()
				key = value.AppendKey(key[:0], f[1])
				c.children[string(key)] = append(c.children[string(key)], r)
			}
		}
		s := textOf(a[1])
		root, err := value.ParseIntervalIn(s, cols[0], clock.inputStyle())
		if err != nil {
			return err
		}
		if err := c.out(root, value.Null, 0, s); err != nil {
			return err
		}
		// The start key's children are those whose parent equals the text
		// read as the parent key's type, as PostgreSQL's query compares
		// them.
		p, err := value.ParseIntervalIn(s, parentType, clock.inputStyle())
		if err != nil {
			return err
		}
		return c.walk(p, s, 1)
	}
	return &SRF{Name: "connectby", Args: args, Cols: cols, Names: names, Gen: gen}
}

// connectby is one call's walk.
type connectby struct {
	cols           []value.Type
	serial, branch bool
	delim          string
	maxDepth       int64
	mismatch       error
	children       map[string][]value.Value // records by their parent key's key encoding
	emit           func(value.Row) error
	next           int64 // the next serial number
}

// walk emits the subtree under parent, whose path is branch, its
// children at level.
func (c *connectby) walk(parent value.Value, branch string, level int64) error {
	if c.maxDepth > 0 && level > c.maxDepth {
		return nil
	}
	kids := c.children[string(value.AppendKey(nil, parent))]
	if len(kids) > 0 && c.mismatch != nil {
		return c.mismatch
	}
	for _, r := range kids {
		f := r.Fields()
		k := f[0].String()
		if strings.Contains(c.delim+branch+c.delim, c.delim+k+c.delim) {
			return pgerr.New(pgerr.InvalidRecursion, "infinite recursion detected")
		}
		path := branch + c.delim + k
		if err := c.out(f[0], f[1], level, path); err != nil {
			return err
		}
		if err := c.walk(f[0], path, level+1); err != nil {
			return err
		}
	}
	return nil
}

// out emits a row of key, parent and level, with the branch and serial
// number when the call shows them.
func (c *connectby) out(key, parent value.Value, level int64, branch string) error {
	row := make(value.Row, 0, len(c.cols))
	row = append(row, key, parent, value.NewInt(value.Int4, level))
	if c.branch {
		row = append(row, text(branch))
	}
	if c.serial {
		row = append(row, value.NewInt(value.Int4, c.next))
		c.next++
	}
	return c.emit(row)
}
