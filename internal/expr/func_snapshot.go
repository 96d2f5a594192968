package expr

import (
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Snapshot is a transaction snapshot as pg_current_snapshot() prints it,
// xmin:xmax:xip,…: the transactions below Xmin are over, those from Xmax
// on not started, and of those between, the Xip still running.
type Snapshot struct {
	Xmin, Xmax int64
	Xip        []int64
}

// String prints s as PostgreSQL does.
func (s Snapshot) String() string {
	var b strings.Builder
	b.WriteString(strconv.FormatInt(s.Xmin, 10) + ":" + strconv.FormatInt(s.Xmax, 10) + ":")
	for i, x := range s.Xip {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(x, 10))
	}
	return b.String()
}

// Visible reports whether transaction x's changes are visible to s.
func (s Snapshot) Visible(x int64) bool {
	switch {
	case x < s.Xmin:
		return true
	case x >= s.Xmax:
		return false
	}
	_, running := slices.BinarySearch(s.Xip, x)
	return !running
}

// ParseSnapshot reads a snapshot as PostgreSQL's pg_snapshot input does:
// xmin ≤ xmax, the running ones ascending between them.
func ParseSnapshot(in string) (Snapshot, error) {
	bad := pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type pg_snapshot: %q", in)
	num := func(f string) (int64, bool) {
		n, err := strconv.ParseUint(strings.TrimLeft(f, " \t\n\r\v\f"), 10, 63)
		return int64(n), err == nil && n > 0
	}
	parts := strings.Split(in, ":")
	if len(parts) != 3 {
		return Snapshot{}, bad
	}
	var s Snapshot
	var ok1, ok2 bool
	s.Xmin, ok1 = num(parts[0])
	s.Xmax, ok2 = num(parts[1])
	if !ok1 || !ok2 || s.Xmin > s.Xmax {
		return Snapshot{}, bad
	}
	if parts[2] != "" {
		for _, f := range strings.Split(parts[2], ",") {
			x, ok := num(f)
			if !ok || x < s.Xmin || x >= s.Xmax || len(s.Xip) > 0 && x < s.Xip[len(s.Xip)-1] {
				return Snapshot{}, bad
			}
			if len(s.Xip) == 0 || x != s.Xip[len(s.Xip)-1] {
				s.Xip = append(s.Xip, x)
			}
		}
	}
	return s, nil
}

// The functions of snapshots given as text: pg_snapshot_xmin,
// pg_snapshot_xmax and pg_visible_in_snapshot, which take and give xid8,
// and their txid_ names, which take and give bigint.
func init() {
	for _, end := range []string{"xmin", "xmax"} {
		xmax := end == "xmax"
		bound := func(a []value.Value) (int64, error) {
			s, err := ParseSnapshot(a[0].String())
			if err != nil {
				return 0, err
			}
			if xmax {
				return s.Xmax, nil
			}
			return s.Xmin, nil
		}
		strict("pg_snapshot_"+end, kinds(value.Text), value.Xid8Type, func(a []value.Value) (value.Value, error) {
			x, err := bound(a)
			return value.NewXid8(uint64(x)), err
		})
		strict("txid_snapshot_"+end, kinds(value.Text), value.Int8Type, func(a []value.Value) (value.Value, error) {
			x, err := bound(a)
			return value.NewInt(value.Int8, x), err
		})
	}
	visible := func(x int64, snap value.Value) (value.Value, error) {
		s, err := ParseSnapshot(snap.String())
		if err != nil {
			return value.Null, err
		}
		return value.NewBool(s.Visible(x)), nil
	}
	strict("pg_visible_in_snapshot", kinds(value.Xid8, value.Text), value.BoolType, func(a []value.Value) (value.Value, error) {
		return visible(int64(a[0].Xid8()), a[1])
	})
	strict("txid_visible_in_snapshot", kinds(value.Int8, value.Text), value.BoolType, func(a []value.Value) (value.Value, error) {
		return visible(a[0].Int(), a[1])
	})
}
