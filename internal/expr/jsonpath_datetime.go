package expr

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// jpISOTemplates are the templates .datetime() without a template tries,
// in PostgreSQL's order, in standard mode: the first that reads the whole
// text gives the datetime.
var jpISOTemplates = []string{
	"yyyy-mm-dd",
	"HH24:MI:SS.USTZH:TZM", "HH24:MI:SS.USTZH", "HH24:MI:SSTZH:TZM", "HH24:MI:SSTZH",
	"HH24:MI:SS.US", "HH24:MI:SS",
	"yyyy-mm-dd HH24:MI:SS.USTZH:TZM", "yyyy-mm-dd HH24:MI:SS.USTZH", "yyyy-mm-dd HH24:MI:SSTZH:TZM", "yyyy-mm-dd HH24:MI:SSTZH",
	"yyyy-mm-dd HH24:MI:SS.US", "yyyy-mm-dd HH24:MI:SS",
	`yyyy-mm-dd"T"HH24:MI:SS.USTZH:TZM`, `yyyy-mm-dd"T"HH24:MI:SS.USTZH`, `yyyy-mm-dd"T"HH24:MI:SSTZH:TZM`, `yyyy-mm-dd"T"HH24:MI:SSTZH`,
	`yyyy-mm-dd"T"HH24:MI:SS.US`, `yyyy-mm-dd"T"HH24:MI:SS`,
}

func (c *jpCtx) datetime(p *value.JSONPathItem, jb jpItem, found *[]jpItem) (jpStatus, error) {
	if jb.kind() != value.JSONString {
		return c.errOr(codeJSONDatetimeFunction, "jsonpath item method .%s() can only be applied to a string", value.JSONPathOpName(p.Op))
	}
	if p.Arg != nil {
		v, east, bad, err := value.ParseDateTimeStd(jb.n.Str, p.Arg.Str)
		if err != nil {
			// A template that is not valid is an error even when silent.
			if c.throw || !bad {
				return jpError, err
			}
			return jpError, nil
		}
		return c.next(p, jpItem{dt: v, tz: east}, found)
	}
	for _, template := range jpISOTemplates {
		if v, east, _, err := value.ParseDateTimeStd(jb.n.Str, template); err == nil {
			return c.next(p, jpItem{dt: v, tz: east}, found)
		}
	}
	return c.errOrHint(codeJSONDatetimeFunction, "Use a datetime template argument to specify the input data format.",
		"datetime format is not recognized: \"%s\"", jb.n.Str)
}

func (c *jpCtx) errOrHint(code, hint, format string, args ...any) (jpStatus, error) {
	if c.throw {
		return jpError, pgerr.New(code, format, args...).WithHint("%s", hint)
	}
	return jpError, nil
}

// jpDatetimeText is a datetime item's text in a jsonb result: ISO 8601
// with a T between date and time and the zone as ±HH:MM.
func jpDatetimeText(it jpItem) string {
	v := it.dt
	switch v.Kind() {
	case value.Date, value.Time:
		return v.String()
	case value.Timestamp:
		return strings.Replace(v.String(), " ", "T", 1)
	case value.TimeTZ:
		us, zone := v.TimeTZ()
		return value.NewTime(us).String() + jpZoneText(-int(zone))
	}
	local := value.NewTimestamp(value.Timestamp, v.Int()+int64(it.tz)*1000000)
	text, bc := strings.CutSuffix(local.String(), " BC")
	text = strings.Replace(text, " ", "T", 1) + jpZoneText(it.tz)
	if bc {
		text += " BC" // after the zone, as PostgreSQL writes it
	}
	return text
}

func jpZoneText(tz int) string {
	sign := "+"
	if tz < 0 {
		sign, tz = "-", -tz
	}
	s := sign + twoDigits(tz/3600) + ":" + twoDigits(tz/60%60)
	if tz%60 != 0 {
		s += ":" + twoDigits(tz%60)
	}
	return s
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// compareDatetimes compares two datetimes as PostgreSQL's jsonpath does:
// a date with a timestamp, a time with a timetz and a timestamp with a
// timestamptz after a conversion (those involving a zone only in the _tz
// functions, in the session's zone, UTC); ok is false for kinds that do
// not compare (a date and a time).
func (c *jpCtx) compareDatetimes(a, b jpItem) (int, bool, error) {
	x, y := a.dt, b.dt
	ka, kb := x.Kind(), y.Kind()
	if ka == kb {
		return value.Compare(x, y), true, nil
	}
	name := func(k value.Kind) string {
		return map[value.Kind]string{value.Date: "date", value.Time: "time", value.TimeTZ: "timetz",
			value.Timestamp: "timestamp", value.TimestampTZ: "timestamptz"}[k]
	}
	isTime := func(k value.Kind) bool { return k == value.Time || k == value.TimeTZ }
	if isTime(ka) != isTime(kb) {
		return 0, false, nil
	}
	// The pair converts toward the kind with a zone, or date toward
	// timestamp.
	from, to := ka, kb
	if ka == value.TimeTZ || ka == value.TimestampTZ || kb == value.Date {
		from, to = kb, ka
	}
	if to == value.TimeTZ || to == value.TimestampTZ {
		if !c.useTz {
			return 0, false, pgerr.New(pgerr.FeatureNotSupported, "cannot convert value from %s to %s without time zone usage", name(from), name(to)).
				WithHint("Use *_tz() function for time zone support.")
		}
	}
	conv := func(v value.Value) (value.Value, error) {
		if v.Kind() == from {
			return value.Cast(v, value.Type{Kind: to, Mod: -1}, true)
		}
		return v, nil
	}
	cx, err := conv(x)
	if err != nil {
		return 0, false, err
	}
	cy, err := conv(y)
	if err != nil {
		return 0, false, err
	}
	return value.Compare(cx, cy), true, nil
}

// jsonbOffset is the byte offset of container n within the binary jsonb
// encoding of root, counted from the root container's start, as
// keyvalue's ids count it; ok is false when n is not within root.
func jsonbOffset(root, n *value.JSONNode) (int64, bool) {
	if root == n {
		return 0, true
	}
	pos := int64(4) // the varlena header precedes the root container
	off, ok := jsonbContainerFind(root, n, &pos)
	return off - 4, ok
}

func padInt(pos *int64) { *pos = (*pos + 3) &^ 3 }

// jsonbContainerFind lays out container c at *pos (advancing it past
// c's encoding) and returns where target's container starts within it.
func jsonbContainerFind(c, target *value.JSONNode, pos *int64) (int64, bool) {
	padInt(pos)
	if c == target {
		// Keep laying out is unnecessary: the caller stops here.
		return *pos, true
	}
	*pos += 4 // header
	if c.Type == value.JSONObject {
		*pos += 8 * int64(len(c.Keys))
		for _, k := range c.Keys {
			*pos += int64(len(k))
		}
	} else {
		*pos += 4 * int64(len(c.Elems))
	}
	for i := range c.Elems {
		e := &c.Elems[i]
		switch e.Type {
		case value.JSONString:
			*pos += int64(len(e.Str))
		case value.JSONNumber:
			padInt(pos)
			*pos += numericVarSize(e.Num)
		case value.JSONArray, value.JSONObject:
			if off, ok := jsonbContainerFind(e, target, pos); ok {
				return off, true
			}
		}
	}
	return 0, false
}

// numericVarSize is the size of a numeric as PostgreSQL stores it in a
// jsonb: a 4-byte length, a 2-byte header (4 bytes when the weight or
// display scale do not fit the short form) and 2 bytes per base-10000
// digit.
func numericVarSize(v value.Value) int64 {
	d := v.Decimal()
	if d == nil || d.IsZero() {
		return 6
	}
	var digits string
	coef := d.Coeff.String()
	exp := int64(d.Exponent)
	// Strip trailing zeros into the exponent.
	trimmed := strings.TrimRight(coef, "0")
	exp += int64(len(coef) - len(trimmed))
	digits = trimmed
	lead := exp + int64(len(digits)) - 1 // power of ten of the leading digit
	floorDiv := func(a, b int64) int64 {
		q := a / b
		if a%b != 0 && (a < 0) != (b < 0) {
			q--
		}
		return q
	}
	weight := floorDiv(lead, 4)
	lastGroup := floorDiv(exp, 4)
	ndigits := weight - lastGroup + 1
	dscale := max(0, -int64(d.Exponent))
	hdr := int64(6)
	if dscale > 63 || weight < -64 || weight > 63 {
		hdr = 8
	}
	return hdr + 2*ndigits
}
