package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

var (
	loadPhase = flag.Duration("load-phase", 3*time.Second,
		"how long TestServeLoad writes without subscribers, then again with them (60s for the full run)")
	loadConns = flag.Int("load-conns", 200, "TestServeLoad's PostgreSQL connections")
	loadSubs  = flag.Int("load-subs", 1000, "TestServeLoad's change streams")
)

// The load's schema: each writer inserts, updates and deletes rows of its
// own in ev; loadViews views split ev's keys between them, and each
// change stream follows one of them. wide changes at every commit by an
// event of some 8 kB: only the stalled stream follows it, so that its
// socket fills quickly.
const (
	loadViews = 10
	loadKeys  = 100 // keys of ev.k, loadKeys/loadViews in each view
)

// TestServeLoad serves many clients at once on loopback: -load-conns
// PostgreSQL connections (pgx) writing and reading, first alone and then
// while -load-subs HTTP change streams follow the views and one more
// stream never reads. Each writer keeps a model of the rows it committed;
// at the end the table and every view hold exactly what the acknowledged
// commits made, every change stream's deltas add up to its view, and the
// stalled stream was dropped (or its events still fit in its bounds),
// while commits went on. It asserts no timing but reports the latency of
// the write transactions in both phases.
func TestServeLoad(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan net.Addr, 2)
	done := make(chan error, 1)
	var logb syncBuffer
	o := serveOptions{listen: "127.0.0.1:0", http: "127.0.0.1:0", maxConns: *loadConns + 20, maxBody: 1 << 20}
	go func() { done <- serve(ctx, o, &logb, ready) }()
	var pgAddr, httpAddr net.Addr
	for _, a := range []*net.Addr{&pgAddr, &httpAddr} {
		select {
		case *a = <-ready:
		case err := <-done:
			t.Fatal(err)
		}
	}
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
	}()
	defer func() {
		if t.Failed() {
			t.Logf("the server's log:\n%s", logb.String())
		}
	}()
	dsn := "postgres://deltaview@" + pgAddr.String() + "/deltaview?sslmode=disable"
	base := "http://" + httpAddr.String()

	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	ddl := []string{`CREATE TABLE ev (id bigint PRIMARY KEY, k int NOT NULL, v int NOT NULL)`}
	for i := range loadViews {
		ddl = append(ddl, fmt.Sprintf(`CREATE MATERIALIZED VIEW g%d AS SELECT k, count(*) AS n, sum(v) AS total FROM ev WHERE k %% %d = %d GROUP BY k`, i, loadViews, i))
	}
	ddl = append(ddl, `CREATE MATERIALIZED VIEW wide AS SELECT g, n, repeat('x', 4000) AS pad FROM (SELECT k % 4 AS g, count(*) AS n FROM ev GROUP BY k % 4) s`)
	for _, q := range ddl {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	// The writers.
	ws := make([]*loadWriter, *loadConns)
	var wg sync.WaitGroup
	var connErr atomic.Value
	for i := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := pgx.Connect(ctx, dsn)
			if err != nil {
				connErr.Store(err)
				return
			}
			ws[i] = &loadWriter{id: int64(i), c: c, rows: map[int64]loadRow{}, rng: rand.New(rand.NewPCG(uint64(i), 15))}
		}()
	}
	wg.Wait()
	if err, _ := connErr.Load().(error); err != nil {
		t.Fatalf("connecting %d clients: %v", *loadConns, err)
	}
	var phase atomic.Int32 // 0 alone, 1 while streams connect, 2 with them
	// The writers stop between operations, never within one, so that
	// each commit they made is acknowledged.
	stop := make(chan struct{})
	var stopOnce sync.Once
	stopWriters := func() { stopOnce.Do(func() { close(stop) }) }
	defer func() {
		stopWriters()
		wg.Wait()
		for _, w := range ws {
			if w != nil {
				w.c.Close(context.Background())
			}
		}
	}()
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(ctx, stop, &phase)
		}()
	}
	cpu0 := processCPU()
	time.Sleep(*loadPhase)
	cpu0 = processCPU() - cpu0

	// The change streams: loadSubs that read, one that never does.
	phase.Store(1)
	tr := &http.Transport{MaxIdleConnsPerHost: -1, DisableCompression: true}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	subs := make([]*loadSub, *loadSubs)
	sctx, stopSubs := context.WithCancel(ctx)
	defer stopSubs()
	var swg sync.WaitGroup
	gate := make(chan struct{}, 32)
	var subErr atomic.Value
	for i := range subs {
		subs[i] = &loadSub{view: fmt.Sprintf("g%d", i%loadViews), rows: map[string]int64{}}
		gate <- struct{}{}
		swg.Add(1)
		go func() {
			defer swg.Done()
			s := subs[i]
			req, _ := http.NewRequestWithContext(sctx, "GET", base+"/v1/views/"+s.view+"/changes", nil)
			resp, err := hc.Do(req)
			if err == nil && resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				err = fmt.Errorf("%s: %s", resp.Status, b)
			}
			if err != nil {
				<-gate
				subErr.Store(err)
				return
			}
			defer resp.Body.Close()
			s.read(resp.Body, gate)
		}()
	}
	stalled, err := stallStream(httpAddr.String(), "wide")
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	for range cap(gate) {
		gate <- struct{}{} // every stream has its snapshot
	}
	if err, _ := subErr.Load().(error); err != nil {
		t.Fatalf("opening a change stream: %v", err)
	}
	phase.Store(2)
	cpu2 := processCPU()
	time.Sleep(*loadPhase)
	cpu2 = processCPU() - cpu2
	stopWriters()
	wg.Wait()

	var failures []string
	commits := [3]int{}
	var lat [3][]time.Duration
	for _, w := range ws {
		if w.err != nil {
			failures = append(failures, fmt.Sprintf("writer %d: %v", w.id, w.err))
		}
		for p := range 3 {
			commits[p] += len(w.lat[p])
			lat[p] = append(lat[p], w.lat[p]...)
		}
	}
	if len(failures) > 0 {
		t.Fatalf("%d of %d writers failed; the first: %s", len(failures), len(ws), failures[0])
	}
	if commits[0] == 0 || commits[2] == 0 {
		t.Fatalf("commits alone %d, with change streams %d", commits[0], commits[2])
	}

	// Every acknowledged commit is in the table and the views.
	want := map[string]int64{} // view row "k,n,total" → 1, by view
	wantByView := make([]map[string]int64, loadViews)
	for i := range wantByView {
		wantByView[i] = map[string]int64{}
	}
	var count [loadKeys]int64
	var sum [loadKeys]int64
	total := 0
	for _, w := range ws {
		for _, r := range w.rows {
			count[r.k]++
			sum[r.k] += int64(r.v)
			total++
		}
	}
	for k := range loadKeys {
		if count[k] > 0 {
			key := fmt.Sprintf("%d,%d,%d", k, count[k], sum[k])
			wantByView[k%loadViews][key] = 1
			want[key] = 1
		}
	}
	var n int64
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM ev`).Scan(&n); err != nil || n != int64(total) {
		t.Fatalf("ev holds %d rows (%v); the acknowledged commits left %d", n, err, total)
	}
	for i := range loadViews {
		got := map[string]int64{}
		rows, _ := admin.Query(ctx, fmt.Sprintf(`SELECT k, n, total FROM g%d`, i))
		var k, cnt, tot int64
		if _, err := pgx.ForEachRow(rows, []any{&k, &cnt, &tot}, func() error {
			got[fmt.Sprintf("%d,%d,%d", k, cnt, tot)]++
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if d := diffRows(got, wantByView[i]); d != "" {
			t.Fatalf("view g%d against the acknowledged commits:\n%s", i, d)
		}
	}

	// Every stream that was not dropped adds up to its view, once it has
	// read what the server sent.
	deadline := time.Now().Add(2 * time.Minute)
	for _, s := range subs {
		for {
			s.mu.Lock()
			if err := s.sum(); err != nil {
				s.mu.Unlock()
				t.Fatalf("a change stream of %s: %v", s.view, err)
			}
			d, end, dropped := diffRows(s.rows, wantByView[s.viewIndex()]), s.end, s.dropped
			s.mu.Unlock()
			if dropped != "" {
				t.Fatalf("a change stream of %s that kept reading was dropped: %s", s.view, dropped)
			}
			if d == "" {
				break
			}
			if end != nil || time.Now().After(deadline) {
				t.Fatalf("a change stream of %s (ended: %v) against its view:\n%s", s.view, end, d)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	stopSubs()
	swg.Wait()

	// The stalled stream: its queue filled and the server dropped it
	// (deltaview_http_lagged_total), or what waits for it is within its
	// queue's bound; either way the commits went on.
	lagged := metric(t, hc, base, "deltaview_http_lagged_total")
	queued := metric(t, hc, base, `deltaview_http_queued_events{view="wide"}`)
	if lagged > 1 {
		t.Errorf("%v change streams were dropped; only the stalled one should be", lagged)
	}
	if queued > 256 {
		t.Errorf("%v events wait for the stalled stream, beyond its queue of 256", queued)
	}
	verdict := stalled.finish()
	if lagged == 0 && !strings.HasPrefix(verdict, "open") {
		t.Errorf("the stalled stream was not dropped, yet it ended: %s", verdict)
	}
	verdict = fmt.Sprintf("%s (dropped by the server: %v, events queued for it: %v)", verdict, lagged == 1, queued)

	p := func(ls []time.Duration, q float64) time.Duration {
		if len(ls) == 0 {
			return 0
		}
		slices.Sort(ls)
		return ls[min(len(ls)-1, int(q*float64(len(ls))))]
	}
	events := int64(0)
	for _, s := range subs {
		events += s.events
	}
	t.Logf("%d connections, %d rows at the end; alone (%v, the process's CPU time %v): %d write transactions, p50 %v, p99 %v; "+
		"with %d change streams (%v, CPU %v): %d, p50 %v, p99 %v; the streams read %d events; stalled stream: %s",
		len(ws), total, *loadPhase, cpu0.Round(time.Millisecond), commits[0], p(lat[0], .5), p(lat[0], .99),
		len(subs), *loadPhase, cpu2.Round(time.Millisecond), commits[2], p(lat[2], .5), p(lat[2], .99), events, verdict)
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type loadRow struct{ k, v int32 }

// loadWriter is one connection's writes and reads, and the rows its
// acknowledged commits left in ev.
type loadWriter struct {
	id   int64
	c    *pgx.Conn
	rng  *rand.Rand
	rows map[int64]loadRow
	ids  []int64 // the keys of rows
	seq  int64
	lat  [3][]time.Duration // write transactions' latency, by phase
	err  error
}

func (w *loadWriter) run(ctx context.Context, stop <-chan struct{}, phase *atomic.Int32) {
	for {
		if w.err = w.step(ctx, phase); w.err != nil {
			return
		}
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(w.rng.IntN(20)) * time.Millisecond):
		}
	}
}

// step runs one random operation; a write's latency is from its first
// statement to its commit's acknowledgement. The model changes only once
// the commit is acknowledged.
func (w *loadWriter) step(ctx context.Context, phase *atomic.Int32) error {
	r := w.rng.IntN(100)
	ph := phase.Load()
	newRow := func() (int64, loadRow) {
		w.seq++
		return w.id*1_000_000 + w.seq, loadRow{k: int32(w.rng.IntN(loadKeys)), v: int32(w.rng.IntN(1000))}
	}
	start := time.Now()
	switch {
	case r < 35 || r < 65 && len(w.ids) == 0:
		id, row := newRow()
		if _, err := w.c.Exec(ctx, `INSERT INTO ev VALUES ($1, $2, $3)`, id, row.k, row.v); err != nil {
			return err
		}
		w.lat[ph] = append(w.lat[ph], time.Since(start))
		w.add(id, row)
	case r < 55:
		id, row := newRow()
		old := w.ids[w.rng.IntN(len(w.ids))]
		tx, err := w.c.Begin(ctx)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO ev VALUES ($1, $2, $3)`, id, row.k, row.v); err != nil {
			tx.Rollback(context.Background())
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE ev SET v = v + 1 WHERE id = $1`, old); err != nil {
			tx.Rollback(context.Background())
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			return err
		}
		w.lat[ph] = append(w.lat[ph], time.Since(start))
		w.add(id, row)
		o := w.rows[old]
		o.v++
		w.rows[old] = o
	case r < 65:
		i := w.rng.IntN(len(w.ids))
		id := w.ids[i]
		tag, err := w.c.Exec(ctx, `DELETE FROM ev WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("DELETE of %d: %s", id, tag)
		}
		w.lat[ph] = append(w.lat[ph], time.Since(start))
		delete(w.rows, id)
		w.ids[i] = w.ids[len(w.ids)-1]
		w.ids = w.ids[:len(w.ids)-1]
	default:
		// A point lookup in a view, and a row of the writer's own: its
		// last commit is visible to it.
		k := w.rng.IntN(loadKeys)
		var n, total int64
		err := w.c.QueryRow(ctx, fmt.Sprintf(`SELECT n, total FROM g%d WHERE k = $1`, k%loadViews), k).Scan(&n, &total)
		if err != nil && err != pgx.ErrNoRows {
			return err
		}
		if len(w.ids) > 0 {
			id := w.ids[w.rng.IntN(len(w.ids))]
			var v int32
			if err := w.c.QueryRow(ctx, `SELECT v FROM ev WHERE id = $1`, id).Scan(&v); err != nil {
				return fmt.Errorf("reading the committed row %d: %w", id, err)
			}
			if v != w.rows[id].v {
				return fmt.Errorf("row %d has v = %d, its last commit set %d", id, v, w.rows[id].v)
			}
		}
	}
	return nil
}

func (w *loadWriter) add(id int64, r loadRow) {
	w.rows[id] = r
	w.ids = append(w.ids, id)
}

// loadSub is one change stream: the events it read, and their sum, the
// view's rows as "k,n,total" with their multiplicity. The events are
// added up when the sum is asked for, not as they arrive: the streams'
// clients share the process with the server, and the CPU they would spend
// decoding during the phase would be taken from the commits measured.
type loadSub struct {
	view    string
	mu      sync.Mutex
	pending [][]byte // the data of events not yet added up
	rows    map[string]int64
	events  int64
	end     error  // why the stream ended
	dropped string // the error event's data
}

func (s *loadSub) viewIndex() int {
	i, _ := strconv.Atoi(strings.TrimPrefix(s.view, "g"))
	return i
}

// read reads the stream until it ends, releasing gate after the snapshot.
func (s *loadSub) read(r io.Reader, gate chan struct{}) {
	released := false
	release := func() {
		if !released {
			released = true
			<-gate
		}
	}
	defer release()
	err := readEvents(r, func(kind string, data []byte) error {
		s.mu.Lock()
		if kind == "error" {
			s.dropped = string(data)
		} else {
			s.pending = append(s.pending, slices.Clone(data))
			s.events++
		}
		s.mu.Unlock()
		if kind == "snapshot" {
			release()
		}
		return nil
	})
	if err == nil {
		err = io.EOF
	}
	s.mu.Lock()
	s.end = err
	s.mu.Unlock()
}

// sum adds up the events read so far. s.mu is held.
func (s *loadSub) sum() error {
	for _, data := range s.pending {
		var ev struct {
			Changes []struct {
				Diff int64
				Row  []int64
			}
		}
		if err := json.Unmarshal(data, &ev); err != nil {
			return fmt.Errorf("event %s: %v", data, err)
		}
		for _, c := range ev.Changes {
			if len(c.Row) != 3 {
				return fmt.Errorf("row %v", c.Row)
			}
			key := fmt.Sprintf("%d,%d,%d", c.Row[0], c.Row[1], c.Row[2])
			if s.rows[key] += c.Diff; s.rows[key] == 0 {
				delete(s.rows, key)
			}
		}
	}
	s.pending = s.pending[:0]
	return nil
}

// readEvents calls fn with each server-sent event's name and data.
func readEvents(r io.Reader, fn func(kind string, data []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	kind, data := "", []byte(nil)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			rest, err2 := br.ReadBytes('\n')
			line, err = append(slices.Clone(line), rest...), err2
		}
		if err != nil {
			return err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		switch {
		case len(line) == 0:
			if kind != "" {
				if err := fn(kind, data); err != nil {
					return err
				}
			}
			kind, data = "", data[:0]
		case bytes.HasPrefix(line, []byte("event: ")):
			kind = string(line[len("event: "):])
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append(data, line[len("data: "):]...)
		}
	}
}

// diffRows describes how got differs from want ("" when equal).
func diffRows(got, want map[string]int64) string {
	var b strings.Builder
	for k, n := range want {
		if got[k] != n {
			fmt.Fprintf(&b, "  %s: %d, want %d\n", k, got[k], n)
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "  %s: %d, want none\n", k, n)
		}
	}
	return b.String()
}

// stalledStream is a change stream whose client reads nothing until
// finish.
type stalledStream struct {
	nc   *net.TCPConn
	view string
}

func stallStream(addr, view string) (*stalledStream, error) {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	tc := nc.(*net.TCPConn)
	if _, err := fmt.Fprintf(nc, "GET /v1/views/%s/changes HTTP/1.1\r\nHost: %s\r\n\r\n", view, addr); err != nil {
		nc.Close()
		return nil, err
	}
	return &stalledStream{nc: tc, view: view}, nil
}

func (s *stalledStream) Close() { s.nc.Close() }

// finish reads what the server sent the stalled stream and says how it
// ended: "dropped: …" with the error event, "closed …" when the server
// closed the connection without one (its write timed out), "open …"
// when the stream is still open.
func (s *stalledStream) finish() string {
	s.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, err := io.ReadAll(s.nc)
	end := "closed"
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		end = "open"
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
	if err != nil {
		return fmt.Sprintf("%s after %d bytes, no answer: %v", end, len(raw), err)
	}
	defer resp.Body.Close()
	events := 0
	verdict := ""
	readEvents(resp.Body, func(kind string, data []byte) error {
		if kind == "error" {
			verdict = fmt.Sprintf("dropped after %d events (%d bytes): %s", events, len(raw), data)
			return io.EOF
		}
		events++
		return nil
	})
	if verdict != "" {
		return verdict
	}
	return fmt.Sprintf("%s after %d events (%d bytes)", end, events, len(raw))
}

// metric reads one sample from /metrics: series is its name and labels
// as written there; 0 when the series is absent.
func metric(t *testing.T, hc *http.Client, base, series string) float64 {
	t.Helper()
	resp, err := hc.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			return f
		}
	}
	return 0
}

// syncBuffer is a bytes.Buffer that the server's log may write to while
// the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
