package value

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Geometric kinds. Each value points at its coordinates, float64s in
// little-endian bytes, in PostgreSQL's order: a point (x, y); an lseg
// its two ends; a box its upper right corner then its lower left; a line
// A, B, C of Ax + By + C = 0; a circle its centre then its radius; a
// path a byte 1 if closed, 0 if open, then its points; a polygon its
// points. PostgreSQL has no btree order of them: Compare and the key
// encoding treat the bytes as a string, which only identifies equal rows.

// IsGeometric reports whether k is point, lseg, path, box, polygon, line
// or circle.
func (k Kind) IsGeometric() bool { return k >= Point && k <= Circle }

// The geometric types have no modifier.
var (
	PointType   = Type{Point, -1}
	LSegType    = Type{LSeg, -1}
	PathType    = Type{Path, -1}
	BoxType     = Type{Box, -1}
	PolygonType = Type{Polygon, -1}
	LineType    = Type{Line, -1}
	CircleType  = Type{Circle, -1}
)

// GPoint is a point of the plane.
type GPoint struct{ X, Y float64 }

// GLSeg is a line segment between two points.
type GLSeg [2]GPoint

// GBox is a box by its upper right and lower left corners.
type GBox struct{ High, Low GPoint }

// GLine is the line Ax + By + C = 0.
type GLine struct{ A, B, C float64 }

// GCircle is a circle by its centre and radius.
type GCircle struct {
	Center GPoint
	Radius float64
}

// GPath is a path: open, or closed (its last point joins its first).
type GPath struct {
	Closed bool
	Points []GPoint
}

// geoValue returns a value of kind k holding head's bytes then fs.
func geoValue(k Kind, head []byte, fs ...float64) Value {
	b := make([]byte, len(head), len(head)+8*len(fs))
	copy(b, head)
	for _, f := range fs {
		if math.IsNaN(f) {
			f = math.NaN() // one NaN, so that equal values have equal bytes
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	return Value{kind: k, p: unsafe.Pointer(unsafe.SliceData(b)), n: int64(len(b))}
}

// geoFloat returns the i-th float of a geometric value's bytes s.
func geoFloat(s string, i int) float64 {
	var u uint64
	for j := 7; j >= 0; j-- {
		u = u<<8 | uint64(s[8*i+j])
	}
	return math.Float64frombits(u)
}

// geoPoints decodes the points held in s.
func geoPoints(s string) []GPoint {
	ps := make([]GPoint, len(s)/16)
	for i := range ps {
		ps[i] = GPoint{geoFloat(s, 2*i), geoFloat(s, 2*i+1)}
	}
	return ps
}

func pointFloats(ps []GPoint) []float64 {
	fs := make([]float64, 0, 2*len(ps))
	for _, p := range ps {
		fs = append(fs, p.X, p.Y)
	}
	return fs
}

// NewPoint returns a point.
func NewPoint(p GPoint) Value { return geoValue(Point, nil, p.X, p.Y) }

// NewLSeg returns an lseg.
func NewLSeg(l GLSeg) Value { return geoValue(LSeg, nil, l[0].X, l[0].Y, l[1].X, l[1].Y) }

// NewBox returns a box; the caller has ordered its corners.
func NewBox(b GBox) Value { return geoValue(Box, nil, b.High.X, b.High.Y, b.Low.X, b.Low.Y) }

// NewLine returns a line.
func NewLine(l GLine) Value { return geoValue(Line, nil, l.A, l.B, l.C) }

// NewCircle returns a circle.
func NewCircle(c GCircle) Value { return geoValue(Circle, nil, c.Center.X, c.Center.Y, c.Radius) }

// NewPath returns a path.
func NewPath(p GPath) Value {
	head := []byte{0}
	if p.Closed {
		head[0] = 1
	}
	return geoValue(Path, head, pointFloats(p.Points)...)
}

// NewPolygon returns a polygon of the points ps.
func NewPolygon(ps []GPoint) Value { return geoValue(Polygon, nil, pointFloats(ps)...) }

// GeoPoint returns a point's coordinates.
func (v Value) GeoPoint() GPoint {
	s := v.Str()
	return GPoint{geoFloat(s, 0), geoFloat(s, 1)}
}

// GeoLSeg returns an lseg's ends.
func (v Value) GeoLSeg() GLSeg {
	ps := geoPoints(v.Str())
	return GLSeg{ps[0], ps[1]}
}

// GeoBox returns a box's corners.
func (v Value) GeoBox() GBox {
	ps := geoPoints(v.Str())
	return GBox{ps[0], ps[1]}
}

// GeoLine returns a line's coefficients.
func (v Value) GeoLine() GLine {
	s := v.Str()
	return GLine{geoFloat(s, 0), geoFloat(s, 1), geoFloat(s, 2)}
}

// GeoCircle returns a circle's centre and radius.
func (v Value) GeoCircle() GCircle {
	s := v.Str()
	return GCircle{GPoint{geoFloat(s, 0), geoFloat(s, 1)}, geoFloat(s, 2)}
}

// GeoPath returns a path.
func (v Value) GeoPath() GPath {
	s := v.Str()
	return GPath{Closed: s[0] == 1, Points: geoPoints(s[1:])}
}

// GeoPolygon returns a polygon's points.
func (v Value) GeoPolygon() []GPoint { return geoPoints(v.Str()) }

// geoInput scans PostgreSQL's text input of a geometric type k; orig is
// the whole input, which errors quote.
type geoInput struct {
	s    string
	k    Kind
	orig string
}

func (in *geoInput) syntax() error { return errSyntax(in.k, in.orig) }

func (in *geoInput) skipSpaces() {
	for len(in.s) > 0 && isSpace(in.s[0]) {
		in.s = in.s[1:]
	}
}

// peek returns the next byte, 0 at the end.
func (in *geoInput) peek() byte {
	if in.s == "" {
		return 0
	}
	return in.s[0]
}

// eat consumes c if it is next.
func (in *geoInput) eat(c byte) bool {
	if in.peek() != c {
		return false
	}
	in.s = in.s[1:]
	return true
}

// float reads a float8 as float8in_internal does: spaces, a number (or
// NaN, Infinity, inf with a sign), spaces.
func (in *geoInput) float() (float64, error) {
	in.skipSpaces()
	s := in.s
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		for _, w := range []string{"nan", "+nan", "-nan", "infinity", "+infinity", "-infinity", "inf", "+inf", "-inf"} {
			if len(s) >= len(w) && equalFoldASCII(s[:len(w)], w) {
				in.s = s[len(w):]
				in.skipSpaces()
				switch {
				case w[len(w)-1] == 'n':
					return math.NaN(), nil
				case w[0] == '-':
					return math.Inf(-1), nil
				}
				return math.Inf(1), nil
			}
		}
		return 0, in.syntax()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	num := s[:i]
	f, err := parseFloat(num, Float8)
	if err != nil {
		if pgerr.Code(err) == pgerr.NumericOutOfRange {
			return 0, pgerr.New(pgerr.NumericOutOfRange, "\"%s\" is out of range for type double precision", num)
		}
		return 0, in.syntax()
	}
	in.s = s[i:]
	in.skipSpaces()
	return f.Float(), nil
}

// equalFoldASCII compares s with the lower-case word w, ignoring case.
func equalFoldASCII(s, w string) bool {
	for i := range len(w) {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// pair reads "x,y" or "(x,y)", as pair_decode.
func (in *geoInput) pair() (GPoint, error) {
	in.skipSpaces()
	paren := in.eat('(')
	x, err := in.float()
	if err != nil {
		return GPoint{}, err
	}
	if !in.eat(',') {
		return GPoint{}, in.syntax()
	}
	y, err := in.float()
	if err != nil {
		return GPoint{}, err
	}
	if paren {
		if !in.eat(')') {
			return GPoint{}, in.syntax()
		}
		in.skipSpaces()
	}
	return GPoint{x, y}, nil
}

// end checks that only spaces are left.
func (in *geoInput) end() error {
	in.skipSpaces()
	if in.s != "" {
		return in.syntax()
	}
	return nil
}

// points reads n points as path_decode: an open path's "[…]" when
// open is allowed, or points in parentheses or bare. isOpen reports the
// brackets.
func (in *geoInput) points(n int, open bool) (ps []GPoint, isOpen bool, err error) {
	in.skipSpaces()
	depth := 0
	switch {
	case in.peek() == '[':
		if !open {
			return nil, false, in.syntax()
		}
		in.s = in.s[1:]
		depth, isOpen = 1, true
	case in.peek() == '(':
		rest := in.s[1:]
		for len(rest) > 0 && isSpace(rest[0]) {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0] == '(' || lastIndexByte(in.s, '(') == 0 {
			depth = 1
			in.s = rest
		}
	}
	ps = make([]GPoint, n)
	for i := range ps {
		if ps[i], err = in.pair(); err != nil {
			return nil, false, err
		}
		in.eat(',')
	}
	for ; depth > 0; depth-- {
		if !in.eat(')') && !(isOpen && depth == 1 && in.eat(']')) {
			return nil, false, in.syntax()
		}
		in.skipSpaces()
	}
	return ps, isOpen, nil
}

func lastIndexByte(s string, c byte) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// pairCount is pair_count: the number of points of a list of n commas,
// or -1 when n is even.
func pairCount(s string) int {
	n := 0
	for i := range len(s) {
		if s[i] == ',' {
			n++
		}
	}
	if n%2 == 0 {
		return -1
	}
	return (n + 1) / 2
}

// parseGeometric reads a geometric type's text input, as PostgreSQL's
// point_in, lseg_in, box_in, line_in, path_in, poly_in and circle_in.
func parseGeometric(s string, k Kind) (Value, error) {
	in := &geoInput{s: s, k: k, orig: s}
	switch k {
	case Point:
		p, err := in.pair()
		if err != nil {
			return Null, err
		}
		return NewPoint(p), in.end()
	case LSeg, Box:
		ps, _, err := in.points(2, k == LSeg)
		if err == nil {
			err = in.end()
		}
		if err != nil {
			return Null, err
		}
		if k == LSeg {
			return NewLSeg(GLSeg{ps[0], ps[1]}), nil
		}
		return NewBox(makeBox(ps[0], ps[1])), nil
	case Line:
		return parseLine(in)
	case Circle:
		return parseCircle(in)
	case Path:
		return parsePath(in)
	case Polygon:
		n := pairCount(s)
		if n <= 0 {
			return Null, in.syntax()
		}
		ps, _, err := in.points(n, false)
		if err == nil {
			err = in.end()
		}
		if err != nil {
			return Null, err
		}
		return NewPolygon(ps), nil
	}
	return Null, in.syntax()
}

// makeBox orders two corners into a box's upper right and lower left.
func makeBox(a, b GPoint) GBox {
	return GBox{
		High: GPoint{float8Max(a.X, b.X), float8Max(a.Y, b.Y)},
		Low:  GPoint{float8Min(a.X, b.X), float8Min(a.Y, b.Y)},
	}
}

func parseLine(in *geoInput) (Value, error) {
	in.skipSpaces()
	if in.eat('{') {
		var f [3]float64
		for i := range f {
			var err error
			if f[i], err = in.float(); err != nil {
				return Null, err
			}
			if !in.eat(",,}"[i]) {
				return Null, in.syntax()
			}
		}
		if err := in.end(); err != nil {
			return Null, err
		}
		if fpZero(f[0]) && fpZero(f[1]) {
			return Null, pgerr.New(pgerr.InvalidTextRep, "invalid line specification: A and B cannot both be zero")
		}
		return NewLine(GLine{f[0], f[1], f[2]}), nil
	}
	ps, _, err := in.points(2, true)
	if err == nil {
		err = in.end()
	}
	if err != nil {
		return Null, err
	}
	if pointEq(ps[0], ps[1]) {
		return Null, pgerr.New(pgerr.InvalidTextRep, "invalid line specification: must be two distinct points")
	}
	l, err := lineConstruct(ps[0], pointSlope(ps[0], ps[1]))
	if err != nil {
		return Null, err
	}
	return NewLine(l), nil
}

func parseCircle(in *geoInput) (Value, error) {
	in.skipSpaces()
	depth := 0
	angle := false
	switch in.peek() {
	case '<':
		in.s = in.s[1:]
		depth, angle = 1, true
	case '(':
		rest := in.s[1:]
		for len(rest) > 0 && isSpace(rest[0]) {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0] == '(' {
			depth = 1
			in.s = rest
		}
	}
	c, err := in.pair()
	if err != nil {
		return Null, err
	}
	in.eat(',')
	r, err := in.float()
	if err != nil {
		return Null, err
	}
	if r < 0 {
		return Null, in.syntax()
	}
	for ; depth > 0; depth-- {
		if !in.eat(')') && !(angle && depth == 1 && in.eat('>')) {
			return Null, in.syntax()
		}
		in.skipSpaces()
	}
	if in.s != "" {
		return Null, in.syntax()
	}
	return NewCircle(GCircle{c, r}), nil
}

func parsePath(in *geoInput) (Value, error) {
	n := pairCount(in.s)
	if n <= 0 {
		return Null, in.syntax()
	}
	in.skipSpaces()
	depth := 0
	if in.peek() == '(' && lastIndexByte(in.s, '(') == 0 {
		in.s = in.s[1:]
		depth = 1
	}
	ps, isOpen, err := in.points(n, true)
	if err != nil {
		return Null, err
	}
	if depth == 1 {
		if !in.eat(')') {
			return Null, in.syntax()
		}
		in.skipSpaces()
	}
	if in.s != "" {
		return Null, in.syntax()
	}
	return NewPath(GPath{Closed: !isOpen, Points: ps}), nil
}

// appendGeoFloat writes a coordinate as float8out does under
// extra_float_digits fd.
func appendGeoFloat(buf []byte, f float64, fd int) []byte { return appendFloatDigits(buf, f, 64, fd) }

func appendGeoPoint(buf []byte, p GPoint, fd int) []byte {
	buf = append(buf, '(')
	buf = appendGeoFloat(buf, p.X, fd)
	buf = append(buf, ',')
	buf = appendGeoFloat(buf, p.Y, fd)
	return append(buf, ')')
}

// appendGeoPoints writes points separated by commas between open and
// close (none when 0), as path_encode.
func appendGeoPoints(buf []byte, ps []GPoint, open, close byte, fd int) []byte {
	if open != 0 {
		buf = append(buf, open)
	}
	for i, p := range ps {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendGeoPoint(buf, p, fd)
	}
	if close != 0 {
		buf = append(buf, close)
	}
	return buf
}

// appendGeometric writes a geometric value's text output, its floats
// under extra_float_digits fd.
func appendGeometric(buf []byte, v Value, fd int) []byte {
	switch v.kind {
	case Point:
		return appendGeoPoint(buf, v.GeoPoint(), fd)
	case LSeg:
		l := v.GeoLSeg()
		return appendGeoPoints(buf, l[:], '[', ']', fd)
	case Box:
		b := v.GeoBox()
		return appendGeoPoints(buf, []GPoint{b.High, b.Low}, 0, 0, fd)
	case Line:
		l := v.GeoLine()
		buf = append(buf, '{')
		buf = appendGeoFloat(buf, l.A, fd)
		buf = append(buf, ',')
		buf = appendGeoFloat(buf, l.B, fd)
		buf = append(buf, ',')
		buf = appendGeoFloat(buf, l.C, fd)
		return append(buf, '}')
	case Circle:
		c := v.GeoCircle()
		buf = append(buf, '<')
		buf = appendGeoPoint(buf, c.Center, fd)
		buf = append(buf, ',')
		buf = appendGeoFloat(buf, c.Radius, fd)
		return append(buf, '>')
	case Path:
		p := v.GeoPath()
		if p.Closed {
			return appendGeoPoints(buf, p.Points, '(', ')', fd)
		}
		return appendGeoPoints(buf, p.Points, '[', ']', fd)
	case Polygon:
		return appendGeoPoints(buf, v.GeoPolygon(), '(', ')', fd)
	}
	return buf
}

// GeoFloats returns a geometric value's floats in their stored order
// (after a path's closed flag), for the binary wire format.
func GeoFloats(v Value) []float64 {
	s := v.Str()
	if v.kind == Path {
		s = s[1:]
	}
	fs := make([]float64, len(s)/8)
	for i := range fs {
		fs[i] = geoFloat(s, i)
	}
	return fs
}

// GeoCount returns the points of a path or polygon, for the binary wire
// format.
func GeoCount(v Value) int {
	if v.kind == Path {
		return (len(v.Str()) - 1) / 16
	}
	return len(v.Str()) / 16
}

// geoKinds are the geometric kinds by name.
var geoKinds = map[string]Kind{
	"point": Point, "lseg": LSeg, "path": Path, "box": Box, "polygon": Polygon, "line": Line, "circle": Circle,
}

// GeoFromFloats builds a geometric value of kind k from its floats in
// stored order (and a path's closed flag), checking them as PostgreSQL's
// binary input does: a box's corners are ordered, a line needs A or B, a
// circle a radius not negative, a path or polygon a point.
func GeoFromFloats(k Kind, closed bool, fs []float64) (Value, error) {
	switch k {
	case Box:
		return NewBox(makeBox(GPoint{fs[0], fs[1]}, GPoint{fs[2], fs[3]})), nil
	case Line:
		if fpZero(fs[0]) && fpZero(fs[1]) {
			return Null, pgerr.New(pgerr.InvalidBinaryRep, "invalid line specification: A and B cannot both be zero")
		}
	case Circle:
		if fs[2] < 0 {
			return Null, pgerr.New(pgerr.InvalidBinaryRep, "invalid radius in external \"circle\" value")
		}
	case Path, Polygon:
		if len(fs) == 0 {
			return Null, pgerr.New(pgerr.InvalidBinaryRep, "invalid number of points in external \"%s\" value", k)
		}
		if k == Path {
			head := []byte{0}
			if closed {
				head[0] = 1
			}
			return geoValue(k, head, fs...), nil
		}
	}
	return geoValue(k, nil, fs...), nil
}
