package engine_test

import (
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
