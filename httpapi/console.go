package httpapi

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
	"github.com/deltaview/deltaview/internal/value"
)

// The web console: plain HTML, CSS and JavaScript, embedded in the binary
// and served as they are (no build step). It reads the JSON endpoints
// below, the change streams and /v1/sql.
//
//go:embed console
var consoleFiles embed.FS

func (s *Server) routeConsole() {
	sub, _ := fs.Sub(consoleFiles, "console")
	files := http.FileServerFS(sub)
	s.mux.HandleFunc("GET /{$}", s.count("console", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, sub, "index.html")
	}))
	s.mux.Handle("GET /console/", s.count("console", http.StripPrefix("/console/", files).ServeHTTP))
	s.mux.HandleFunc("GET /v1/catalog", s.count("catalog", s.serveCatalog))
	s.mux.HandleFunc("GET /v1/views/{name}/explain", s.count("explain", s.serveExplain))
}

// catalogEntry is a table or view as GET /v1/catalog lists it; the
// figures are those of the system views deltaview_tables and
// deltaview_views, absent where they do not apply.
type catalogEntry struct {
	Name string `json:"name"`
	// Kind is "table", "materialized view" or "view".
	Kind        string          `json:"kind"`
	Rows        json.RawMessage `json:"rows,omitempty"`
	Bytes       json.RawMessage `json:"bytes,omitempty"`
	Steps       json.RawMessage `json:"steps,omitempty"`
	Refills     json.RawMessage `json:"refills,omitempty"`
	ColdStartMS json.RawMessage `json:"cold_start_ms,omitempty"`
	MeanStepUS  json.RawMessage `json:"mean_step_us,omitempty"`
	LastStepUS  json.RawMessage `json:"last_step_us,omitempty"`
	MaxMemory   json.RawMessage `json:"max_memory,omitempty"`
	OverBudget  json.RawMessage `json:"over_budget,omitempty"`
	Definition  string          `json:"definition,omitempty"`
	Columns     []catalogColumn `json:"columns"`
}

type catalogColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// serveCatalog answers the tables and views, by name, with their figures:
// {"tables": […], "views": […]}.
func (s *Server) serveCatalog(w http.ResponseWriter, r *http.Request) {
	sess := dbaccess.NewSession(s.db)
	defer sess.Close()
	figures := map[string]map[string]json.RawMessage{}
	for _, q := range []string{
		`SELECT name, rows, bytes FROM deltaview_tables`,
		`SELECT name, rows, state_bytes AS bytes, steps, refills, cold_start_ms, mean_step_us, last_step_us, max_memory, over_budget FROM deltaview_views`,
	} {
		rows, err := s.db.Query(q)
		if err != nil {
			writeError(w, err, 0)
			return
		}
		var t []byte
		for _, row := range rows.Rows {
			f := map[string]json.RawMessage{}
			for i, c := range rows.Columns[1:] {
				f[c.Name] = resultfmt.AppendJSON(nil, row[i+1], &t)
			}
			figures[string(resultfmt.AppendJSON(nil, row[0], &t))] = f
		}
	}
	out := struct {
		Tables []catalogEntry `json:"tables"`
		Views  []catalogEntry `json:"views"`
	}{Tables: []catalogEntry{}, Views: []catalogEntry{}}
	kinds := map[byte]string{engine.RelTable: "table", engine.RelMatView: "materialized view", engine.RelView: "view"}
	for _, rel := range sess.Relations() {
		d, ok := sess.Describe(rel.Name)
		if !ok {
			continue // dropped meanwhile
		}
		e := catalogEntry{Name: rel.Name, Kind: kinds[rel.Kind], Definition: d.Definition, Columns: []catalogColumn{}}
		for _, c := range d.Columns {
			e.Columns = append(e.Columns, catalogColumn{c.Name, c.Type.String()})
		}
		key, _ := json.Marshal(rel.Name)
		if f := figures[string(key)]; f != nil {
			e.Rows, e.Bytes, e.Steps, e.Refills = f["rows"], f["bytes"], f["steps"], f["refills"]
			e.ColdStartMS, e.MeanStepUS, e.LastStepUS = f["cold_start_ms"], f["mean_step_us"], f["last_step_us"]
			e.MaxMemory, e.OverBudget = f["max_memory"], f["over_budget"]
			if string(e.MaxMemory) == "null" {
				e.MaxMemory = nil
			}
		}
		if rel.Kind == engine.RelTable {
			out.Tables = append(out.Tables, e)
		} else {
			out.Views = append(out.Views, e)
		}
	}
	writeJSON(w, s.o.WriteTimeout, out)
}

// serveExplain answers EXPLAIN (FORMAT json) MATERIALIZED VIEW name: the
// view's operators, each with the state it keeps and its figures. An
// unknown view is 404 with SQLSTATE 42P01.
func (s *Server) serveExplain(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	rows, err := s.db.Query(`EXPLAIN (FORMAT json) MATERIALIZED VIEW "` + strings.ReplaceAll(name, `"`, `""`) + `"`)
	if err == nil && (len(rows.Rows) != 1 || len(rows.Rows[0]) != 1) {
		err = pgerr.New(pgerr.Internal, "EXPLAIN returned %d rows", len(rows.Rows))
	}
	if err != nil {
		st := 0
		if c := pgerr.Code(err); c == pgerr.UndefinedTable || c == pgerr.WrongObjectType {
			st = http.StatusNotFound
		}
		writeError(w, err, st)
		return
	}
	buf := append(value.AppendText(nil, rows.Rows[0][0]), '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.o.WriteTimeout))
	w.Write(buf)
}

func writeJSON(w http.ResponseWriter, timeout time.Duration, v any) {
	buf, err := json.Marshal(v)
	if err != nil {
		writeError(w, err, http.StatusInternalServerError)
		return
	}
	buf = append(buf, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(timeout))
	w.Write(buf)
}
