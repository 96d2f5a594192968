package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/resultfmt"
	"github.com/deltaview/deltaview/internal/sql"
)

// serveSQL runs the statements of the request in a session of its own and
// answers {"results": […]} with one object per result (columns, rows,
// tag, notices), and, when a statement fails, "error" beside the results
// of the statements before it, with the error's HTTP status.
func (s *Server) serveSQL(w http.ResponseWriter, r *http.Request) {
	// A client that sends its body or reads the answer too slowly holds
	// only its own request, for a bounded time.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.o.WriteTimeout))
	script, err := readScript(w, r, s.o.MaxBody)
	if err != nil {
		writeError(w, err, 0)
		return
	}
	sess, err := s.session(r)
	if err != nil {
		writeError(w, err, 0)
		return
	}
	defer sess.Close()
	buf := append(make([]byte, 0, 4096), `{"results":[`...)
	n := 0
	err = runScript(sess, script, func(res engine.Result) {
		if n > 0 {
			buf = append(buf, ',')
		}
		n++
		buf = appendResult(buf, res)
	})
	if err == nil && sess.InBlock() {
		err = pgerr.New(pgerr.InvalidTxState, "the statements ended inside a transaction block, which was rolled back").
			WithHint("each request runs in a session of its own: end its transaction blocks with COMMIT")
	}
	buf = append(buf, ']')
	st := http.StatusOK
	if err != nil {
		e := pgerr.Wrap(err)
		st = status(e.Code)
		buf = appendError(append(buf, `,"error":`...), e)
	}
	buf = append(buf, "}\n"...)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
	w.WriteHeader(st)
	rc.SetWriteDeadline(time.Now().Add(s.o.WriteTimeout))
	w.Write(buf)
}

// readScript reads the request's statements: the body as text, or the
// "sql" member of a JSON body (Content-Type application/json).
func readScript(w http.ResponseWriter, r *http.Request, limit int64) (string, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		return "", bodyError(err)
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		var req struct {
			SQL *string `json:"sql"`
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		if err := dec.Decode(&req); err != nil {
			return "", pgerr.New(pgerr.InvalidParameter, "the request body is not a JSON object {\"sql\": \"…\"}: %v", err)
		}
		if req.SQL == nil {
			return "", pgerr.New(pgerr.InvalidParameter, "the JSON request has no \"sql\" member")
		}
		return *req.SQL, nil
	}
	if !utf8.Valid(body) {
		return "", pgerr.New(pgerr.InvalidParameter, "the request body is not valid UTF-8")
	}
	return string(body), nil
}

// runScript runs a script's statements in order, COPY … FROM STDIN with
// the data lines after it, calling fn with each result, up to the first
// error, whose position it makes a position in the script.
func runScript(sess *engine.Session, script string, fn func(engine.Result)) error {
	parts, splitErr := sql.SplitScript(script)
	if splitErr != nil && len(parts) == 0 {
		return splitErr
	}
	cursor := 0
	for _, p := range parts {
		off := -1
		if i := strings.Index(script[cursor:], p.SQL); i >= 0 {
			off = cursor + i
			cursor = off + len(p.SQL)
		}
		st, err := sql.Parse(p.SQL)
		if err != nil {
			return inScript(sess.Fail(err), script, off)
		}
		if st == nil {
			continue
		}
		var results []engine.Result
		if p.HasData {
			results, err = sess.ExecCopyData(st, strings.NewReader(p.Data))
		} else {
			results, err = sess.Exec(st)
		}
		if err != nil {
			return inScript(err, script, off)
		}
		for _, r := range results {
			fn(r)
		}
	}
	return splitErr
}

// inScript positions err, an error in the statement at byte offset off of
// script, in the script.
func inScript(err error, script string, off int) error {
	e := pgerr.Wrap(err)
	if e.Position > 0 && off > 0 && off <= len(script) {
		c := *e
		c.Position += utf8.RuneCountInString(script[:off])
		return &c
	}
	return e
}

// appendResult appends one statement's result: its columns and rows when
// it returns rows, its command tag, and its notices.
func appendResult(buf []byte, r engine.Result) []byte {
	buf = append(buf, '{')
	if r.HasRows {
		buf = appendColumns(append(buf, `"columns":`...), r.Columns)
		buf = append(buf, `,"rows":[`...)
		var t []byte
		for i, row := range r.Rows {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, '[')
			for j, v := range row {
				if j > 0 {
					buf = append(buf, ',')
				}
				buf = resultfmt.AppendJSON(buf, v, &t)
			}
			buf = append(buf, ']')
		}
		buf = append(buf, "],"...)
	}
	tag := r.Tag
	if tag == "" && r.HasRows {
		tag = "SELECT " + strconv.Itoa(len(r.Rows))
	}
	buf = resultfmt.AppendJSONString(append(buf, `"tag":`...), tag)
	if len(r.Notices) > 0 {
		buf = append(buf, `,"notices":[`...)
		for i, n := range r.Notices {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = resultfmt.AppendJSONString(buf, n)
		}
		buf = append(buf, ']')
	}
	return append(buf, '}')
}

// appendColumns appends [{"name": …, "type": …}, …], the type as
// PostgreSQL names it.
func appendColumns(buf []byte, cols []plan.Column) []byte {
	buf = append(buf, '[')
	for i, c := range cols {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = resultfmt.AppendJSONString(append(buf, `{"name":`...), c.Name)
		buf = resultfmt.AppendJSONString(append(buf, `,"type":`...), c.Type.String())
		buf = append(buf, '}')
	}
	return append(buf, ']')
}
