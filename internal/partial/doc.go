// Package partial maintains select-project-join views over key/foreign-key
// paths ("dimension views") directly from partial change data, with the
// generalised delta rules of docs/partial-deltas.md. Its operators take
// and produce implicit deltas (delta.Implicit: ΔR and ∇R with flags); they
// are not the Z-set operators of internal/dataflow/op. A Circuit turns one
// transaction's explicit changes per base relation into the view's
// explicit delta, which a keyed target applies with MERGE semantics
// (delta.Target).
//
// Example: customers joined to their addresses, as in the seed's running
// example.
//
//	c := partial.NewCircuit()
//	cust := c.Source(customers) // CID, CName, CDiscnt, AID
//	j, _ := partial.NewJoin("C⋈A", customers, addresses, // AID, ACity, ACountry
//		[]int{3}, []int{1, 2}, false) // customers.AID → addresses.AID
//	at := c.Add(j, cust, c.Source(addresses))
//	p, _ := partial.NewProject(j.Schema(), "V", []string{"CID", "CName", "ACity"},
//		[]expr.Expr{col(0), col(1), col(4)})
//	c.Add(p, at)
//	out, err := c.Step(map[string]delta.Batch{
//		"A": {delta.PartialUpdate{Row: row(1, "Essen", "DE")}},
//	})
//	// out: one partial-update (cid, -, Essen) per customer at address 1
//	c.Commit()
package partial
