package xpath

import (
	"math"
	"strconv"
	"strings"
)

// parseNumber reads the number at the start of s as libxml2 reads XPath
// numbers: digit by digit in floating point (so not always the nearest
// double), at most 20 significant fraction digits, an optional exponent.
// It returns the number and the bytes it used.
func parseNumber(s string) (float64, int, bool) {
	i, ok := 0, false
	ret := 0.0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		ret = ret*10 + float64(s[i]-'0')
		ok = true
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !ok && (i >= len(s) || s[i] < '0' || s[i] > '9') {
			return 0, 0, false
		}
		ok = true
		frac := 0
		for i < len(s) && s[i] == '0' {
			frac++
			i++
		}
		fraction, max := 0.0, frac+20
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && frac < max {
			fraction = fraction*10 + float64(s[i]-'0')
			frac++
			i++
		}
		ret += fraction / math.Pow(10, float64(frac))
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if !ok {
		return 0, 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			neg = s[i] == '-'
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if exp < 1000000 {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if neg {
			exp = -exp
		}
		ret *= math.Pow(10, float64(exp))
	}
	return ret, i, true
}

// stringToNumber is XPath's number(string): optional white space, an
// optional minus, a number, optional white space; NaN otherwise.
func stringToNumber(s string) float64 {
	s = strings.Trim(s, " \t\n\r")
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	n, used, ok := parseNumber(s)
	if !ok || used != len(s) {
		return math.NaN()
	}
	if neg {
		return -n
	}
	return n
}

// NumberString is XPath's string(number) as libxml2 writes it: an
// integer as such, 15 significant digits otherwise, in exponent form
// beyond 1e9 or below 1e-5, trailing fraction zeros left out.
func NumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	case f > math.MinInt32 && f < math.MaxInt32 && f == math.Trunc(f):
		return strconv.Itoa(int(f))
	}
	abs := math.Abs(f)
	var s string
	if abs > 1e9 || abs < 1e-5 {
		s = strconv.FormatFloat(f, 'e', 14, 64)
		mant, exp, _ := strings.Cut(s, "e")
		return trimFraction(mant) + "e" + exp
	}
	place := int(math.Log10(abs))
	frac := 15 - place
	if place > 0 {
		frac--
	}
	return trimFraction(strconv.FormatFloat(f, 'f', frac, 64))
}

func trimFraction(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
