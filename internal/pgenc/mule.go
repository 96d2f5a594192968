package pgenc

// MULE_INTERNAL is the Mule editor's internal code, which PostgreSQL
// keeps as a go-between for its older conversions: it has no conversion
// to or from UTF8, but strings in it are checked, measured and converted
// directly to and from the encodings it came from (see direct.go).

// muleLead is pg_mule_mblen: a leading byte announces an official
// single-byte (2), official multi-byte or private single-byte (3) or
// private multi-byte (4) character; any other byte is one character.
func muleLead(s []byte) int {
	switch c := s[0]; {
	case c >= 0x81 && c <= 0x8d:
		return 2
	case c >= 0x90 && c <= 0x9b:
		return 3
	case c == 0x9c || c == 0x9d:
		return 4
	}
	return 1
}

// muleLen is pg_mule_verifychar: the bytes after a leading byte must all
// have their high bit set.
func muleLen(s []byte) int {
	n := muleLead(s)
	if len(s) < n {
		return -1
	}
	for _, c := range s[1:n] {
		if c < 0x80 {
			return -1
		}
	}
	return n
}

// mule is MULE_INTERNAL's verifier and lengths, without tables.
var mule = &multiByte{name: "MULE_INTERNAL", clen: muleLen, lead: muleLead}

// Checker returns what checks and measures strings in enc (Verify, Len):
// Get's conversion, or for MULE_INTERNAL, which has none, its verifier.
func Checker(enc string) (*Encoding, error) {
	if enc == "MULE_INTERNAL" {
		return &Encoding{Name: enc, mb: mule}, nil
	}
	return Get(enc)
}
