package engine

import (
	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// CheckNotice implements plpgsql.NoticeChecker: a notice the client is
// sent (client_min_messages) must convert to its client_encoding, else
// the RAISE fails with PostgreSQL's 22P05 for the first character that
// does not, as PostgreSQL converts a notice as it sends it; the error
// has no CONTEXT, as PostgreSQL's, raised while it reports the notice.
func (rt *plRuntime) CheckNotice(level string, texts ...string) error {
	s := rt.s
	if v, _ := s.setting("client_min_messages"); v == "error" && level != "INFO" || v == "warning" && level == "NOTICE" {
		return nil
	}
	name, _ := s.setting("client_encoding")
	enc, err := pgenc.Get(name)
	if err != nil || enc == nil {
		return nil
	}
	for _, t := range texts {
		if _, err := enc.FromUTF8(nil, []byte(t)); err != nil {
			e := *pgerr.Wrap(err)
			e.NoContext = true
			return &e
		}
	}
	return nil
}
