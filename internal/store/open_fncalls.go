package store

import (
	"regexp"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
)

// The defaults and checks of tables and domains may call user functions,
// which a table's definition binds at CREATE TABLE: the functions they
// name are recreated before them (earlyFunctions), the other functions
// in their place after the tables, where their bodies may read them.

// callName matches a name followed by an opening parenthesis, a call.
var callName = regexp.MustCompile(`(?i)"?([a-z_][a-z0-9_$]*)"?\s*\(`)

// earlyFunctions runs, through run, the stored functions whose names the
// statements defs call, and reports which entries ran. A function that
// cannot be made yet (its types are a table's) is left for its place.
func earlyFunctions(entries []Entry, defs []string, run func(Entry) error) map[int]bool {
	called := map[string]bool{}
	for _, d := range defs {
		for _, m := range callName.FindAllStringSubmatch(d, -1) {
			called[strings.ToLower(m[1])] = true
		}
	}
	done := map[int]bool{}
	for i, en := range entries {
		if en.Kind != engine.KindFunction {
			continue
		}
		name, _, _ := strings.Cut(en.Name, "(")
		if !called[name] {
			continue
		}
		if run(en) == nil {
			done[i] = true
		}
	}
	return done
}
