package engine

import "slices"

// A schema's grantees are kept in the order of their grants, as
// PostgreSQL keeps nspacl's items: a new grantee goes last, one granted
// more keeps its place, one whose every privilege was revoked leaves it.

// noteGrant records role's place after a GRANT or REVOKE on sc whose
// grants already hold the result (copy on write: the order is shared
// with catalog images).
func (sc *schema) noteGrant(role string) {
	at := slices.Index(sc.order, role)
	switch {
	case sc.grants[role] == 0 && at >= 0:
		sc.order = slices.Delete(slices.Clone(sc.order), at, at+1)
	case sc.grants[role] != 0 && at < 0:
		sc.order = append(slices.Clip(sc.order), role)
	}
}

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
