package pgenc

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/pgtest"
)

var directFull = flag.Bool("direct-full", false, "compare every candidate of the direct conversions with PostgreSQL, not a sample")

// convertFunc converts with PostgreSQL a list of byte strings from one
// encoding to another, one at a time, keeping each one's result or error.
const convertFunc = `
CREATE FUNCTION pgenc_convert(s text, d text, bs bytea[]) RETURNS TABLE(b bytea, code text, msg text) AS $$
DECLARE x bytea;
BEGIN
  FOREACH x IN ARRAY bs LOOP
    b := NULL; code := NULL; msg := NULL;
    BEGIN b := convert(x, s, d);
    EXCEPTION WHEN others THEN GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    END;
    RETURN NEXT;
  END LOOP;
END $$ LANGUAGE plpgsql;`

func pgConvert(t *testing.T, conn *pgx.Conn, src, dst string, in [][]byte) []pgResult {
	t.Helper()
	var res []pgResult
	for len(in) > 0 {
		k := min(len(in), 50000)
		rows, err := conn.Query(context.Background(), "SELECT b, code, msg FROM pgenc_convert($1, $2, $3)", src, dst, in[:k])
		res = append(res, collect(t, rows, err, k)...)
		in = in[k:]
	}
	return res
}

// directCandidates are the characters of src whose direct conversion is
// compared with PostgreSQL's: every valid one (for MULE_INTERNAL, every
// one of its official sets and of the private sets PostgreSQL uses, and
// a sample of the rest), and a few invalid ones.
func directCandidates(src string) [][]byte {
	var out [][]byte
	switch src {
	case "MULE_INTERNAL":
		hi := func(f func(b byte)) {
			for b := 0x80; b <= 0xff; b++ {
				f(byte(b))
			}
		}
		hi(func(a byte) {
			switch n := muleLead([]byte{a}); n {
			case 1:
				out = append(out, []byte{a})
			case 2:
				hi(func(b byte) { out = append(out, []byte{a, b}) })
			case 3:
				hi(func(b byte) { hi(func(c byte) { out = append(out, []byte{a, b, c}) }) })
			case 4:
				hi(func(b byte) {
					if b >= 0xf0 {
						hi(func(c byte) { hi(func(d byte) { out = append(out, []byte{a, b, c, d}) }) })
						return
					}
					out = append(out, []byte{a, b, 0xa1, 0xa1}, []byte{a, b, 0x80, 0xff})
				})
			}
		})
	default:
		c, err := Checker(src)
		if err != nil {
			panic(err)
		}
		if c.mb == nil {
			for b := 0x80; b <= 0xff; b++ {
				out = append(out, []byte{byte(b)})
			}
			break
		}
		for _, s := range candidates(src) {
			if c.Verify(s) == nil && c.mb.clen(s) == len(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// TestDirectMatchPostgres converts, for every direct conversion, every
// candidate character (a sample of them without -direct-full) here and
// with PostgreSQL: the results, or the errors' SQLSTATEs and messages,
// must be the same. With -generate it first rewrites the tables from
// PostgreSQL's answers.
func TestDirectMatchPostgres(t *testing.T) {
	srv := pgtest.Start(t)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, p := range DirectPairs() {
		conn := srv.Conn(t)
		if _, err := conn.Exec(context.Background(), convertFunc); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t.Run(p[0]+"-"+p[1], func(t *testing.T) {
				if *generate {
					generateDirect(t, conn, p[0], p[1])
					return
				}
				checkDirect(t, conn, p[0], p[1])
			})
		}()
	}
	wg.Wait()
}

func generateDirect(t *testing.T, conn *pgx.Conn, src, dst string) {
	in := directCandidates(src)
	c, _ := Checker(src)
	clen := singleLen
	if c.mb != nil {
		clen = c.mb.clen
	}
	conv := map[uint32]directEntry{}
	for i, r := range pgConvert(t, conn, src, dst, in) {
		s := in[i]
		if clen(s) != len(s) {
			continue // invalid: the verifier's error, checked by checkDirect
		}
		var e directEntry
		switch {
		case r.code == "":
			if len(r.out) == 0 || len(r.out) > 4 {
				t.Fatalf("%s to %s: % x converts to % x", src, dst, s, r.out)
			}
			e = directEntry{out: pack(r.out), n: uint8(len(r.out))}
		case r.code == codeUntranslatable && strings.HasSuffix(r.msg, fmt.Sprintf(" in encoding %q has no equivalent in encoding %q", src, dst)):
			e = directEntry{code: directUntranslatable, n: uint8(strings.Count(r.msg, "0x"))}
			if int(e.n) == len(s) {
				continue
			}
		case r.code == "22021" && strings.HasPrefix(r.msg, fmt.Sprintf("invalid byte sequence for encoding %q: ", src)):
			e = directEntry{code: directInvalid, n: uint8(strings.Count(r.msg, "0x"))}
		default:
			t.Fatalf("%s to %s: % x: %s %s", src, dst, s, r.code, r.msg)
		}
		conv[pack(s)] = e
	}
	var buf bytes.Buffer
	if err := writeDirect(&buf, conv); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(directFile(src, dst), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s to %s: %d candidates, %d entries, %d bytes", src, dst, len(in), len(conv), buf.Len())
}

func checkDirect(t *testing.T, conn *pgx.Conn, src, dst string) {
	d, err := GetDirect(src, dst)
	if err != nil || d == nil {
		t.Fatalf("GetDirect(%s, %s) = %v, %v", src, dst, d, err)
	}
	c, _ := Checker(src)
	all := directCandidates(src)
	var in [][]byte
	stride := max(1, len(all)/8000)
	for i, s := range all {
		if *directFull || i%stride == 0 {
			in = append(in, s)
		}
	}
	// Strings of several characters, ASCII among them, and invalid ones.
	for i := 0; i+3 < len(in); i += 97 {
		in = append(in, bytes.Join([][]byte{in[i], []byte("a"), in[i+1], in[i+2]}, nil), append([]byte("x"), in[i][:1]...))
	}
	for i, r := range pgConvert(t, conn, src, dst, in) {
		got, err := c.Verify(in[i]), error(nil)
		var out []byte
		if got == nil {
			out, err = d.Convert(nil, in[i])
		} else {
			err = got
		}
		same(t, src+" to "+dst, in[i], out, err, r)
	}
}
