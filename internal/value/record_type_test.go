package value

import (
	"sync"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Record types are interned: the same name and fields give the same Type,
// from any goroutine; different names, field names or field types do not.
func TestRecordTypeOfInterns(t *testing.T) {
	fs := []RecordField{{Name: "a", Type: Int4Type}, {Name: "b", Type: Type{Varchar, 3}}}
	want := RecordTypeOf("t", fs)
	var wg sync.WaitGroup
	got := make([]Type, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = RecordTypeOf("t", []RecordField{{Name: "a", Type: Int4Type}, {Name: "b", Type: Type{Varchar, 3}}})
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g != want {
			t.Fatalf("RecordTypeOf = %v, want %v", g, want)
		}
	}
	others := []Type{
		RecordTypeOf("", fs),
		RecordTypeOf("u", fs),
		RecordTypeOf("t", []RecordField{{Name: "a", Type: Int4Type}, {Name: "c", Type: Type{Varchar, 3}}}),
		RecordTypeOf("t", []RecordField{{Name: "a", Type: Int4Type}, {Name: "b", Type: Type{Varchar, 4}}}),
		RecordTypeOf("t", fs[:1]),
	}
	for i, o := range others {
		if o == want {
			t.Errorf("type %d equals t's", i)
		}
	}
	d := want.RecordDesc()
	if d.Name != "t" || len(d.Fields) != 2 || d.Fields[1] != fs[1] {
		t.Errorf("RecordDesc = %+v", d)
	}
	if f, i := d.Field("b"); i != 1 || f.Type != (Type{Varchar, 3}) {
		t.Errorf("Field(b) = %v, %d", f, i)
	}
	if _, i := d.Field("z"); i != -1 {
		t.Errorf("Field(z) = %d, want -1", i)
	}
	for _, c := range []struct {
		t    Type
		want string
	}{
		{want, "t"}, {ArrayTypeOf(want), "t[]"}, {others[0], "record"}, {ArrayTypeOf(others[0]), "record[]"},
		{RecordType, "record"},
	} {
		if got := c.t.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
	if !others[0].IsAnonymousRecord() || want.IsAnonymousRecord() || !RecordType.IsAnonymousRecord() {
		t.Error("IsAnonymousRecord")
	}
	if ArrayTypeOf(want).ElemType() != want || RecordType.RecordDesc() != nil {
		t.Error("ElemType or RecordDesc of record")
	}
}

// ParseRecord reads back what the record's text output writes.
func TestParseRecordRoundTrip(t *testing.T) {
	typ := RecordTypeOf("", []RecordField{{Name: "a", Type: TextType}, {Name: "b", Type: Int4Type}, {Name: "c", Type: TextType}})
	for _, s := range []string{"", " ", "x y", `a"b\c`, "(,)", "NULL", `""`, "\t"} {
		v := NewRecord([]Value{NewText(Text, s), NewInt(Int4, 7), Null})
		txt := v.String()
		got, err := ParseRecord(txt, typ)
		if err != nil {
			t.Fatalf("ParseRecord(%q): %v", txt, err)
		}
		if Compare(got, v) != 0 || !got.Fields()[2].IsNull() {
			t.Errorf("ParseRecord(%q) = %v, want %v", txt, got, v)
		}
	}
}

// Parse reads an array of a row type's records back from the array's
// text output, its elements quoted as array_out quotes them; the elements
// of record[] have no fields to read into (0A000).
func TestParseRecordArrayRoundTrip(t *testing.T) {
	typ := RecordTypeOf("t", []RecordField{{Name: "a", Type: TextType}, {Name: "b", Type: Int4Type}})
	for _, s := range []string{"", "x y", `a"b\c`, "(,)", "NULL", "{}"} {
		v := NewArray(ArrayOf(Record), []Value{NewRecord([]Value{NewText(Text, s), NewInt(Int4, 7)}), Null})
		txt := v.String()
		got, err := Parse(txt, ArrayTypeOf(typ))
		if err != nil {
			t.Fatalf("Parse(%q): %v", txt, err)
		}
		if Compare(got, v) != 0 || got.String() != txt {
			t.Errorf("Parse(%q) = %v, want %v", txt, got, v)
		}
	}
	if _, err := Parse(`{"(1,x)"}`, ArrayTypeOf(RecordType)); err == nil || err.(*pgerr.Error).Code != pgerr.FeatureNotSupported {
		t.Errorf("Parse of record[] = %v, want 0A000", err)
	}
}
