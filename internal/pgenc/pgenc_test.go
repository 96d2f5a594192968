package pgenc_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// singleByte are the encodings that convert.
var singleByte = []string{"LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9",
	"LATIN10", "ISO_8859_5", "ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "WIN1250", "WIN1251", "WIN1252", "WIN1253",
	"WIN1254", "WIN1255", "WIN1256", "WIN1257", "WIN1258", "WIN866", "WIN874", "KOI8R", "KOI8U"}

// TestTablesMatchPostgres converts every byte of every single-byte
// encoding to UTF8 and back, here and with PostgreSQL's convert_from and
// convert_to: the characters, or the errors' SQLSTATEs and messages,
// must be the same.
func TestTablesMatchPostgres(t *testing.T) {
	conn := pgtest.Start(t).Conn(t)
	ctx := context.Background()
	for _, name := range singleByte {
		enc, err := pgenc.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for b := 0; b < 256; b++ {
			got, gerr := enc.ToUTF8(nil, []byte{byte(b)})
			var want string
			werr := conn.QueryRow(ctx, "SELECT convert_from($1::bytea, $2)", []byte{byte(b)}, name).Scan(&want)
			sameError(t, name, b, gerr, werr)
			if gerr != nil {
				continue
			}
			if string(got) != want {
				t.Fatalf("%s 0x%02x: got %q, PostgreSQL %q", name, b, got, want)
			}
			back, err := enc.FromUTF8(nil, got)
			var pgBack []byte
			perr := conn.QueryRow(ctx, "SELECT convert_to($1, $2)", want, name).Scan(&pgBack)
			sameError(t, name, b, err, perr)
			if err == nil && !bytes.Equal(back, pgBack) {
				t.Fatalf("%s 0x%02x back: got %x, PostgreSQL %x", name, b, back, pgBack)
			}
		}
		// A character the encoding lacks.
		_, gerr := enc.FromUTF8(nil, []byte("a\u4e2d"))
		var pgBack []byte
		sameError(t, name, -1, gerr, conn.QueryRow(ctx, "SELECT convert_to($1, $2)", "a\u4e2d", name).Scan(&pgBack))
	}
}

func sameError(t *testing.T, name string, b int, got, pg error) {
	t.Helper()
	var pe *pgconn.PgError
	if pg != nil && !errors.As(pg, &pe) {
		t.Fatal(pg)
	}
	switch {
	case got == nil && pe == nil:
	case got == nil || pe == nil:
		t.Fatalf("%s 0x%02x: error %v, PostgreSQL's %v", name, b, got, pg)
	case pgerr.Code(got) != pe.Code || pgerr.Wrap(got).Message != pe.Message:
		t.Fatalf("%s 0x%02x: %s %v, PostgreSQL %s %s", name, b, pgerr.Code(got), got, pe.Code, pe.Message)
	}
}

func TestLookup(t *testing.T) {
	for in, want := range map[string]string{"latin-1": "LATIN1", "ISO_8859_15": "LATIN9", "Windows-1252": "WIN1252",
		"utf-8": "UTF8", "unicode": "UTF8", "koi8": "KOI8R", "sql_ascii": "SQL_ASCII", "EUC_JP": "EUC_JP"} {
		if got, ok := pgenc.Lookup(in); !ok || got != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := pgenc.Lookup("nope"); ok {
		t.Error("Lookup(nope) found an encoding")
	}
	if e, err := pgenc.Get("UTF8"); e != nil || err != nil {
		t.Errorf("Get(UTF8) = %v, %v", e, err)
	}
	if _, err := pgenc.Get("MULE_INTERNAL"); pgerr.Code(err) != pgerr.FeatureNotSupported {
		t.Errorf("Get(MULE_INTERNAL) = %v, want 0A000", err)
	}
}

// TestReaderStopsAtBadByte reads what precedes a byte that does not
// convert, then its error, however the input is cut.
func TestReaderStopsAtBadByte(t *testing.T) {
	enc, _ := pgenc.Get("WIN1252")
	in := strings.Repeat("ab\x80\n", 5000) + "x\x81y"
	r := enc.NewReader(io.MultiReader(strings.NewReader(in[:7]), strings.NewReader(in[7:])))
	got, err := io.ReadAll(r)
	if pgerr.Code(err) != "22P05" {
		t.Fatalf("error %v, want 22P05", err)
	}
	want := strings.Repeat("ab€\n", 5000) + "x"
	if string(got) != want || !utf8.Valid(got) {
		t.Fatalf("read %d bytes, want %d", len(got), len(want))
	}
	if _, err := r.Read(make([]byte, 8)); pgerr.Code(err) != "22P05" {
		t.Fatalf("read after the error: %v", err)
	}
}

// TestReaderJoinsCutCharacters reads a multi-byte encoding a byte at a
// time: a character cut between two reads converts whole.
func TestReaderJoinsCutCharacters(t *testing.T) {
	for enc, in := range map[string]string{"EUC_JP": "a\xa4\xa2\x8e\xb1b\x8f\xb0\xa1", "GB18030": "\x81\x30\x81\x30\x90\x30\x81\x30\xb0\xa1",
		"SJIS": "\x82\xa0\xb1x\x82\xa0"} {
		e, err := pgenc.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := e.ToUTF8(nil, []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(e.NewReader(iotest.OneByteReader(strings.NewReader(in))))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: read %q, %v; want %q", enc, got, err, want)
		}
		// Cut short at the end: the last character's bytes are invalid.
		_, err = io.ReadAll(e.NewReader(iotest.OneByteReader(strings.NewReader(in[:len(in)-1]))))
		if pgerr.Code(err) != pgerr.CharacterNotInRepertoire {
			t.Errorf("%s cut short: %v, want 22021", enc, err)
		}
	}
}
