package pgwire

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// WHERE CURRENT OF a cursor of the connection: one over SUBSCRIBE stands
// on no table's row. A cursor over a query is the session's
// (engine.Session.HasPortal), which answers for it.

// CurrentOf implements engine.CursorSource.
func (c *conn) CurrentOf(name string) (uint32, value.Value, bool, error) {
	if _, ok := c.cursors[name]; !ok {
		return 0, value.Null, false, pgerr.New(pgerr.UndefinedCursor, "cursor %q does not exist", name)
	}
	return 0, value.Null, false, nil
}
