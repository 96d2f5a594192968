package op

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/zset"
)

// A view SELECT DISTINCT #1 FROM t WHERE #0 > 10, maintained step by step.
func Example() {
	c := dataflow.NewCircuit()
	t := c.Input("t")
	f := c.Add(NewFilter(gt{col: 0, c: 10}), t)
	m := c.Add(NewMap([]expr.Expr{col{i: 1}}), f)
	d := c.Add(NewDistinct(), m)
	view := NewIntegrate()
	out := c.Add(view, d)
	fmt.Print(c)

	steps := []zset.ZSet{
		{e(ints(20, 1), 1), e(ints(30, 1), 1), e(ints(5, 2), 1)},
		{e(ints(20, 1), -1), e(ints(20, 2), 1)}, // an update
		{e(ints(30, 1), -1), e(ints(7, 1), 1)},  // another
	}
	for i, delta := range steps {
		if err := c.Step(map[string]zset.ZSet{"t": delta}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("step %d: view delta\n%s", i+1, c.Output(out))
	}
	fmt.Printf("view:\n%s", view)
	// Output:
	// 0 Input t
	// 1 Filter #0 > 10 <- 0  state: none  cost: O(change)
	// 2 Map #1 <- 1  state: none  cost: O(change)
	// 3 Distinct <- 2  state: count per distinct row  cost: O(change)
	// 4 Integrate <- 3  state: the view's rows with their multiplicities  cost: O(change)
	// step 1: view delta
	// +1 (1)
	// step 2: view delta
	// +1 (2)
	// step 3: view delta
	// -1 (1)
	// view:
	// +1 (2)
}
