package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestCopyMultidimArrays loads arrays of several dimensions and lower
// bounds through COPY in the text and CSV formats, and a ragged one fails
// the whole COPY with 22P02.
func TestCopyMultidimArrays(t *testing.T) {
	e := engine.New()
	out, _, err := runScript(e, `CREATE TABLE t (id int PRIMARY KEY, a int[], s text[]);
COPY t FROM STDIN;
1	{{1,2},{3,NULL}}	[0:1]={"a b",c}
2	[0:0][2:3]={{5,6}}	{{{x}}}
\.
COPY t FROM STDIN WITH (FORMAT csv);
3,"{{7},{8}}","{{""q,r""}}"
\.
SELECT id, a, s, array_dims(a), a[2][1] FROM t ORDER BY id;
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `CREATE TABLE
COPY 2
COPY 1
id,a,s,array_dims,a
1,"{{1,2},{3,NULL}}","[0:1]={""a b"",c}",[1:2][1:2],3
2,"[0:0][2:3]={{5,6}}",{{{x}}},[0:0][2:3],NULL
3,"{{7},{8}}","{{""q,r""}}",[1:2][1:1],8
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	_, _, err = runScript(e, "COPY t FROM STDIN;\n4\t{{1,2},{3}}\t{}\n\\.\n")
	if c := code(err); c != "22P02" {
		t.Errorf("a ragged array: %v", err)
	}
}
