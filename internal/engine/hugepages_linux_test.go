//go:build linux

package engine

import (
	"bufio"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// heapFlags returns the kernel's flags (smaps' VmFlags) of the mapping
// that holds a heap object: "hg" when it asks for huge pages, "nh" when it
// asks for none.
func heapFlags(t *testing.T) []string {
	t.Helper()
	probe := new([64]byte)
	at := uint64(uintptr(unsafe.Pointer(probe)))
	defer runtime.KeepAlive(probe)
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		fs := strings.Fields(line)
		if len(fs) > 0 && strings.Contains(fs[0], "-") && !strings.HasSuffix(fs[0], ":") {
			los, his, _ := strings.Cut(fs[0], "-")
			lo, err1 := strconv.ParseUint(los, 16, 64)
			hi, err2 := strconv.ParseUint(his, 16, 64)
			in = err1 == nil && err2 == nil && lo <= at && at < hi
			continue
		}
		if in && fs[0] == "VmFlags:" {
			return fs[1:]
		}
	}
	t.Fatalf("no mapping holds the heap object at %#x", at)
	return nil
}

// TestHeapPagesMarked checks that the heap's mapping asks for huge pages
// from the first begin to the last end, and asks for none after it.
func TestHeapPagesMarked(t *testing.T) {
	if !thpAdvised() {
		t.Skip("the system does not give huge pages on advice (transparent_hugepage is not \"madvise\")")
	}
	var h heapPages
	if !h.begin() {
		t.Fatal("begin did not mark the heap")
	}
	if !h.begin() {
		t.Fatal("a second begin did not count")
	}
	if fl := heapFlags(t); !slices.Contains(fl, "hg") {
		t.Fatalf("heap's flags after begin: %v, want hg", fl)
	}
	// The heap grows by a new arena's mapping; grow marks it.
	grown := make([]byte, 256<<20)
	h.grow()
	if fl := heapFlags(t); !slices.Contains(fl, "hg") {
		t.Fatalf("heap's flags after grow: %v, want hg", fl)
	}
	h.end()
	if fl := heapFlags(t); !slices.Contains(fl, "hg") {
		t.Fatalf("heap's flags after one of two ends: %v, want hg", fl)
	}
	h.end()
	if fl := heapFlags(t); slices.Contains(fl, "hg") || !slices.Contains(fl, "nh") {
		t.Fatalf("heap's flags after the last end: %v, want nh and no hg", fl)
	}
	runtime.KeepAlive(grown)
}

// TestColdStartHugePages checks that a cold start reading hugeBuildRows
// rows or more marks the heap for huge pages while it runs and unmarks it
// after, that a smaller one leaves it alone, and that both views hold
// their queries' rows.
func TestColdStartHugePages(t *testing.T) {
	if !thpAdvised() {
		t.Skip("the system does not give huge pages on advice (transparent_hugepage is not \"madvise\")")
	}
	e := New()
	sess := e.NewSession()
	run := scriptRows(t, sess)
	run(`CREATE TABLE u (id int PRIMARY KEY, name text);
		INSERT INTO u SELECT g, 'n' || g FROM generate_series(0, 99) g;
		CREATE TABLE t (id int PRIMARY KEY, k int, v int);
		INSERT INTO t SELECT g, g % 120, g FROM generate_series(1, 70000) g;
		CREATE TABLE s (id int PRIMARY KEY, k int);
		INSERT INTO s SELECT g, g % 120 FROM generate_series(1, 1000) g`)
	var marked, reports int
	e.SetProgress(func(p Progress) {
		if p.Finished {
			return
		}
		reports++
		if slices.Contains(heapFlags(t), "hg") {
			marked++
		}
	})
	run(`CREATE MATERIALIZED VIEW big AS SELECT t.id, t.v, u.name FROM t JOIN u ON t.k = u.id`)
	if reports == 0 || marked != reports {
		t.Fatalf("the big build's reports with the heap marked: %d of %d, want all", marked, reports)
	}
	if fl := heapFlags(t); slices.Contains(fl, "hg") {
		t.Fatalf("heap's flags after the big build: %v, want no hg", fl)
	}
	marked, reports = 0, 0
	run(`CREATE MATERIALIZED VIEW small AS SELECT s.id, u.name FROM s JOIN u ON s.k = u.id`)
	if reports == 0 || marked != 0 {
		t.Fatalf("the small build's reports with the heap marked: %d of %d, want none", marked, reports)
	}
	e.SetProgress(nil)
	for view, query := range map[string]string{
		"big":   `SELECT t.id, t.v, u.name FROM t JOIN u ON t.k = u.id`,
		"small": `SELECT s.id, u.name FROM s JOIN u ON s.k = u.id`,
	} {
		got, want := run(`SELECT * FROM `+view), run(query)
		slices.Sort(got)
		slices.Sort(want)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Fatalf("%s: %d rows, its query %d", view, len(got), len(want))
		}
	}
}
