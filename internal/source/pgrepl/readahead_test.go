package pgrepl

import (
	"net"
	"runtime"
	"testing"
	"time"
)

// TestPacer follows a paced wait as a quiet and then a busy machine
// would move it: a walsender that fills the socket during the wait
// shortens it to paceMin; one that writes little lengthens it back to
// paceDelay; what lies between leaves it alone.
func TestPacer(t *testing.T) {
	p := pacer{wait: paceDelay}
	var seen []time.Duration
	for range 6 {
		seen = append(seen, p.next(20<<10)) // a full unix socket
	}
	if p.wait != paceMin || seen[0] != paceDelay/2 {
		t.Fatalf("full socket: waits %v, want halving from %v down to %v", seen, paceDelay, paceMin)
	}
	if got := p.next(10 << 10); got != paceMin {
		t.Fatalf("half a socket moved the wait from %v to %v", paceMin, got)
	}
	if got := p.next(-1); got != paceMin {
		t.Fatalf("an unknown queue moved the wait from %v to %v", paceMin, got)
	}
	for range 8 {
		p.next(2 << 10)
	}
	if p.wait != paceDelay {
		t.Fatalf("near-empty socket: wait %v, want %v", p.wait, paceDelay)
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
