package pgenc

// The lengths of a multi-byte encoding's characters, as PostgreSQL's
// verifiers (wchar.c) and pg_encoding_mblen measure them: a character's
// length decides where the next starts and how many bytes an error
// prints, so it must be PostgreSQL's, invalid input included.

// charLen is an encoding's verifier: the length of the valid character
// that s starts with (s non-empty, its first byte ≥ 0x80), or -1.
type charLen func(s []byte) int

// leadLen is an encoding's pg_encoding_mblen: the length the first byte
// of s announces, whether or not the rest follows.
type leadLen func(s []byte) int

const (
	ss2 = 0x8e // EUC's single shift 2
	ss3 = 0x8f // EUC's single shift 3
)

func eucRange(c byte) bool { return c >= 0xa1 && c <= 0xfe }

// allEUC reports whether s holds n bytes from 0xa1 to 0xfe.
func allEUC(s []byte, n int) bool {
	if len(s) < n {
		return false
	}
	for _, c := range s[:n] {
		if !eucRange(c) {
			return false
		}
	}
	return true
}

// eucLead is pg_euc_mblen.
func eucLead(s []byte) int {
	switch {
	case s[0] == ss2:
		return 2
	case s[0] == ss3:
		return 3
	case s[0] >= 0x80:
		return 2
	}
	return 1
}

// eucCNLead is EUC_CN's mblen: three bytes from a single shift.
func eucCNLead(s []byte) int {
	if s[0] == ss2 || s[0] == ss3 {
		return 3
	}
	return twoLead(s)
}

// twoLead is the mblen of BIG5, GBK, UHC and EUC_CN/EUC_KR: two bytes
// from a high lead.
func twoLead(s []byte) int {
	if s[0] >= 0x80 {
		return 2
	}
	return 1
}

func eucJPLen(s []byte) int {
	switch s[0] {
	case ss2:
		if len(s) < 2 || s[1] < 0xa1 || s[1] > 0xdf {
			return -1
		}
		return 2
	case ss3:
		if !allEUC(s[1:], 2) {
			return -1
		}
		return 3
	}
	if !allEUC(s, 2) {
		return -1
	}
	return 2
}

// eucKRLen is the verifier of EUC_KR and EUC_CN: two bytes from 0xa1 to 0xfe.
func eucKRLen(s []byte) int {
	if !allEUC(s, 2) {
		return -1
	}
	return 2
}

func eucTWLead(s []byte) int {
	switch s[0] {
	case ss2:
		return 4
	case ss3:
		return 3
	}
	return twoLead(s)
}

func eucTWLen(s []byte) int {
	switch s[0] {
	case ss2:
		if len(s) < 4 || s[1] < 0xa1 || s[1] > 0xa7 || !allEUC(s[2:], 2) {
			return -1
		}
		return 4
	case ss3:
		return -1
	}
	// The lead byte is not checked: any high byte starts a character.
	if len(s) < 2 || !eucRange(s[1]) {
		return -1
	}
	return 2
}

// johabLen checks the bytes after the lead are from 0xa1 to 0xfe, as
// PostgreSQL does (rejecting much of JOHAB's own range).
func johabLen(s []byte) int {
	n := eucLead(s)
	if len(s) < n || !allEUC(s[1:], n-1) {
		return -1
	}
	return n
}

func sjisLead(s []byte) int {
	if s[0] >= 0xa1 && s[0] <= 0xdf || s[0] < 0x80 {
		return 1
	}
	return 2
}

func sjisLen(s []byte) int {
	n := sjisLead(s)
	if n == 1 {
		return 1
	}
	if len(s) < 2 {
		return -1
	}
	head := s[0] >= 0x81 && s[0] <= 0x9f || s[0] >= 0xe0 && s[0] <= 0xfc
	tail := s[1] >= 0x40 && s[1] <= 0x7e || s[1] >= 0x80 && s[1] <= 0xfc
	if !head || !tail {
		return -1
	}
	return 2
}

// nonNULLen is the verifier of BIG5, GBK and UHC: two bytes, the second
// not NUL, and not 0x8d 0x20, which PostgreSQL keeps invalid in every
// encoding but UTF8.
func nonNULLen(s []byte) int {
	if len(s) < 2 || s[1] == 0 || s[0] == 0x8d && s[1] == 0x20 {
		return -1
	}
	return 2
}

func gb18030Lead(s []byte) int {
	switch {
	case s[0] < 0x80:
		return 1
	case len(s) > 1 && s[1] >= 0x30 && s[1] <= 0x39:
		return 4
	}
	return 2
}

func gb18030Len(s []byte) int {
	if len(s) >= 4 && s[1] >= 0x30 && s[1] <= 0x39 {
		if s[0] >= 0x81 && s[0] <= 0xfe && s[2] >= 0x81 && s[2] <= 0xfe && s[3] >= 0x30 && s[3] <= 0x39 {
			return 4
		}
		return -1
	}
	if len(s) >= 2 && s[0] >= 0x81 && s[0] <= 0xfe && (s[1] >= 0x40 && s[1] <= 0x7e || s[1] >= 0x80 && s[1] <= 0xfe) {
		return 2
	}
	return -1
}
