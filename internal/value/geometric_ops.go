package value

import (
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// GeoOp is one of the geometric types' functions or operators: Name is
// the function's name or the operator's symbol (a prefix operator has one
// parameter). Eval is strict: its arguments are not NULL.
type GeoOp struct {
	Name   string
	Params []Kind
	Result Kind
	Eval   func(a []Value) (Value, error)
}

// GeoOps are PostgreSQL's functions and operators over the geometric
// types, the casts' functions included.
var GeoOps []GeoOp

func geoOp(name string, result Kind, eval func(c *geoCalc, a []Value) Value, params ...Kind) {
	GeoOps = append(GeoOps, GeoOp{Name: name, Params: params, Result: result, Eval: func(a []Value) (Value, error) {
		var c geoCalc
		v := eval(&c, a)
		if c.err != nil {
			return Null, c.err
		}
		return v, nil
	}})
}

func geoBool(name string, f func(c *geoCalc, a, b Value) bool, l, r Kind) {
	geoOp(name, Bool, func(c *geoCalc, a []Value) Value { return NewBool(f(c, a[0], a[1])) }, l, r)
}

func geoFloat8(name string, f func(c *geoCalc, a []Value) float64, params ...Kind) {
	geoOp(name, Float8, func(c *geoCalc, a []Value) Value { return NewFloat(Float8, f(c, a)) }, params...)
}

// geoDist registers <-> both ways round.
func geoDist(l, r Kind, f func(c *geoCalc, a, b Value) float64) {
	geoFloat8("<->", func(c *geoCalc, a []Value) float64 { return f(c, a[0], a[1]) }, l, r)
	if l != r {
		geoFloat8("<->", func(c *geoCalc, a []Value) float64 { return f(c, a[1], a[0]) }, r, l)
	}
}

// nanNull is NULL for a NaN distance, the point p otherwise, as the ##
// operators answer.
func nanNull(p GPoint, d float64) Value {
	if math.IsNaN(d) {
		return Null
	}
	return NewPoint(p)
}

func floatMax0(f float64) float64 {
	if f < 0 {
		return 0
	}
	return f
}

func init() {
	geoPointOps()
	geoLSegOps()
	geoBoxOps()
	geoPathPolyOps()
	geoLineOps()
	geoCircleOps()
	geoCastFuncs()
}

func geoPointOps() {
	P := Point
	pt := func(v Value) GPoint { return v.GeoPoint() }
	arith := func(name string, f func(c *geoCalc, a, b GPoint) GPoint) {
		geoOp(name, P, func(c *geoCalc, a []Value) Value { return NewPoint(f(c, pt(a[0]), pt(a[1]))) }, P, P)
	}
	arith("+", (*geoCalc).add)
	arith("-", (*geoCalc).sub)
	arith("*", (*geoCalc).mulPoint)
	arith("/", (*geoCalc).divPoint)
	cmp := func(f func(a, b GPoint) bool, names ...string) {
		for _, n := range names {
			geoBool(n, func(_ *geoCalc, a, b Value) bool { return f(pt(a), pt(b)) }, P, P)
		}
	}
	cmp(func(a, b GPoint) bool { return fpLt(a.X, b.X) }, "<<")
	cmp(func(a, b GPoint) bool { return fpGt(a.X, b.X) }, ">>")
	cmp(func(a, b GPoint) bool { return fpGt(a.Y, b.Y) }, ">^", "|>>")
	cmp(func(a, b GPoint) bool { return fpLt(a.Y, b.Y) }, "<^", "<<|")
	cmp(func(a, b GPoint) bool { return fpEq(a.X, b.X) }, "?|", "isvertical")
	cmp(func(a, b GPoint) bool { return fpEq(a.Y, b.Y) }, "?-", "ishorizontal")
	cmp(pointEq, "~=")
	cmp(func(a, b GPoint) bool { return !pointEq(a, b) }, "<>")
	geoDist(P, P, func(c *geoCalc, a, b Value) float64 { return c.dist(pt(a), pt(b)) })
	geoFloat8("slope", func(c *geoCalc, a []Value) float64 { return c.slope(pt(a[0]), pt(a[1])) }, P, P)
	geoOp("point", P, func(_ *geoCalc, a []Value) Value { return NewPoint(GPoint{a[0].Float(), a[1].Float()}) }, Float8, Float8)
}

func geoLSegOps() {
	L := LSeg
	seg := func(v Value) GLSeg { return v.GeoLSeg() }
	geoOp("lseg", L, func(_ *geoCalc, a []Value) Value { return NewLSeg(GLSeg{a[0].GeoPoint(), a[1].GeoPoint()}) }, Point, Point)
	length := func(c *geoCalc, a []Value) float64 { s := seg(a[0]); return c.dist(s[0], s[1]) }
	geoFloat8("@-@", length, L)
	geoFloat8("length", length, L)
	geoOp("@@", Point, func(c *geoCalc, a []Value) Value {
		s := seg(a[0])
		return NewPoint(GPoint{c.div(c.pl(s[0].X, s[1].X), 2), c.div(c.pl(s[0].Y, s[1].Y), 2)})
	}, L)
	for _, n := range []string{"?|", "isvertical"} {
		geoOp(n, Bool, func(_ *geoCalc, a []Value) Value { s := seg(a[0]); return NewBool(fpEq(s[0].X, s[1].X)) }, L)
	}
	for _, n := range []string{"?-", "ishorizontal"} {
		geoOp(n, Bool, func(_ *geoCalc, a []Value) Value { s := seg(a[0]); return NewBool(fpEq(s[0].Y, s[1].Y)) }, L)
	}
	geoBool("?#", func(c *geoCalc, a, b Value) bool { _, ok := c.lsegInter(seg(a), seg(b)); return ok }, L, L)
	for _, n := range []string{"?||", "isparallel"} {
		geoBool(n, func(c *geoCalc, a, b Value) bool {
			s, t := seg(a), seg(b)
			return fpEq(c.slope(s[0], s[1]), c.slope(t[0], t[1]))
		}, L, L)
	}
	for _, n := range []string{"?-|", "isperp"} {
		geoBool(n, func(c *geoCalc, a, b Value) bool {
			s, t := seg(a), seg(b)
			return fpEq(c.slope(s[0], s[1]), c.invSlope(t[0], t[1]))
		}, L, L)
	}
	geoBool("=", func(_ *geoCalc, a, b Value) bool {
		s, t := seg(a), seg(b)
		return pointEq(s[0], t[0]) && pointEq(s[1], t[1])
	}, L, L)
	geoBool("<>", func(_ *geoCalc, a, b Value) bool {
		s, t := seg(a), seg(b)
		return !pointEq(s[0], t[0]) || !pointEq(s[1], t[1])
	}, L, L)
	byLength := func(name string, f func(a, b float64) bool) {
		geoBool(name, func(c *geoCalc, a, b Value) bool {
			s, t := seg(a), seg(b)
			return f(c.dist(s[0], s[1]), c.dist(t[0], t[1]))
		}, L, L)
	}
	byLength("<", fpLt)
	byLength("<=", fpLe)
	byLength(">", fpGt)
	byLength(">=", fpGe)
	geoOp("#", Point, func(c *geoCalc, a []Value) Value {
		if p, ok := c.lsegInter(seg(a[0]), seg(a[1])); ok {
			return NewPoint(p)
		}
		return Null
	}, L, L)
	geoOp("##", Point, func(c *geoCalc, a []Value) Value {
		s, t := seg(a[0]), seg(a[1])
		if c.slope(s[0], s[1]) == c.slope(t[0], t[1]) {
			return Null
		}
		return nanNull(c.lsegClosestLSeg(t, s))
	}, L, L)
	geoDist(L, L, func(c *geoCalc, a, b Value) float64 { _, d := c.lsegClosestLSeg(seg(a), seg(b)); return d })
	geoDist(Point, L, func(c *geoCalc, a, b Value) float64 { _, d := c.lsegClosest(seg(b), a.GeoPoint()); return d })
	geoOp("##", Point, func(c *geoCalc, a []Value) Value { return nanNull(c.lsegClosest(seg(a[1]), a[0].GeoPoint())) }, Point, L)
	geoBool("<@", func(c *geoCalc, a, b Value) bool { return c.lsegContains(seg(b), a.GeoPoint()) }, Point, L)
}

func geoBoxOps() {
	B := Box
	box := func(v Value) GBox { return v.GeoBox() }
	geoOp("box", B, func(_ *geoCalc, a []Value) Value { return NewBox(makeBox(a[0].GeoPoint(), a[1].GeoPoint())) }, Point, Point)
	geoOp("bound_box", B, func(_ *geoCalc, a []Value) Value {
		x, y := box(a[0]), box(a[1])
		return NewBox(GBox{
			High: GPoint{float8Max(x.High.X, y.High.X), float8Max(x.High.Y, y.High.Y)},
			Low:  GPoint{float8Min(x.Low.X, y.Low.X), float8Min(x.Low.Y, y.Low.Y)},
		})
	}, B, B)
	geoFloat8("area", func(c *geoCalc, a []Value) float64 { return c.boxArea(box(a[0])) }, B)
	geoFloat8("width", func(c *geoCalc, a []Value) float64 { b := box(a[0]); return c.mi(b.High.X, b.Low.X) }, B)
	geoFloat8("height", func(c *geoCalc, a []Value) float64 { b := box(a[0]); return c.mi(b.High.Y, b.Low.Y) }, B)
	for _, n := range []string{"@@", "center"} {
		geoOp(n, Point, func(c *geoCalc, a []Value) Value { return NewPoint(c.boxCenter(box(a[0]))) }, B)
	}
	geoOp("diagonal", LSeg, func(_ *geoCalc, a []Value) Value { b := box(a[0]); return NewLSeg(GLSeg{b.High, b.Low}) }, B)
	rel := func(name string, f func(x, y GBox) bool) {
		geoBool(name, func(_ *geoCalc, a, b Value) bool { return f(box(a), box(b)) }, B, B)
	}
	rel("~=", func(x, y GBox) bool { return pointEq(x.High, y.High) && pointEq(x.Low, y.Low) })
	rel("&&", boxOverlaps)
	rel("?#", boxOverlaps)
	rel("<<", func(x, y GBox) bool { return fpLt(x.High.X, y.Low.X) })
	rel("&<", func(x, y GBox) bool { return fpLe(x.High.X, y.High.X) })
	rel(">>", func(x, y GBox) bool { return fpGt(x.Low.X, y.High.X) })
	rel("&>", func(x, y GBox) bool { return fpGe(x.Low.X, y.Low.X) })
	rel("<<|", func(x, y GBox) bool { return fpLt(x.High.Y, y.Low.Y) })
	rel("&<|", func(x, y GBox) bool { return fpLe(x.High.Y, y.High.Y) })
	rel("|>>", func(x, y GBox) bool { return fpGt(x.Low.Y, y.High.Y) })
	rel("|&>", func(x, y GBox) bool { return fpGe(x.Low.Y, y.Low.Y) })
	rel("<^", func(x, y GBox) bool { return fpLe(x.High.Y, y.Low.Y) })
	rel(">^", func(x, y GBox) bool { return fpGe(x.Low.Y, y.High.Y) })
	rel("@>", boxContainsBox)
	rel("<@", func(x, y GBox) bool { return boxContainsBox(y, x) })
	byArea := func(name string, f func(a, b float64) bool) {
		geoBool(name, func(c *geoCalc, a, b Value) bool { return f(c.boxArea(box(a)), c.boxArea(box(b))) }, B, B)
	}
	byArea("<", fpLt)
	byArea("<=", fpLe)
	byArea("=", fpEq)
	byArea(">", fpGt)
	byArea(">=", fpGe)
	geoOp("#", B, func(_ *geoCalc, a []Value) Value {
		x, y := box(a[0]), box(a[1])
		if !boxOverlaps(x, y) {
			return Null
		}
		return NewBox(GBox{
			High: GPoint{float8Min(x.High.X, y.High.X), float8Min(x.High.Y, y.High.Y)},
			Low:  GPoint{float8Max(x.Low.X, y.Low.X), float8Max(x.Low.Y, y.Low.Y)},
		})
	}, B, B)
	geoOp("+", B, func(c *geoCalc, a []Value) Value {
		b, p := box(a[0]), a[1].GeoPoint()
		return NewBox(GBox{c.add(b.High, p), c.add(b.Low, p)})
	}, B, Point)
	geoOp("-", B, func(c *geoCalc, a []Value) Value {
		b, p := box(a[0]), a[1].GeoPoint()
		return NewBox(GBox{c.sub(b.High, p), c.sub(b.Low, p)})
	}, B, Point)
	geoOp("*", B, func(c *geoCalc, a []Value) Value {
		b, p := box(a[0]), a[1].GeoPoint()
		return NewBox(makeBox(c.mulPoint(b.High, p), c.mulPoint(b.Low, p)))
	}, B, Point)
	geoOp("/", B, func(c *geoCalc, a []Value) Value {
		b, p := box(a[0]), a[1].GeoPoint()
		return NewBox(makeBox(c.divPoint(b.High, p), c.divPoint(b.Low, p)))
	}, B, Point)
	geoDist(B, B, func(c *geoCalc, a, b Value) float64 { return c.dist(c.boxCenter(box(a)), c.boxCenter(box(b))) })
	geoDist(Point, B, func(c *geoCalc, a, b Value) float64 { _, d := c.boxClosest(box(b), a.GeoPoint()); return d })
	geoDist(LSeg, B, func(c *geoCalc, a, b Value) float64 { _, d := c.boxClosestLSeg(box(b), a.GeoLSeg(), false); return d })
	geoOp("##", Point, func(c *geoCalc, a []Value) Value { return nanNull(c.boxClosest(box(a[1]), a[0].GeoPoint())) }, Point, B)
	geoOp("##", Point, func(c *geoCalc, a []Value) Value { return nanNull(c.boxClosestLSeg(box(a[1]), a[0].GeoLSeg(), true)) }, LSeg, B)
	geoBool("<@", func(_ *geoCalc, a, b Value) bool { return boxContainsPoint(box(b), a.GeoPoint()) }, Point, B)
	geoBool("@>", func(_ *geoCalc, a, b Value) bool { return boxContainsPoint(box(a), b.GeoPoint()) }, B, Point)
	geoBool("<@", func(_ *geoCalc, a, b Value) bool {
		s := a.GeoLSeg()
		return boxContainsPoint(box(b), s[0]) && boxContainsPoint(box(b), s[1])
	}, LSeg, B)
	geoBool("?#", func(c *geoCalc, a, b Value) bool { _, ok := c.boxLSegInter(box(b), a.GeoLSeg(), false); return ok }, LSeg, B)
}

func geoPathPolyOps() {
	Pa, Po := Path, Polygon
	path := func(v Value) GPath { return v.GeoPath() }
	poly := func(v Value) []GPoint { return v.GeoPolygon() }
	for _, n := range []string{"#", "npoints"} {
		geoOp(n, Int4, func(_ *geoCalc, a []Value) Value { return NewInt(Int4, int64(GeoCount(a[0]))) }, Pa)
		geoOp(n, Int4, func(_ *geoCalc, a []Value) Value { return NewInt(Int4, int64(GeoCount(a[0]))) }, Po)
	}
	geoOp("isclosed", Bool, func(_ *geoCalc, a []Value) Value { return NewBool(path(a[0]).Closed) }, Pa)
	geoOp("isopen", Bool, func(_ *geoCalc, a []Value) Value { return NewBool(!path(a[0]).Closed) }, Pa)
	setClosed := func(name string, closed bool) {
		geoOp(name, Pa, func(_ *geoCalc, a []Value) Value { p := path(a[0]); p.Closed = closed; return NewPath(p) }, Pa)
	}
	setClosed("pclose", true)
	setClosed("popen", false)
	byCount := func(name string, f func(a, b int) bool) {
		geoBool(name, func(_ *geoCalc, a, b Value) bool { return f(GeoCount(a), GeoCount(b)) }, Pa, Pa)
	}
	byCount("<", func(a, b int) bool { return a < b })
	byCount("<=", func(a, b int) bool { return a <= b })
	byCount("=", func(a, b int) bool { return a == b })
	byCount(">", func(a, b int) bool { return a > b })
	byCount(">=", func(a, b int) bool { return a >= b })
	geoOp("+", Pa, func(_ *geoCalc, a []Value) Value {
		p, q := path(a[0]), path(a[1])
		if p.Closed || q.Closed {
			return Null
		}
		return NewPath(GPath{Points: append(p.Points, q.Points...)})
	}, Pa, Pa)
	shift := func(name string, f func(c *geoCalc, a, b GPoint) GPoint) {
		geoOp(name, Pa, func(c *geoCalc, a []Value) Value {
			p, d := path(a[0]), a[1].GeoPoint()
			for i := range p.Points {
				p.Points[i] = f(c, p.Points[i], d)
			}
			return NewPath(p)
		}, Pa, Point)
	}
	shift("+", (*geoCalc).add)
	shift("-", (*geoCalc).sub)
	shift("*", (*geoCalc).mulPoint)
	shift("/", (*geoCalc).divPoint)
	length := func(c *geoCalc, a []Value) float64 {
		r := 0.0
		pathSegments(path(a[0]), func(s GLSeg) { r = c.pl(r, c.dist(s[0], s[1])) })
		return r
	}
	geoFloat8("@-@", length, Pa)
	geoFloat8("length", length, Pa)
	geoOp("area", Float8, func(c *geoCalc, a []Value) Value {
		p := path(a[0])
		if !p.Closed {
			return Null
		}
		area := 0.0
		for i, q := range p.Points {
			r := p.Points[(i+1)%len(p.Points)]
			area = c.pl(area, c.mul(q.X, r.Y))
			area = c.mi(area, c.mul(q.Y, r.X))
		}
		return NewFloat(Float8, c.div(math.Abs(area), 2))
	}, Pa)
	geoBool("?#", func(c *geoCalc, a, b Value) bool {
		p, q := path(a), path(b)
		if !boxOverlaps(boundBox(p.Points), boundBox(q.Points)) {
			return false
		}
		found := false
		pathSegments(p, func(s GLSeg) {
			pathSegments(q, func(t GLSeg) {
				if !found {
					_, found = c.lsegInter(s, t)
				}
			})
		})
		return found
	}, Pa, Pa)
	geoOp("<->", Float8, func(c *geoCalc, a []Value) Value {
		r, have := 0.0, false
		pathSegments(path(a[0]), func(s GLSeg) {
			pathSegments(path(a[1]), func(t GLSeg) {
				if _, d := c.lsegClosestLSeg(s, t); !have || float8Lt(d, r) {
					r, have = d, true
				}
			})
		})
		if !have {
			return Null
		}
		return NewFloat(Float8, r)
	}, Pa, Pa)
	geoDist(Point, Pa, func(c *geoCalc, a, b Value) float64 { return c.pointPathDist(a.GeoPoint(), path(b)) })
	onPath := func(c *geoCalc, pt GPoint, p GPath) bool {
		if p.Closed {
			return c.pointInside(pt, p.Points) != 0
		}
		d := c.dist(pt, p.Points[0])
		for i := 0; i < len(p.Points)-1; i++ {
			e := c.dist(pt, p.Points[i+1])
			if fpEq(c.pl(d, e), c.dist(p.Points[i], p.Points[i+1])) {
				return true
			}
			d = e
		}
		return false
	}
	geoBool("<@", func(c *geoCalc, a, b Value) bool { return onPath(c, a.GeoPoint(), path(b)) }, Point, Pa)
	geoBool("@>", func(c *geoCalc, a, b Value) bool { return onPath(c, b.GeoPoint(), path(a)) }, Pa, Point)

	for _, n := range []string{"@@"} {
		geoOp(n, Point, func(c *geoCalc, a []Value) Value { return NewPoint(c.polyCircle(poly(a[0])).Center) }, Po)
	}
	bb := func(name string, f func(x, y GBox) bool) {
		geoBool(name, func(_ *geoCalc, a, b Value) bool { return f(boundBox(poly(a)), boundBox(poly(b))) }, Po, Po)
	}
	bb("<<", func(x, y GBox) bool { return x.High.X < y.Low.X })
	bb("&<", func(x, y GBox) bool { return x.High.X <= y.High.X })
	bb(">>", func(x, y GBox) bool { return x.Low.X > y.High.X })
	bb("&>", func(x, y GBox) bool { return x.Low.X >= y.Low.X })
	bb("<<|", func(x, y GBox) bool { return x.High.Y < y.Low.Y })
	bb("&<|", func(x, y GBox) bool { return x.High.Y <= y.High.Y })
	bb("|>>", func(x, y GBox) bool { return x.Low.Y > y.High.Y })
	bb("|&>", func(x, y GBox) bool { return x.Low.Y >= y.Low.Y })
	geoBool("~=", func(_ *geoCalc, a, b Value) bool { return plistSame(poly(a), poly(b)) }, Po, Po)
	geoBool("&&", func(c *geoCalc, a, b Value) bool { return c.polyOverlaps(poly(a), poly(b)) }, Po, Po)
	geoBool("@>", func(c *geoCalc, a, b Value) bool { return c.polyContains(poly(a), poly(b)) }, Po, Po)
	geoBool("<@", func(c *geoCalc, a, b Value) bool { return c.polyContains(poly(b), poly(a)) }, Po, Po)
	geoBool("@>", func(c *geoCalc, a, b Value) bool { return c.pointInside(b.GeoPoint(), poly(a)) != 0 }, Po, Point)
	geoBool("<@", func(c *geoCalc, a, b Value) bool { return c.pointInside(a.GeoPoint(), poly(b)) != 0 }, Point, Po)
	geoDist(Point, Po, func(c *geoCalc, a, b Value) float64 { return c.pointPolyDist(a.GeoPoint(), poly(b)) })
	geoDist(Po, Po, func(c *geoCalc, a, b Value) float64 {
		p, q := poly(a), poly(b)
		if c.polyOverlaps(p, q) {
			return 0
		}
		r, have := 0.0, false
		pathSegments(GPath{Closed: true, Points: p}, func(s GLSeg) {
			pathSegments(GPath{Closed: true, Points: q}, func(t GLSeg) {
				if _, d := c.lsegClosestLSeg(s, t); !have || float8Lt(d, r) {
					r, have = d, true
				}
			})
		})
		return r
	})
}

// plistSame is plist_same: the same points from some start, forwards or
// backwards.
func plistSame(p1, p2 []GPoint) bool {
	n := len(p1)
	if n != len(p2) {
		return false
	}
	for i := range n {
		if !pointEq(p2[i], p1[0]) {
			continue
		}
		ii, j := 1, i+1
		for ; ii < n; ii, j = ii+1, j+1 {
			if j >= n {
				j = 0
			}
			if !pointEq(p2[j], p1[ii]) {
				break
			}
		}
		if ii == n {
			return true
		}
		ii, j = 1, i-1
		for ; ii < n; ii, j = ii+1, j-1 {
			if j < 0 {
				j = n - 1
			}
			if !pointEq(p2[j], p1[ii]) {
				break
			}
		}
		if ii == n {
			return true
		}
	}
	return false
}

func geoLineOps() {
	Li := Line
	line := func(v Value) GLine { return v.GeoLine() }
	geoOp("line", Li, func(c *geoCalc, a []Value) Value {
		p, q := a[0].GeoPoint(), a[1].GeoPoint()
		if pointEq(p, q) {
			c.fail(pgerr.New(pgerr.InvalidParameter, "invalid line specification: must be two distinct points"))
			return Null
		}
		return NewLine(c.line(p, c.slope(p, q)))
	}, Point, Point)
	inter := func(c *geoCalc, a, b Value) bool { _, ok := c.lineInter(line(a), line(b)); return ok }
	geoBool("?#", inter, Li, Li)
	for _, n := range []string{"?||", "isparallel"} {
		geoBool(n, func(c *geoCalc, a, b Value) bool { return !inter(c, a, b) }, Li, Li)
	}
	for _, n := range []string{"?-|", "isperp"} {
		geoBool(n, func(c *geoCalc, a, b Value) bool {
			l1, l2 := line(a), line(b)
			switch {
			case fpZero(l1.A):
				return fpZero(l2.B)
			case fpZero(l2.A):
				return fpZero(l1.B)
			case fpZero(l1.B):
				return fpZero(l2.A)
			case fpZero(l2.B):
				return fpZero(l1.A)
			}
			return fpEq(c.div(c.mul(l1.A, l2.A), c.mul(l1.B, l2.B)), -1)
		}, Li, Li)
	}
	for _, n := range []string{"?|", "isvertical"} {
		geoOp(n, Bool, func(_ *geoCalc, a []Value) Value { return NewBool(fpZero(line(a[0]).B)) }, Li)
	}
	for _, n := range []string{"?-", "ishorizontal"} {
		geoOp(n, Bool, func(_ *geoCalc, a []Value) Value { return NewBool(fpZero(line(a[0]).A)) }, Li)
	}
	geoBool("=", func(c *geoCalc, a, b Value) bool {
		l1, l2 := line(a), line(b)
		if math.IsNaN(l1.A) || math.IsNaN(l1.B) || math.IsNaN(l1.C) || math.IsNaN(l2.A) || math.IsNaN(l2.B) || math.IsNaN(l2.C) {
			return float8Eq(l1.A, l2.A) && float8Eq(l1.B, l2.B) && float8Eq(l1.C, l2.C)
		}
		ratio := 1.0
		switch {
		case !fpZero(l2.A):
			ratio = c.div(l1.A, l2.A)
		case !fpZero(l2.B):
			ratio = c.div(l1.B, l2.B)
		case !fpZero(l2.C):
			ratio = c.div(l1.C, l2.C)
		}
		return fpEq(l1.A, c.mul(ratio, l2.A)) && fpEq(l1.B, c.mul(ratio, l2.B)) && fpEq(l1.C, c.mul(ratio, l2.C))
	}, Li, Li)
	geoDist(Li, Li, func(c *geoCalc, a, b Value) float64 {
		l1, l2 := line(a), line(b)
		if _, ok := c.lineInter(l1, l2); ok {
			return 0
		}
		ratio := 1.0
		switch {
		case !fpZero(l1.A) && !math.IsNaN(l1.A) && !fpZero(l2.A) && !math.IsNaN(l2.A):
			ratio = c.div(l1.A, l2.A)
		case !fpZero(l1.B) && !math.IsNaN(l1.B) && !fpZero(l2.B) && !math.IsNaN(l2.B):
			ratio = c.div(l1.B, l2.B)
		}
		return c.div(math.Abs(c.mi(l1.C, c.mul(ratio, l2.C))), c.hypot(l1.A, l1.B))
	})
	geoOp("#", Point, func(c *geoCalc, a []Value) Value {
		if p, ok := c.lineInter(line(a[0]), line(a[1])); ok {
			return NewPoint(p)
		}
		return Null
	}, Li, Li)
	geoDist(Point, Li, func(c *geoCalc, a, b Value) float64 { _, d := c.lineClosest(line(b), a.GeoPoint()); return d })
	geoOp("##", Point, func(c *geoCalc, a []Value) Value { return nanNull(c.lineClosest(line(a[1]), a[0].GeoPoint())) }, Point, Li)
	geoBool("<@", func(c *geoCalc, a, b Value) bool { return c.lineContains(line(b), a.GeoPoint()) }, Point, Li)
	geoDist(LSeg, Li, func(c *geoCalc, a, b Value) float64 { _, d := c.lsegClosestLine(a.GeoLSeg(), line(b)); return d })
	geoOp("##", Point, func(c *geoCalc, a []Value) Value {
		l, s := line(a[0]), a[1].GeoLSeg()
		if c.slope(s[0], s[1]) == c.lineSlope(l) {
			return Null
		}
		return nanNull(c.lsegClosestLine(s, l))
	}, Li, LSeg)
	geoBool("<@", func(c *geoCalc, a, b Value) bool {
		s := a.GeoLSeg()
		return c.lineContains(line(b), s[0]) && c.lineContains(line(b), s[1])
	}, LSeg, Li)
	geoBool("?#", func(c *geoCalc, a, b Value) bool { _, ok := c.lsegLineInter(a.GeoLSeg(), line(b)); return ok }, LSeg, Li)
	geoBool("?#", func(c *geoCalc, a, b Value) bool {
		l, bx := line(a), b.GeoBox()
		lo, ul, hi, lr := bx.Low, GPoint{bx.Low.X, bx.High.Y}, bx.High, GPoint{bx.High.X, bx.Low.Y}
		for _, s := range []GLSeg{{lo, ul}, {hi, ul}, {hi, lr}, {lo, lr}} {
			if _, ok := c.lsegLineInter(s, l); ok {
				return true
			}
		}
		return false
	}, Li, Box)
}

func geoCircleOps() {
	C := Circle
	circ := func(v Value) GCircle { return v.GeoCircle() }
	geoOp("circle", C, func(_ *geoCalc, a []Value) Value { return NewCircle(GCircle{a[0].GeoPoint(), a[1].Float()}) }, Point, Float8)
	geoFloat8("area", func(c *geoCalc, a []Value) float64 { return c.circleArea(circ(a[0])) }, C)
	geoFloat8("diameter", func(c *geoCalc, a []Value) float64 { return c.mul(circ(a[0]).Radius, 2) }, C)
	geoFloat8("radius", func(_ *geoCalc, a []Value) float64 { return circ(a[0]).Radius }, C)
	for _, n := range []string{"@@", "center"} {
		geoOp(n, Point, func(_ *geoCalc, a []Value) Value { return NewPoint(circ(a[0]).Center) }, C)
	}
	rel := func(name string, f func(c *geoCalc, x, y GCircle) bool) {
		geoBool(name, func(c *geoCalc, a, b Value) bool { return f(c, circ(a), circ(b)) }, C, C)
	}
	rel("~=", func(_ *geoCalc, x, y GCircle) bool {
		return (math.IsNaN(x.Radius) && math.IsNaN(y.Radius) || fpEq(x.Radius, y.Radius)) && pointEq(x.Center, y.Center)
	})
	rel("&&", func(c *geoCalc, x, y GCircle) bool { return fpLe(c.dist(x.Center, y.Center), c.pl(x.Radius, y.Radius)) })
	rel("&<", func(c *geoCalc, x, y GCircle) bool {
		return fpLe(c.pl(x.Center.X, x.Radius), c.pl(y.Center.X, y.Radius))
	})
	rel("<<", func(c *geoCalc, x, y GCircle) bool {
		return fpLt(c.pl(x.Center.X, x.Radius), c.mi(y.Center.X, y.Radius))
	})
	rel(">>", func(c *geoCalc, x, y GCircle) bool {
		return fpGt(c.mi(x.Center.X, x.Radius), c.pl(y.Center.X, y.Radius))
	})
	rel("&>", func(c *geoCalc, x, y GCircle) bool {
		return fpGe(c.mi(x.Center.X, x.Radius), c.mi(y.Center.X, y.Radius))
	})
	rel("<@", func(c *geoCalc, x, y GCircle) bool { return fpLe(c.pl(c.dist(x.Center, y.Center), x.Radius), y.Radius) })
	rel("@>", func(c *geoCalc, x, y GCircle) bool { return fpLe(c.pl(c.dist(x.Center, y.Center), y.Radius), x.Radius) })
	rel("<<|", func(c *geoCalc, x, y GCircle) bool {
		return fpLt(c.pl(x.Center.Y, x.Radius), c.mi(y.Center.Y, y.Radius))
	})
	rel("|>>", func(c *geoCalc, x, y GCircle) bool {
		return fpGt(c.mi(x.Center.Y, x.Radius), c.pl(y.Center.Y, y.Radius))
	})
	rel("&<|", func(c *geoCalc, x, y GCircle) bool {
		return fpLe(c.pl(x.Center.Y, x.Radius), c.pl(y.Center.Y, y.Radius))
	})
	rel("|&>", func(c *geoCalc, x, y GCircle) bool {
		return fpGe(c.mi(x.Center.Y, x.Radius), c.mi(y.Center.Y, y.Radius))
	})
	byArea := func(name string, f func(a, b float64) bool) {
		rel(name, func(c *geoCalc, x, y GCircle) bool { return f(c.circleArea(x), c.circleArea(y)) })
	}
	byArea("=", fpEq)
	byArea("<>", func(a, b float64) bool { return a != b && math.Abs(a-b) > geoEpsilon })
	byArea("<", fpLt)
	byArea("<=", fpLe)
	byArea(">", fpGt)
	byArea(">=", fpGe)
	shift := func(name string, f func(c *geoCalc, x GCircle, p GPoint) GCircle) {
		geoOp(name, C, func(c *geoCalc, a []Value) Value { return NewCircle(f(c, circ(a[0]), a[1].GeoPoint())) }, C, Point)
	}
	shift("+", func(c *geoCalc, x GCircle, p GPoint) GCircle { return GCircle{c.add(x.Center, p), x.Radius} })
	shift("-", func(c *geoCalc, x GCircle, p GPoint) GCircle { return GCircle{c.sub(x.Center, p), x.Radius} })
	shift("*", func(c *geoCalc, x GCircle, p GPoint) GCircle {
		return GCircle{c.mulPoint(x.Center, p), c.mul(x.Radius, c.hypot(p.X, p.Y))}
	})
	shift("/", func(c *geoCalc, x GCircle, p GPoint) GCircle {
		return GCircle{c.divPoint(x.Center, p), c.div(x.Radius, c.hypot(p.X, p.Y))}
	})
	geoDist(C, C, func(c *geoCalc, a, b Value) float64 {
		x, y := circ(a), circ(b)
		return floatMax0(c.mi(c.dist(x.Center, y.Center), c.pl(x.Radius, y.Radius)))
	})
	geoDist(Point, C, func(c *geoCalc, a, b Value) float64 {
		x := circ(b)
		return floatMax0(c.mi(c.dist(a.GeoPoint(), x.Center), x.Radius))
	})
	geoBool("@>", func(c *geoCalc, a, b Value) bool { x := circ(a); return c.dist(x.Center, b.GeoPoint()) <= x.Radius }, C, Point)
	geoBool("<@", func(c *geoCalc, a, b Value) bool { x := circ(b); return c.dist(x.Center, a.GeoPoint()) <= x.Radius }, Point, C)
	geoDist(Polygon, C, func(c *geoCalc, a, b Value) float64 {
		x := circ(b)
		return floatMax0(c.mi(c.pointPolyDist(x.Center, a.GeoPolygon()), x.Radius))
	})
	geoOp("polygon", Polygon, func(c *geoCalc, a []Value) Value {
		v, err := circlePolygon(a[0].Int(), circ(a[1]))
		c.fail(err)
		return v
	}, Int4, C)
}

// maxGeoPoints bounds a polygon as PostgreSQL's 1 GB allocations do.
const maxGeoPoints = (1<<30 - 1 - 40) / 16

// circlePolygon is circle_poly: n points on the circle, from its left.
func circlePolygon(n int64, ci GCircle) (Value, error) {
	switch {
	case fpZero(ci.Radius):
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cannot convert circle with radius zero to polygon")
	case n < 2:
		return Null, pgerr.New(pgerr.InvalidParameter, "must request at least 2 points")
	case n > maxGeoPoints:
		return Null, pgerr.New(pgerr.ProgramLimitExceeded, "too many points requested")
	}
	var c geoCalc
	step := c.div(2*math.Pi, float64(n))
	ps := make([]GPoint, n)
	for i := range ps {
		sin, cos := sinCos(c.mul(step, float64(i)))
		ps[i] = GPoint{c.mi(ci.Center.X, c.mul(ci.Radius, cos)), c.pl(ci.Center.Y, c.mul(ci.Radius, sin))}
	}
	if c.err != nil {
		return Null, c.err
	}
	return NewPolygon(ps), nil
}
