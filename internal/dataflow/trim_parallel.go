package dataflow

import (
	"runtime"
	"sync"
)

// PendingLoader is implemented by operators that keep a cold start's rows
// aside (LoadDeferrer) and build their state from them at Trim.
// PendingRows reports how many rows their Trim is to load.
type PendingLoader interface {
	Trimmer
	PendingRows() int
}

// PendingRows reports how many rows the arrangement keeps aside, to be
// loaded when it is first read or at Trim.
func (a *Arrangement) PendingRows() int { return a.npending }

// minParallelLoad is the fewest rows an operator's load must have for
// Trim to run it beside another's: below it, starting a goroutine costs
// about what it saves.
const minParallelLoad = 1 << 14

// trimLoads runs the Trim of the operators that load many rows, when
// there are two or more of them and two cores or more, on two goroutines:
// their loads read and build only their own state (the rows, immutable,
// are shared), so that they are independent of each other. It returns
// which nodes it trimmed; nil when it trimmed none.
func (c *Circuit) trimLoads() []bool {
	if runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	type load struct{ node, rows int }
	var loads []load
	for i := range c.nodes {
		if p, ok := c.nodes[i].op.(PendingLoader); ok {
			if n := p.PendingRows(); n >= minParallelLoad {
				loads = append(loads, load{i, n})
			}
		}
	}
	if len(loads) < 2 {
		return nil
	}
	// The biggest loads first, each to the goroutine with the fewer rows.
	for i := 1; i < len(loads); i++ {
		for j := i; j > 0 && loads[j].rows > loads[j-1].rows; j-- {
			loads[j], loads[j-1] = loads[j-1], loads[j]
		}
	}
	var share [2][]int
	var rows [2]int
	for _, l := range loads {
		g := 0
		if rows[1] < rows[0] {
			g = 1
		}
		share[g] = append(share[g], l.node)
		rows[g] += l.rows
	}
	trim := func(nodes []int) {
		for _, i := range nodes {
			c.nodes[i].op.(Trimmer).Trim()
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { trim(share[1]) })
	trim(share[0])
	wg.Wait()
	done := make([]bool, len(c.nodes))
	for _, l := range loads {
		done[l.node] = true
	}
	return done
}
