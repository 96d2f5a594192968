package engine

// clearFew zeroes s, which holds the few entries of a small transaction
// most of the time: entry by entry while they are few, cheaper than
// clear's call into the runtime, which a one-change commit would pay for
// each of its scratch slices.
func clearFew[T any](s []T) {
	if len(s) > 8 {
		clear(s)
		return
	}
	var zero T
	for i := 0; i < len(s); i++ { // not a range loop: that one becomes clear
		s[i] = zero
	}
}
