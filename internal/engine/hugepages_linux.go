//go:build linux

package engine

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// heapPages asks the kernel to back the Go heap with transparent huge
// pages while big cold starts run, and to stop when the last one ends.
//
// A cold start at a million rows allocates some 300 to 400 MB on a heap
// whose free pages the runtime has mostly handed back to the system
// (MADV_DONTNEED after the collection before it): each 4 KB page it
// writes first is a page fault, 50,000 to 100,000 a build, on this kind
// of virtual machine several microseconds each, a third of the build's
// CPU. A 2 MB page takes one fault for 512. Where the system gives huge
// pages only to the memory that asks for them (transparent_hugepage
// "madvise", the common default), the runtime never asks; a build marks
// the heap's mappings MADV_HUGEPAGE while it runs, and MADV_NOHUGEPAGE
// after it, which under "madvise" is what the mappings were: the pages
// faulted in meanwhile stay as they are (the runtime's returns of memory
// split them as it needs), and the kernel's background collapsing into
// huge pages, which would undo the runtime's returns, stops with the
// build. Under "always" the heap has huge pages already, under "never"
// it can have none: both are left alone.
type heapPages struct {
	mu      sync.Mutex
	builds  int        // cold starts under way that asked for huge pages
	advised []memRange // the heap's mappings marked, to unmark at the end
	// alloc0 is the bytes the process had allocated when the first
	// build under way began, asked the bytes asked to be populated
	// since: a build's populates stay within prefaultAhead of what it
	// allocated.
	alloc0, asked int64
}

// prefault asks for the heap's room to be populated ahead of the builds
// under way, n bytes just allocated and not yet written among it: up to
// prefaultAhead beyond what they have allocated, less what was asked
// already (heapPrefault).
func (h *heapPages) prefault(n int64) {
	want := heapAllocs() - h.alloc0 + n + prefaultAhead
	if want > h.asked {
		prefault.ahead(want - h.asked)
		h.asked = want
	}
}

// heapAllocs returns the bytes the process has allocated on the heap.
func heapAllocs() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// memRange is a mapping's addresses, [lo, hi).
type memRange struct{ lo, hi uintptr }

// hugeHeap is the process's: the heap is one for every engine in it.
var hugeHeap heapPages

// hugeBuildRows is the fewest rows a cold start reads for it to ask for
// huge pages: below it, its allocations are a few MB that the heap's free
// pages hold.
const hugeBuildRows = 1 << 16

// thpAdvised reports whether the system gives transparent huge pages to
// the memory that asks for them and only to it.
var thpAdvised = sync.OnceValue(func() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
})

// begin marks the heap's mappings for huge pages, if the system says so,
// and has the room ahead of the build populated (heapPrefault); it
// reports whether it did, and then end must follow.
func (h *heapPages) begin() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.builds++; h.builds == 1 {
		h.alloc0, h.asked = heapAllocs(), 0
	}
	h.markNew()
	h.prefault(0)
	return true
}

// grow marks the mappings the heap has grown into since begin (the
// runtime maps new room afresh, without the mark), while a build that
// began is under way: the build calls it where it has allocated and not
// yet written, at each step and between a layout's placing of its rows and
// their copy.
func (h *heapPages) grow() { h.growBy(0) }

// growBy is grow where the build has just allocated n bytes it is about
// to write: the heap's room not yet resident is populated ahead of the
// build, n bytes of it or prefaultAhead if more (heapPrefault).
func (h *heapPages) growBy(n int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.builds > 0 {
		h.markNew()
		h.prefault(n)
	}
}

// end unmarks the heap's mappings once the last build that began ends.
func (h *heapPages) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.builds--; h.builds > 0 {
		return
	}
	for _, r := range h.advised {
		madvise(r, madvNoHugepage)
	}
	h.advised = h.advised[:0]
}

const (
	madvHugepage   = 14 // MADV_HUGEPAGE
	madvNoHugepage = 15 // MADV_NOHUGEPAGE
)

// markNew marks the heap's mappings not marked yet, where the system gives
// huge pages on advice only.
func (h *heapPages) markNew() {
	if !thpAdvised() {
		return
	}
	for _, r := range heapMappings() {
		if !h.has(r) {
			madvise(r, madvHugepage)
			h.advised = append(h.advised, r)
		}
	}
}

// has reports whether r was marked.
func (h *heapPages) has(r memRange) bool {
	for _, a := range h.advised {
		if a == r {
			return true
		}
	}
	return false
}

// madvise gives the kernel advice on r; advice not taken costs nothing
// but the call, so its error is of no use.
func madvise(r memRange, advice uintptr) {
	syscall.Syscall(syscall.SYS_MADVISE, r.lo, r.hi-r.lo, advice)
}

// heapMappings returns the Go heap's writable mappings: those of the
// block of anonymous mappings around a heap object, the arenas the
// runtime has mapped and the room it keeps reserved (not writable) to
// grow them into.
func heapMappings() []memRange {
	probe := new([64]byte)
	at := uintptr(unsafe.Pointer(probe))
	maps := anonMappings()
	runtime.KeepAlive(probe)
	i := 0
	for i < len(maps) && maps[i].hi <= at {
		i++
	}
	if i == len(maps) || maps[i].lo > at {
		return nil
	}
	lo, hi := i, i+1
	for lo > 0 && maps[lo-1].hi == maps[lo].lo {
		lo--
	}
	for hi < len(maps) && maps[hi].lo == maps[hi-1].hi {
		hi++
	}
	var heap []memRange
	for _, m := range maps[lo:hi] {
		if m.writable {
			heap = append(heap, m.memRange)
		}
	}
	return heap
}

// anonMapping is a private mapping of no file, as /proc/self/maps lists it.
type anonMapping struct {
	memRange
	writable bool
}

// anonMappings returns the process's private mappings of no file, in
// address order.
func anonMappings() []anonMapping {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil
	}
	defer f.Close()
	var maps []anonMapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "lo-hi perms offset dev inode [path]"
		fs := strings.Fields(sc.Text())
		// A name the process gave the mapping ("[anon: Go: heap]") is
		// still no file.
		if len(fs) < 5 || fs[4] != "0" || !strings.HasSuffix(fs[1], "p") ||
			len(fs) > 5 && !strings.HasPrefix(fs[5], "[anon:") {
			continue
		}
		los, his, ok := strings.Cut(fs[0], "-")
		lo, err1 := strconv.ParseUint(los, 16, 64)
		hi, err2 := strconv.ParseUint(his, 16, 64)
		if !ok || err1 != nil || err2 != nil {
			continue
		}
		maps = append(maps, anonMapping{memRange{uintptr(lo), uintptr(hi)}, fs[1] == "rw-p"})
	}
	return maps
}
