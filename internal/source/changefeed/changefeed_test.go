package changefeed_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/source"
	"github.com/deltaview/deltaview/internal/source/changefeed"
	"github.com/deltaview/deltaview/internal/value"
)

// table reads "name:type …" as a table t keyed by key.
func table(t testing.TB, cols, key []string) *source.Table {
	st := &source.Table{Name: "t"}
	for i, c := range cols {
		name, typ, ok := strings.Cut(c, ":")
		if !ok {
			t.Fatalf("column %q has no type", c)
		}
		ty, err := value.TypeFromName(typ, nil)
		if err != nil {
			t.Fatal(err)
		}
		st.Columns = append(st.Columns, source.Column{Name: name, Type: ty})
		for _, k := range key {
			if k == name {
				st.Key = append(st.Key, i)
			}
		}
	}
	return st
}

// decode reads all of d and prints each transaction's changes with their
// lines, and an error with its code, detail and hint.
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
		fmt.Fprintf(&b, "transaction of %d\n", batch.Len())
		for i, c := range batch.Changes {
			fmt.Fprintf(&b, " line %d: %s\n", batch.Lines[i], delta.Format(c))
		}
	}
	return b.String()
}

// TestDataDriven runs testdata/*.txt:
//
//	debezium|upsert cols=(name:type,…) key=(name,…)
//	<one event a line>
//
// prints the source transactions decoded from the events.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if !strings.HasSuffix(path, ".txt") { // testdata/fuzz holds the fuzz corpora
			return
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			var cols, key []string
			d.ScanArgs(t, "cols", &cols)
			d.ScanArgs(t, "key", &key)
			f := changefeed.Debezium
			switch d.Cmd {
			case "debezium":
			case "upsert":
				f = changefeed.Upsert
			default:
				t.Fatalf("%s: unknown command %s", d.Pos, d.Cmd)
			}
			dec, err := changefeed.NewDecoder(strings.NewReader(d.Input), table(t, cols, key), f)
			if err != nil {
				return fmt.Sprintf("error %s: %s\n", pgerr.Code(err), err)
			}
			return decode(dec)
		})
	})
}

// fuzz decodes arbitrary input: no panic, every error has a SQLSTATE and
// a message in the project's words, and every change is well formed for
// the table (delta.Schema.Validate) and holds valid text. The seed corpora
// (testdata/fuzz) run with the tests; a long run:
//
//	go test ./internal/source/changefeed -run XXX -fuzz FuzzDebezium -fuzztime 30m
func fuzz(t *testing.T, f changefeed.Format, in string) {
	st := table(t, []string{"id:int4", "name:text", "n:numeric"}, []string{"id"})
	s, err := st.Schema()
	if err != nil {
		t.Fatal(err)
	}
	d, err := changefeed.NewDecoder(strings.NewReader(in), st, f)
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := d.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if pgerr.Code(err) == pgerr.Internal {
				t.Fatalf("an error without a SQLSTATE: %v", err)
			}
			for _, w := range []string{"Go value", "Go struct", "json: cannot", "map[string]", "%!"} { // the decoder's and fmt's words
				if m := err.Error(); strings.Contains(m, w) && !strings.Contains(in, w) {
					t.Fatalf("a message in the implementation's words: %s", m)
				}
			}
			return
		}
		if b.More || len(b.Rows) > 0 || len(b.Changes) == 0 || len(b.Lines) != len(b.Changes) {
			t.Fatalf("malformed batch: %d changes, %d rows, %d lines, more=%v", len(b.Changes), len(b.Rows), len(b.Lines), b.More)
		}
		for _, c := range b.Changes {
			if err := s.Validate(c); err != nil {
				t.Fatalf("%s: %v", delta.Format(c), err)
			}
			if f := delta.Format(c); !utf8.ValidString(f) || strings.IndexByte(f, 0) >= 0 {
				t.Fatalf("%q: invalid text", f)
			}
		}
	}
}

func FuzzDebezium(f *testing.F) {
	for _, s := range []string{
		`{"op":"c","after":{"id":1,"name":"a","n":1.5}}`,
		`{"schema":{},"payload":{"op":"u","before":null,"after":{"id":1,"name":"b","n":"__debezium_unavailable_value"},"source":{"txId":7}}}`,
		`{"op":"u","before":{"id":1,"name":"a","n":1},"after":{"id":2,"name":"a","n":1},"transaction":{"id":"x:1"}}`,
		`{"op":"u","before":{"id":1},"after":{"id":1,"name":"a","n":null}}` + "\n" + `{"op":"d","before":{"id":1}}`,
		`{"op":"d","before":{"id":1,"name":"a","n":2}}`,
		`{"payload":null}` + "\nnull\n\n" + `{"op":"r","after":{"id":3,"name":null,"n":0}}`,
		`{"op":"x"}`,
		`{"op":"c","after":{"id":"one"}}`,
		`[1,2]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) { fuzz(t, changefeed.Debezium, in) })
}

func FuzzUpsert(f *testing.F) {
	for _, s := range []string{
		`{"key":1,"value":{"name":"a","n":1}}`,
		`{"key":{"id":2},"value":{"id":2,"name":null,"n":"2.50"}}`,
		`{"key":3,"value":null}` + "\n" + `{"key":3}`,
		`{"key":{"id":4,"name":"x"},"value":null}`,
		`{"key":5,"value":{"id":6,"name":"a","n":1}}`,
		`{"key":null,"value":null}`,
		`{"value":{}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) { fuzz(t, changefeed.Upsert, in) })
}

// A table without a primary key has no decoder of change events.
func TestNoKey(t *testing.T) {
	_, err := changefeed.NewDecoder(strings.NewReader(""), table(t, []string{"a:int4"}, nil), changefeed.Debezium)
	if pgerr.Code(err) != pgerr.InvalidTableDef {
		t.Fatalf("got %v", err)
	}
}
