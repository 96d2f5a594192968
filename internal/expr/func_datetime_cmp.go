package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The functions behind PostgreSQL's comparison operators of date,
// timestamp and timestamptz, callable by name as there: date_cmp,
// timestamp_lt, date_cmp_timestamp, timestamptz_ge_date, … (the btree
// support functions give -1, 0 or 1, the others a boolean). A date is
// compared with a timestamp as the operators compare it: one past the
// timestamp range orders beyond every finite timestamp instead of
// failing, and a timestamptz reads the others in the session's zone.
func init() {
	names := map[value.Kind]string{value.Date: "date", value.Timestamp: "timestamp", value.TimestampTZ: "timestamptz"}
	ops := []struct {
		name  string
		holds func(int) bool
	}{
		{"lt", func(c int) bool { return c < 0 }},
		{"le", func(c int) bool { return c <= 0 }},
		{"eq", func(c int) bool { return c == 0 }},
		{"ne", func(c int) bool { return c != 0 }},
		{"ge", func(c int) bool { return c >= 0 }},
		{"gt", func(c int) bool { return c > 0 }},
	}
	for _, l := range []value.Kind{value.Date, value.Timestamp, value.TimestampTZ} {
		for _, r := range []value.Kind{value.Date, value.Timestamp, value.TimestampTZ} {
			suffix := ""
			if l != r {
				suffix = "_" + names[r]
			}
			params := kinds(l, r)
			strictZone(names[l]+"_cmp"+suffix, params, value.Type{Kind: value.Int4, Mod: -1}, func(a []value.Value, z value.Zone) (value.Value, error) {
				return int4(int64(compareDateTimes(a[0], a[1], z))), nil
			})
			for _, op := range ops {
				holds := op.holds
				strictZone(names[l]+"_"+op.name+suffix, params, value.BoolType, func(a []value.Value, z value.Zone) (value.Value, error) {
					return boolValue(holds(compareDateTimes(a[0], a[1], z))), nil
				})
			}
		}
	}
}

// compareDateTimes orders two values of date, timestamp or timestamptz,
// each converted to the later of the two kinds.
func compareDateTimes(l, r value.Value, z value.Zone) int {
	k := max(l.Kind(), r.Kind()) // Date < Timestamp < TimestampTZ
	return value.Compare(dateTimeAs(l, k, z), dateTimeAs(r, k, z))
}

// dateTimeAs converts v to kind k in zone z; a value k cannot hold
// becomes one beyond every finite value of k on v's side, as PostgreSQL's
// cross-type comparisons treat the overflow.
func dateTimeAs(v value.Value, k value.Kind, z value.Zone) value.Value {
	if v.Kind() == k {
		return v
	}
	out, err := value.CastZone(v, value.Type{Kind: k, Mod: -1}, false, z)
	if err != nil {
		return value.DateBeyondStamps(v, k)
	}
	return out
}
