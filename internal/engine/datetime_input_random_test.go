package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// dtInputTypes are the types whose input TestDateTimeInputRandom compares.
var dtInputTypes = []string{"date", "timestamp", "timestamptz", "time", "timetz"}

// TestDateTimeInputRandom generates date/time strings in many formats
// (ISO, month and day names, julian days, run-together digits, AM/PM,
// eras, zone names, abbreviations and offsets, labelled fields) and a few
// corrupted ones, reads each as every date/time type here and in
// PostgreSQL, and compares the values, or the SQLSTATE and message of
// the error. -short reads fewer strings.
func TestDateTimeInputRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 17)
	n := 1500
	if testing.Short() {
		n = 300
	}
	_, err := pg.Exec(ctx, `CREATE FUNCTION dv_try(s text, t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE res text;
BEGIN
	EXECUTE format('SELECT %L::%s::text', s, t) INTO res;
	RETURN res;
EXCEPTION WHEN others THEN
	RETURN 'ERROR ' || SQLSTATE || ' ' || SQLERRM;
END $$`)
	if err != nil {
		t.Fatal(err)
	}
	var inputs, types []string
	for range n {
		s := genDateTimeInput(r)
		for _, typ := range dtInputTypes {
			inputs, types = append(inputs, s), append(types, typ)
		}
	}
	rows, err := pg.Query(ctx, `SELECT dv_try(s, t) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(s, t, i) ORDER BY i`, inputs, types)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	accepted, bad := 0, 0
	for i, s := range inputs {
		got := parseForCompare(s, types[i])
		if !strings.HasPrefix(want[i], "ERROR") {
			accepted++
		}
		if types[i] == "timetz" && strings.HasPrefix(got, "ERROR 22009") && !strings.HasPrefix(want[i], "ERROR") && timetzZoneBeyond16h(want[i]) {
			// A timetz holds zones within 16 hours of UTC; PostgreSQL
			// keeps the offset of a POSIX zone name of up to a week.
			continue
		}
		if got != want[i] {
			bad++
			t.Errorf("%s %q: got %s, PostgreSQL %s", types[i], s, got, want[i])
			if bad > 30 {
				t.FailNow()
			}
		}
	}
	t.Logf("%d readings compared, %d accepted by PostgreSQL", len(inputs), accepted)
	if accepted < len(inputs)/4 || accepted > len(inputs)*9/10 {
		t.Errorf("the generator is off balance: %d of %d readings accepted", accepted, len(inputs))
	}
}

// timetzZoneBeyond16h reports whether PostgreSQL's output of a timetz
// has a zone of 16 hours or more.
func timetzZoneBeyond16h(out string) bool {
	i := strings.LastIndexAny(out, "+-")
	if i < 0 {
		return false
	}
	h := 0
	fmt.Sscanf(out[i+1:], "%d", &h)
	return h >= 16
}

// parseForCompare reads s as typ, in the form dv_try answers.
func parseForCompare(s, typ string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("PANIC %v", r)
		}
	}()
	ty, err := value.TypeFromName(typ, nil)
	if err != nil {
		return err.Error()
	}
	v, err := value.Parse(s, ty)
	if err != nil {
		e := pgerr.Wrap(err)
		return "ERROR " + e.Code + " " + e.Message
	}
	return string(value.AppendText(nil, v))
}

var (
	dtMonths = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September",
		"October", "November", "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Mayo", "Ja"}
	dtDays  = []string{"Monday", "Tue", "Tues", "wednesday", "Thu", "Thurs", "Friday", "Sat", "Sunday", "Weds", "Mo"}
	dtZones = []string{"UTC", "Z", "zulu", "GMT", "EST", "EDT", "PST", "PDT", "CEST", "CET", "MSK", "JST", "IST", "AEST", "NZDT",
		"America/New_York", "america/new_york", "Europe/Paris", "Asia/Kolkata", "Australia/Lord_Howe", "Etc/GMT+5",
		"Europe/Moscow", "America/Sao_Paulo", "Pacific/Chatham", "Asia/Tehran", "UTC+3", "EST5EDT", "Mars/Olympus", "XYZ",
		"ART", "YAKT", "LHDT", "dst", "MET DST", "CET DST", "PDT DST"}
	dtWords = []string{"epoch", "infinity", "-infinity", "+infinity", "allballs", "at", "on", "t", "j", "julian", "y", "m", "d",
		"h", "mm", "s", "doy", "ago", "am", "pm", "AD", "BC", "T"}
)

// genDateTimeInput returns a random date/time string.
func genDateTimeInput(r *rand.Rand) string {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	num := func(lo, hi int) int { return lo + r.IntN(hi-lo+1) }
	pad := func(n, w int) string { return fmt.Sprintf("%0*d", w, n) }
	caseOf := func(s string) string {
		switch r.IntN(4) {
		case 0:
			return strings.ToUpper(s)
		case 1:
			return strings.ToLower(s)
		}
		return s
	}
	year := func() string {
		switch r.IntN(10) {
		case 0:
			return fmt.Sprint(num(0, 99))
		case 1:
			return pad(num(0, 99), 2)
		case 2:
			return fmt.Sprint(num(100, 99999))
		case 3:
			return fmt.Sprint(num(1, 300000))
		}
		return fmt.Sprint(num(1900, 2100))
	}
	month := func() string {
		if r.IntN(3) == 0 {
			return fmt.Sprint(num(0, 13))
		}
		return pad(num(1, 12), 2)
	}
	day := func() string {
		if r.IntN(3) == 0 {
			return fmt.Sprint(num(0, 32))
		}
		return pad(num(1, 31), 2)
	}
	mname := func() string { return caseOf(pick(dtMonths)) }
	date := func() string {
		sep := pick([]string{"-", "/", ".", " "})
		switch r.IntN(14) {
		case 0:
			return year() + sep + month() + sep + day()
		case 1:
			return month() + sep + day() + sep + year()
		case 2:
			return day() + sep + mname() + sep + year()
		case 3:
			return mname() + " " + day() + pick([]string{", ", " ", ","}) + year()
		case 4:
			return caseOf(pick(dtDays)) + pick([]string{", ", " "}) + mname() + " " + day() + " " + year()
		case 5:
			return pad(num(1, 9999), 4) + pad(num(0, 13), 2) + pad(num(0, 32), 2)
		case 6:
			return pad(num(0, 99), 2) + pad(num(1, 12), 2) + pad(num(1, 31), 2)
		case 7:
			return pick([]string{"J", "j", "JD ", "julian "}) + fmt.Sprint(num(0, 5373484))
		case 8:
			return year() + "." + pad(num(0, 367), 3)
		case 9:
			return "y" + year() + "m" + month() + "d" + day()
		case 10:
			return year() + sep + mname() + sep + day()
		case 11:
			return mname() + sep + day() + sep + year()
		case 12:
			return day() + " " + mname()
		}
		return year() + "-" + month() + "-" + day()
	}
	clock := func() string {
		h, m, s := num(0, 25), num(0, 60), num(0, 61)
		frac := ""
		if r.IntN(3) == 0 {
			frac = "." + fmt.Sprintf("%07d", r.IntN(10000000))[:num(1, 7)]
		}
		switch r.IntN(9) {
		case 0:
			return fmt.Sprintf("%d:%02d", h, m)
		case 1:
			return fmt.Sprintf("%02d%02d%02d%s", h, m, s, frac)
		case 2:
			return fmt.Sprintf("%02d%02d", h, m)
		case 3:
			return fmt.Sprintf("%d:%02d %s", num(0, 13), m, pick([]string{"am", "PM", "a.m.", "pm"}))
		case 4:
			return fmt.Sprintf("%d:%02d:%02d%s", h%24, m%60, s%60, frac)
		case 5:
			return fmt.Sprintf("%02d:%02d.%d", m, s, r.IntN(1000))
		}
		return fmt.Sprintf("%02d:%02d:%02d%s", h, m, s, frac)
	}
	zone := func() string {
		switch r.IntN(6) {
		case 0:
			return fmt.Sprintf("%s%d", pick([]string{"+", "-"}), num(0, 16))
		case 1:
			return fmt.Sprintf("%s%02d%02d", pick([]string{"+", "-"}), num(0, 16), []int{0, 30, 45, 60}[r.IntN(4)])
		case 2:
			return fmt.Sprintf("%s%02d:%02d", pick([]string{"+", "-"}), num(0, 16), []int{0, 30, 45, 61}[r.IntN(4)])
		case 3:
			return fmt.Sprintf("%s%02d:%02d:%02d", pick([]string{"+", "-"}), num(0, 15), num(0, 59), num(0, 61))
		}
		return pick(dtZones)
	}
	var parts []string
	switch r.IntN(10) {
	case 0:
		parts = append(parts, pick(dtWords))
		if r.IntN(2) == 0 {
			parts = append(parts, clock())
		}
	case 1:
		parts = append(parts, clock())
		if r.IntN(2) == 0 {
			parts = append(parts, zone())
		}
	case 2:
		parts = append(parts, date()+pick([]string{"T", "t", " T "})+clock())
		if r.IntN(2) == 0 {
			parts = append(parts, pick([]string{"Z", "+02", "-0530", "+5"}))
		}
	default:
		parts = append(parts, date())
		if r.IntN(4) != 0 {
			parts = append(parts, clock())
		}
		if r.IntN(2) == 0 {
			parts = append(parts, zone())
		}
		if r.IntN(6) == 0 {
			parts = append(parts, pick([]string{"BC", "AD", "bc"}))
		}
	}
	if r.IntN(8) == 0 {
		i := r.IntN(len(parts) + 1)
		parts = append(parts[:i], append([]string{pick(dtWords)}, parts[i:]...)...)
	}
	s := strings.Join(parts, " ")
	if r.IntN(12) == 0 && s != "" {
		// Corrupt one byte: a deletion or an inserted character.
		i := r.IntN(len(s))
		if r.IntN(2) == 0 {
			s = s[:i] + s[i+1:]
		} else {
			s = s[:i] + string("-:./+ ,x9_"[r.IntN(10)]) + s[i:]
		}
	}
	if r.IntN(20) == 0 {
		s = "  " + s + "\t"
	}
	return s
}
