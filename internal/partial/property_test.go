package partial_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/partial"
	"github.com/deltaview/deltaview/internal/value"
)

// txPerCheck transactions run per rapid check; with rapid's default 100
// checks that is 10,000 transactions.
const txPerCheck = 100

// build returns the view's circuit: C, filtered on its own columns, joined
// with A and then R, filtered on the dimensions' columns, projected.
func (v viewDef) build() (*partial.Circuit, error) {
	c := partial.NewCircuit()
	at := c.Source(tC.S)
	add := func(op partial.Operator, err error, inputs ...int) error {
		if err == nil {
			at = c.Add(op, inputs...)
		}
		return err
	}
	var err error
	if v.root != nil {
		op, e := partial.NewFilter(c.NodeSchema(at), v.root)
		err = add(op, e, at)
	}
	if err == nil && v.depth >= 2 {
		op, e := partial.NewJoin("C⋈A", c.NodeSchema(at), tA.S, []int{3}, []int{0, 1, 2, 3}, v.top != nil && v.depth == 2)
		err = add(op, e, at, c.Source(tA.S))
	}
	if err == nil && v.depth >= 3 {
		op, e := partial.NewJoin("C⋈A⋈R", c.NodeSchema(at), tR.S, []int{7}, []int{0, 1, 2}, v.top != nil)
		err = add(op, e, at, c.Source(tR.S))
	}
	if err == nil && v.top != nil {
		op, e := partial.NewFilter(c.NodeSchema(at), v.top)
		err = add(op, e, at)
	}
	if err == nil {
		op, e := partial.NewProject(c.NodeSchema(at), "V", v.names, v.exprs)
		err = add(op, e, at)
	}
	return c, err
}

func holds(t *rapid.T, e interface {
	Eval(value.Row) (value.Value, error)
}, r value.Row) bool {
	x, err := e.Eval(r)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return !x.IsNull() && x.Bool()
}

// eval computes the view from scratch over w: the oracle.
func (v viewDef) eval(t *rapid.T, s *delta.Schema, w world) *delta.Target {
	var b delta.Batch
	for _, k := range w.sortedKeys("C") {
		row := w["C"][k]
		if v.root != nil && !holds(t, v.root, row) {
			continue
		}
		if v.depth >= 2 {
			a := w["A"][row[3].Int()]
			row = append(append(value.Row(nil), row...), a...)
		}
		if v.depth >= 3 {
			row = append(row, w["R"][row[7].Int()]...)
		}
		if v.top != nil && !holds(t, v.top, row) {
			continue
		}
		out := make(value.Row, len(v.exprs))
		for i, e := range v.exprs {
			x, err := e.Eval(row)
			if err != nil {
				t.Fatalf("oracle: %v", err)
			}
			out[i] = x
		}
		b = append(b, delta.Insert{Row: out})
	}
	tg := delta.NewTarget(s)
	if err := tg.Apply(b); err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return tg
}

// txInfo says what a drawn transaction holds.
type txInfo struct {
	forgotten  bool // some change was stated with less than it knew
	dimChanged bool // A or R changed
}

// drawTx draws one transaction's true changes, applies them to w, and
// states each as change capture might (forget).
func drawTx(t *rapid.T, w world, v viewDef, label string) (map[string]delta.Batch, txInfo) {
	tx := map[string]delta.Batch{}
	var info txInfo
	add := func(o op, l string) {
		c, f := forget(t, o, o.table != "C" || v.root == nil, l)
		tx[o.table] = append(tx[o.table], c)
		info.forgotten = info.forgotten || f
		info.dimChanged = info.dimChanged || o.table != "C"
	}
	n := rapid.IntRange(1, 6).Draw(t, label+"n")
	for i := 0; i < n; i++ {
		l := fmt.Sprintf("%sop%d.", label, i)
		if rapid.IntRange(0, 5).Draw(t, l+"spurious") == 0 {
			// A change that states what is already true: a safe deletion
			// of an absent key, an upsert or partial update of a row as it is.
			name := rapid.SampledFrom(order).Draw(t, l+"table")
			k := rapid.Int64Range(0, tables[name].keys-1).Draw(t, l+"key")
			r, ok := w[name][k]
			switch {
			case !ok:
				tx[name] = append(tx[name], delta.SafePartialDelete{KeyVals: keyRow(k)})
			case rapid.Bool().Draw(t, l+"ups"):
				tx[name] = append(tx[name], delta.Upsert{Row: r})
			default:
				c, _ := forget(t, op{table: name, key: k, old: r, new: r}, name != "C" || v.root == nil, l+"restate.")
				tx[name] = append(tx[name], c)
			}
			info.forgotten = true
			info.dimChanged = info.dimChanged || name != "C"
			continue
		}
		o, ok := w.drawOp(t, l)
		if !ok {
			continue
		}
		add(o, l)
		if rapid.IntRange(0, 4).Draw(t, l+"undo") == 0 {
			u := o.inverse()
			if u.new == nil {
				delete(w[u.table], u.key)
			} else {
				w[u.table][u.key] = u.new
			}
			add(u, l+"undo.")
		}
	}
	return tx, info
}

func formatTx(tx map[string]delta.Batch) string {
	var b strings.Builder
	for _, n := range order {
		for _, c := range tx[n] {
			fmt.Fprintf(&b, "  %s: %s\n", n, delta.Format(c))
		}
	}
	return b.String()
}

// TestViewMaintenance is the view-maintenance property
// (docs/partial-deltas.md): for any old state, any
// changes, and any truthful forgetting, applying the propagated view delta
// to Q(old) with MERGE semantics gives Q(new). It also checks minimality:
// without forgetting, no upsert or safe deletion comes out, and without a
// dimension change only complete kinds do.
func TestViewMaintenance(t *testing.T) {
	start := time.Now()
	var total int
	var kinds [delta.NumKinds]int
	rapid.Check(t, func(t *rapid.T) {
		v := drawView(t)
		c, err := v.build()
		if err != nil {
			t.Fatalf("build %s: %v", v, err)
		}
		w := drawWorld(t)
		target := delta.NewTarget(c.Schema())
		load := map[string]delta.Batch{}
		for _, n := range order {
			for _, k := range w.sortedKeys(n) {
				load[n] = append(load[n], delta.Insert{Row: w[n][k]})
			}
		}
		step := func(tx map[string]delta.Batch, want *delta.Target, what string) delta.Batch {
			out, err := c.Step(tx)
			if err != nil {
				t.Fatalf("view %s\n%s: %v\nchanges:\n%s", v, what, err, formatTx(tx))
			}
			c.Commit()
			if err := target.Apply(out); err != nil {
				t.Fatalf("view %s\n%s: applying the view delta: %v\nchanges:\n%s\nview delta:\n%s", v, what, err, formatTx(tx), out)
			}
			if got := target.String(); got != want.String() {
				t.Fatalf("view %s\n%s: the view is\n%s\nwant\n%s\nchanges:\n%s\nview delta:\n%s", v, what, got, want, formatTx(tx), out)
			}
			return out
		}
		step(load, v.eval(t, c.Schema(), w), "load")
		for i := 0; i < txPerCheck; i++ {
			tx, info := drawTx(t, w, v, fmt.Sprintf("tx%d.", i))
			out := step(tx, v.eval(t, c.Schema(), w), fmt.Sprintf("transaction %d", i))
			n := out.Count()
			for k, x := range n {
				kinds[k] += x
			}
			total++
			if info.forgotten {
				continue
			}
			if n[delta.KindUpsert]+n[delta.KindSafePartialDelete] > 0 {
				t.Fatalf("view %s\ntransaction %d: complete changes gave type-partial output:\n%s\nchanges:\n%s", v, i, out, formatTx(tx))
			}
			if !info.dimChanged && n[delta.KindPartialUpdate]+n[delta.KindTruePartialDelete] > 0 {
				t.Fatalf("view %s\ntransaction %d: complete changes of C gave partial output:\n%s\nchanges:\n%s", v, i, out, formatTx(tx))
			}
		}
	})
	t.Logf("%d transactions in %v; view changes by kind:", total, time.Since(start).Round(time.Millisecond))
	for k, n := range kinds {
		t.Logf("  %-20s %d", delta.Kind(k), n)
	}
}

// TestCancellation: a change undone in the same transaction produces no
// output, whatever the view. Both changes are complete, except that
// changes of A and R may omit their old rows (the join completes them).
func TestCancellation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawView(t)
		c, err := v.build()
		if err != nil {
			t.Fatal(err)
		}
		w := drawWorld(t)
		load := map[string]delta.Batch{}
		for _, n := range order {
			for _, k := range w.sortedKeys(n) {
				load[n] = append(load[n], delta.Insert{Row: w[n][k]})
			}
		}
		if _, err := c.Step(load); err != nil {
			t.Fatal(err)
		}
		c.Commit()
		state := func(o op, l string) delta.Change {
			if o.table != "C" && o.old != nil && o.new != nil && rapid.Bool().Draw(t, l+"partial") {
				return delta.PartialUpdate{Row: o.new}
			}
			ch, _ := forget(t, o, false, l+"complete.")
			switch ch.(type) {
			case delta.Insert, delta.Update, delta.Delete:
				return ch
			}
			switch {
			case o.old == nil:
				return delta.Insert{Row: o.new}
			case o.new == nil:
				return delta.Delete{Row: o.old}
			}
			return delta.Update{Old: o.old, New: o.new}
		}
		o, ok := w.clone().drawOp(t, "op.")
		if !ok {
			return
		}
		tx := map[string]delta.Batch{o.table: {state(o, "do."), state(o.inverse(), "undo.")}}
		out, err := c.Step(tx)
		if err != nil {
			t.Fatalf("view %s: %v\nchanges:\n%s", v, err, formatTx(tx))
		}
		if len(out) != 0 {
			t.Fatalf("view %s: a change and its inverse gave\n%s\nchanges:\n%s", v, out, formatTx(tx))
		}
		c.Abort()
	})
}
