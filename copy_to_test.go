package deltaview_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestCopyToFile: COPY … TO 'file' writes through the CreateFile the
// program sets, an absolute path only; without one it is refused, and
// COPY … TO STDOUT hands its data to the script's caller.
func TestCopyToFile(t *testing.T) {
	dir := t.TempDir()
	var created []string
	db := deltaview.OpenWith(deltaview.Options{CreateFile: func(name string) (io.WriteCloser, error) {
		created = append(created, name)
		return os.Create(name)
	}})
	s := db.Session()
	if err := s.Exec(`CREATE TABLE t (a int PRIMARY KEY, b text); INSERT INTO t VALUES (1, 'one, two'), (2, NULL)`); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.csv")
	var tags []string
	err := s.Run(`COPY t TO '`+path+`' WITH (FORMAT csv, HEADER)`, func(r *deltaview.Result) error {
		tags = append(tags, r.Tag)
		if r.CopyOut != nil {
			t.Errorf("COPY to a file hands data back: %q", r.CopyOut)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a,b\n1,\"one, two\"\n2,\n"; string(got) != want || len(created) != 1 || tags[0] != "COPY 2" {
		t.Fatalf("file %q (want %q), created %v, tags %v", got, want, created, tags)
	}

	err = s.Exec(`COPY t TO 'relative.csv'`)
	if code := deltaview.Code(err); code != "42602" || len(created) != 1 {
		t.Fatalf("relative path: %v (%s), created %v", err, code, created)
	}

	var out strings.Builder
	if err := s.Run(`COPY (SELECT b FROM t ORDER BY a) TO STDOUT`, func(r *deltaview.Result) error {
		return r.Print(&out, deltaview.PrintOptions{})
	}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "one, two\n\\N\n" {
		t.Fatalf("COPY TO STDOUT printed %q", out.String())
	}

	plain := deltaview.Open().Session()
	if err := plain.Exec(`CREATE TABLE t (a int)`); err != nil {
		t.Fatal(err)
	}
	err = plain.Exec(`COPY t TO '` + filepath.Join(dir, "never.csv") + `'`)
	if code := deltaview.Code(err); code != "42501" {
		t.Fatalf("without CreateFile: %v (%s)", err, code)
	}
	if _, err := os.Stat(filepath.Join(dir, "never.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file was written without CreateFile: %v", err)
	}
}
