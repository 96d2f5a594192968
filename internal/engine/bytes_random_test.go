package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestBytesRandom compares random bytea, bit string and uuid literals (in
// every input form, malformed ones included), their order, operators,
// functions and casts with PostgreSQL: ad hoc, then as views over a table
// of random values under random inserts, updates and deletes.
func TestBytesRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 29)
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }

	hexByte := func() string { return fmt.Sprintf(pick("%02x", "%02X"), r.IntN(256)) }
	// bytea literals: hex with white space between pairs, escape format
	// with \\ and octal escapes, and now and then a malformed one.
	byteaLit := func() string {
		var b strings.Builder
		n := r.IntN(5)
		if r.IntN(2) == 0 {
			b.WriteString(`\x`)
			for range n {
				b.WriteString(pick("", "", " ", "\n") + hexByte())
			}
			if r.IntN(20) == 0 {
				b.WriteString(pick("0", "g0", "0 0", "zz"))
			}
		} else {
			for range n {
				b.WriteString(pick("a", "b", "\\\\", `\000`, `\377`, `\101`, " ", "é"))
			}
			if r.IntN(20) == 0 {
				b.WriteString(pick(`\`, `\4`, `\400`, `\x`, `\8`))
			}
		}
		return "E'" + strings.NewReplacer(`\`, `\\`, "'", "''", "\n", `\n`).Replace(b.String()) + "'::bytea"
	}
	bitDigits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte("01"[r.IntN(2)])
		}
		return b.String()
	}
	bitLit := func() string {
		switch r.IntN(8) {
		case 0:
			return "X'" + strings.ToUpper(fmt.Sprintf("%03x", r.IntN(4096)))[:1+r.IntN(2)] + "'"
		case 1:
			return fmt.Sprintf("'%s'::bit(%d)", bitDigits(r.IntN(5)), 1+r.IntN(4))
		case 2:
			return fmt.Sprintf("'%s'::varbit(%d)", bitDigits(r.IntN(5)), 1+r.IntN(4))
		case 3:
			return fmt.Sprintf("%d::bit(%d)", r.IntN(40)-20, 1+r.IntN(40))
		case 4:
			if r.IntN(5) == 0 {
				return pick("B'102'", "X'G'", "'x1z'::varbit", "'b2'::bit(2)")
			}
		}
		return "B'" + bitDigits(r.IntN(6)) + "'"
	}
	sameLen := func() (string, string) {
		n := r.IntN(6)
		return "B'" + bitDigits(n) + "'", "B'" + bitDigits(n) + "'"
	}
	uuidLit := func() string {
		var h strings.Builder
		for range 16 {
			h.WriteString(fmt.Sprintf("%02x", []int{0, 1, 0x7f, 0x80, 0xff, r.IntN(256)}[r.IntN(6)]))
		}
		s := h.String()
		switch r.IntN(6) {
		case 0:
			s = strings.ToUpper(s)
		case 1:
			s = s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
		case 2:
			s = "{" + s[:8] + "-" + s[8:16] + "-" + s[16:24] + "-" + s[24:] + "}"
		case 3:
			s = s[:4] + "-" + s[4:8] + "-" + s[8:]
		case 4:
			if r.IntN(4) == 0 {
				s = pick(s[1:], s+"0", "{"+s, s+"-", "-"+s, s[:8]+"--"+s[8:], " "+s, s[:10]+"-"+s[10:])
			}
		}
		return "'" + s + "'::uuid"
	}
	exprs := []func() string{
		byteaLit, bitLit, uuidLit,
		func() string {
			return fmt.Sprintf("%s = %s, %s < %s, %s >= %s", byteaLit(), byteaLit(), byteaLit(), byteaLit(), uuidLit(), uuidLit())
		},
		func() string {
			return fmt.Sprintf("%s < %s, %s = %s, %s > %s", bitLit(), bitLit(), bitLit(), bitLit(), bitLit(), bitLit())
		},
		func() string {
			a, b := sameLen()
			c, d := sameLen()
			return fmt.Sprintf("%s & %s, %s | %s, %s # %s, ~ %s", a, b, c, d, bitLit(), bitLit(), bitLit())
		},
		func() string {
			return fmt.Sprintf("%s << %d, %s >> %d, %s || %s", bitLit(), r.IntN(9)-3, bitLit(), r.IntN(9)-3, bitLit(), bitLit())
		},
		func() string {
			return fmt.Sprintf("length(%s), bit_count(%s), octet_length(%s), get_bit(%s, %d), set_bit(%s, %d, %d)",
				bitLit(), bitLit(), bitLit(), bitLit(), r.IntN(5)-1, bitLit(), r.IntN(5)-1, r.IntN(3))
		},
		// The binder raises every error of a statement in the order of
		// its select list, PostgreSQL by phase (an unknown operator or a
		// literal's input when analysed, a cast of a typed constant when
		// planned, a call when run); so that the first error is the same,
		// the casts that can fail go in statements of their own.
		func() string {
			return fmt.Sprintf("substring(%s from %d for %d), position(%s in %s)",
				bitLit(), r.IntN(6)-1, r.IntN(5)-1, bitLit(), bitLit())
		},
		func() string { return bitLit() + "::int4" },
		func() string { return bitLit() + "::text::varbit" },
		func() string {
			return fmt.Sprintf("%s || %s, length(%s), substr(%s, %d, %d), position(%s in %s)",
				byteaLit(), byteaLit(), byteaLit(), byteaLit(), r.IntN(6)-1, r.IntN(5)-1, byteaLit(), byteaLit())
		},
		func() string {
			return fmt.Sprintf("get_byte(%s, %d), set_byte(%s, %d, %d), get_bit(%s, %d), set_bit(%s, %d, 1)",
				byteaLit(), r.IntN(4)-1, byteaLit(), r.IntN(4), r.IntN(300), byteaLit(), r.IntN(20)-1, byteaLit(), r.IntN(20))
		},
		func() string {
			f := pick("hex", "base64", "escape", "Base64", "HEX")
			return fmt.Sprintf("encode(%s, '%s'), decode(encode(%s, '%s'), '%s'), md5(%s), sha256(%s)", byteaLit(), f, byteaLit(), f, f, byteaLit(), byteaLit())
		},
		func() string {
			s := pick("YWJj", "YW Jj", "YQ==", "YQ=", "Y=Q=", "YWI", "=", "", "a*b", "YWJjZA==\n", "YQ==YQ==")
			return fmt.Sprintf("decode('%s', 'base64')", s)
		},
		func() string {
			return fmt.Sprintf("%s::text, %s::text::bytea, convert_from(%s, 'UTF8')", byteaLit(), byteaLit(), byteaLit())
		},
		func() string {
			return fmt.Sprintf("%s::text, %s::text::uuid, %s = %s", uuidLit(), uuidLit(), uuidLit(), uuidLit())
		},
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	compareAdHoc(t, 500, exprs, r, run, runPG)

	// Views over random rows: bit strings and bytea as group keys, order
	// keys and operands; uuid as the primary key and a join key.
	setup := `CREATE TABLE bk (id uuid PRIMARY KEY, g uuid, b bytea, f bit(4), v varbit);
CREATE TABLE gk (id uuid PRIMARY KEY, name text);
CREATE MATERIALIZED VIEW bk_vals AS SELECT id, length(b) AS lb, encode(b, 'base64') AS b64, f & B'0110' AS fm, f::int AS fi, v || f AS vf, get_bit(f, 1) AS g1 FROM bk;
CREATE MATERIALIZED VIEW bk_group AS SELECT f, count(*) AS c, sum(length(b)) AS lb FROM bk GROUP BY f;
CREATE MATERIALIZED VIEW bk_bytes AS SELECT b, count(*) AS c FROM bk GROUP BY b;
CREATE MATERIALIZED VIEW bk_top AS SELECT id, v FROM bk ORDER BY v DESC, id LIMIT 3;
CREATE MATERIALIZED VIEW bk_join AS SELECT gk.name, count(*) AS c, count(DISTINCT bk.f) AS fs FROM bk JOIN gk ON gk.id = bk.g GROUP BY gk.name`
	setupBoth(t, run, runPG, setup)
	groups := []string{"'00000000-0000-0000-0000-000000000001'", "'80000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'"}
	for i, g := range groups {
		stmt := fmt.Sprintf("INSERT INTO gk VALUES (%s, 'g%d')", g, i)
		run(stmt)
		runPG(stmt)
	}
	ok := func(gen func() string) string {
		for {
			s := gen()
			if _, code := runPG("SELECT " + s); code == "" {
				return s
			}
		}
	}
	fourBits := func() string { return "B'" + bitDigits(4) + "'" }
	var ids []string
	for step := 0; step < 80; step++ {
		var stmt string
		switch {
		case len(ids) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM bk WHERE id = %s", ids[k])
			ids = slices.Delete(ids, k, k+1)
		case len(ids) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE bk SET b = %s, f = %s, v = %s, g = %s WHERE id = %s",
				ok(byteaLit), fourBits(), ok(bitLit), groups[r.IntN(3)], ids[r.IntN(len(ids))])
		default:
			id := ok(uuidLit)
			if _, code := runPG("SELECT 1 FROM bk WHERE id = " + id); code != "" {
				t.Fatal(code)
			}
			if rows, _ := runPG("SELECT 1 FROM bk WHERE id = " + id); len(rows) > 0 {
				continue
			}
			stmt = fmt.Sprintf("INSERT INTO bk VALUES (%s, %s, %s, %s, %s)", id, groups[r.IntN(3)], ok(byteaLit), fourBits(), ok(bitLit))
			ids = append(ids, id)
		}
		applyBoth(t, e, run, runPG, stmt, []string{"bk_vals", "bk_group", "bk_bytes", "bk_top", "bk_join"})
	}
}
