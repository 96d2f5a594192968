package tsearch

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
)

// TestParseDump prints the tokens of each line of $TSEARCH_DUMP (a development aid).
func TestParseDump(t *testing.T) {
	f := os.Getenv("TSEARCH_DUMP")
	if f == "" {
		t.Skip()
	}
	in, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if os.Getenv("TSEARCH_HEX") != "" {
			b, _ := hex.DecodeString(line)
			line = string(b)
			Parse(line, func(tk Token) { fmt.Printf("%d|%d|%x\n", n, tk.Type, tk.Text) })
			continue
		}
		Parse(line, func(tk Token) { fmt.Printf("%d|%d|%s\n", n, tk.Type, tk.Text) })
	}
}

// TestStemDump prints the english_stem lexeme of each line of $TSEARCH_STEM (a development aid).
func TestStemDump(t *testing.T) {
	f := os.Getenv("TSEARCH_STEM")
	if f == "" {
		t.Skip()
	}
	in, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		l, ok := EnglishStem.Lexize(sc.Text())
		if !ok {
			l = "{}"
		}
		fmt.Printf("%s|%s\n", sc.Text(), l)
	}
}
