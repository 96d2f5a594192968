package delta_test

import (
	"errors"
	"fmt"
	"github.com/deltaview/deltaview/internal/delta/deltatest"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestDataDriven runs testdata/*.txt:
//
//	schema name=R key=a[,b]      columns as "name:type …"; prints nothing
//	explicit rel=R               a net batch, one change a line (Format);
//	                             prints ToImplicit, then ToExplicit of it
//	implicit rel=R               "+ (row)" into ΔR, "- (row) flag" into ∇R;
//	                             prints ToExplicit
//	coalesce rel=R               a batch in order; prints Coalesce
//	apply rel=R                  a batch applied to R's Target with MERGE
//	                             semantics; prints the target's rows
//
// Oracles that fail the test rather than the expected output: explicit
// checks that ToExplicit(ToImplicit(b)) is b sorted by key, implicit that
// ToImplicit(ToExplicit(d)) is d when d is in the seed's form.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		rels := map[string]*deltatest.Relation{}
		targets := map[string]*delta.Target{}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd == "schema" {
				var name, key string
				d.ScanArgs(t, "name", &name)
				d.ScanArgs(t, "key", &key)
				r, err := deltatest.ParseSchema(name, d.Input, strings.Split(key, ","))
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				rels[name] = r
				targets[name] = delta.NewTarget(r.S)
				return ""
			}
			var name string
			d.ScanArgs(t, "rel", &name)
			r := rels[name]
			if r == nil {
				t.Fatalf("%s: no relation %s", d.Pos, name)
			}
			out, err := run(t, d, r, targets[name])
			if err != nil {
				var pe *pgerr.Error
				if errors.As(err, &pe) {
					return fmt.Sprintf("error %s: %s\n", pe.Code, pe.Message)
				}
				return "error: " + err.Error() + "\n"
			}
			return out
		})
	})
}

func run(t *testing.T, d *datadriven.TestData, r *deltatest.Relation, target *delta.Target) (string, error) {
	switch d.Cmd {
	case "explicit":
		b, err := r.ParseBatch(d.Input)
		if err != nil {
			return "", err
		}
		imp, err := delta.ToImplicit(r.S, b)
		if err != nil {
			return "", err
		}
		back, err := delta.ToExplicit(imp)
		if err != nil {
			t.Fatalf("%s: ToExplicit of ToImplicit: %v", d.Pos, err)
		}
		sorted := append(delta.Batch(nil), b...)
		delta.SortByKey(r.S, sorted)
		if back.String() != sorted.String() {
			t.Fatalf("%s: round trip changed the batch:\n%s\nbecame\n%s", d.Pos, sorted, back)
		}
		return imp.String() + "explicit again:\n" + back.String(), nil
	case "implicit":
		imp, err := r.ParseImplicit(d.Input)
		if err != nil {
			return "", err
		}
		b, err := delta.ToExplicit(imp)
		if err != nil {
			return "", err
		}
		if seedForm(imp) {
			again, err := delta.ToImplicit(r.S, b)
			if err != nil || again.String() != imp.String() {
				t.Fatalf("%s: round trip changed the implicit delta (%v):\n%s\nbecame\n%s", d.Pos, err, imp, again)
			}
		}
		return b.String(), nil
	case "coalesce":
		b, err := r.ParseBatch(d.Input)
		if err != nil {
			return "", err
		}
		net, err := delta.Coalesce(r.S, b)
		if err != nil {
			return "", err
		}
		if len(net) == 0 {
			return "(nothing)\n", nil
		}
		return net.String(), nil
	case "apply":
		b, err := r.ParseBatch(d.Input)
		if err != nil {
			return "", err
		}
		if err := target.Apply(b); err != nil {
			return "", err
		}
		return target.String(), nil
	}
	t.Fatalf("%s: unknown command %s", d.Pos, d.Cmd)
	return "", nil
}

// seedForm reports whether every pval tuple of d has all non-key columns
// unknown, as Figure 5.4 makes them.
func seedForm(d *delta.Implicit) bool {
	for _, t := range d.Del {
		if t.Flag == delta.PVal && !t.Unknown.Equal(d.Schema.NonKey()) {
			return false
		}
	}
	return true
}
