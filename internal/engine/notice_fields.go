package engine

import "github.com/deltaview/deltaview/internal/pgerr"

// NoticeFull implements plpgsql.FieldNoticer: RAISE's notice with its
// fields beyond the message (DETAIL, HINT, CONTEXT, the object names),
// which reach the client in the notice as PostgreSQL sends them, and its
// SQLSTATE when the statement chose one (coded).
func (rt *plRuntime) NoticeFull(level string, n *pgerr.Error, coded bool) {
	e := rt.s.e
	if coded {
		if e.noticeCodes == nil {
			e.noticeCodes = map[int]string{}
		}
		e.noticeCodes[len(e.notices)] = n.Code
	}
	if e.noticeFields == nil {
		e.noticeFields = map[int]*pgerr.Error{}
	}
	e.noticeFields[len(e.notices)] = n
	e.noticeAt(level, n.Message)
}
