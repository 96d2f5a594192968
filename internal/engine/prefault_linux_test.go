//go:build linux

package engine

import (
	"os"
	"runtime/debug"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// residentPages returns how many of the pages wholly inside buf are
// resident, and how many there are.
func residentPages(t *testing.T, buf []uint64) (resident, pages int) {
	t.Helper()
	page := uintptr(os.Getpagesize())
	lo := (uintptr(unsafe.Pointer(&buf[0])) + page - 1) &^ (page - 1)
	hi := (uintptr(unsafe.Pointer(&buf[0])) + uintptr(len(buf))*8) &^ (page - 1)
	vec := make([]byte, (hi-lo)/page)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, lo, hi-lo, uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	for _, v := range vec {
		resident += int(v & 1)
	}
	return resident, len(vec)
}

// TestHeapPrefault checks that ahead populates the heap's room that is not
// resident, on its goroutine, without changing a byte of it or of the
// memory around it.
func TestHeapPrefault(t *testing.T) {
	debug.FreeOSMemory()
	// 64 MB of the heap handed back to the system as the runtime hands
	// back its free room (MADV_DONTNEED), but for its first and last
	// pages: not resident until written.
	buf := make([]uint64, 64<<20/8)
	buf[0], buf[len(buf)-1] = 7, 9
	page := uintptr(os.Getpagesize())
	lo := (uintptr(unsafe.Pointer(&buf[0]))+page-1)&^(page-1) + page
	hi := (uintptr(unsafe.Pointer(&buf[0]))+uintptr(len(buf))*8)&^(page-1) - page
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_DONTNEED); e != 0 {
		t.Fatalf("madvise: %v", e)
	}
	if r, n := residentPages(t, buf); r > n/10 {
		t.Fatalf("%d of %d pages resident after they were handed back", r, n)
	}
	var p heapPrefault
	p.ahead(1 << 40) // the whole heap's room
	p.ahead(1 << 30) // asked while the first runs: after it
	deadline := time.Now().Add(time.Minute)
	for {
		p.mu.Lock()
		busy, off := p.busy, p.off
		p.mu.Unlock()
		if off {
			t.Skip("the kernel does not know MADV_POPULATE_WRITE")
		}
		if !busy {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("ahead still populating after a minute")
		}
		time.Sleep(time.Millisecond)
	}
	if r, n := residentPages(t, buf); r < n*9/10 {
		t.Fatalf("%d of %d pages resident after ahead, want nearly all", r, n)
	}
	for i, w := range buf {
		want := uint64(0)
		switch i {
		case 0:
			want = 7
		case len(buf) - 1:
			want = 9
		}
		if w != want {
			t.Fatalf("buf[%d] = %d after ahead, want %d", i, w, want)
		}
	}
}
