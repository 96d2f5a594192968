package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
)

// start serves db with o on a loopback port until the test ends.
func start(t *testing.T, db *deltaview.DB, o httpapi.Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- httpapi.Serve(ctx, db, ln, o) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("Serve did not return 15s after its context ended")
		}
	})
	return "http://" + ln.Addr().String()
}

// TestRequests runs the requests of testdata/requests against one server
// and prints the status, the content type and the body of each answer.
//
//	request method=POST path=/v1/sql [header=Name:value…]
//	body
func TestRequests(t *testing.T) {
	datadriven.Walk(t, "testdata/requests", func(t *testing.T, path string) {
		base := start(t, deltaview.Open(), httpapi.Options{MaxBody: 512})
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "request" {
				t.Fatalf("unknown command %q", d.Cmd)
			}
			var method, target string
			var headers []string
			d.ScanArgs(t, "method", &method)
			d.ScanArgs(t, "path", &target)
			if d.HasArg("header") {
				d.ScanArgs(t, "header", &headers)
			}
			req, err := http.NewRequest(method, base+target, strings.NewReader(d.Input))
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range headers {
				k, v, _ := strings.Cut(h, ":")
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("%d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
		})
	})
}

// event is one server-sent event.
type event struct{ kind, id, data string }

// stream opens a view's change stream and returns its events, read by a
// goroutine of its own, and the response.
func stream(t *testing.T, base, view, lastID string) (<-chan event, *http.Response) {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/v1/views/"+view+"/changes", nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET changes: %s %s", resp.Status, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	ch := make(chan event, 1024)
	go func() {
		defer close(ch)
		r := bufio.NewReader(resp.Body)
		var e event
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSuffix(line, "\n")
			switch k, v, _ := strings.Cut(line, ": "); {
			case line == "":
				if e.kind != "" {
					ch <- e
				}
				e = event{}
			case strings.HasPrefix(line, ":"):
			case k == "event":
				e.kind = v
			case k == "id":
				e.id = v
			case k == "data":
				e.data = v
			}
		}
	}()
	return ch, resp
}

func next(t *testing.T, ch <-chan event, within time.Duration) event {
	t.Helper()
	select {
	case e, ok := <-ch:
		if !ok {
			t.Fatal("the stream ended")
		}
		return e
	case <-time.After(within):
		t.Fatalf("no event within %v", within)
	}
	return event{}
}

// payload is the data of a snapshot or delta event.
type payload struct {
	TS      uint64
	Reset   bool
	Reason  string
	Columns []struct{ Name, Type string }
	Changes []struct {
		Diff int64
		Row  []any
	}
	After uint64
	Code  string
}

func decode(t *testing.T, e event) payload {
	t.Helper()
	var p payload
	if err := json.Unmarshal([]byte(e.data), &p); err != nil {
		t.Fatalf("event %q: %v", e.data, err)
	}
	return p
}

// changes prints an event's changes sorted, as "+1 [1 a]".
func changes(p payload) string {
	var out []string
	for _, c := range p.Changes {
		out = append(out, fmt.Sprintf("%+d %v", c.Diff, c.Row))
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

func mustExec(t *testing.T, db *deltaview.DB, script string) {
	t.Helper()
	if err := db.Exec(script); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

// TestChanges reads a view's stream: its snapshot, then each commit's
// delta within a second of the commit, with the commit's logical time as
// its id.
func TestChanges(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `CREATE TABLE t (id int PRIMARY KEY, name text);
		CREATE MATERIALIZED VIEW v AS SELECT name, count(*) AS n FROM t GROUP BY name;
		INSERT INTO t VALUES (1, 'a'), (2, 'a'), (3, 'b')`)
	base := start(t, db, httpapi.Options{})
	ch, _ := stream(t, base, "v", "")
	e := next(t, ch, 5*time.Second)
	p := decode(t, e)
	if e.kind != "snapshot" || e.id != strconv.FormatUint(p.TS, 10) || p.Reset {
		t.Fatalf("first event %+v", e)
	}
	if got := fmt.Sprint(p.Columns); got != "[{name text} {n bigint}]" {
		t.Errorf("columns %s", got)
	}
	if got := changes(p); got != "+1 [a 2], +1 [b 1]" {
		t.Errorf("snapshot %s", got)
	}
	for i, step := range []struct{ sql, want string }{
		{`INSERT INTO t VALUES (4, 'b')`, "+1 [b 2], -1 [b 1]"},
		{`DELETE FROM t WHERE name = 'a'`, "-1 [a 2]"},
		{`UPDATE t SET name = 'c' WHERE id = 3`, "+1 [b 1], +1 [c 1], -1 [b 2]"},
	} {
		start := time.Now()
		mustExec(t, db, step.sql)
		e := next(t, ch, time.Second)
		t.Logf("%s: event after %v", step.sql, time.Since(start))
		d := decode(t, e)
		if e.kind != "delta" || e.id != strconv.FormatUint(d.TS, 10) || d.TS != p.TS+uint64(i)+1 {
			t.Errorf("%s: event %+v, want a delta at %d", step.sql, e, p.TS+uint64(i)+1)
		}
		if got := changes(d); got != step.want {
			t.Errorf("%s: %s, want %s", step.sql, got, step.want)
		}
	}
	// A commit through /v1/sql reaches the stream too.
	resp, err := http.Post(base+"/v1/sql", "text/plain", strings.NewReader(`INSERT INTO t VALUES (5, 'd')`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := changes(decode(t, next(t, ch, time.Second))); got != "+1 [d 1]" {
		t.Errorf("after /v1/sql: %s", got)
	}
	// Dropping the view ends the stream with 42P01.
	mustExec(t, db, `DROP MATERIALIZED VIEW v`)
	if e := next(t, ch, time.Second); e.kind != "error" || decode(t, e).Code != "42P01" {
		t.Errorf("after DROP: %+v", e)
	}
}

// TestResume reconnects with Last-Event-ID: the deltas missed come first,
// after a resume event; an id the server no longer holds gets a snapshot
// that says so.
func TestResume(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `CREATE TABLE t (id int PRIMARY KEY);
		CREATE MATERIALIZED VIEW v AS SELECT id FROM t WHERE id % 2 = 0;
		INSERT INTO t VALUES (2)`)
	base := start(t, db, httpapi.Options{Ring: 4})
	ch, resp := stream(t, base, "v", "")
	snap := decode(t, next(t, ch, 5*time.Second))
	mustExec(t, db, `INSERT INTO t VALUES (4)`)
	last := next(t, ch, time.Second)
	resp.Body.Close()
	mustExec(t, db, `INSERT INTO t VALUES (6); INSERT INTO t VALUES (7); INSERT INTO t VALUES (8)`)

	ch, _ = stream(t, base, "v", last.id)
	e := next(t, ch, 5*time.Second)
	if r := decode(t, e); e.kind != "resume" || fmt.Sprint(r.After) != last.id || len(r.Columns) != 1 {
		t.Fatalf("first event after resume: %+v", e)
	}
	var got []string
	for range 2 {
		got = append(got, changes(decode(t, next(t, ch, time.Second))))
	}
	if s := strings.Join(got, "; "); s != "+1 [6]; +1 [8]" {
		t.Errorf("resumed deltas: %s", s)
	}
	mustExec(t, db, `INSERT INTO t VALUES (10)`)
	if got := changes(decode(t, next(t, ch, time.Second))); got != "+1 [10]" {
		t.Errorf("live after resume: %s", got)
	}

	// Four more deltas push the snapshot's time out of the ring.
	mustExec(t, db, `INSERT INTO t VALUES (12); INSERT INTO t VALUES (14); INSERT INTO t VALUES (16); INSERT INTO t VALUES (18)`)
	for range 4 {
		next(t, ch, time.Second)
	}
	ch2, _ := stream(t, base, "v", strconv.FormatUint(snap.TS, 10))
	e = next(t, ch2, 5*time.Second)
	p := decode(t, e)
	if e.kind != "snapshot" || !p.Reset || !strings.Contains(p.Reason, "no longer holds") {
		t.Fatalf("resume from a time no longer held: %+v", e)
	}
	if got := changes(p); got != "+1 [10], +1 [12], +1 [14], +1 [16], +1 [18], +1 [2], +1 [4], +1 [6], +1 [8]" {
		t.Errorf("fresh snapshot: %s", got)
	}
	for _, id := range []string{"bogus", "1000000"} {
		ch3, _ := stream(t, base, "v", id)
		if p := decode(t, next(t, ch3, 5*time.Second)); !p.Reset || !strings.Contains(p.Reason, "not an event") {
			t.Errorf("Last-Event-ID %s: %+v", id, p)
		}
	}
}

// TestStalledReader opens a stream that reads nothing while large commits
// land: the commits take no longer than without it, the stream is
// dropped with an error event once its queue is full, and a stream that
// reads gets every delta.
func TestStalledReader(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `CREATE TABLE t (id int PRIMARY KEY, pad text);
		CREATE MATERIALIZED VIEW v AS SELECT id, pad FROM t`)
	base := start(t, db, httpapi.Options{Queue: 8, WriteTimeout: time.Minute})
	pad := strings.Repeat("x", 64<<10)
	ins, err := db.Prepare(`INSERT INTO t VALUES ($1, $2)`)
	if err != nil {
		t.Fatal(err)
	}
	id := 0
	var reader <-chan event
	var snap payload
	// commits makes n commits, timing each; with a reading stream open it
	// waits for each delta there before the next commit, outside the time.
	commits := func(n int) []time.Duration {
		lat := make([]time.Duration, n)
		for i := range lat {
			id++
			start := time.Now()
			if _, err := ins.Exec(deltaview.Int(int64(id)), deltaview.Text(pad)); err != nil {
				t.Fatal(err)
			}
			lat[i] = time.Since(start)
			if reader != nil {
				d := decode(t, next(t, reader, 10*time.Second))
				if d.TS != snap.TS+uint64(i)+1 || len(d.Changes) != 1 {
					t.Fatalf("delta %d: ts %d, %d changes", i, d.TS, len(d.Changes))
				}
			}
		}
		slices.Sort(lat)
		return lat
	}
	pct := func(lat []time.Duration, p int) time.Duration { return lat[len(lat)*p/100] }
	without := commits(300)

	// The stalled client reads the headers and nothing else.
	req, _ := http.NewRequest("GET", base+"/v1/views/v/changes", nil)
	stalled, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Body.Close()
	reader, _ = stream(t, base, "v", "")
	snap = decode(t, next(t, reader, 10*time.Second))
	with := commits(300)
	t.Logf("commit latency p50/p99/max: without a stream %v/%v/%v, with a stalled one %v/%v/%v",
		pct(without, 50), pct(without, 99), without[len(without)-1], pct(with, 50), pct(with, 99), with[len(with)-1])
	if p := pct(with, 99); p > 250*time.Millisecond && p > 20*pct(without, 99) {
		t.Errorf("p99 commit latency %v with a stalled stream, %v without", p, pct(without, 99))
	}
	// The stalled one, read at last, ends with an error event.
	done := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(stalled.Body)
		done <- string(b)
	}()
	select {
	case b := <-done:
		i := strings.LastIndex(b, "event: ")
		if i < 0 || !strings.HasPrefix(b[i:], "event: error\ndata: {\"code\":\"53400\"") {
			t.Errorf("the stalled stream ends with %.200q", b[max(i, 0):])
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the stalled stream was not ended")
	}
	m := metrics(t, base)
	if m[`deltaview_http_lagged_total`] != 1 || m[`deltaview_http_subscribers{view="v"}`] != 1 {
		t.Errorf("lagged %v, subscribers %v", m[`deltaview_http_lagged_total`], m[`deltaview_http_subscribers{view="v"}`])
	}
}

var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})?) (\S+)$`)

// metrics reads /metrics and parses it: every line a comment or a sample,
// each sample's family declared by a TYPE line first.
func metrics(t *testing.T, base string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type %q", ct)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	typed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if f, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, kind, _ := strings.Cut(f, " ")
			if kind != "counter" && kind != "gauge" {
				t.Errorf("metric type %q", line)
			}
			typed[name] = true
			continue
		}
		if strings.HasPrefix(line, "# HELP ") {
			continue
		}
		m := sampleLine.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("not a sample: %q", line)
			continue
		}
		name, _, _ := strings.Cut(m[1], "{")
		if !typed[name] {
			t.Errorf("%s has no TYPE line before it", name)
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Errorf("%q: %v", line, err)
		}
		out[m[1]] = v
	}
	return out
}

func TestMetrics(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `CREATE TABLE t (id int PRIMARY KEY, name text);
		CREATE MATERIALIZED VIEW "odd ""name""" AS SELECT name, count(*) FROM t GROUP BY name;
		INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'b')`)
	base := start(t, db, httpapi.Options{})
	ch, _ := stream(t, base, `odd%20%22name%22`, "")
	next(t, ch, 5*time.Second)
	mustExec(t, db, `INSERT INTO t VALUES (4, 'c')`)
	next(t, ch, time.Second)
	m := metrics(t, base)
	for k, want := range map[string]float64{
		`deltaview_commits_total`:                           2,
		`deltaview_view_rows{view="odd \"name\""}`:          3,
		`deltaview_view_steps_total{view="odd \"name\""}`:   2,
		`deltaview_table_rows{table="t"}`:                   4,
		`deltaview_http_subscribers{view="odd \"name\""}`:   1,
		`deltaview_http_ring_deltas{view="odd \"name\""}`:   1,
		`deltaview_http_requests_total{endpoint="changes"}`: 1,
	} {
		if got, ok := m[k]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, want)
		}
	}
	if m[`deltaview_view_state_bytes{view="odd \"name\""}`] <= 0 {
		t.Errorf("state bytes %v", m[`deltaview_view_state_bytes{view="odd \"name\""}`])
	}
}

// TestShutdown ends the server with a stream open: the stream ends with
// 57P01, /healthz said ok before, and Serve returns.
func TestShutdown(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `CREATE TABLE t (id int); CREATE MATERIALIZED VIEW v AS SELECT id FROM t`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- httpapi.Serve(ctx, db, ln, httpapi.Options{}) }()
	base := "http://" + ln.Addr().String()
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("healthz %s", resp.Status)
	}
	ch, _ := stream(t, base, "v", "")
	next(t, ch, 5*time.Second)
	cancel()
	if e := next(t, ch, 5*time.Second); e.kind != "error" || decode(t, e).Code != "57P01" {
		t.Errorf("at shutdown: %+v", e)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// TestHandler serves through httptest, as an http.Handler in another
// server would.
func TestHandler(t *testing.T) {
	db := deltaview.Open()
	s := httpapi.New(db, httpapi.Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Close()
	resp, err := http.Post(ts.URL+"/v1/sql", "application/json", strings.NewReader(`{"sql": "SELECT 1 AS one, 'x' AS x, NULL::int AS n, 1.50::numeric AS d, true AS b"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	want := `{"results":[{"columns":[{"name":"one","type":"integer"},{"name":"x","type":"text"},{"name":"n","type":"integer"},{"name":"d","type":"numeric"},{"name":"b","type":"boolean"}],"rows":[[1,"x",null,1.50,true]],"tag":"SELECT 1"}]}` + "\n"
	if resp.StatusCode != 200 || string(b) != want {
		t.Errorf("%s\n%s\nwant\n%s", resp.Status, b, want)
	}
}

// TestLinger checks that a view's subscription and ring end Linger after
// its last stream left: a client that comes back later starts over from
// a snapshot.
func TestLinger(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `CREATE TABLE t (id int); CREATE MATERIALIZED VIEW v AS SELECT id FROM t; INSERT INTO t VALUES (1)`)
	base := start(t, db, httpapi.Options{Linger: 50 * time.Millisecond})
	ch, resp := stream(t, base, "v", "")
	first := next(t, ch, 5*time.Second)
	resp.Body.Close()
	mustExec(t, db, `INSERT INTO t VALUES (2)`)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := metrics(t, base)[`deltaview_http_ring_deltas{view="v"}`]; !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the view's ring outlived its streams by 5s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	ch, _ = stream(t, base, "v", first.id)
	e := next(t, ch, 5*time.Second)
	if p := decode(t, e); e.kind != "snapshot" || !p.Reset || changes(p) != "+1 [1], +1 [2]" {
		t.Errorf("after the linger: %+v", e)
	}
}

// TestLockConflict checks that a statement that waited for another
// session's transaction beyond its lock_timeout answers 409 and 55P03.
func TestLockConflict(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `CREATE TABLE t (id int)`)
	base := start(t, db, httpapi.Options{})
	s := db.Session()
	defer s.Close()
	if err := s.Exec(`BEGIN; INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(base+"/v1/sql", "text/plain", strings.NewReader(`SET lock_timeout = '20ms'; INSERT INTO t VALUES (2)`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Error struct{ Code string } }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusConflict || out.Error.Code != "55P03" {
		t.Errorf("%s %+v", resp.Status, out)
	}
}

// TestManyStreams opens streams while commits land, some of them
// reconnecting with Last-Event-ID midway: each stream's snapshot plus its
// deltas sum to the view's rows at the end.
func TestManyStreams(t *testing.T) {
	db := deltaview.Open()
	mustExec(t, db, `CREATE TABLE t (id int PRIMARY KEY, g int);
		CREATE MATERIALIZED VIEW v AS SELECT g, count(*) AS n FROM t GROUP BY g`)
	// A queue longer than all the commits: a stream slowed by a loaded
	// machine lags but is never dropped (lagging is tested apart).
	const streams, commits = 40, 300
	base := start(t, db, httpapi.Options{Ring: 64, Queue: 2 * commits, KeepAlive: 100 * time.Millisecond})
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for i := range commits {
			var err error
			if i%3 == 2 {
				err = db.Exec(fmt.Sprintf(`DELETE FROM t WHERE id = %d`, i-1))
			} else {
				err = db.Exec(fmt.Sprintf(`INSERT INTO t VALUES (%d, %d)`, i, i%7))
			}
			if err != nil {
				t.Error(err)
				return
			}
		}
	}()
	type result struct {
		rows map[string]int64
		err  error
	}
	results := make(chan result, streams)
	var final atomic.Uint64 // the last commit's time, once the writer is done
	for k := range streams {
		go func() {
			rows := map[string]int64{}
			apply := func(p payload) {
				for _, c := range p.Changes {
					key := fmt.Sprint(c.Row)
					if rows[key] += c.Diff; rows[key] == 0 {
						delete(rows, key)
					}
				}
			}
			lastID := ""
			for conn := 0; conn < 1+k%2; conn++ {
				req, _ := http.NewRequest("GET", base+"/v1/views/v/changes", nil)
				if lastID != "" {
					req.Header.Set("Last-Event-ID", lastID)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				resp, err := http.DefaultClient.Do(req.WithContext(ctx))
				if err != nil {
					cancel()
					results <- result{err: err}
					return
				}
				sc := bufio.NewScanner(resp.Body)
				sc.Buffer(nil, 1<<20)
				kind, events := "", 0
				for sc.Scan() {
					line := sc.Text()
					switch {
					case strings.HasPrefix(line, "event: "):
						kind = line[7:]
					case strings.HasPrefix(line, "id: "):
						lastID = line[4:]
					case strings.HasPrefix(line, "data: "):
						var p payload
						json.Unmarshal([]byte(line[6:]), &p)
						switch kind {
						case "snapshot":
							clear(rows)
							apply(p)
						case "delta":
							apply(p)
						case "error":
							results <- result{err: fmt.Errorf("error event %s", line)}
							cancel()
							return
						}
						events++
					}
					// Keep-alive comments come every 100ms: a stream that has
					// every delta learns it here at the latest.
					id, _ := strconv.ParseUint(lastID, 10, 64)
					if end := line == "" || strings.HasPrefix(line, ":"); end && final.Load() > 0 && id >= final.Load() {
						break
					}
					// The first connection of a resuming stream leaves after a few events.
					if conn == 0 && k%2 == 1 && events == 5 {
						break
					}
				}
				resp.Body.Close()
				cancel()
			}
			results <- result{rows: rows}
		}()
	}
	<-writerDone
	last, _ := stream(t, base, "v", "")
	id, _ := strconv.ParseUint(next(t, last, 5*time.Second).id, 10, 64)
	final.Store(id)
	want := map[string]int64{}
	rows, err := db.View("v")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows.Rows {
		want[fmt.Sprintf("[%v %v]", r[0], r[1])]++
	}
	for range streams {
		r := <-results
		if r.err != nil {
			t.Error(r.err)
			continue
		}
		if fmt.Sprint(r.rows) != fmt.Sprint(want) {
			t.Errorf("a stream summed to %v, the view holds %v", r.rows, want)
		}
	}
}
