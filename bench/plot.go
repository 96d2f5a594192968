package bench

import (
	"fmt"
	"math"

	"strings"
)

var palette = []string{"#d62728", "#ff7f0e", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"}

// plot draws view's median per-change latency against N, one line per
// system with valid figures, both axes logarithmic, as a standalone SVG.
func (r *Results) plot(view string) string {
	const w, h = 720.0, 420.0
	const left, right, top, bottom = 70.0, 220.0, 40.0, 50.0
	pw, ph := w-left-right, h-top-bottom

	type series struct {
		name   string
		color  string
		points [][2]float64 // N, µs
	}
	var all []series
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, sys := range r.Systems {
		s := series{name: sys, color: palette[i%len(palette)]}
		for _, n := range r.Sizes {
			if c, ok := r.cell(sys, view, n); ok && c.Status == "ok" && c.LatencyMedianUs > 0 {
				s.points = append(s.points, [2]float64{float64(n), c.LatencyMedianUs})
				lo, hi = math.Min(lo, c.LatencyMedianUs), math.Max(hi, c.LatencyMedianUs)
			}
		}
		all = append(all, s)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	y0, y1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if y1 <= y0 {
		y1 = y0 + 1
	}
	x0, x1 := math.Log10(float64(r.Sizes[0])), math.Log10(float64(r.Sizes[len(r.Sizes)-1]))
	pad := 0.15 * math.Max(x1-x0, 1)
	x0, x1 = x0-pad, x1+pad
	X := func(n float64) float64 { return left + (math.Log10(n)-x0)/(x1-x0)*pw }
	Y := func(us float64) float64 { return top + ph - (math.Log10(us)-y0)/(y1-y0)*ph }

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	p(`<rect width="%g" height="%g" fill="white"/>`+"\n", w, h)
	p(`<text x="%g" y="22" font-size="15" font-weight="bold">%s: one single-row change, median latency</text>`+"\n", left, view)
	// Grid and axes.
	for e := y0; e <= y1; e++ {
		y := Y(math.Pow(10, e))
		p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, left+pw, y)
		p(`<text x="%g" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-6, y, usLabel(math.Pow(10, e)))
	}
	for _, n := range r.Sizes {
		x := X(float64(n))
		p(`<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#ddd"/>`+"\n", x, top, x, top+ph)
		p(`<text x="%.1f" y="%g" text-anchor="middle">N = %s</text>`+"\n", x, top+ph+18, fmtN(n))
	}
	p(`<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	p(`<text x="%g" y="%g" text-anchor="middle">rows in t (log scale)</text>`+"\n", left+pw/2, h-10)
	p(`<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">latency per change (log scale)</text>`+"\n", top+ph/2)
	// Target line for the Go API at 1M.
	if t, ok := Targets[view]; ok && math.Log10(t) >= y0 && math.Log10(t) <= y1 {
		y := Y(t)
		p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#000" stroke-dasharray="4 4"/>`+"\n", left, y, left+pw, y)
		p(`<text x="%g" y="%.1f" text-anchor="end" font-size="11">target %g µs (Go API, N = 1M)</text>`+"\n", left+pw-4, y-4, t)
	}
	// Series and legend.
	ly := top + 6
	for _, s := range all {
		if len(s.points) > 0 {
			var pts []string
			for _, pt := range s.points {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", X(pt[0]), Y(pt[1])))
			}
			p(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), s.color)
			for _, pt := range s.points {
				p(`<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>`+"\n", X(pt[0]), Y(pt[1]), s.color)
			}
		}
		label := s.name
		if len(s.points) == 0 {
			label += " (no valid figures)"
		}
		p(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="2"/>`+"\n", left+pw+12, ly, left+pw+32, ly, s.color)
		p(`<text x="%g" y="%g" dominant-baseline="middle" font-size="11">%s</text>`+"\n", left+pw+38, ly, xmlEscape(label))
		ly += 18
	}
	p("</svg>\n")
	return b.String()
}

func usLabel(us float64) string {
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%g s", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%g ms", us/1e3)
	case us >= 1:
		return fmt.Sprintf("%g µs", us)
	default:
		return fmt.Sprintf("%g ns", us*1e3)
	}
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
