// Package delta holds the change kinds of partial change data capture
// (docs/partial-deltas.md): the explicit model, in which a change to a keyed relation
// is one of seven kinds, and the implicit model, an insert set ΔR and a
// delete set ∇R whose tuples carry a flag comp, pval or ptype, with the
// conversions between them (Figures 5.4 and 5.6 of the seed). It also
// holds Target, a keyed relation that applies explicit changes with MERGE
// semantics.
//
// The seven kinds, for a relation R with primary key pk:
//
//	Insert{new}               the key did not exist; now it holds new
//	Update{old, new}          the key held old; now it holds new
//	PartialUpdate{new}        the key existed (old row unknown); now new,
//	                          except the Unknown columns, which kept their value
//	Upsert{new}               the key may or may not have existed; now new
//	Delete{old}               the key held old; now it does not exist
//	TruePartialDelete{key}    the key existed; now it does not
//	SafePartialDelete{key}    the key may or may not have existed; now it does not
//
// Every kind is a statement about the old and the new state of one key
// (Fact): whether the key existed before (Absent, Present, Maybe), what
// was known of the old row, whether it exists after, and what is known
// of the new row. An unknown column of a new row is one whose value did
// not change (a MySQL minimal row image omits it, Debezium sends its
// unavailable-value placeholder); an unknown column of an old row is one
// whose old value was not sent.
//
// Example: the seed's running example (Figure 5.5). Addresses receive a
// partial update of key 1, an insertion of key 4 and a true partial
// deletion of key 3:
//
//	b := delta.Batch{
//		delta.PartialUpdate{Row: row(1, "Essen", "DE")},
//		delta.Insert{Row: row(4, "Dresden", "DE")},
//		delta.TruePartialDelete{Key: row(3)},
//	}
//	d, err := delta.ToImplicit(a, b)
//	// d.String():
//	// ΔA
//	// AID  ACity    ACountry
//	// 1    Essen    DE
//	// 4    Dresden  DE
//	// ∇A
//	// AID  ACity  ACountry  flag
//	// 1    -      -         pval
//	// 3    -      -         pval
//	back, err := delta.ToExplicit(d) // b again, sorted by key
package delta
