package copyfmt_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/source/copyfmt"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestTextMatchesPostgres decodes random text-format records, dense in
// backslash escapes, delimiters and bytes that are not valid text, both
// here and with PostgreSQL's COPY FROM STDIN: the stored text, or the
// error's SQLSTATE, must be the same.
func TestTextMatchesPostgres(t *testing.T) {
	conn := pgtest.Start(t).Conn(t)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "CREATE TABLE t (id int, s text)"); err != nil {
		t.Fatal(err)
	}
	pieces := []string{"a", "\\", "\\", "0", "1", "7", "8", "x", "A", "f", "g", "n", "t", "N", "b", "v",
		"\t", ",", "é", "\xff", "\xc3", "\\N", "\\x", "\\0", "\\1", "\\x4", "\\xe9", "\\303\\251", "."}
	rng := rand.New(rand.NewPCG(1, 2))
	tab := table(t, []string{"id:int4", "s:text"}, "")
	for i := 0; i < 500; i++ {
		var b strings.Builder
		for n := rng.IntN(8); n >= 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		field := b.String()
		if field == `\.` || strings.HasSuffix(field, "\\") {
			continue // the end-of-data marker; a backslash before the line end
		}
		line := "1\t" + field + "\n"

		var want string
		_, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(line), "COPY t FROM STDIN")
		if err != nil {
			var pe *pgconn.PgError
			if !errors.As(err, &pe) {
				t.Fatal(err)
			}
			want = "error " + pe.Code
		} else {
			var s *string
			if err := conn.QueryRow(ctx, "SELECT s FROM t").Scan(&s); err != nil {
				t.Fatal(err)
			}
			want = "NULL"
			if s != nil {
				want = "text " + *s
			}
			if _, err := conn.Exec(ctx, "DELETE FROM t"); err != nil {
				t.Fatal(err)
			}
		}

		var got string
		d := copyfmt.NewDecoder(strings.NewReader(line), tab, copyfmt.Options{Delimiter: '\t', Null: `\N`, Cols: []int{0, 1}})
		batch, err := d.Next()
		switch {
		case err != nil:
			got = "error " + pgerr.Code(err)
		case batch.Rows[0][1].IsNull():
			got = "NULL"
		default:
			got = "text " + batch.Rows[0][1].String()
		}
		if got != want {
			t.Fatalf("%q: got %q, PostgreSQL %q", line, got, want)
		}
	}
}
