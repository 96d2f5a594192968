package value

import "math"

// The geometric computations of PostgreSQL's geo_ops.c, step for step,
// so that fuzzy comparisons and rounding give PostgreSQL's answers.

func pointEq(a, b GPoint) bool {
	if math.IsNaN(a.X) || math.IsNaN(a.Y) || math.IsNaN(b.X) || math.IsNaN(b.Y) {
		return float8Eq(a.X, b.X) && float8Eq(a.Y, b.Y)
	}
	return fpEq(a.X, b.X) && fpEq(a.Y, b.Y)
}

func (c *geoCalc) add(a, b GPoint) GPoint { return GPoint{c.pl(a.X, b.X), c.pl(a.Y, b.Y)} }
func (c *geoCalc) sub(a, b GPoint) GPoint { return GPoint{c.mi(a.X, b.X), c.mi(a.Y, b.Y)} }

func (c *geoCalc) mulPoint(a, b GPoint) GPoint {
	return GPoint{c.mi(c.mul(a.X, b.X), c.mul(a.Y, b.Y)), c.pl(c.mul(a.X, b.Y), c.mul(a.Y, b.X))}
}

func (c *geoCalc) divPoint(a, b GPoint) GPoint {
	d := c.pl(c.mul(b.X, b.X), c.mul(b.Y, b.Y))
	return GPoint{c.div(c.pl(c.mul(a.X, b.X), c.mul(a.Y, b.Y)), d), c.div(c.mi(c.mul(a.Y, b.X), c.mul(a.X, b.Y)), d)}
}

// dist is point_dt.
func (c *geoCalc) dist(a, b GPoint) float64 { return c.hypot(c.mi(a.X, b.X), c.mi(a.Y, b.Y)) }

// slope is point_sl; invSlope is point_invsl.
func (c *geoCalc) slope(a, b GPoint) float64 {
	switch {
	case fpEq(a.X, b.X):
		return math.Inf(1)
	case fpEq(a.Y, b.Y):
		return 0
	}
	return c.div(c.mi(a.Y, b.Y), c.mi(a.X, b.X))
}

func (c *geoCalc) invSlope(a, b GPoint) float64 {
	switch {
	case fpEq(a.X, b.X):
		return 0
	case fpEq(a.Y, b.Y):
		return math.Inf(1)
	}
	return c.div(c.mi(a.X, b.X), c.mi(b.Y, a.Y))
}

func pointSlope(a, b GPoint) float64 {
	var c geoCalc
	return c.slope(a, b)
}

// lineConstruct is line_construct: the line through p of slope m.
func lineConstruct(p GPoint, m float64) (GLine, error) {
	var c geoCalc
	l := c.line(p, m)
	return l, c.err
}

func (c *geoCalc) line(p GPoint, m float64) GLine {
	switch {
	case math.IsInf(m, 0):
		return GLine{-1, 0, p.X}
	case m == 0:
		return GLine{0, -1, p.Y}
	}
	l := GLine{m, -1, c.mi(p.Y, c.mul(m, p.X))}
	if l.C == 0 {
		l.C = 0
	}
	return l
}

// lineSlope is line_sl; lineInvSlope is line_invsl.
func (c *geoCalc) lineSlope(l GLine) float64 {
	switch {
	case fpZero(l.A):
		return 0
	case fpZero(l.B):
		return math.Inf(1)
	}
	return c.div(l.A, -l.B)
}

func (c *geoCalc) lineInvSlope(l GLine) float64 {
	switch {
	case fpZero(l.A):
		return math.Inf(1)
	case fpZero(l.B):
		return 0
	}
	return c.div(l.B, l.A)
}

// lineInter is line_interpt_line: the intersection of two lines, ok false
// when they are parallel.
func (c *geoCalc) lineInter(l1, l2 GLine) (p GPoint, ok bool) {
	var x, y float64
	switch {
	case !fpZero(l1.B):
		if fpEq(l2.A, c.mul(l1.A, c.div(l2.B, l1.B))) {
			return p, false
		}
		x = c.div(c.mi(c.mul(l1.B, l2.C), c.mul(l2.B, l1.C)), c.mi(c.mul(l1.A, l2.B), c.mul(l2.A, l1.B)))
		y = c.div(-c.pl(c.mul(l1.A, x), l1.C), l1.B)
	case !fpZero(l2.B):
		if fpEq(l1.A, c.mul(l2.A, c.div(l1.B, l2.B))) {
			return p, false
		}
		x = c.div(c.mi(c.mul(l2.B, l1.C), c.mul(l1.B, l2.C)), c.mi(c.mul(l2.A, l1.B), c.mul(l1.A, l2.B)))
		y = c.div(-c.pl(c.mul(l2.A, x), l2.C), l2.B)
	default:
		return p, false
	}
	if x == 0 {
		x = 0
	}
	if y == 0 {
		y = 0
	}
	return GPoint{x, y}, true
}

// lineContains is line_contain_point.
func (c *geoCalc) lineContains(l GLine, p GPoint) bool {
	return fpZero(c.pl(c.pl(c.mul(l.A, p.X), c.mul(l.B, p.Y)), l.C))
}

// lineClosest is line_closept_point: the point of l closest to p and its
// distance (NaN when the perpendicular misses, as with NaN coordinates).
func (c *geoCalc) lineClosest(l GLine, p GPoint) (GPoint, float64) {
	q, ok := c.lineInter(c.line(p, c.lineInvSlope(l)), l)
	if !ok {
		return p, math.NaN()
	}
	return q, c.dist(q, p)
}

// lsegContains is lseg_contain_point.
func (c *geoCalc) lsegContains(s GLSeg, p GPoint) bool {
	return fpEq(c.pl(c.dist(p, s[0]), c.dist(p, s[1])), c.dist(s[0], s[1]))
}

// lsegLineInter is lseg_interpt_line.
func (c *geoCalc) lsegLineInter(s GLSeg, l GLine) (GPoint, bool) {
	p, ok := c.lineInter(c.line(s[0], c.slope(s[0], s[1])), l)
	if !ok || !c.lsegContains(s, p) {
		return p, false
	}
	switch {
	case pointEq(s[0], p):
		return s[0], true
	case pointEq(s[1], p):
		return s[1], true
	}
	return p, true
}

// lsegInter is lseg_interpt_lseg.
func (c *geoCalc) lsegInter(s1, s2 GLSeg) (GPoint, bool) {
	p, ok := c.lsegLineInter(s1, c.line(s2[0], c.slope(s2[0], s2[1])))
	if !ok || !c.lsegContains(s2, p) {
		return p, false
	}
	return p, true
}

// lsegClosestLine is lseg_closept_line.
func (c *geoCalc) lsegClosestLine(s GLSeg, l GLine) (GPoint, float64) {
	if p, ok := c.lsegLineInter(s, l); ok {
		return p, 0
	}
	_, d1 := c.lineClosest(l, s[0])
	_, d2 := c.lineClosest(l, s[1])
	if d1 < d2 {
		return s[0], d1
	}
	return s[1], d2
}

// lsegClosest is lseg_closept_point.
func (c *geoCalc) lsegClosest(s GLSeg, p GPoint) (GPoint, float64) {
	q, _ := c.lsegClosestLine(s, c.line(p, c.invSlope(s[0], s[1])))
	return q, c.dist(q, p)
}

// lsegClosestLSeg is lseg_closept_lseg: the point of on closest to to.
func (c *geoCalc) lsegClosestLSeg(on, to GLSeg) (GPoint, float64) {
	if p, ok := c.lsegInter(on, to); ok {
		return p, 0
	}
	r, dist := c.lsegClosest(on, to[0])
	if p, d := c.lsegClosest(on, to[1]); float8Lt(d, dist) {
		r, dist = p, d
	}
	for _, e := range on {
		if _, d := c.lsegClosest(to, e); float8Lt(d, dist) {
			r, dist = e, d
		}
	}
	return r, dist
}

// boxContainsPoint is box_contain_point, exact.
func boxContainsPoint(b GBox, p GPoint) bool {
	return b.High.X >= p.X && b.Low.X <= p.X && b.High.Y >= p.Y && b.Low.Y <= p.Y
}

// boxOverlaps is box_ov.
func boxOverlaps(a, b GBox) bool {
	return fpLe(a.Low.X, b.High.X) && fpLe(b.Low.X, a.High.X) && fpLe(a.Low.Y, b.High.Y) && fpLe(b.Low.Y, a.High.Y)
}

// boxContainsBox is box_contain_box.
func boxContainsBox(a, b GBox) bool {
	return fpGe(a.High.X, b.High.X) && fpLe(a.Low.X, b.Low.X) && fpGe(a.High.Y, b.High.Y) && fpLe(a.Low.Y, b.Low.Y)
}

func (c *geoCalc) boxCenter(b GBox) GPoint {
	return GPoint{c.div(c.pl(b.High.X, b.Low.X), 2), c.div(c.pl(b.High.Y, b.Low.Y), 2)}
}

func (c *geoCalc) boxArea(b GBox) float64 {
	return c.mul(c.mi(b.High.X, b.Low.X), c.mi(b.High.Y, b.Low.Y))
}

// boxSides are the four sides of a box in the order box_closept_point
// and box_interpt_lseg visit them.
func boxSides(b GBox) [4]GLSeg {
	ul := GPoint{b.Low.X, b.High.Y}
	lr := GPoint{b.High.X, b.Low.Y}
	return [4]GLSeg{{b.Low, ul}, {b.High, ul}, {b.Low, lr}, {b.High, lr}}
}

// boxClosest is box_closept_point.
func (c *geoCalc) boxClosest(b GBox, p GPoint) (GPoint, float64) {
	if boxContainsPoint(b, p) {
		return p, 0
	}
	var r GPoint
	var dist float64
	for i, s := range boxSides(b) {
		if q, d := c.lsegClosest(s, p); i == 0 || float8Lt(d, dist) {
			r, dist = q, d
		}
	}
	return r, dist
}

// boxLSegInter is box_interpt_lseg; its point is the segment's closest
// to the box's centre, computed only when point is set, as PostgreSQL
// does only when its caller asks for it (an underflow there fails only
// the callers that want the point: ## but not <-> or ?#).
func (c *geoCalc) boxLSegInter(b GBox, s GLSeg, point bool) (GPoint, bool) {
	lb := GBox{
		High: GPoint{float8Max(s[0].X, s[1].X), float8Max(s[0].Y, s[1].Y)},
		Low:  GPoint{float8Min(s[0].X, s[1].X), float8Min(s[0].Y, s[1].Y)},
	}
	if !boxOverlaps(lb, b) {
		return GPoint{}, false
	}
	var p GPoint
	if point {
		p, _ = c.lsegClosest(s, c.boxCenter(b))
	}
	if boxContainsPoint(b, s[0]) || boxContainsPoint(b, s[1]) {
		return p, true
	}
	for _, side := range boxSides(b) {
		if _, ok := c.lsegInter(side, s); ok {
			return p, true
		}
	}
	return p, false
}

// boxClosestLSeg is box_closept_lseg; point as for boxLSegInter.
func (c *geoCalc) boxClosestLSeg(b GBox, s GLSeg, point bool) (GPoint, float64) {
	if p, ok := c.boxLSegInter(b, s, point); ok {
		return p, 0
	}
	var r GPoint
	var dist float64
	for i, side := range boxSides(b) {
		if q, d := c.lsegClosestLSeg(side, s); i == 0 || float8Lt(d, dist) {
			r, dist = q, d
		}
	}
	return r, dist
}

// boundBox is make_bound_box.
func boundBox(ps []GPoint) GBox {
	b := GBox{High: ps[0], Low: ps[0]}
	for _, p := range ps[1:] {
		if float8Lt(p.X, b.Low.X) {
			b.Low.X = p.X
		}
		if float8Gt(p.X, b.High.X) {
			b.High.X = p.X
		}
		if float8Lt(p.Y, b.Low.Y) {
			b.Low.Y = p.Y
		}
		if float8Gt(p.Y, b.High.Y) {
			b.High.Y = p.Y
		}
	}
	return b
}

const pointOnPolygon = math.MaxInt32

// pointInside is point_inside: 0 outside, 1 inside, 2 on the border.
func (c *geoCalc) pointInside(p GPoint, ps []GPoint) int {
	x0, y0 := c.mi(ps[0].X, p.X), c.mi(ps[0].Y, p.Y)
	px, py := x0, y0
	total := 0
	for _, q := range ps[1:] {
		x, y := c.mi(q.X, p.X), c.mi(q.Y, p.Y)
		cross := c.lsegCrossing(x, y, px, py)
		if cross == pointOnPolygon {
			return 2
		}
		total += cross
		px, py = x, y
	}
	cross := c.lsegCrossing(x0, y0, px, py)
	if cross == pointOnPolygon {
		return 2
	}
	if total+cross != 0 {
		return 1
	}
	return 0
}

// lsegCrossing is lseg_crossing: how the segment from (prevX, prevY) to
// (x, y) crosses the positive X axis.
func (c *geoCalc) lsegCrossing(x, y, prevX, prevY float64) int {
	if fpZero(y) {
		switch {
		case fpZero(x):
			return pointOnPolygon
		case fpGt(x, 0):
			if fpZero(prevY) {
				if fpGt(prevX, 0) {
					return 0
				}
				return pointOnPolygon
			}
			if fpLt(prevY, 0) {
				return 1
			}
			return -1
		}
		if fpZero(prevY) {
			if fpLt(prevX, 0) {
				return 0
			}
			return pointOnPolygon
		}
		return 0
	}
	ySign := -1
	if fpGt(y, 0) {
		ySign = 1
	}
	switch {
	case fpZero(prevY):
		if fpLt(prevX, 0) {
			return 0
		}
		return ySign
	case ySign < 0 && fpLt(prevY, 0) || ySign > 0 && fpGt(prevY, 0):
		return 0
	case fpGe(x, 0) && fpGt(prevX, 0):
		return 2 * ySign
	case fpLt(x, 0) && fpLe(prevX, 0):
		return 0
	}
	z := c.mi(c.mul(c.mi(x, prevX), y), c.mul(c.mi(y, prevY), x))
	switch {
	case fpZero(z):
		return pointOnPolygon
	case ySign < 0 && fpLt(z, 0) || ySign > 0 && fpGt(z, 0):
		return 0
	}
	return 2 * ySign
}

// polyOverlaps is poly_overlap_internal.
func (c *geoCalc) polyOverlaps(a, b []GPoint) bool {
	if !boxOverlaps(boundBox(a), boundBox(b)) {
		return false
	}
	sa := GLSeg{a[len(a)-1]}
	for _, pa := range a {
		sa[1] = pa
		sb := GLSeg{b[len(b)-1]}
		for _, pb := range b {
			sb[1] = pb
			if _, ok := c.lsegInter(sa, sb); ok {
				return true
			}
			sb[0] = sb[1]
		}
		sa[0] = sa[1]
	}
	return c.pointInside(a[0], b) != 0 || c.pointInside(b[0], a) != 0
}

// polyContains is poly_contain_poly.
func (c *geoCalc) polyContains(outer, inner []GPoint) bool {
	if !boxContainsBox(boundBox(outer), boundBox(inner)) {
		return false
	}
	s := GLSeg{inner[len(inner)-1]}
	for _, p := range inner {
		s[1] = p
		if !c.lsegInsidePoly(s[0], s[1], outer, 0) {
			return false
		}
		s[0] = s[1]
	}
	return true
}

// lsegInsidePoly is lseg_inside_poly.
func (c *geoCalc) lsegInsidePoly(a, b GPoint, poly []GPoint, start int) bool {
	t := GLSeg{a, b}
	var s GLSeg
	if start == 0 {
		s[0] = poly[len(poly)-1]
	} else {
		s[0] = poly[start-1]
	}
	res, intersection := true, false
	for i := start; i < len(poly) && res; i++ {
		s[1] = poly[i]
		if c.lsegContains(s, t[0]) {
			if c.lsegContains(s, t[1]) {
				return true
			}
			res = c.touchedLSegInsidePoly(t[0], t[1], s, poly, i+1)
		} else if c.lsegContains(s, t[1]) {
			res = c.touchedLSegInsidePoly(t[1], t[0], s, poly, i+1)
		} else if p, ok := c.lsegInter(t, s); ok {
			intersection = true
			res = c.lsegInsidePoly(t[0], p, poly, i+1)
			if res {
				res = c.lsegInsidePoly(t[1], p, poly, i+1)
			}
		}
		s[0] = s[1]
	}
	if res && !intersection {
		p := GPoint{c.div(c.pl(t[0].X, t[1].X), 2), c.div(c.pl(t[0].Y, t[1].Y), 2)}
		res = c.pointInside(p, poly) != 0
	}
	return res
}

// touchedLSegInsidePoly is touched_lseg_inside_poly: a is on s, b is not.
func (c *geoCalc) touchedLSegInsidePoly(a, b GPoint, s GLSeg, poly []GPoint, start int) bool {
	t := GLSeg{a, b}
	switch {
	case pointEq(a, s[0]):
		if c.lsegContains(t, s[1]) {
			return c.lsegInsidePoly(b, s[1], poly, start)
		}
	case pointEq(a, s[1]):
		if c.lsegContains(t, s[0]) {
			return c.lsegInsidePoly(b, s[0], poly, start)
		}
	case c.lsegContains(t, s[0]):
		return c.lsegInsidePoly(b, s[0], poly, start)
	case c.lsegContains(t, s[1]):
		return c.lsegInsidePoly(b, s[1], poly, start)
	}
	return true
}

// pathSegments calls f with each segment of a path, the closing one
// first when it is closed, as PostgreSQL's loops over a path visit them.
func pathSegments(p GPath, f func(GLSeg)) {
	for i := range p.Points {
		prev := i - 1
		if i == 0 {
			if !p.Closed {
				continue
			}
			prev = len(p.Points) - 1
		}
		f(GLSeg{p.Points[prev], p.Points[i]})
	}
}

// pointPathDist is dist_ppath_internal.
func (c *geoCalc) pointPathDist(p GPoint, path GPath) float64 {
	r, have := 0.0, false
	pathSegments(path, func(s GLSeg) {
		if _, d := c.lsegClosest(s, p); !have || float8Lt(d, r) {
			r, have = d, true
		}
	})
	return r
}

// pointPolyDist is dist_ppoly_internal.
func (c *geoCalc) pointPolyDist(p GPoint, poly []GPoint) float64 {
	if c.pointInside(p, poly) != 0 {
		return 0
	}
	_, r := c.lsegClosest(GLSeg{poly[0], poly[len(poly)-1]}, p)
	for i := 0; i < len(poly)-1; i++ {
		if _, d := c.lsegClosest(GLSeg{poly[i], poly[i+1]}, p); float8Lt(d, r) {
			r = d
		}
	}
	return r
}

// polyCircle is poly_to_circle: the centre is the mean of the points,
// the radius their mean distance to it.
func (c *geoCalc) polyCircle(ps []GPoint) GCircle {
	var center GPoint
	for _, p := range ps {
		center = c.add(center, p)
	}
	n := float64(len(ps))
	center = GPoint{c.div(center.X, n), c.div(center.Y, n)}
	r := 0.0
	for _, p := range ps {
		r = c.pl(r, c.dist(p, center))
	}
	return GCircle{center, c.div(r, n)}
}

func (c *geoCalc) circleArea(ci GCircle) float64 {
	return c.mul(c.mul(ci.Radius, ci.Radius), math.Pi)
}
