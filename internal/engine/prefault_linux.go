//go:build linux

package engine

import (
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// heapPrefault populates, on a goroutine of its own, the heap's room that
// a big cold start is about to write for the first time, a run of pages a
// call (MADV_POPULATE_WRITE) rather than a page fault a page.
//
// After the collection before a build the runtime has handed most of the
// heap's free pages back to the system, and a build of a join at a
// million rows allocates some 400 MB: the first write of each of those
// pages is a fault, tens of thousands a build, several microseconds each
// on a virtual machine, taken by the building goroutine. The runtime hands
// out the heap's free pages lowest address first, so the room a build
// takes next is, near enough, the lowest pages of the heap's mappings that
// are not resident (mincore). Populating them beside the build costs the
// kernel's work without a trap a page, on another core; a page the build
// reaches first is faulted in as before. No byte changes: a page not
// resident reads as zeros, as it would at its first write, and a resident
// one is left alone.
type heapPrefault struct {
	mu   sync.Mutex
	busy bool   // a goroutine populates
	more int64  // bytes asked for while busy, populated next
	vec  []byte // mincore's answer, reused
	off  bool   // the kernel does not know the advice
}

// prefaultAhead is how much of the heap's room each step of a big build
// asks to have populated ahead of it: a few steps' allocations at a
// million rows, so that at most that much is populated and not used.
const prefaultAhead = 64 << 20

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

// prefault is the process's: the heap is one for every engine in it.
var prefault heapPrefault

// ahead has up to n bytes of the heap's lowest non-resident room
// populated on another goroutine; what is asked while it runs is
// populated after it, once (the most asked).
func (p *heapPrefault) ahead(n int64) {
	if n <= 0 {
		return
	}
	p.mu.Lock()
	if p.busy || p.off {
		p.more = max(p.more, n)
		p.mu.Unlock()
		return
	}
	p.busy = true
	p.mu.Unlock()
	go func() {
		for {
			off := !p.populate(n)
			p.mu.Lock()
			p.off = p.off || off
			if n, p.more = p.more, 0; n == 0 || p.off {
				p.busy = false
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
		}
	}()
}

// populate populates up to n bytes of the heap's lowest non-resident
// pages; it reports false if the kernel does not know the advice. Only
// one goroutine calls it at a time (vec).
func (p *heapPrefault) populate(n int64) bool {
	page := uintptr(os.Getpagesize())
	for _, r := range heapMappings() {
		pages := int((r.hi - r.lo) / page)
		if cap(p.vec) < pages {
			p.vec = make([]byte, pages)
		}
		vec := p.vec[:pages]
		if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, r.lo, r.hi-r.lo, uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
			continue // the mapping changed since it was read
		}
		for i := 0; i < pages && n > 0; {
			if vec[i]&1 != 0 {
				i++
				continue
			}
			j := i + 1
			for j < pages && vec[j]&1 == 0 && int64(j-i)*int64(page) < n {
				j++
			}
			lo := r.lo + uintptr(i)*page
			// An error but EINVAL (a page the runtime has just unmapped
			// or protected) leaves the rest to be faulted as usual.
			if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, lo, uintptr(j-i)*page, madvPopulateWrite); e == syscall.EINVAL {
				return false
			}
			n -= int64(j-i) * int64(page)
			i = j
		}
		if n <= 0 {
			break
		}
	}
	return true
}
