package pgwire

import "github.com/deltaview/deltaview/internal/engine"

var _ engine.CursorLister = (*conn)(nil)

// Cursors implements engine.CursorLister: the cursors of the
// connection's transaction block, which pg_cursors lists. It runs on the
// connection's goroutine, inside a statement of its session.
func (c *conn) Cursors() []engine.CursorInfo {
	out := make([]engine.CursorInfo, 0, len(c.cursors))
	for _, cur := range c.cursors {
		out = append(out, cur.info)
	}
	return out
}
