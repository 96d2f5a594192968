package httpapi

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// metric is one metric family of /metrics: what it counts, read from the
// system views deltaview_views and deltaview_tables (column col, scaled
// by scale) or from the server itself.
type metric struct {
	name, kind, help string
	col              string
	scale            float64
}

var viewMetrics = []metric{
	{"deltaview_view_rows", "gauge", "Rows a materialized view holds.", "rows", 1},
	{"deltaview_view_state_bytes", "gauge", "Bytes of state a materialized view's operators keep.", "state_bytes", 1},
	{"deltaview_view_steps_total", "counter", "Commits that stepped a materialized view.", "steps", 1},
	{"deltaview_view_refills_total", "counter", "Refills of a view's bounded operators from their inputs.", "refills", 1},
	{"deltaview_view_last_step_seconds", "gauge", "Duration of the view's last timed step.", "last_step_us", 1e-6},
	{"deltaview_view_mean_step_seconds", "gauge", "Mean duration of the view's timed steps.", "mean_step_us", 1e-6},
	{"deltaview_view_cold_start_seconds", "gauge", "Time the view's cold start took.", "cold_start_ms", 1e-3},
	{"deltaview_view_cold_start_rows_read", "gauge", "Rows the view's cold start read.", "cold_start_rows_read", 1},
}

var tableMetrics = []metric{
	{"deltaview_table_rows", "gauge", "Rows a table holds.", "rows", 1},
	{"deltaview_table_bytes", "gauge", "Bytes a table's rows take.", "bytes", 1},
}

// serveMetrics answers the database's and the server's figures in
// Prometheus's text exposition format, version 0.0.4.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	sess := dbaccess.NewSession(s.db)
	defer sess.Close()
	var b []byte
	b = family(b, "deltaview_commits_total", "counter", "Transactions committed that changed data (the logical time of the last commit).")
	b = sample(b, "deltaview_commits_total", nil, float64(sess.LastTS()))
	for _, src := range []struct {
		rel     string
		label   string
		metrics []metric
	}{{"deltaview_views", "view", viewMetrics}, {"deltaview_tables", "table", tableMetrics}} {
		res, err := query(sess, "SELECT * FROM "+src.rel)
		if err != nil {
			writeError(w, err, 0)
			return
		}
		for _, m := range src.metrics {
			col := slices.IndexFunc(res.Columns, func(c plan.Column) bool { return c.Name == m.col })
			if col < 0 {
				continue
			}
			b = family(b, m.name, m.kind, m.help)
			for _, row := range res.Rows {
				b = sample(b, m.name, []string{src.label, row[0].Str()}, number(row[col])*m.scale)
			}
		}
	}
	type hubFigures struct {
		name                           string
		clients, frames, bytes, queued int
	}
	s.mu.Lock()
	hubs := make([]*hub, 0, len(s.hubs))
	for _, h := range s.hubs {
		hubs = append(hubs, h)
	}
	requests := make(map[string]int64, len(s.requests))
	for k, v := range s.requests {
		requests[k] = v
	}
	s.mu.Unlock()
	figs := make([]hubFigures, len(hubs))
	for i, h := range hubs {
		h.mu.Lock()
		figs[i] = hubFigures{name: h.name, clients: len(h.clients), frames: h.n, bytes: h.bytes}
		for c := range h.clients {
			figs[i].queued += len(c.ch)
		}
		h.mu.Unlock()
	}
	slices.SortFunc(figs, func(a, b hubFigures) int { return strings.Compare(a.name, b.name) })
	b = family(b, "deltaview_http_subscribers", "gauge", "Change streams open on a view.")
	for _, f := range figs {
		b = sample(b, "deltaview_http_subscribers", []string{"view", f.name}, float64(f.clients))
	}
	b = family(b, "deltaview_http_queued_events", "gauge", "Events waiting for the change streams of a view: how far they lag.")
	for _, f := range figs {
		b = sample(b, "deltaview_http_queued_events", []string{"view", f.name}, float64(f.queued))
	}
	b = family(b, "deltaview_http_ring_deltas", "gauge", "Recent deltas of a view kept for resuming change streams.")
	for _, f := range figs {
		b = sample(b, "deltaview_http_ring_deltas", []string{"view", f.name}, float64(f.frames))
	}
	b = family(b, "deltaview_http_ring_bytes", "gauge", "Bytes of the recent deltas of a view kept for resuming change streams.")
	for _, f := range figs {
		b = sample(b, "deltaview_http_ring_bytes", []string{"view", f.name}, float64(f.bytes))
	}
	b = family(b, "deltaview_http_lagged_total", "counter", "Change streams dropped because their client fell behind.")
	b = sample(b, "deltaview_http_lagged_total", nil, float64(s.lagged.Load()))
	b = family(b, "deltaview_http_requests_total", "counter", "HTTP requests, by endpoint.")
	for _, k := range slices.Sorted(maps.Keys(requests)) {
		b = sample(b, "deltaview_http_requests_total", []string{"endpoint", k}, float64(requests[k]))
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Write(b)
}

func query(sess *engine.Session, q string) (engine.Result, error) {
	st, err := sql.Parse(q)
	if err != nil {
		return engine.Result{}, err
	}
	res, err := sess.Exec(st)
	if err != nil {
		return engine.Result{}, err
	}
	return res[0], nil
}

// number is a numeric value as a float64; NULL is 0.
func number(v value.Value) float64 {
	switch {
	case v.IsNull():
		return 0
	case v.Kind() == value.Bool:
		if v.Bool() {
			return 1
		}
		return 0
	case v.Kind().IsFloat():
		return v.Float()
	}
	return float64(v.Int())
}

func family(b []byte, name, kind, help string) []byte {
	b = append(append(append(b, "# HELP "...), name...), ' ')
	b = append(append(b, help...), '\n')
	b = append(append(append(b, "# TYPE "...), name...), ' ')
	return append(append(b, kind...), '\n')
}

// sample appends one sample; labels are name, value pairs.
func sample(b []byte, name string, labels []string, v float64) []byte {
	b = append(b, name...)
	if len(labels) > 0 {
		b = append(b, '{')
		for i := 0; i < len(labels); i += 2 {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(append(b, labels[i]...), `="`...)
			b = append(append(b, labelEscaper.Replace(labels[i+1])...), '"')
		}
		b = append(b, '}')
	}
	b = append(b, ' ')
	b = strconv.AppendFloat(b, v, 'g', -1, 64)
	return append(b, '\n')
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
