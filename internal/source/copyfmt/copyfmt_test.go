package copyfmt_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unsafe"

	"github.com/cockroachdb/datadriven"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/source"
	"github.com/deltaview/deltaview/internal/source/copyfmt"
	"github.com/deltaview/deltaview/internal/value"
)

// table reads "name:type …" as a table t; default gives the text of every
// omitted column's default ("" for NULL).
func table(t testing.TB, cols []string, def string) *source.Table {
	st := &source.Table{Name: "t"}
	for _, c := range cols {
		name, typ, ok := strings.Cut(c, ":")
		if !ok {
			t.Fatalf("column %q has no type", c)
		}
		ty, err := value.TypeFromName(typ, nil)
		if err != nil {
			t.Fatal(err)
		}
		st.Columns = append(st.Columns, source.Column{Name: name, Type: ty})
	}
	if def != "" {
		st.Default = func(i int) (value.Value, error) { return value.Parse(def, st.Columns[i].Type) }
	}
	return st
}

// decode reads all of r and prints each batch: its rows with their lines,
// whether the transaction goes on, and an error with its code and detail.
func decode(d source.Decoder) string {
	var b strings.Builder
	for {
		batch, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *pgerr.Error
			if errors.As(err, &pe) {
				fmt.Fprintf(&b, "error %s: %s\n", pe.Code, pe.Message)
				if pe.Detail != "" {
					fmt.Fprintf(&b, "detail: %s\n", pe.Detail)
				}
				if pe.Context != "" {
					fmt.Fprintf(&b, "context: %s\n", pe.Context)
				}
			} else {
				fmt.Fprintf(&b, "error: %v\n", err)
			}
			break
		}
		fmt.Fprintf(&b, "batch of %d, more=%v\n", batch.Len(), batch.More)
		for i, r := range batch.Rows {
			fmt.Fprintf(&b, " line %d: %s\n", batch.Lines[i], r)
		}
	}
	return b.String()
}

// TestDataDriven runs testdata/*.txt:
//
//	decode cols=(name:type,…) [data=(name,…)] [csv] [header] [delimiter=c]
//	       [null=s] [quote=c] [escape=c] [default=text]
//	<input>
//
// prints the batches of rows decoded from the input (data: the columns
// the input holds, all by default; default: the text of every other
// column's value).
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if !strings.HasSuffix(path, ".txt") { // testdata/fuzz holds the fuzz corpora
			return
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			var cols []string
			d.ScanArgs(t, "cols", &cols)
			var def string
			d.MaybeScanArgs(t, "default", &def)
			st := table(t, cols, def)
			o := copyfmt.Options{Delimiter: '\t', Null: `\N`, Quote: '"', Escape: '"'}
			if d.HasArg("csv") {
				o.CSV, o.Delimiter, o.Null = true, ',', ""
			}
			o.Header = d.HasArg("header")
			for _, a := range []struct {
				name string
				b    *byte
			}{{"delimiter", &o.Delimiter}, {"quote", &o.Quote}, {"escape", &o.Escape}} {
				var s string
				if d.MaybeScanArgs(t, a.name, &s); s != "" {
					*a.b = s[0]
				}
			}
			d.MaybeScanArgs(t, "null", &o.Null)
			var data []string
			d.MaybeScanArgs(t, "data", &data)
			for i, c := range st.Columns {
				if data == nil || contains(data, c.Name) {
					o.Cols = append(o.Cols, i)
				}
			}
			return decode(copyfmt.NewDecoder(strings.NewReader(d.Input), st, o))
		})
	})
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestBatches checks that a long input comes in batches of BatchRows rows
// of one transaction, the last one ending it, and that the rows are the
// caller's to keep.
func TestBatches(t *testing.T) {
	var in strings.Builder
	const n = 2*copyfmt.BatchRows + 3
	for i := 0; i < n; i++ {
		fmt.Fprintf(&in, "%d\tname %d\n", i, i)
	}
	d := copyfmt.NewDecoder(strings.NewReader(in.String()), table(t, []string{"id:int4", "name:text"}, ""),
		copyfmt.Options{Delimiter: '\t', Null: `\N`, Cols: []int{0, 1}})
	var rows []value.Row
	var sizes []int
	for {
		b, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.More != (len(b.Rows) == copyfmt.BatchRows) {
			t.Errorf("batch of %d with more=%v", len(b.Rows), b.More)
		}
		sizes = append(sizes, len(b.Rows))
		rows = append(rows, b.Rows...)
	}
	if fmt.Sprint(sizes) != fmt.Sprintf("[%d %d 3]", copyfmt.BatchRows, copyfmt.BatchRows) {
		t.Errorf("batch sizes %v", sizes)
	}
	for i, r := range rows {
		if want := fmt.Sprintf("(%d, name %d)", i, i); r.String() != want {
			t.Fatalf("row %d is %s, want %s", i, r, want)
		}
	}
}

// A line longer than the reader's buffer is read whole.
func TestLongLine(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	d := copyfmt.NewDecoder(strings.NewReader("1,\""+long+"\n"+long+"\"\n"), table(t, []string{"id:int4", "s:text"}, ""),
		copyfmt.Options{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Cols: []int{0, 1}})
	b, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Rows) != 1 || b.Rows[0][1].String() != long+"\n"+long || b.Lines[0] != 1 {
		t.Fatalf("got %d rows", len(b.Rows))
	}
}

// FuzzDecode decodes arbitrary input in both formats: no panic, every
// error has a SQLSTATE, and every row has the table's arity, its columns'
// types (or NULL) and valid text. The seed corpus (testdata/fuzz) runs
// with the tests; a long run:
//
//	go test ./internal/source/copyfmt -run XXX -fuzz FuzzDecode -fuzztime 30m
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"1\ta\t1.5\n2\t\\N\t2\n3\ttab\\there\t\\N\n",
		"id,name,x\n4,\"quoted, \"\"with\"\" comma\",7\n5,\"two\nlines\",\n",
		"1,\"unterminated\n",
		"1\t2\n",
		"1\ta\t1\textra\n",
		"x\ty\tz\n",
		"\\\\\t\\N\t\\\n",
		"",
	} {
		f.Add(s, false, false)
		f.Add(s, true, true)
	}
	f.Fuzz(func(t *testing.T, in string, csv, header bool) {
		st := table(t, []string{"id:int4", "name:text", "x:numeric"}, "")
		o := copyfmt.Options{Delimiter: '\t', Null: `\N`, Quote: '"', Escape: '"', Header: header, Cols: []int{0, 1, 2}}
		if csv {
			o.CSV, o.Delimiter, o.Null = true, ',', ""
		}
		d := copyfmt.NewDecoder(strings.NewReader(in), st, o)
		for {
			b, err := d.Next()
			if err != nil {
				if err != io.EOF && pgerr.Code(err) == pgerr.Internal {
					t.Fatalf("an error without a SQLSTATE: %v", err)
				}
				return
			}
			if len(b.Lines) != len(b.Rows) {
				t.Fatalf("%d lines for %d rows", len(b.Lines), len(b.Rows))
			}
			for _, r := range b.Rows {
				if len(r) != len(st.Columns) {
					t.Fatalf("row %s of arity %d", r, len(r))
				}
				for i, v := range r {
					if !v.IsNull() && v.Kind() != st.Columns[i].Type.Kind {
						t.Fatalf("column %d of %s is a %v", i, r, v.Kind())
					}
					if v.Kind().IsString() && value.CheckText(v.Str()) != nil {
						t.Fatalf("column %d of %s is invalid text %q", i, r, v.Str())
					}
				}
			}
			if !b.More {
				return
			}
		}
	})
}

// Short strings that repeat share one allocation per distinct value, with
// the value each row would have had on its own (char(n) padded, varchar
// checked); a column whose strings do not repeat is read as ever.
func TestRepeatedStringsShared(t *testing.T) {
	var in strings.Builder
	const n = 10_000
	modes := []string{"AIR", "RAIL", "TRUCK", "SHIP"}
	for i := range n {
		fmt.Fprintf(&in, "%d\t%s\t%s\tcomment %d\n", i, modes[i%4], modes[(i+1)%4], i)
	}
	st := table(t, []string{"id:int4", "mode:text", "v:text", "c:text"}, "")
	st.Columns[1].Type = value.Type{Kind: value.Char, Mod: 10}
	st.Columns[2].Type = value.Type{Kind: value.Varchar, Mod: 5}
	d := copyfmt.NewDecoder(strings.NewReader(in.String()), st,
		copyfmt.Options{Delimiter: '\t', Null: `\N`, Cols: []int{0, 1, 2, 3}})
	var rows []value.Row
	for {
		b, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, b.Rows...)
	}
	if len(rows) != n {
		t.Fatalf("%d rows, want %d", len(rows), n)
	}
	distinct := map[*byte]bool{}
	for i, r := range rows {
		want := fmt.Sprintf("(%d, %-10s, %s, comment %d)", i, modes[i%4], modes[(i+1)%4], i)
		if r.String() != want {
			t.Fatalf("row %d is %s, want %s", i, r, want)
		}
		distinct[unsafe.StringData(r[1].Str())] = true
		distinct[unsafe.StringData(r[2].Str())] = true
	}
	if len(distinct) != 2*len(modes) {
		t.Errorf("two columns of %d distinct strings are held in %d allocations", len(modes), len(distinct))
	}
}
