package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
	"github.com/deltaview/deltaview/internal/value"
)

// serveView answers a materialized view's rows as last committed, in its
// canonical order: {"columns": […], "rows": [[…], …]}, or CSV with a
// header line (NULL as an empty field) when the client asks for text/csv
// or ?format=csv. An unknown view is 404 with SQLSTATE 42P01.
func (s *Server) serveView(w http.ResponseWriter, r *http.Request) {
	rows, err := s.db.View(r.PathValue("name"))
	if err == nil {
		err = s.mayRead(r, r.PathValue("name"))
	}
	if err != nil {
		st := 0
		if pgerr.Code(err) == pgerr.UndefinedTable {
			st = http.StatusNotFound
		}
		writeError(w, err, st)
		return
	}
	var buf []byte
	if wantsCSV(r) {
		buf = appendCSV(make([]byte, 0, 4096), rows)
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	} else {
		buf = appendRows(make([]byte, 0, 4096), rows)
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.o.WriteTimeout))
	w.Write(buf)
}

// wantsCSV reports whether a request asks for CSV: ?format=csv, or an
// Accept header that names text/csv before (or without) JSON.
func wantsCSV(r *http.Request) bool {
	if f := r.URL.Query().Get("format"); f != "" {
		return f == "csv"
	}
	a := r.Header.Get("Accept")
	c := strings.Index(a, "text/csv")
	j := strings.Index(a, "application/json")
	return c >= 0 && (j < 0 || c < j)
}

func appendRows(buf []byte, rows *deltaview.Rows) []byte {
	buf = append(buf, `{"columns":[`...)
	for i, c := range rows.Columns {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = resultfmt.AppendJSONString(append(buf, `{"name":`...), c.Name)
		buf = resultfmt.AppendJSONString(append(buf, `,"type":`...), c.Type)
		buf = append(buf, '}')
	}
	buf = append(buf, `],"rows":[`...)
	var t []byte
	for i, row := range rows.Rows {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendRow(buf, row, &t)
	}
	return append(buf, "]}\n"...)
}

func appendRow(buf []byte, row []value.Value, t *[]byte) []byte {
	buf = append(buf, '[')
	for j, v := range row {
		if j > 0 {
			buf = append(buf, ',')
		}
		buf = resultfmt.AppendJSON(buf, v, t)
	}
	return append(buf, ']')
}

// appendCSV appends rows as psql --csv prints them, without the empty
// line after.
func appendCSV(buf []byte, rows *deltaview.Rows) []byte {
	for i, c := range rows.Columns {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = resultfmt.AppendCSVField(buf, []byte(c.Name))
	}
	buf = append(buf, '\n')
	var t []byte
	for _, row := range rows.Rows {
		for i, v := range row {
			if i > 0 {
				buf = append(buf, ',')
			}
			if !v.IsNull() {
				t = value.AppendText(t[:0], v)
				buf = resultfmt.AppendCSVField(buf, t)
			}
		}
		buf = append(buf, '\n')
	}
	return buf
}
