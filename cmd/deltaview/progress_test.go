package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

func TestProgressBarRendering(t *testing.T) {
	var buf bytes.Buffer
	bar := newBar(&buf, deltaview.Progress{Op: "CREATE MATERIALIZED VIEW v", Unit: "rows", Total: 1000}, 0)
	time.Sleep(50 * time.Millisecond)
	if err := bar.Set64(500); err != nil {
		t.Fatal(err)
	}
	out := bar.String()
	for _, want := range []string{"CREATE MATERIALIZED VIEW v", "50%", "500/1000", "rows/", "["} {
		if !strings.Contains(out, want) {
			t.Errorf("bar %q lacks %q", out, want)
		}
	}
	t.Logf("%s", out)
}

func TestProgressBytes(t *testing.T) {
	var buf bytes.Buffer
	bar := newBar(&buf, deltaview.Progress{Op: "COPY t", Unit: "bytes", Total: 4 << 20}, 0)
	time.Sleep(50 * time.Millisecond)
	bar.Set64(1 << 20)
	out := bar.String()
	for _, want := range []string{"COPY t", "25%", "MB", "/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar %q lacks %q", out, want)
		}
	}
}

func TestProgressQuietUnlessTerminalAndSlow(t *testing.T) {
	var buf bytes.Buffer
	if newProgress(&buf) != nil {
		t.Fatal("a progress bar on a writer that is not a terminal")
	}
	p := &progress{w: &buf}
	p.report(deltaview.Progress{Op: "COPY t", Unit: "rows", Done: 10, Total: 100, Elapsed: 10 * time.Millisecond})
	p.report(deltaview.Progress{Op: "COPY t", Unit: "rows", Done: 100, Total: 100, Elapsed: 20 * time.Millisecond, Finished: true})
	if buf.Len() != 0 {
		t.Fatalf("quick work drew %q", buf.String())
	}
	p.report(deltaview.Progress{Op: "COPY u", Unit: "rows", Done: 10, Total: 100, Elapsed: 2 * time.Second})
	p.report(deltaview.Progress{Op: "COPY u", Unit: "rows", Done: 100, Total: 100, Elapsed: 3 * time.Second, Finished: true})
	if !strings.Contains(buf.String(), "COPY u") {
		t.Fatalf("slow work drew %q", buf.String())
	}
}

func TestProgressLog(t *testing.T) {
	var buf bytes.Buffer
	p := &progressLog{w: &buf}
	p.report(deltaview.Progress{Op: "CREATE MATERIALIZED VIEW q", Unit: "rows", Done: 100, Total: 100, Elapsed: 10 * time.Millisecond, Finished: true})
	if buf.Len() != 0 {
		t.Fatalf("quick work logged %q", buf.String())
	}
	for _, r := range []deltaview.Progress{
		{Done: 10, Elapsed: 500 * time.Millisecond},
		{Done: 20, Elapsed: 1500 * time.Millisecond},
		{Done: 30, Elapsed: 2 * time.Second},
		{Done: 70, Elapsed: 7 * time.Second},
		{Done: 100, Elapsed: 8 * time.Second, Finished: true},
	} {
		r.Op, r.Unit, r.Total = "CREATE MATERIALIZED VIEW v", "rows", 100
		p.report(r)
	}
	want := "deltaview: CREATE MATERIALIZED VIEW v: 20/100 rows, 1.5 s\n" +
		"deltaview: CREATE MATERIALIZED VIEW v: 70/100 rows, 7.0 s\n" +
		"deltaview: CREATE MATERIALIZED VIEW v: 100/100 rows, 8.0 s (done)\n"
	if buf.String() != want {
		t.Fatalf("log:\n%s\nwant:\n%s", buf.String(), want)
	}
}
