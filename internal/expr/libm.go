package expr

// #cgo LDFLAGS: -lm
// #include <math.h>
import "C"

// The C library's elementary functions of double precision, which
// PostgreSQL's float8 functions call (float.c). Go's math package rounds
// many results differently in the last place (tan(1) is
// 1.557407724654902, the C library's 1.5574077246549023), and float8
// text shows every bit, so the functions that PostgreSQL takes from the
// C library are taken from it here too. They keep no state.

func cSin(x float64) float64      { return float64(C.sin(C.double(x))) }
func cCos(x float64) float64      { return float64(C.cos(C.double(x))) }
func cTan(x float64) float64      { return float64(C.tan(C.double(x))) }
func cAsin(x float64) float64     { return float64(C.asin(C.double(x))) }
func cAcos(x float64) float64     { return float64(C.acos(C.double(x))) }
func cAtan(x float64) float64     { return float64(C.atan(C.double(x))) }
func cAtan2(y, x float64) float64 { return float64(C.atan2(C.double(y), C.double(x))) }
func cExp(x float64) float64      { return float64(C.exp(C.double(x))) }
func cLog(x float64) float64      { return float64(C.log(C.double(x))) }
func cLog10(x float64) float64    { return float64(C.log10(C.double(x))) }
func cPow(x, y float64) float64   { return float64(C.pow(C.double(x), C.double(y))) }
func cSinh(x float64) float64     { return float64(C.sinh(C.double(x))) }
func cCosh(x float64) float64     { return float64(C.cosh(C.double(x))) }
func cTanh(x float64) float64     { return float64(C.tanh(C.double(x))) }
func cAsinh(x float64) float64    { return float64(C.asinh(C.double(x))) }
func cAcosh(x float64) float64    { return float64(C.acosh(C.double(x))) }
func cAtanh(x float64) float64    { return float64(C.atanh(C.double(x))) }
