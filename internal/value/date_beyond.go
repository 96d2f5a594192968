// Dates past the timestamp range, ordered among timestamps as
// PostgreSQL's cross-type date/timestamp comparisons order them.
package value

// DateBeyondStamps is the stand-in, for a comparison with timestamps of
// kind k, of date d that has no timestamp: past the end of the range a
// value after every finite timestamp, before its start one before every
// finite timestamp, both short of the infinities (date2timestamp's
// overflow in date_cmp_timestamp_internal).
func DateBeyondStamps(d Value, k Kind) Value {
	if d.n > 0 {
		return NewTimestamp(k, endTimestamp)
	}
	return NewTimestamp(k, minTimestamp-1)
}
