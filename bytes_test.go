package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// bytea and uuid columns take typed values and text through transactions,
// and views maintain them.
func TestBytesColumns(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE blobs (id uuid PRIMARY KEY, data bytea, flags bit(2));
		CREATE MATERIALIZED VIEW sums AS SELECT id, encode(sha256(data), 'hex') AS h, length(data) AS n, flags FROM blobs`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	id := [16]byte{15: 1}
	if err := tx.Insert("blobs", deltaview.UUID(id), deltaview.Bytea([]byte("abc")), deltaview.Text("10")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("blobs", deltaview.Text("ffffffff-0000-0000-0000-000000000000"), deltaview.Text(`\x00ff`), deltaview.Null); err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("blobs", deltaview.Text("{00000000-0000-0000-0000-000000000002}"), deltaview.Null, deltaview.Text("101")); err == nil {
		t.Error("bit(2) took three bits")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.View("sums")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[00000000-0000-0000-0000-000000000001 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad 3 10] " +
		"[ffffffff-0000-0000-0000-000000000000 06eb7d6a69ee19e5fbdf749018d3d2abfa04bcbd1365db312eb86dc7169389b8 2 NULL]]"
	if got := fmt.Sprint(rows.Rows); got != want {
		t.Errorf("sums = %s\nwant %s", got, want)
	}
}
