package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestGeometricRandom compares random geometric literals (malformed ones
// included), their operators, functions and casts with PostgreSQL: ad
// hoc, then as views carrying them through projections and filters over
// a table of random values under random inserts, updates and deletes.
func TestGeometricRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 73)
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	// Coordinates: small integers and halves (so that shapes touch,
	// cross and coincide), values within the fuzzy equality's 1e-6 of
	// them, and now and then a special one, or ad hoc one whose
	// arithmetic overflows (a view would fail the write that computes
	// it, where PostgreSQL fails the read).
	tame := false
	num := func() string {
		switch r.IntN(12) {
		case 0:
			return pick("0.0000001", "-0.0000005", "2.0000002", "1e-7")
		case 1:
			if tame {
				return pick("NaN", "Infinity")
			}
			return pick("1e300", "-1e300", "NaN", "Infinity", "1e-310")
		case 2, 3:
			return fmt.Sprintf("%d.5", r.IntN(9)-4)
		}
		return fmt.Sprint(r.IntN(9) - 4)
	}
	pt := func() string { return "(" + num() + "," + num() + ")" }
	pts := func(n int) string {
		ps := make([]string, n)
		for i := range ps {
			ps[i] = pt()
		}
		return strings.Join(ps, ",")
	}
	lit := func(typ string) string {
		var s string
		switch typ {
		case "point":
			s = pick(pt(), num()+","+num())
		case "lseg":
			s = pick("["+pts(2)+"]", "("+pts(2)+")", pts(2))
		case "box":
			s = pick(pts(2), "("+pts(2)+")")
		case "path":
			s = pick("["+pts(1+r.IntN(4))+"]", "("+pts(1+r.IntN(4))+")")
		case "polygon":
			s = "(" + pts(1+r.IntN(5)) + ")"
		case "line":
			s = pick("{"+num()+","+num()+","+num()+"}", "["+pts(2)+"]")
		case "circle":
			s = "<" + pt() + "," + pick("0", "1", "2.5", "0.0000001", num()) + ">"
		}
		if r.IntN(25) == 0 {
			s = pick(s[1:], s+")", s+",1", strings.Replace(s, ",", ";", 1), "")
		}
		return typ + " '" + s + "'"
	}
	types := []string{"point", "lseg", "box", "path", "polygon", "line", "circle"}
	anyLit := func() string { return lit(types[r.IntN(len(types))]) }
	// The binary operators PostgreSQL has, by operand types.
	binary := [][3]string{
		{"point", "+-*/", "point"}, {"point", "<->", "point"}, {"point", "<< >> <^ >^ <<| |>> ?- ?| ~= <>", "point"},
		{"point", "<-> ## <@", "lseg"}, {"point", "<-> ## <@", "box"}, {"point", "<-> <@", "path"},
		{"point", "<-> <@", "polygon"}, {"point", "<-> ## <@", "line"}, {"point", "<-> <@", "circle"},
		{"lseg", "# ## ?# ?|| ?-| = <> < <= > >= <->", "lseg"}, {"lseg", "<-> ## <@ ?#", "box"}, {"lseg", "<-> <@ ?#", "line"},
		{"box", "+ - * /", "point"}, {"box", "# && << &< >> &> <<| &<| |>> |&> <^ >^ @> <@ ~= ?# = < <= > >= <->", "box"},
		{"box", "@> <->", "point"}, {"path", "+ - * /", "point"}, {"path", "+ ?# <-> = < <= > >=", "path"}, {"path", "@> <->", "point"},
		{"polygon", "&& << &< >> &> <<| &<| |>> |&> @> <@ ~= <->", "polygon"}, {"polygon", "@> <->", "point"}, {"polygon", "<->", "circle"},
		{"line", "# ?# ?|| ?-| = <->", "line"}, {"line", "## <->", "lseg"}, {"line", "?#", "box"}, {"line", "<->", "point"},
		{"circle", "+ - * /", "point"}, {"circle", "&& << &< >> &> <<| &<| |>> |&> @> <@ ~= = <> < <= > >= <->", "circle"},
		{"circle", "@> <->", "point"}, {"circle", "<->", "polygon"},
	}
	exprs := []func() string{
		anyLit,
		func() string {
			b := binary[r.IntN(len(binary))]
			ops := strings.Fields(b[1])
			if b[1] == "+-*/" {
				ops = []string{"+", "-", "*", "/"}
			}
			return lit(b[0]) + " " + ops[r.IntN(len(ops))] + " " + lit(b[2])
		},
		func() string {
			return pick("@-@ "+lit("lseg"), "@-@ "+lit("path"), "@@ "+lit("box"), "@@ "+lit("circle"), "@@ "+lit("polygon"),
				"# "+lit("path"), "# "+lit("polygon"), "?- "+lit("lseg"), "?| "+lit("line"))
		},
		func() string {
			return pick("area("+lit("box")+")", "area("+lit("circle")+")", "area("+lit("path")+")", "center("+lit("box")+")",
				"width("+lit("box")+")", "height("+lit("box")+")", "diagonal("+lit("box")+")", "bound_box("+lit("box")+", "+lit("box")+")",
				"radius("+lit("circle")+")", "diameter("+lit("circle")+")", "length("+lit("path")+")", "pclose("+lit("path")+")",
				"popen("+lit("path")+")", "slope("+lit("point")+", "+lit("point")+")", "line("+lit("point")+", "+lit("point")+")",
				"lseg("+lit("point")+", "+lit("point")+")", "box("+lit("point")+", "+lit("point")+")", "circle("+lit("point")+", "+num()+")",
				fmt.Sprintf("polygon(%d, %s)", r.IntN(8), lit("circle")), "isperp("+lit("line")+", "+lit("line")+")")
		},
		func() string {
			from, to := pick("box", "circle", "polygon"), pick("point", "box", "circle", "polygon", "lseg", "path")
			return lit(from) + "::" + to
		},
		func() string { return anyLit() + "::text" },
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	compareAdHoc(t, 600, exprs, r, run, runPG)

	tame = true
	setup := `CREATE TABLE gs (id int PRIMARY KEY, p point, b box, c circle, l lseg, po polygon);
CREATE MATERIALIZED VIEW gs_calc AS SELECT id, p <-> point '(0,0)' AS d, b # box '(2,2),(-2,-2)' AS common, center(c) AS cc, @-@ l AS len, po::box AS bb, p + point '(1,1)' AS moved FROM gs;
CREATE MATERIALIZED VIEW gs_inside AS SELECT id, p, c FROM gs WHERE p <@ c OR p <@ po;
CREATE MATERIALIZED VIEW gs_big AS SELECT id, b, area(b) AS a FROM gs WHERE b > box '(1,1),(0,0)' AND NOT b && box '(-3,-3),(-4,-4)'`
	setupBoth(t, run, runPG, setup)
	ok := func(typ string) string {
		for {
			s := lit(typ)
			if _, code := runPG("SELECT " + s); code == "" {
				return s
			}
		}
	}
	var ids []int
	for step := 0; step < 80; step++ {
		var stmt string
		switch {
		case len(ids) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM gs WHERE id = %d", ids[k])
			ids = slices.Delete(ids, k, k+1)
		case len(ids) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE gs SET p = %s, b = %s, c = %s WHERE id = %d", ok("point"), ok("box"), ok("circle"), ids[r.IntN(len(ids))])
		default:
			stmt = fmt.Sprintf("INSERT INTO gs VALUES (%d, %s, %s, %s, %s, %s)", step, ok("point"), ok("box"), ok("circle"), ok("lseg"), ok("polygon"))
			ids = append(ids, step)
		}
		applyBoth(t, e, run, runPG, stmt, []string{"gs_calc", "gs_inside", "gs_big"})
	}
}
