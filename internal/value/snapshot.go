package value

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// pg_snapshot and txid_snapshot, a transaction snapshot
// (pg_current_snapshot(), txid_current_snapshot()): xmin:xmax:xip,… — the
// transactions below xmin are over, those from xmax on not started, and
// of those between, the xip were running. Both read and print alike
// (txid_snapshot is the older name, a type of its own with its own
// functions); a value is held as its text in canonical form (the running
// ids without duplicates). PostgreSQL gives them no comparison, ordering
// nor hash, and casts only to and from the string types; their binary
// form is int4 nxip, int8 xmin, int8 xmax, int8 xip….

// PgSnapshotType and TxidSnapshotType are the snapshot types.
var (
	PgSnapshotType   = Type{PgSnapshot, -1}
	TxidSnapshotType = Type{TxidSnapshot, -1}
)

// Snapshot is a snapshot's parts: Xip ascending, each in [Xmin, Xmax).
type Snapshot struct {
	Xmin, Xmax uint64
	Xip        []uint64
}

// IsSnapshot reports whether k is pg_snapshot or txid_snapshot.
func (k Kind) IsSnapshot() bool { return k == PgSnapshot || k == TxidSnapshot }

// NewSnapshot returns the snapshot s of kind k (PgSnapshot or
// TxidSnapshot).
func NewSnapshot(k Kind, s Snapshot) Value {
	buf := strconv.AppendUint(nil, s.Xmin, 10)
	buf = append(buf, ':')
	buf = strconv.AppendUint(buf, s.Xmax, 10)
	buf = append(buf, ':')
	for i, x := range s.Xip {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendUint(buf, x, 10)
	}
	return NewText(k, string(buf))
}

// SnapshotOf returns a snapshot's parts.
func (v Value) SnapshotOf() Snapshot {
	s, _ := ParseSnapshot(v.Str())
	return s
}

// ParseSnapshot reads a snapshot as PostgreSQL's parse_snapshot does:
// each number as strtou64 reads it (leading blanks and a sign allowed, an
// overflow the largest), xmin and xmax not 0 and xmin ≤ xmax, the running
// ids ascending between them, separated by commas (a trailing one is
// allowed), duplicates dropped. Anything else is 22P02.
func ParseSnapshot(in string) (Snapshot, error) {
	bad := pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type pg_snapshot: %q", in)
	var s Snapshot
	str := in
	var ok bool
	if s.Xmin, str = strtou64(str); !strings.HasPrefix(str, ":") {
		return Snapshot{}, bad
	}
	if s.Xmax, str = strtou64(str[1:]); !strings.HasPrefix(str, ":") {
		return Snapshot{}, bad
	}
	str = str[1:]
	if s.Xmin == 0 || s.Xmax == 0 || s.Xmax < s.Xmin {
		return Snapshot{}, bad
	}
	var last uint64
	for str != "" {
		var x uint64
		x, str = strtou64(str)
		if x < s.Xmin || x >= s.Xmax || x < last {
			return Snapshot{}, bad
		}
		if x != last {
			s.Xip = append(s.Xip, x)
		}
		last = x
		if str, ok = strings.CutPrefix(str, ","); !ok && str != "" {
			return Snapshot{}, bad
		}
	}
	return s, nil
}

// strtou64 reads an unsigned decimal number at the start of s as C's
// strtoull does, returning it and what follows: no digits read as 0 with
// s left whole, a negative number wrapped, an overflow the largest.
func strtou64(s string) (uint64, string) {
	i := 0
	for i < len(s) && strings.IndexByte(" \t\n\v\f\r", s[i]) >= 0 {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var n uint64
	over := false
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := uint64(s[i] - '0')
		if n > (1<<64-1-d)/10 {
			over = true
		}
		n = n*10 + d
		i++
	}
	switch {
	case i == start:
		return 0, s
	case over:
		return 1<<64 - 1, s[i:]
	case neg:
		return -n, s[i:]
	}
	return n, s[i:]
}

func parseSnapshotValue(s string, k Kind) (Value, error) {
	snap, err := ParseSnapshot(s)
	if err != nil {
		return Null, err
	}
	return NewSnapshot(k, snap), nil
}
