package engine

import "github.com/deltaview/deltaview/internal/pgerr"

// Notices of another severity than NOTICE: PL/pgSQL's RAISE INFO and
// RAISE WARNING. A Result's Notices stay text; NoticeLevels names the
// severity of those that are not NOTICEs, by index, so that the many
// statements that raise plain notices need not say so.

// NoticeLevel is the severity of the i-th notice of r: NOTICE, INFO or
// WARNING.
func (r Result) NoticeLevel(i int) string {
	if l, ok := r.NoticeLevels[i]; ok {
		return l
	}
	return "NOTICE"
}

// noticeAt raises a notice of severity level for the statement running.
func (e *Engine) noticeAt(level, msg string) {
	if level != "NOTICE" {
		if e.noticeLevels == nil {
			e.noticeLevels = map[int]string{}
		}
		e.noticeLevels[len(e.notices)] = level
	}
	e.notices = append(e.notices, msg)
}

// takeNoticesInto moves the notices raised since the last call to the
// end of res's.
func (e *Engine) takeNoticesInto(res *Result) {
	for i, l := range e.noticeLevels {
		if res.NoticeLevels == nil {
			res.NoticeLevels = map[int]string{}
		}
		res.NoticeLevels[len(res.Notices)+i] = l
	}
	for i, c := range e.noticeCodes {
		if res.NoticeCodes == nil {
			res.NoticeCodes = map[int]string{}
		}
		res.NoticeCodes[len(res.Notices)+i] = c
	}
	for i, f := range e.noticeFields {
		if res.NoticeFields == nil {
			res.NoticeFields = map[int]*pgerr.Error{}
		}
		res.NoticeFields[len(res.Notices)+i] = f
	}
	e.noticeLevels, e.noticeCodes, e.noticeFields = nil, nil, nil
	res.Notices = append(res.Notices, e.takeNotices()...)
}

// keepNotices keeps the notices of r whose severity keep accepts.
func (r *Result) keepNotices(keep func(level string) bool) {
	var notices []string
	var levels, codes map[int]string
	var fields map[int]*pgerr.Error
	for i, n := range r.Notices {
		l := r.NoticeLevel(i)
		if !keep(l) {
			continue
		}
		if f, ok := r.NoticeFields[i]; ok {
			if fields == nil {
				fields = map[int]*pgerr.Error{}
			}
			fields[len(notices)] = f
		}
		if c, ok := r.NoticeCodes[i]; ok {
			if codes == nil {
				codes = map[int]string{}
			}
			codes[len(notices)] = c
		}
		if l != "NOTICE" {
			if levels == nil {
				levels = map[int]string{}
			}
			levels[len(notices)] = l
		}
		notices = append(notices, n)
	}
	r.Notices, r.NoticeLevels, r.NoticeCodes, r.NoticeFields = notices, levels, codes, fields
}

// warn appends a notice of level WARNING to r.
func (r *Result) warn(msg string) {
	r.Notices = append(r.Notices, msg)
	if r.NoticeLevels == nil {
		r.NoticeLevels = map[int]string{}
	}
	r.NoticeLevels[len(r.Notices)-1] = "WARNING"
}
