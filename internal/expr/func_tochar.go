package expr

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// to_char(number, format) formats a number with PostgreSQL's numeric
// template patterns: 9 (a digit, blank when a leading zero), 0 (a digit,
// zero printed), . and D (the decimal point), , and G (the group
// separator, printed once a digit is), S (the sign, anchored to the
// number), MI, PL, SG (minus, plus, either at their place), PR (a negative
// number in angle brackets), FM (no padding blanks, no trailing zeros), and
// text in double quotes or any other character, copied. The number is
// rounded, half away from zero, to the format's fraction digits; one with
// more integer digits than the format's prints # in every digit. The
// locale is C's: L, the currency symbol, prints a blank. TH and th add
// the ordinal suffix of the integer part (not to a negative number, one
// with a decimal point or one too wide); V multiplies the number by 10 to
// the power of the 9s after it; RN and rn are romanToChar's. EEEE is
// sciToChar's.
func init() {
	for _, k := range []value.Kind{value.Int4, value.Int8, value.Numeric, value.Float4, value.Float8} {
		strict("to_char", kinds(k, value.Text), value.TextType, func(a []value.Value) (value.Value, error) {
			s, sci, err := sciToChar(a[0], rawText(a[1]))
			if !sci {
				s, err = numToChar(a[0], rawText(a[1]))
			}
			if err != nil {
				return value.Null, err
			}
			return value.NewText(value.Text, s), nil
		})
	}
}

type numTok struct {
	kind byte // '9', '0', '.', ',', 'S', 'M' (MI), 'P' (PL), 'G' (SG), 'R' (PR), 'L' (literal),
	// 'N' (RN), 'T' (TH), 'V', 'C' (L, the currency symbol)
	lit string
}

// parseNumFormat splits a numeric template into its tokens.
func parseNumFormat(f string) (toks []numTok, fm bool, err error) {
	up := strings.ToUpper(f)
	for i := 0; i < len(f); {
		rest := up[i:]
		switch {
		case strings.HasPrefix(rest, "FM"):
			fm = true
			i += 2
		case rest[0] == '9' || rest[0] == '0':
			toks = append(toks, numTok{kind: rest[0]})
			i++
		case rest[0] == '.' || rest[0] == 'D':
			toks = append(toks, numTok{kind: '.'})
			i++
		case rest[0] == ',' || rest[0] == 'G':
			toks = append(toks, numTok{kind: ','})
			i++
		case strings.HasPrefix(rest, "SG"):
			toks = append(toks, numTok{kind: 'G'})
			i += 2
		case strings.HasPrefix(rest, "SP"):
			i += 2
		case rest[0] == 'S':
			toks = append(toks, numTok{kind: 'S'})
			i++
		case strings.HasPrefix(rest, "MI"):
			toks = append(toks, numTok{kind: 'M'})
			i += 2
		case strings.HasPrefix(rest, "PL"):
			toks = append(toks, numTok{kind: 'P'})
			i += 2
		case strings.HasPrefix(rest, "PR"):
			toks = append(toks, numTok{kind: 'R'})
			i += 2
		case strings.HasPrefix(f[i:], "RN"), strings.HasPrefix(f[i:], "rn"):
			toks = append(toks, numTok{kind: 'N', lit: f[i : i+2]})
			i += 2
		case strings.HasPrefix(f[i:], "TH"), strings.HasPrefix(f[i:], "th"):
			toks = append(toks, numTok{kind: 'T', lit: f[i : i+2]})
			i += 2
		case rest[0] == 'V':
			toks = append(toks, numTok{kind: 'V'})
			i++
		case rest[0] == 'L':
			toks = append(toks, numTok{kind: 'C'})
			i++
		case rest[0] == 'B' || rest[0] == 'C':
			// Patterns PostgreSQL reads and prints nothing for.
			i++
		case strings.HasPrefix(rest, "EEEE"):
			// to_char's EEEE is sciToChar's: only to_number comes here.
			return nil, false, pgerr.New(pgerr.FeatureNotSupported, "\"EEEE\" not supported for input")
		case rest[0] == '"':
			j := strings.IndexByte(f[i+1:], '"')
			if j < 0 {
				j = len(f) - i - 1
			}
			toks = append(toks, numTok{kind: 'L', lit: f[i+1 : i+1+j]})
			i += j + 2
		case rest[0] == '\\' && i+1 < len(f) && f[i+1] == '"':
			toks = append(toks, numTok{kind: 'L', lit: `"`})
			i += 2
		default:
			toks = append(toks, numTok{kind: 'L', lit: f[i : i+1]})
			i++
		}
	}
	return toks, fm, checkSignPatterns(toks)
}

// checkSignPatterns refuses the patterns that PostgreSQL's template
// reader refuses together, in its order and words: S twice or with
// another sign pattern, PR with S, PL, MI or SG, a digit after PR, two
// decimal points, V with one.
func checkSignPatterns(toks []numTok) error {
	lsign, plus, minus, bracket, dec, multi := false, false, false, false, false, false
	syntax := func(msg string) error { return pgerr.New(pgerr.SyntaxError, "%s", msg) }
	for _, t := range toks {
		switch t.kind {
		case '.':
			if dec {
				return syntax("multiple decimal points")
			}
			if multi {
				return syntax(`cannot use "V" and decimal point together`)
			}
			dec = true
		case 'V':
			if dec {
				return syntax(`cannot use "V" and decimal point together`)
			}
			multi = true
		case '9', '0':
			if bracket {
				return syntax(`"` + string(t.kind) + `" must be ahead of "PR"`)
			}
		case 'S':
			if lsign {
				return syntax(`cannot use "S" twice`)
			}
			if plus || minus || bracket {
				return syntax(`cannot use "S" and "PL"/"MI"/"SG"/"PR" together`)
			}
			lsign = true
		case 'M', 'P', 'G':
			if lsign {
				return syntax(`cannot use "S" and "` + map[byte]string{'M': "MI", 'P': "PL", 'G': "SG"}[t.kind] + `" together`)
			}
			plus = plus || t.kind != 'M'
			minus = minus || t.kind != 'P'
		case 'R':
			if lsign || plus || minus {
				return syntax(`cannot use "PR" and "S"/"PL"/"MI"/"SG" together`)
			}
			bracket = true
		}
	}
	return nil
}

// numToChar formats v with the template f.
func numToChar(v value.Value, f string) (string, error) {
	toks, fm, err := parseNumFormat(f)
	if err != nil {
		return "", err
	}
	for _, t := range toks {
		if t.kind == 'N' {
			return romanToChar(v, toks, fm)
		}
	}
	if toks, v, err = applyV(toks, v); err != nil {
		return "", err
	}
	intDigits, fracDigits, zeroStart, dec := 0, 0, -1, false
	lastZeroFrac := -1 // the last fraction position written 0
	signTok := false   // S, MI, SG or PR decide the sign's place
	for _, t := range toks {
		switch t.kind {
		case '9', '0':
			if dec {
				if t.kind == '0' {
					lastZeroFrac = fracDigits
				}
				fracDigits++
			} else {
				if t.kind == '0' && zeroStart < 0 {
					zeroStart = intDigits
				}
				intDigits++
			}
		case '.':
			if dec {
				return "", pgerr.New(pgerr.SyntaxError, "multiple decimal points")
			}
			dec = true
		case 'S', 'M', 'G', 'R':
			signTok = true
		}
	}
	if zeroStart < 0 {
		zeroStart = intDigits
	}
	// A float prints at most the digits its type holds (floatPost): the
	// number then ends before the format's last fraction digits, and
	// PostgreSQL's output ends there too, with whatever follows them.
	post := fracDigits
	if k := v.Kind(); k.IsFloat() && !math.IsNaN(v.Float()) && !math.IsInf(v.Float(), 0) {
		post = floatPost(v, fracDigits)
	}
	digits, neg, special := numDigits(v, post)
	intPart, fracPart := digits, ""
	if i := strings.IndexByte(digits, '.'); i >= 0 {
		intPart, fracPart = digits[:i], digits[i+1:]
	}
	if strings.Trim(intPart+fracPart, "0") == "" && !v.Kind().IsFloat() {
		neg = false // rounded to zero; a float keeps the sign printf gives it
	}
	// An integer part of zero is a digit: with no 9 before the point
	// there is no room for it (PostgreSQL drops it only in the room of
	// a 9).
	zeroNoRoom := !special && intPart == "0" && intDigits == 0
	if intPart == "0" && fracDigits > 0 {
		intPart = "" // 0.5 prints .5
	}
	// NaN and the infinities are their words, PostgreSQL's numeric_out,
	// in the digit positions: too long for them, the format's #s; else
	// the word, and nothing of the rest of the number.
	overflow := len(intPart) > intDigits || zeroNoRoom
	word := special && !overflow
	// A float's fraction is cut to the digits the type holds past the
	// word's (FLT_DIG 6, DBL_DIG 15), as float4_to_char and float8_to_char
	// cut it: Infinity as a real has none.
	maxFrac := post
	if special && v.Kind().IsFloat() {
		dig := 15
		if v.Kind() == value.Float4 {
			dig = 6
		}
		maxFrac = max(min(fracDigits, dig-len(intPart)), 0)
	}
	if fm && intPart == "" && strings.Trim(fracPart, "0") == "" && zeroStart >= intDigits && intDigits > 0 {
		intPart = "0" // in fill mode a zero prints one digit
	}
	if fm && !overflow {
		// Trailing zeros at 9 positions are dropped.
		end := len(fracPart)
		for end > lastZeroFrac+1 && end > 0 && fracPart[end-1] == '0' {
			end--
		}
		fracPart = fracPart[:end]
	}
	// PR's closing bracket and a trailing S follow the number's last
	// digit position (the point's, when it has no fraction digit, where
	// the output has already ended), whatever the format puts between.
	// S is the trailing sign after the point, or after every integer
	// digit; before one of them it leads the number.
	hasS, hasPR, trailingS, seenDec := false, false, false, false
	for _, t := range toks {
		switch t.kind {
		case '9', '0':
			if hasS && !seenDec {
				trailingS = false
			}
		case '.':
			seenDec = true
		case 'S':
			hasS, trailingS = true, true
		case 'R':
			hasPR = true
		}
	}
	lastNode := intDigits + post
	if dec {
		lastNode++
	}
	var sb strings.Builder
	anchor := -1 // where the number's first character went
	mark := func() {
		if anchor < 0 {
			anchor = sb.Len()
		}
	}
	pad := func() {
		if !fm {
			sb.WriteByte(' ')
		}
	}
	closing := func() {
		switch {
		case hasPR && neg:
			sb.WriteByte('>')
		case hasPR && !fm:
			sb.WriteByte(' ')
		case trailingS && neg:
			sb.WriteByte('-')
		case trailingS:
			sb.WriteByte('+')
		}
	}
	pos, fpos, nodes, numIn := 0, 0, 0, false
tokens:
	for _, t := range toks {
		switch t.kind {
		case '9', '0':
			nodes++
			numIn = false
			if fpos > 0 || pos >= intDigits {
				// a fraction digit
				i := fpos
				fpos++
				switch {
				case word, overflow && i >= maxFrac && special:
				case i >= post && fm && t.kind == '9' && lastZeroFrac < post:
					// Past the number in fill mode: nothing.
				case i >= post:
					// Past the digits a float holds: the output ends.
					break tokens
				case overflow:
					sb.WriteByte('#')
					numIn = true
				case i < len(fracPart):
					mark()
					sb.WriteByte(fracPart[i])
					numIn = true
				case !fm:
					sb.WriteByte('0')
					numIn = true
				}
			} else {
				start := intDigits - len(intPart)
				switch {
				case overflow:
					mark()
					sb.WriteByte('#')
					numIn = true
				case pos >= start:
					mark()
					sb.WriteByte(intPart[pos-start])
					numIn = true
				case pos >= zeroStart:
					mark()
					sb.WriteByte('0')
					numIn = true
				default:
					pad()
				}
				pos++
			}
			if nodes == lastNode {
				closing()
			}
		case '.':
			nodes++
			numIn = false
			// No fraction digit: the number has no point, and the
			// output ends where the format has one (PostgreSQL's
			// to_char prints 100 for '999."x"').
			if post == 0 && !overflow && !word {
				break tokens
			}
			if word {
				pos = intDigits
				if nodes == lastNode {
					closing()
				}
				continue
			}
			mark()
			sb.WriteByte('.')
			fpos = 0
			pos = intDigits
			if nodes == lastNode {
				closing()
			}
		case ',':
			if numIn {
				sb.WriteByte(',')
			} else {
				pad()
			}
		case 'M':
			switch {
			case neg:
				sb.WriteByte('-')
			default:
				pad()
			}
		case 'P':
			if neg {
				pad()
			} else {
				sb.WriteByte('+')
			}
		case 'G':
			if neg {
				sb.WriteByte('-')
			} else {
				sb.WriteByte('+')
			}
		case 'L':
			sb.WriteString(t.lit)
		case 'C':
			sb.WriteByte(' ')
		case 'T':
			if !digitPositions(toks) && !neg {
				// PostgreSQL's number without a digit position is
				// ".", which has no ordinal suffix.
				return "", pgerr.New(pgerr.InvalidTextRep, "\".\" is not a number")
			}
			if !neg && !overflow && !dec && intPart != "" {
				suf := numOrdinal(intPart)
				if t.lit == "TH" {
					suf = strings.ToUpper(suf)
				}
				sb.WriteString(suf)
			}
		}
	}
	out := sb.String()
	if anchor < 0 {
		// No digit position nor decimal point: the number, and the
		// sign placed before it, print nothing.
		return out, nil
	}
	// The sign anchored before the number: a leading S, PR's <, or the
	// default blank or minus when no sign pattern places it.
	var sign string
	switch {
	case hasS && !trailingS:
		sign = "+"
		if neg {
			sign = "-"
		}
	case hasPR:
		sign = " "
		if neg {
			sign = "<"
		} else if fm {
			sign = ""
		}
	case !signTok:
		sign = " "
		if neg {
			sign = "-"
		} else if fm {
			sign = ""
		}
	}
	return out[:anchor] + sign + out[anchor:], nil
}

// numDigits returns |v| rounded to frac fraction digits, half away from
// zero, as a decimal string; special is set for NaN and the infinities.
func numDigits(v value.Value, frac int) (digits string, neg, special bool) {
	switch k := v.Kind(); {
	case k.IsInteger():
		n := v.Int()
		neg = n < 0
		u := uint64(n)
		if neg {
			u = -u
		}
		digits = strconv.FormatUint(u, 10)
		if frac > 0 {
			digits += "." + strings.Repeat("0", frac)
		}
		return digits, neg, false
	case k.IsFloat():
		f := v.Float()
		if math.IsNaN(f) {
			return "NaN", false, true
		}
		if math.IsInf(f, 0) {
			return "Infinity", f < 0, true
		}
		neg = f < 0 || f == 0 && math.Signbit(f)
		return strconv.FormatFloat(math.Abs(f), 'f', frac, 64), neg, false
	}
	d := v.Decimal()
	if d.Form == apd.Infinite {
		return "Infinity", d.Negative, true
	}
	if d.Form != apd.Finite {
		return "NaN", false, true
	}
	var r apd.Decimal
	ctx := value.DecimalContext
	ctx.Rounding = apd.RoundHalfUp
	ctx.Precision = uint32(max(int64(d.NumDigits())+int64(d.Exponent)+int64(frac), 0)) + 1
	r.Abs(d)
	if _, err := ctx.Quantize(&r, &r, int32(-frac)); err != nil {
		return "", d.Negative, true
	}
	return r.Text('f'), d.Negative, false
}

// floatPost is the fraction digits float4_to_char and float8_to_char
// print of frac asked for: no more than the type holds (FLT_DIG 6, DBL_DIG
// 15) past the integer digits of v rounded to an integer, none once
// those fill it.
func floatPost(v value.Value, frac int) int {
	dig := 15
	if v.Kind() == value.Float4 {
		dig = 6
	}
	pre := len(strconv.FormatFloat(math.Abs(v.Float()), 'f', 0, 64))
	switch {
	case pre >= dig:
		return 0
	case pre+frac > dig:
		return dig - pre
	}
	return frac
}

// digitPositions reports whether a numeric template has a digit position
// (9 or 0) or a decimal point.
func digitPositions(toks []numTok) bool {
	for _, t := range toks {
		if t.kind == '9' || t.kind == '0' || t.kind == '.' {
			return true
		}
	}
	return false
}
