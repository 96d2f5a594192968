package expr

import (
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The trigonometric functions of degrees as PostgreSQL computes them
// (float.c): the argument is reduced to the first quadrant, where sin and
// cos are taken of at most 60 degrees and scaled by their values at 30
// and 60 degrees, so that the multiples of 30 degrees give exact results
// and the others PostgreSQL's.

// radiansPerDegree is PostgreSQL's RADIANS_PER_DEGREE.
const radiansPerDegree = 0.0174532925199432957692

// The constants are products of float64s computed at run time, as
// PostgreSQL computes them, not exact products rounded once.
var (
	rpd, deg30, deg60 = float64(radiansPerDegree), 30.0, 60.0
	sin30             = cSin(deg30 * rpd)
	oneMinusCos60     = 1 - cCos(deg60*rpd)
	asin05            = cAsin(0.5)
	acos05            = cAcos(0.5)
	tan45             = sindQ1(45) / cosdQ1(45)
	cot45             = cosdQ1(45) / sindQ1(45)
)

func sind0to30(x float64) float64 { return cSin(x*rpd) / sin30 / 2 }

func cosd0to60(x float64) float64 {
	return 1 - (1-cCos(x*rpd))/oneMinusCos60/2
}

func sindQ1(x float64) float64 {
	if x <= 30 {
		return sind0to30(x)
	}
	return cosd0to60(90 - x)
}

func cosdQ1(x float64) float64 {
	if x <= 60 {
		return cosd0to60(x)
	}
	return sind0to30(90 - x)
}

func asindQ1(x float64) float64 {
	if x <= 0.5 {
		return cAsin(x) / asin05 * 30
	}
	return 90 - cAcos(x)/acos05*60
}

func acosdQ1(x float64) float64 {
	if x <= 0.5 {
		return 90 - cAsin(x)/asin05*30
	}
	return cAcos(x) / acos05 * 60
}

// degreeArg checks an argument of sind, cosd, tand and cotd: an infinity
// is 22003, as in PostgreSQL.
func degreeArg(x float64) error {
	if math.IsInf(x, 0) {
		return pgerr.New(pgerr.NumericOutOfRange, "input is out of range")
	}
	return nil
}

func pgSind(x float64) (float64, error) {
	if err := degreeArg(x); err != nil || math.IsNaN(x) {
		return x, err
	}
	x, sign := math.Mod(x, 360), 1.0
	if x < 0 {
		x, sign = -x, -sign
	}
	if x > 180 {
		x, sign = 360-x, -sign
	}
	if x > 90 {
		x = 180 - x
	}
	return sign * sindQ1(x), nil
}

func pgCosd(x float64) (float64, error) {
	if err := degreeArg(x); err != nil || math.IsNaN(x) {
		return x, err
	}
	x, sign := math.Abs(math.Mod(x, 360)), 1.0
	if x > 180 {
		x = 360 - x
	}
	if x > 90 {
		x, sign = 180-x, -sign
	}
	return sign * cosdQ1(x), nil
}

// quadrant1 reduces x for tand and cotd, returning its sign.
func quadrant1(x float64) (float64, float64) {
	x, sign := math.Mod(x, 360), 1.0
	if x < 0 {
		x, sign = -x, -sign
	}
	if x > 180 {
		x, sign = 360-x, -sign
	}
	if x > 90 {
		x, sign = 180-x, -sign
	}
	return x, sign
}

func pgTand(x float64) (float64, error) {
	if err := degreeArg(x); err != nil || math.IsNaN(x) {
		return x, err
	}
	x, sign := quadrant1(x)
	r := sign * (sindQ1(x) / cosdQ1(x) / tan45)
	if r == 0 {
		r = 0 // no minus zero
	}
	return r, nil
}

func pgCotd(x float64) (float64, error) {
	if err := degreeArg(x); err != nil || math.IsNaN(x) {
		return x, err
	}
	x, sign := quadrant1(x)
	r := sign * (cosdQ1(x) / sindQ1(x) / cot45)
	if r == 0 {
		r = 0
	}
	return r, nil
}

func pgAsind(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x < -1 || x > 1 {
		return 0, pgerr.New(pgerr.NumericOutOfRange, "input is out of range")
	}
	if x >= 0 {
		return asindQ1(x), nil
	}
	return -asindQ1(-x), nil
}

func pgAcosd(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x < -1 || x > 1 {
		return 0, pgerr.New(pgerr.NumericOutOfRange, "input is out of range")
	}
	if x >= 0 {
		return acosdQ1(x), nil
	}
	return 90 + asindQ1(-x), nil
}
