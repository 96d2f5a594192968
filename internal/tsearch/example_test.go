package tsearch_test

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/tsearch"
)

func ExampleParse() {
	tsearch.Parse("see http://pg.org/docs", func(t tsearch.Token) {
		fmt.Printf("%s %q\n", tsearch.TokenTypes[t.Type-1].Alias, t.Text)
	})
	// Output:
	// asciiword "see"
	// blank " "
	// protocol "http://"
	// url "pg.org/docs"
	// host "pg.org"
	// url_path "/docs"
}

func ExampleConfig_Lexemes() {
	tsearch.English.Lexemes("The cats were running, 42 times!", func(l string) { fmt.Println(l) })
	// Output:
	// cat
	// run
	// 42
	// time
}

func ExampleConfig_ToVector() {
	v := tsearch.English.ToVector("The fat rats")
	q, _ := tsearch.English.ToQuery("fat <-> rats")
	fmt.Println(string(v.AppendText(nil)))
	fmt.Println(string(q.AppendText(nil)))
	fmt.Println(tsearch.Match(v, q))
	// Output:
	// 'fat':2 'rat':3
	// 'fat' <-> 'rat'
	// true
}

func ExampleConfig_Headline() {
	q, _ := tsearch.English.ToQuery("fox & cats")
	o, _ := tsearch.ParseHeadlineOptions("MaxWords=5, MinWords=2, StartSel=[, StopSel=]")
	fmt.Println(tsearch.English.Headline("The quick brown fox jumps over the lazy cat", q, o))
	_, err := tsearch.ParseHeadlineOptions("MaxWords=2, MinWords=2")
	fmt.Println(err)
	// Output:
	// [fox] jumps over the lazy
	// MinWords should be less than MaxWords
}

func ExampleStat() {
	for _, s := range tsearch.Stat([]tsearch.Vector{tsearch.English.ToVector("fat cats, fat rats"), tsearch.English.ToVector("a cat")}, 0) {
		fmt.Println(s.Word, s.NDoc, s.NEntry)
	}
	// Output:
	// cat 2 2
	// fat 1 2
	// rat 1 1
}
