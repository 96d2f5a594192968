package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMemoryNeverNegative checks that a memory figure that could not be
// measured, or a negative one (as results files written before it was
// marked hold), is rendered as unmeasurable with its reason, never as a
// negative number.
func TestMemoryNeverNegative(t *testing.T) {
	ok := Cell{MemoryBytes: 3 << 20, MemoryMethod: "V8 heap delta (after GC)"}
	marked := Cell{MemoryUnmeasurable: true,
		MemoryMethod: "V8 heap delta (after GC): unmeasurable, the heap shrank by 133 kB across the view's creation (more was freed than the view added)"}
	legacy := Cell{MemoryBytes: -182807736, MemoryMethod: "V8 heap delta (after GC)"}

	if mem, method := memoryColumns(ok); mem != "3.0 MB" || method != ok.MemoryMethod {
		t.Errorf("measured: %q, %q", mem, method)
	}
	if mem, method := memoryColumns(marked); mem != "unmeasurable" || method != marked.MemoryMethod {
		t.Errorf("unmeasurable: %q, %q", mem, method)
	}
	mem, method := memoryColumns(legacy)
	if mem != "unmeasurable" || !strings.HasPrefix(method, "V8 heap delta (after GC): unmeasurable") {
		t.Errorf("negative: %q, %q", mem, method)
	}

	legacy.checkMemory()
	if legacy.MemoryBytes != 0 || !legacy.MemoryUnmeasurable {
		t.Errorf("checkMemory left %d B, unmeasurable %v", legacy.MemoryBytes, legacy.MemoryUnmeasurable)
	}

	r := &Results{Command: "deltaview bench", Sizes: []int{10_000}, Systems: []string{"d2ts"}}
	for _, v := range Views {
		r.Cells = append(r.Cells, Cell{System: "d2ts", View: v.Name, N: 10_000, Status: "ok",
			LatencyMedianUs: 10, LatencySamples: 5, MemoryBytes: -53794664, MemoryMethod: "V8 heap delta (after GC)"})
	}
	md := r.markdown("benchmarks")
	if strings.Contains(md, "-53794664") {
		t.Error("the page shows a negative memory figure")
	}
	if got := strings.Count(md, "| unmeasurable | V8 heap delta (after GC): unmeasurable,"); got != len(Views) {
		t.Errorf("%d rows read unmeasurable, want %d", got, len(Views))
	}
}

func TestPadMatchesFormat(t *testing.T) {
	for _, id := range []int{0, 1, 42, 999999, 1000000, 123456789012} {
		if got, want := Pad(id), fmt.Sprintf("padding-%012d", id); got != want {
			t.Errorf("Pad(%d) = %q, want %q", id, got, want)
		}
	}
}

// TestWriteDocsKeepsHandSections checks that rewriting the page keeps the
// sections below the marker, and that a page without them gets the marker.
func TestWriteDocsKeepsHandSections(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "benchmarks.md")
	r := &Results{Command: "deltaview bench", Sizes: []int{10_000}, Systems: []string{"api"}}
	if err := r.WriteDocs(md, filepath.Join(dir, "benchmarks")); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(md)
	if !strings.HasSuffix(string(first), keptMarker+"\n") {
		t.Fatalf("page does not end with the marker:\n%s", first)
	}
	const hand = "## Batches\n\nfigures by hand\n"
	if err := os.WriteFile(md, append(first, hand...), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Command = "deltaview bench --n 1000000"
	if err := r.WriteDocs(md, filepath.Join(dir, "benchmarks")); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(md)
	if !strings.HasSuffix(string(second), keptMarker+"\n"+hand) || !strings.Contains(string(second), "--n 1000000") {
		t.Fatalf("rewritten page lost its hand sections or was not rewritten:\n%s", second)
	}
}
