package pgenc

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"sort"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
)

var generate = flag.Bool("generate", false, "regenerate tables/*.bin from PostgreSQL, every code point both ways")

// sweepFuncs convert with PostgreSQL a list of byte strings, or a range
// of code points, one at a time, keeping each one's result or error.
const sweepFuncs = `
CREATE FUNCTION pgenc_from(e text, bs bytea[]) RETURNS TABLE(t text, code text, msg text) AS $$
DECLARE b bytea;
BEGIN
  FOREACH b IN ARRAY bs LOOP
    t := NULL; code := NULL; msg := NULL;
    BEGIN t := convert_from(b, e);
    EXCEPTION WHEN others THEN GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    END;
    RETURN NEXT;
  END LOOP;
END $$ LANGUAGE plpgsql;
CREATE FUNCTION pgenc_to(e text, ss text[]) RETURNS TABLE(b bytea, code text, msg text) AS $$
DECLARE s text;
BEGIN
  FOREACH s IN ARRAY ss LOOP
    b := NULL; code := NULL; msg := NULL;
    BEGIN b := convert_to(s, e);
    EXCEPTION WHEN others THEN GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    END;
    RETURN NEXT;
  END LOOP;
END $$ LANGUAGE plpgsql;`

// pgResult is one conversion by PostgreSQL: its output or its error.
type pgResult struct {
	out       []byte
	code, msg string
}

func pgFrom(t *testing.T, conn *pgx.Conn, enc string, in [][]byte) []pgResult {
	t.Helper()
	rows, err := conn.Query(context.Background(), "SELECT t, code, msg FROM pgenc_from($1, $2)", enc, in)
	return collect(t, rows, err, len(in))
}

func pgTo(t *testing.T, conn *pgx.Conn, enc string, in []string) []pgResult {
	t.Helper()
	if len(in) == 0 {
		return nil
	}
	rows, err := conn.Query(context.Background(), "SELECT b, code, msg FROM pgenc_to($1, $2)", enc, in)
	return collect(t, rows, err, len(in))
}

func collect(t *testing.T, rows pgx.Rows, err error, n int) []pgResult {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	res := make([]pgResult, 0, n)
	for rows.Next() {
		var out []byte
		var code, msg *string
		if err := rows.Scan(&out, &code, &msg); err != nil {
			t.Fatal(err)
		}
		r := pgResult{out: out}
		if code != nil {
			r.code, r.msg = *code, *msg
		}
		res = append(res, r)
	}
	if rows.Err() != nil || len(res) != n {
		t.Fatalf("%d results of %d: %v", len(res), n, rows.Err())
	}
	return res
}

// candidates are the byte strings whose conversion to UTF8 is compared
// with PostgreSQL's: every two-byte string with a high first byte, and
// the longer forms the encoding has, valid or not.
func candidates(enc string) [][]byte {
	var out [][]byte
	for a := 0x80; a <= 0xff; a++ {
		for b := 1; b <= 0xff; b++ {
			out = append(out, []byte{byte(a), byte(b)})
		}
		out = append(out, []byte{byte(a)}, []byte{byte(a), 'x', 'y', 'z'})
	}
	euc := func(lead ...byte) {
		for b := 0xa1; b <= 0xfe; b++ {
			for c := 0xa1; c <= 0xfe; c++ {
				out = append(out, append(append([]byte{}, lead...), byte(b), byte(c)))
			}
		}
		for b := 1; b <= 0xff; b++ {
			out = append(out, append(append([]byte{}, lead...), byte(b), 0xa1), append(append([]byte{}, lead...), 0xa1, byte(b)))
		}
	}
	switch enc {
	case "EUC_JP", "EUC_JIS_2004", "JOHAB":
		euc(ss3)
	case "EUC_TW":
		for p := 0xa1; p <= 0xa7; p++ {
			euc(ss2, byte(p))
		}
		for b := 1; b <= 0xff; b++ {
			out = append(out, []byte{ss2, byte(b), 0xa1, 0xa1}, []byte{ss3, byte(b), 0xa1})
		}
	case "GB18030":
		for a := 0x81; a <= 0x84; a++ {
			for b := 0x30; b <= 0x39; b++ {
				for c := 0x81; c <= 0xfe; c++ {
					for d := 0x30; d <= 0x39; d++ {
						out = append(out, []byte{byte(a), byte(b), byte(c), byte(d)})
					}
				}
			}
		}
		for _, a := range []byte{0x80, 0x85, 0x8f, 0x90, 0xe3, 0xe4, 0xfe, 0xff} {
			for b := 0x2f; b <= 0x3a; b++ {
				for c := 0x80; c <= 0xff; c += 7 {
					out = append(out, []byte{a, byte(b), byte(c), 0x30}, []byte{a, byte(b), byte(c), 0x39}, []byte{a, byte(b), byte(c), 0x3a})
				}
			}
		}
		out = append(out, []byte{0xe3, 0x32, 0x9a, 0x35}, []byte{0xe3, 0x32, 0x9a, 0x36}, []byte{0x81, 0x30})
	}
	return out
}

// codePoints are the code points whose conversion from UTF8 is compared
// with PostgreSQL's: all of them when generating; else every one in a
// block of 256 where the table has one, and a sample of the others.
func codePoints(m *multiByte, all bool) []rune {
	blocks := map[rune]bool{}
	if m != nil {
		for _, s := range m.dec {
			for _, r := range s {
				blocks[r>>8] = true
			}
		}
		for r := range m.enc {
			blocks[r>>8] = true
		}
	}
	var out []rune
	for r := rune(0x80); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		if all || blocks[r>>8] || r%251 == 0 || r < 0x10000 && r%37 == 0 {
			out = append(out, r)
		}
	}
	return out
}

// TestTablesMatchPostgres converts, for every multi-byte encoding, every
// candidate byte string to UTF8 and every code point (or, without
// -generate, those near the table's) back, here and with PostgreSQL: the
// results, or the errors' SQLSTATEs and messages, must be the same. With
// -generate it first rewrites the tables from PostgreSQL's answers.
func TestMultiByteTablesMatchPostgres(t *testing.T) {
	srv := pgtest.Start(t)
	var names []string
	for name := range multiBytes {
		names = append(names, name)
	}
	sort.Strings(names)
	var wg sync.WaitGroup
	for _, name := range names {
		conn := srv.Conn(t)
		if _, err := conn.Exec(context.Background(), sweepFuncs); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(name, func(t *testing.T) {
				// The tables are embedded: after -generate, run the test
				// again to check them.
				if *generate {
					generateTable(t, conn, name)
					return
				}
				checkTable(t, conn, name)
			})
		}()
	}
	wg.Wait()
}

func generateTable(t *testing.T, conn *pgx.Conn, enc string) {
	var dec []decEntry
	first := map[rune]uint32{}
	var pairs []pairEntry
	in := candidates(enc)
	for i, r := range pgFrom(t, conn, enc, in) {
		if r.code != "" {
			continue
		}
		// Only candidates that are one character.
		rs := []rune(string(r.out))
		if in[i][0] < 0x80 || multiBytes[enc].clen(in[i]) != len(in[i]) || len(rs) == 0 || len(rs) > 2 {
			continue
		}
		e := decEntry{seq: pack(in[i]), r: [2]rune{rs[0]}}
		if len(rs) == 2 {
			e.r[1] = rs[1]
			pairs = append(pairs, pairEntry{r: e.r, seq: e.seq})
		} else if _, ok := first[rs[0]]; !ok || e.seq < first[rs[0]] {
			first[rs[0]] = e.seq
		}
		if enc == "GB18030" && len(in[i]) == 4 && rs[0] >= 0x10000 {
			continue
		}
		dec = append(dec, e)
	}
	sort.Slice(dec, func(i, j int) bool { return dec[i].seq < dec[j].seq })
	// The pairs PostgreSQL converts back.
	var ps []string
	for _, p := range pairs {
		ps = append(ps, string(p.r[:]))
	}
	var keep []pairEntry
	for i, r := range pgTo(t, conn, enc, ps) {
		if r.code == "" {
			keep = append(keep, pairEntry{r: pairs[i].r, seq: pack(r.out)})
		}
	}
	var enc2 []encEntry
	cps := codePoints(nil, true)
	strs := make([]string, len(cps))
	for i, r := range cps {
		strs[i] = string(r)
	}
	for i, r := range pgTo(t, conn, enc, strs) {
		cp := cps[i]
		if enc == "GB18030" && cp >= 0x10000 {
			continue
		}
		want, ok := first[cp]
		switch {
		case r.code == "" && (!ok || pack(r.out) != want):
			enc2 = append(enc2, encEntry{r: cp, seq: pack(r.out)})
		case r.code != "" && ok:
			enc2 = append(enc2, encEntry{r: cp})
		}
	}
	var buf bytes.Buffer
	if err := writeTable(&buf, dec, enc2, keep); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("tables/"+enc+".bin", buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	mbMu.Lock()
	delete(mbCache, enc)
	mbMu.Unlock()
	t.Logf("%s: %d characters, %d one-way, %d pairs, %d bytes", enc, len(dec), len(enc2), len(keep), buf.Len())
}

func checkTable(t *testing.T, conn *pgx.Conn, enc string) {
	e, err := Get(enc)
	if err != nil {
		t.Fatal(err)
	}
	in := candidates(enc)
	for i, r := range pgFrom(t, conn, enc, in) {
		got, err := e.ToUTF8(nil, in[i])
		same(t, enc, in[i], got, err, r)
	}
	cps := codePoints(e.mb, *generate)
	strs := make([]string, 0, len(cps)+len(e.mb.pairs))
	for _, r := range cps {
		strs = append(strs, string(r))
	}
	for p := range e.mb.pairs {
		strs = append(strs, string(p[:]), string(p[:1])+"x")
	}
	for i, r := range pgTo(t, conn, enc, strs) {
		got, err := e.FromUTF8(nil, []byte(strs[i]))
		same(t, enc, []byte(strs[i]), got, err, r)
	}
}

func same(t *testing.T, enc string, in, got []byte, err error, pg pgResult) {
	t.Helper()
	if pg.code == "" {
		if err != nil || !bytes.Equal(got, pg.out) {
			t.Fatalf("%s % x: got %q %v, PostgreSQL %q", enc, in, got, err, pg.out)
		}
		return
	}
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pgerr.Code(err) != pg.code || pe.Message != pg.msg {
		t.Fatalf("%s % x: got %q %v, PostgreSQL %s %s", enc, in, got, err, pg.code, pg.msg)
	}
}
