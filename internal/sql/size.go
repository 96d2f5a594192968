package sql

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// sizeUnits are PostgreSQL's memory units, as in SET work_mem = '64MB'.
var sizeUnits = []struct {
	name  string
	bytes int64
}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}, {"B", 1}}

// ParseBytes reads a memory size: a whole number followed by a unit (B,
// kB, MB, GB or TB, case-insensitive, spaces allowed between), or a bare
// number of bytes. It fails with 22023 (invalid_parameter_value).
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range sizeUnits {
		if len(t) > len(u.name) && strings.EqualFold(t[len(t)-len(u.name):], u.name) {
			num := strings.TrimSpace(t[:len(t)-len(u.name)])
			if num != "" && num[len(num)-1] >= '0' && num[len(num)-1] <= '9' {
				t, mult = num, u.bytes
				break
			}
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, pgerr.New(pgerr.InvalidParameter, "invalid memory size %q", s).
			WithHint("write a whole number with a unit: B, kB, MB, GB or TB (e.g. '64MB')")
	}
	return n * mult, nil
}

// FormatBytes prints a memory size in the largest unit that keeps it
// whole, as PostgreSQL prints memory settings: "64MB", "1536kB", "10B".
func FormatBytes(n int64) string {
	for _, u := range sizeUnits {
		if n != 0 && n%u.bytes == 0 && u.bytes > 1 {
			return strconv.FormatInt(n/u.bytes, 10) + u.name
		}
	}
	if n >= 10<<20 { // a figure, not a setting: round
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + "MB"
	}
	if n >= 10<<10 {
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + "kB"
	}
	return strconv.FormatInt(n, 10) + "B"
}
