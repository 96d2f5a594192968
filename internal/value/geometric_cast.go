package value

import "github.com/deltaview/deltaview/internal/pgerr"

// geoCasts are PostgreSQL's casts among the geometric types (pg_cast),
// each also a function named after its target type; assign marks the
// casts allowed in assignment, the others are explicit only.
var geoCasts = []struct {
	from, to Kind
	assign   bool
}{
	{Point, Box, true}, {LSeg, Point, false}, {Path, Polygon, true}, {Box, Point, false},
	{Box, LSeg, false}, {Box, Polygon, true}, {Box, Circle, false}, {Polygon, Point, false},
	{Polygon, Path, true}, {Polygon, Box, false}, {Polygon, Circle, false}, {Circle, Point, false},
	{Circle, Box, false}, {Circle, Polygon, false},
}

// geoCastable reports whether a geometric kind casts to another, and
// whether in assignment.
func geoCastable(from, to Kind) (ok, assign bool) {
	for _, c := range geoCasts {
		if c.from == from && c.to == to {
			return true, c.assign
		}
	}
	return false, false
}

// GeoAssignable reports whether PostgreSQL stores a value of kind from
// into a column of kind to, both geometric.
func GeoAssignable(from, to Kind) bool {
	_, assign := geoCastable(from, to)
	return assign
}

// castGeometric converts between geometric kinds, as the cast functions
// point(box), polygon(circle) and the others.
func castGeometric(v Value, to Kind) (Value, error) {
	var c geoCalc
	var r Value
	switch from := v.kind; {
	case to == Point && from == Box:
		r = NewPoint(c.boxCenter(v.GeoBox()))
	case to == Point && from == LSeg:
		s := v.GeoLSeg()
		r = NewPoint(GPoint{c.div(c.pl(s[0].X, s[1].X), 2), c.div(c.pl(s[0].Y, s[1].Y), 2)})
	case to == Point && from == Polygon:
		r = NewPoint(c.polyCircle(v.GeoPolygon()).Center)
	case to == Point && from == Circle:
		r = NewPoint(v.GeoCircle().Center)
	case to == Box && from == Point:
		p := v.GeoPoint()
		r = NewBox(GBox{p, p})
	case to == Box && from == Polygon:
		r = NewBox(boundBox(v.GeoPolygon()))
	case to == Box && from == Circle:
		ci := v.GeoCircle()
		d := c.div(ci.Radius, sqrt2)
		r = NewBox(GBox{
			High: GPoint{c.pl(ci.Center.X, d), c.pl(ci.Center.Y, d)},
			Low:  GPoint{c.mi(ci.Center.X, d), c.mi(ci.Center.Y, d)},
		})
	case to == LSeg && from == Box:
		b := v.GeoBox()
		r = NewLSeg(GLSeg{b.High, b.Low})
	case to == Path && from == Polygon:
		r = NewPath(GPath{Closed: true, Points: v.GeoPolygon()})
	case to == Polygon && from == Path:
		p := v.GeoPath()
		if !p.Closed {
			return Null, pgerr.New(pgerr.InvalidParameter, "open path cannot be converted to polygon")
		}
		r = NewPolygon(p.Points)
	case to == Polygon && from == Box:
		b := v.GeoBox()
		r = NewPolygon([]GPoint{b.Low, {b.Low.X, b.High.Y}, b.High, {b.High.X, b.Low.Y}})
	case to == Polygon && from == Circle:
		return circlePolygon(12, v.GeoCircle())
	case to == Circle && from == Box:
		b := v.GeoBox()
		center := c.boxCenter(b)
		r = NewCircle(GCircle{center, c.dist(center, b.High)})
	case to == Circle && from == Polygon:
		r = NewCircle(c.polyCircle(v.GeoPolygon()))
	default:
		return Null, errCannotCast(from, to)
	}
	if c.err != nil {
		return Null, c.err
	}
	return r, nil
}

const sqrt2 = 1.4142135623730951

// geoCastFuncs registers the casts as functions.
func geoCastFuncs() {
	for _, cast := range geoCasts {
		to := cast.to
		GeoOps = append(GeoOps, GeoOp{Name: to.String(), Params: []Kind{cast.from}, Result: to, Eval: func(a []Value) (Value, error) {
			return castGeometric(a[0], to)
		}})
	}
}
