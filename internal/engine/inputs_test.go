package engine_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestCopyTextEscapes: the text format's octal and hex escapes were not
// decoded (a\101b was stored as a101b); a decoded NUL or invalid UTF-8 is
// 22021 and applies nothing.
func TestCopyTextEscapes(t *testing.T) {
	e := engine.New()
	out, _, err := runScript(e, "CREATE TABLE t (id int PRIMARY KEY, s text);\n"+
		"COPY t FROM STDIN;\n1\ta\\101b\n2\t\\x41\\x4a\n3\t\\101\\1010\n\\.\n"+
		"SELECT s FROM t ORDER BY id;\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "CREATE TABLE\nCOPY 3\ns\naAb\nAJ\nAA0\n"; out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	for _, data := range []string{"4\ta\\0b", "4\ta\\xffb", "4\ta\\303", "4\ta\x00b", "4\ta\xffb"} {
		_, _, err := runScript(e, "COPY t FROM STDIN;\n"+data+"\n\\.\n")
		if code(err) != "22021" {
			t.Fatalf("%q: got %v, want 22021", data, err)
		}
	}
	out, _, err = runScript(e, "SELECT count(*) FROM t")
	if err != nil || out != "count\n3\n" {
		t.Fatalf("after the failed copies: %q %v", out, err)
	}
}

// TestCopyInvalidText: COPY csv and text, and the change-event formats,
// took invalid UTF-8 and NUL into tables; PostgreSQL refuses both (22021).
func TestCopyInvalidText(t *testing.T) {
	e := engine.New()
	if _, _, err := runScript(e, "CREATE TABLE t (id int PRIMARY KEY, s text);\n"+
		"CREATE TABLE c (id int PRIMARY KEY, s text) WITH (change_stream = true);\n"+
		"CREATE MATERIALIZED VIEW v AS SELECT c.id, c.s FROM c;\n"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ copy, data, msg string }{
		{"COPY t FROM STDIN WITH (FORMAT csv)", "1,a\xffb", `invalid byte sequence for encoding "UTF8": 0xff`},
		{"COPY t FROM STDIN WITH (FORMAT csv)", "1,\"a\x00b\"", `invalid byte sequence for encoding "UTF8": 0x00`},
		{"COPY t FROM STDIN WITH (FORMAT csv)", "1,a\xc3", `invalid byte sequence for encoding "UTF8": 0xc3`},
		{"COPY t FROM STDIN", "1\ta\xe2\x82b", `invalid byte sequence for encoding "UTF8": 0xe2 0x82 0x62`},
		{"COPY t FROM STDIN", "1\ta\x00b", `invalid byte sequence for encoding "UTF8": 0x00`},
		{"COPY c FROM STDIN WITH (FORMAT debezium)", `{"op":"c","after":{"id":1,"s":"a` + "\xff" + `"}}`, `invalid byte sequence for encoding "UTF8": 0xff`},
		{"COPY c FROM STDIN WITH (FORMAT debezium)", `{"op":"c","after":{"id":1,"s":"a\u0000"}}`, `invalid byte sequence for encoding "UTF8": 0x00`},
		{"COPY c FROM STDIN WITH (FORMAT upsert)", `{"key":1,"value":{"s":"` + "\xf0\x9f" + `"}}`, `invalid byte sequence for encoding "UTF8": 0xf0 0x9f 0x22 0x7d`},
	} {
		_, _, err := runScript(e, tc.copy+";\n"+tc.data+"\n\\.\n")
		if code(err) != "22021" || !strings.HasSuffix(err.Error(), tc.msg) {
			t.Errorf("%s %q: got %v, want 22021 %s", tc.copy, tc.data, err, tc.msg)
		}
	}
	out, _, err := runScript(e, "SELECT count(*) FROM t; SELECT count(*) FROM v;")
	if err != nil || out != "count\n0\ncount\n0\n" {
		t.Fatalf("after the failed copies: %q %v", out, err)
	}
}
