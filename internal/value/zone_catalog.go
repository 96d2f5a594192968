package value

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ZoneRow is a row of pg_timezone_names or pg_timezone_abbrevs: a zone's
// (or an abbreviation's) name, its abbreviation, and its offset east of
// UTC and daylight-saving flag at an instant.
type ZoneRow struct {
	Name, Abbrev string
	East         int64
	DST          bool
}

// ZoneNames lists the zones of the system's tz database as
// pg_timezone_names does at the instant us: every zone file under the
// zone directory (its posix/ copies too), without the leap-second ones
// of right/ and the files that are no zones (zone.tab, tzdata.zi).
func ZoneNames(us int64) []ZoneRow {
	dir := zoneDir()
	at := time.UnixMicro(us - unixEpochMicros)
	var out []ZoneRow
	var walk func(path, name string, depth int)
	walk = func(path, name string, depth int) {
		entries, err := os.ReadDir(path)
		if err != nil || depth > 8 {
			return
		}
		for _, e := range entries {
			p, n := filepath.Join(path, e.Name()), e.Name()
			if name != "" {
				n = name + "/" + n
			}
			st, err := os.Stat(p) // a link to a directory is walked, as PostgreSQL walks it
			switch {
			case err != nil || n == "right":
			case st.IsDir():
				walk(p, n, depth+1)
			case isZoneFile(p):
				loc, ok := loadZone(n)
				if !ok {
					continue
				}
				t := at.In(loc)
				abbrev, east := t.Zone()
				out = append(out, ZoneRow{Name: n, Abbrev: abbrev, East: int64(east), DST: t.IsDST()})
			}
		}
	}
	walk(dir, "", 0)
	return out
}

// isZoneFile reports whether the file at path holds a compiled zone
// (TZif).
func isZoneFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	n, _ := f.Read(magic[:])
	return n == 4 && string(magic[:]) == "TZif"
}

// ZoneAbbrevs lists the abbreviations of PostgreSQL's Default set as
// pg_timezone_abbrevs does at the instant us: a fixed one's offset, a
// zone's the one it had under that abbreviation nearest us.
func ZoneAbbrevs(us int64) []ZoneRow {
	out := make([]ZoneRow, 0, len(zoneAbbrevTable))
	days := floorDiv(us, usecsPerDay)
	var tm dtFields
	tm.year, tm.mon, tm.mday = civilFromDays(days)
	tod := us - days*usecsPerDay
	tm.hour, tm.min, tm.sec = tod/3600e6, tod/60e6%60, tod/1e6%60
	for name, a := range zoneAbbrevTable {
		r := ZoneRow{Name: strings.ToUpper(name), East: a.east, DST: a.dst}
		if a.zone != "" {
			loc, ok := loadZone(a.zone)
			if !ok {
				continue
			}
			r.East = -abbrevWestAt(&tm, r.Name, loc)
			r.DST = abbrevIsDST(loc, r.Name, r.East, us)
		}
		out = append(out, r)
	}
	return out
}

// abbrevIsDST reports whether loc used abbrev at offset east as
// daylight-saving time; when it never used it, whether loc keeps
// daylight-saving time at the instant us, whose offset abbrevWestAt then
// gives.
func abbrevIsDST(loc *time.Location, abbrev string, east int64, us int64) bool {
	t := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	for ; t.Year() < 2040; t = t.AddDate(0, 1, 0) {
		lt := t.In(loc)
		if n, off := lt.Zone(); n == abbrev && int64(off) == east {
			return lt.IsDST()
		}
	}
	return time.UnixMicro(us - unixEpochMicros).In(loc).IsDST()
}
