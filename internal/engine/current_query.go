package engine

import "github.com/deltaview/deltaview/internal/expr"

var _ expr.QueryBackend = (*Session)(nil)

// CurrentQuery implements expr.QueryBackend: the text of the statement the
// session runs, as pg_stat_activity shows it (what current_query()
// returns). It keeps no state of its own.
func (s *Session) CurrentQuery() string {
	a := &s.act
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.query
}
