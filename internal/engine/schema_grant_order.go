package engine

import "slices"

// A schema's grantees are kept in the order of their grants, as
// PostgreSQL keeps nspacl's items: a new grantee goes last, one granted
// more keeps its place, one whose every privilege was revoked leaves it.

// grantees lists the roles holding privileges on sc in the order of their
// grants; those no order recorded (a file of an earlier format) follow
// in name order.
func (sc *schema) grantees() []string {
	out := make([]string, 0, len(sc.grants))
	for _, r := range sc.order {
		if sc.grants[r] != 0 && r != ownItemMark {
			out = append(out, r)
		}
	}
	for _, r := range sortedKeys(sc.grants) {
		if sc.grants[r] != 0 && r != ownItemMark && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}
