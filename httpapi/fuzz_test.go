package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
)

// FuzzRequests sends requests of any method, path, body, content type and
// Last-Event-ID to the API's handler, each for at most 50 ms (a change
// stream is cut off there): no request may panic, every answer has a
// status, and a JSON answer is valid JSON.
func FuzzRequests(f *testing.F) {
	f.Add("POST", "/v1/sql", "application/json", `{"sql": "SELECT 1"}`, "")
	f.Add("POST", "/v1/sql", "text/plain", "CREATE TABLE t (a int PRIMARY KEY); CREATE MATERIALIZED VIEW v AS SELECT a FROM t; INSERT INTO t VALUES (1)", "")
	f.Add("POST", "/v1/sql", "application/json", `{"sql": 1}`, "")
	f.Add("POST", "/v1/sql", "application/json", `{"sql": "SELECT 'a\u0000b'"}`, "")
	f.Add("GET", "/v1/views/v", "", "", "")
	f.Add("GET", "/v1/views/v?format=csv", "", "", "")
	f.Add("GET", "/v1/views/v/changes", "", "", "3")
	f.Add("GET", "/v1/views/v/changes", "", "", "-1")
	f.Add("GET", "/v1/views/%ff/changes", "", "", "x")
	f.Add("GET", "/metrics", "", "", "")
	f.Add("DELETE", "/healthz", "", "", "")

	db := deltaview.Open()
	s := httpapi.New(db, httpapi.Options{})
	f.Cleanup(s.Close)

	f.Fuzz(func(t *testing.T, method, target, contentType, body, lastEventID string) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, method, "http://localhost"+target, strings.NewReader(body))
		if err != nil {
			return // not a request a client could send
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if lastEventID != "" {
			req.Header.Set("Last-Event-ID", lastEventID)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code < 100 || rec.Code > 599 {
			t.Fatalf("%s %s: status %d", method, target, rec.Code)
		}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s: invalid JSON answer %q", method, target, rec.Body.String())
		}
	})
}
