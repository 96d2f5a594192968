package pgrepl

import (
	"net"
	"runtime"
	"testing"
	"time"
)

// TestPaceWait follows a paced wait as a quiet and then a busy machine
// would move it: a walsender that fills the socket during the wait
// shortens it to paceMin; one that writes little lengthens it back to
// paceDelay; what lies between leaves it alone.
func TestPaceWait(t *testing.T) {
	w := paceDelay
	var seen []time.Duration
	for range 6 {
		w = paceWait(w, 200<<10)
		seen = append(seen, w)
	}
	if w != paceMin || seen[0] != paceDelay/2 {
		t.Fatalf("full socket: waits %v, want halving from %v down to %v", seen, paceDelay, paceMin)
	}
	if got := paceWait(w, 40<<10); got != w {
		t.Fatalf("40 kB waiting moved the wait from %v to %v", w, got)
	}
	if got := paceWait(w, -1); got != w {
		t.Fatalf("an unknown queue moved the wait from %v to %v", w, got)
	}
	for range 8 {
		w = paceWait(w, 2<<10)
	}
	if w != paceDelay {
		t.Fatalf("near-empty socket: wait %v, want %v", w, paceDelay)
	}
}

// TestQueued counts the bytes waiting in a socket.
func TestQueued(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("queued is told on Linux only")
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: t.TempDir() + "/s", Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	w, err := net.DialUnix("unix", nil, l.Addr().(*net.UnixAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r, err := l.AcceptUnix()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := r.File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n := queued(int(f.Fd())); n != 0 {
		t.Fatalf("empty socket: %d bytes queued", n)
	}
	if _, err := w.Write(make([]byte, 3000)); err != nil {
		t.Fatal(err)
	}
	if n := queued(int(f.Fd())); n != 3000 {
		t.Fatalf("after writing 3000 bytes: %d queued", n)
	}
}
