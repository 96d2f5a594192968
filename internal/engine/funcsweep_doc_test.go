package engine_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestSweepTableInDocs keeps the function sweep's table and counts in
// docs/sql.md equal to testdata/funcsweep/signatures, which
// TestFunctionSweep keeps true: a signature fixed there must not stay
// listed as a gap in the documentation.
func TestSweepTableInDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/sql.md")
	if err != nil {
		t.Fatal(err)
	}
	list := readSweep(t)
	table := sweepTable(list)
	if !strings.Contains(string(doc), "\n"+table) {
		t.Errorf("docs/sql.md's table of the function sweep differs from %s; it should read:\n%s", sweepFile, table)
	}
	same, failing := 0, 0
	for _, st := range list {
		switch st {
		case "same":
			same++
		case "error":
			failing++
		}
	}
	counts := fmt.Sprintf("Of %d signatures, %d give\nPostgreSQL's results and errors, %d fail in both systems", len(list), same, failing)
	if !strings.Contains(string(doc), counts) {
		t.Errorf("docs/sql.md should count the sweep's signatures as %q", counts)
	}
}
