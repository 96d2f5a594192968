package lint

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/deltaview/deltaview"

// rule is what one module package may import from the module.
type rule struct {
	why   string   // the package's place, in a few words
	deps  []string // module packages its non-test files import
	tests []string // further module packages its tests import
}

// allow lists, for every module package (relative to the module root; ""
// is the root package), exactly the module packages it imports. Imports
// point down the layers: the public API over the engine, the engine over
// the SQL front end, the compiler and the oracle, and those over the
// plan, the operators and the values. The list is tight: an import not
// listed, a listed one no file makes, and a listed package that does not
// exist all fail the test.
var allow = map[string]rule{
	"": {why: "the public Go API over the engine; links no database driver",
		deps:  []string{"internal/dbaccess", "internal/delta", "internal/engine", "internal/pgerr", "internal/resultfmt", "internal/sql", "internal/value", "internal/zset"},
		tests: []string{"bench", "internal/pgtest", "store"}},
	"bench": {why: "the benchmark harness: the public API only",
		deps: []string{""}},
	"cmd/deltaview": {why: "the CLI: a client of the public API only",
		deps: []string{"", "bench", "httpapi", "pgwire", "sink/postgres", "sink/sqlite", "source/postgres", "store"}, tests: []string{"internal/pgtest"}},
	"pgwire": {why: "the PostgreSQL wire protocol server, apart so that the root package links no driver",
		deps:  []string{"", "internal/dbaccess", "internal/engine", "internal/pgbinary", "internal/pgenc", "internal/pgerr", "internal/plan", "internal/scram", "internal/sql", "internal/value"},
		tests: []string{"internal/pgtest"}},
	"httpapi": {why: "the HTTP API server, apart so that the root package links no server",
		deps: []string{"", "internal/dbaccess", "internal/engine", "internal/pgerr", "internal/plan", "internal/resultfmt", "internal/sql", "internal/value"}},
	"store": {why: "links the SQLite store for deltaview.OpenFile, apart so that the root package links no driver",
		deps: []string{"internal/dbaccess", "internal/engine", "internal/store"}, tests: []string{"", "bench", "pgwire"}},
	"internal/store": {why: "the store of record in a SQLite file: implements the engine's Store interface, never imported by the engine",
		deps: []string{"internal/engine", "internal/pgerr", "internal/plan", "internal/sql", "internal/value"}},
	"internal/dbaccess": {why: "the DB's engine, handed by the root package to the public packages that serve a DB",
		deps: []string{"internal/engine"}},
	"sink/postgres": {why: "a view kept in a PostgreSQL table, apart so that the root package links no driver",
		deps: []string{"", "internal/sink"}, tests: []string{"internal/pgtest"}},
	"source/postgres": {why: "PostgreSQL logical replication for CREATE SUBSCRIPTION, apart so that the root package links no driver",
		deps: []string{"internal/source/pgrepl"}, tests: []string{"", "internal/pgtest", "store"}},
	"sink/sqlite": {why: "a view kept in a SQLite table, apart so that the root package links no driver",
		deps: []string{"", "internal/sink"}},
	"internal/sink": {why: "external targets of views (the Go API's, and CREATE FOREIGN TABLE's): imports the engine, never imported by it",
		deps: []string{"internal/delta", "internal/engine", "internal/pgerr", "internal/sql", "internal/value"}, tests: []string{"internal/pgtest", "internal/store"}},
	"internal/engine": {why: "catalog, sessions, transactions and steps over every part of the core",
		deps: []string{"internal/compile", "internal/dataflow", "internal/dataflow/op", "internal/delta", "internal/exec", "internal/explainfmt", "internal/expr",
			"internal/ident", "internal/intmap", "internal/partial", "internal/pgbinary", "internal/pgenc", "internal/pgerr", "internal/plan", "internal/plpgsql", "internal/source", "internal/source/changefeed",
			"internal/scram", "internal/source/copyfmt", "internal/sql", "internal/tsearch", "internal/value", "internal/zset"},
		tests: []string{"internal/pgtest", "internal/resultfmt"}},
	"internal/pgbinary": {why: "PostgreSQL's binary send and receive formats of values and its binary COPY format",
		deps: []string{"internal/pgerr", "internal/tsearch", "internal/value"}},
	"internal/scram": {why: "SCRAM-SHA-256 password verifiers and the server's side of the exchange, standard library only",
		deps: []string{}},
	"internal/compile": {why: "a logical plan to a Z-set circuit or a partial circuit; maps the aggregate catalog to op's aggregates",
		deps: []string{"internal/dataflow", "internal/dataflow/op", "internal/delta", "internal/expr", "internal/partial", "internal/pgerr", "internal/plan", "internal/value", "internal/zset"}},
	"internal/exec": {why: "from-scratch evaluation and the oracle: shares no operator code",
		deps: []string{"internal/expr", "internal/pgerr", "internal/plan", "internal/value"}},
	"internal/sql": {why: "parse and bind to a logical plan; aggregates from the catalog in internal/plan",
		deps: []string{"internal/expr", "internal/pgenc", "internal/pgerr", "internal/plan", "internal/value"}},
	"internal/plpgsql": {why: "the PL/pgSQL interpreter: runs its SQL through the engine's Runtime",
		deps: []string{"internal/pgerr", "internal/plan", "internal/sql", "internal/value"}},
	"internal/plan": {why: "the logical plan and the aggregate catalog",
		deps: []string{"internal/expr", "internal/pgerr", "internal/value"}},
	"internal/dataflow/op": {why: "the operators; aggregates keyed by the catalog's identifiers",
		deps:  []string{"internal/dataflow", "internal/expr", "internal/intmap", "internal/pgerr", "internal/plan", "internal/value", "internal/zset"},
		tests: []string{"internal/exec"}}, // the oracle, for the randomized tests of operators
	"internal/partial": {why: "partial deltas through selection, projection and join",
		deps: []string{"internal/dataflow", "internal/delta", "internal/expr", "internal/pgerr", "internal/value"}, tests: []string{"internal/delta/deltatest"}},
	"internal/dataflow": {why: "the circuit runtime and arrangements",
		deps: []string{"internal/expr", "internal/intmap", "internal/value", "internal/zset"}, tests: []string{"internal/pgerr"}},
	"internal/expr": {why: "scalar expressions over values",
		deps: []string{"internal/ident", "internal/pgenc", "internal/pgerr", "internal/tsearch", "internal/value", "internal/xpath"}},
	"internal/xpath": {why: "XPath 1.0 over XML documents, as libxml2 evaluates it",
		deps: []string{}},
	"internal/tsearch": {why: "text search: the default parser, the english and simple configurations, tsvector and tsquery",
		deps: []string{"internal/ident"}},
	"internal/ident": {why: "lists of SQL identifiers written in text",
		deps: []string{}},
	"internal/explainfmt": {why: "EXPLAIN's JSON, XML and YAML documents as PostgreSQL writes them, standard library only",
		deps: []string{}},
	"internal/source/changefeed": {why: "Debezium and upsert input to change batches",
		deps: []string{"internal/delta", "internal/pgerr", "internal/source", "internal/value"}},
	"internal/source/pgrepl": {why: "PostgreSQL logical replication into the engine's tables; drives the engine, as a sink does, and links the driver",
		deps:  []string{"internal/delta", "internal/engine", "internal/pgerr", "internal/sql", "internal/value"},
		tests: []string{"internal/pgtest", "internal/sink", "internal/zset"}},
	"internal/tpch": {why: "TPC-H data, queries and refresh functions, for the tests",
		deps: []string{}, tests: []string{"internal/engine", "internal/pgtest", "internal/sql", "internal/value"}},
	"internal/source/copyfmt": {why: "COPY text and CSV input to change batches",
		deps: []string{"internal/pgerr", "internal/source", "internal/value"}, tests: []string{"internal/pgtest"}},
	"internal/source": {why: "outside input to typed change batches: the change kinds and values only",
		deps: []string{"internal/delta", "internal/pgerr", "internal/value"}},
	"internal/delta": {why: "the change kinds",
		deps: []string{"internal/intmap", "internal/pgerr", "internal/value"}, tests: []string{"internal/delta/deltatest"}},
	"internal/zset": {why: "Z-sets of rows",
		deps: []string{"internal/value"}},
	"internal/resultfmt": {why: "result sets as text, CSV and JSON",
		deps: []string{"internal/value"}, tests: []string{"internal/pgtest"}},
	"internal/value": {why: "typed values, rows, encodings",
		deps: []string{"internal/pgerr", "internal/tsearch"}},
	"internal/pgenc": {why: "PostgreSQL's character encodings: names, and conversion to and from UTF8",
		deps: []string{"internal/pgerr"}, tests: []string{"internal/pgtest"}},
	"internal/pgerr":           {why: "errors with SQLSTATE"},
	"internal/intmap":          {why: "integer-keyed maps"},
	"internal/pgtest":          {why: "test-only: a throwaway PostgreSQL server"},
	"internal/delta/deltatest": {why: "test-only: text forms of changes", deps: []string{"internal/delta", "internal/value"}},
	"internal/lint":            {why: "tests of the source tree's shape"},
}

// testOnly are packages that only tests may import.
var testOnly = []string{"internal/pgtest", "internal/delta/deltatest"}

// never are imports no entry of allow may grant.
var never = []struct{ pkg, prefix, why string }{
	{"internal/sql", "internal/dataflow", "the binder knows aggregates by the catalog in internal/plan, never by the runtime"},
	{"internal/exec", "internal/dataflow", "the oracle computes everything itself: a bug in the operators must not hide in it"},
}

// moduleRoot finds the directory holding the module's go.mod.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module "+module+"\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod for %s above the working directory", module)
		}
		dir = parent
	}
}

// imports maps each package directory (relative to the root) to the
// module packages its files import, split into non-test and test files.
type pkgImports struct {
	lib, test map[string][]string // imported package → importing files
}

func scan(t *testing.T, root string) map[string]*pkgImports {
	pkgs := map[string]*pkgImports{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != root && err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		p := pkgs[rel]
		if p == nil {
			p = &pkgImports{lib: map[string][]string{}, test: map[string][]string{}}
			pkgs[rel] = p
		}
		m := p.lib
		if strings.HasSuffix(name, "_test.go") {
			m = p.test
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			var dep string
			switch {
			case ip == module:
				dep = ""
			case strings.HasPrefix(ip, module+"/"):
				dep = strings.TrimPrefix(ip, module+"/")
			default:
				continue
			}
			m[dep] = append(m[dep], filepath.ToSlash(filepath.Join(rel, name)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func show(pkg string) string {
	if pkg == "" {
		return module
	}
	return pkg
}

// TestLayers fails when a package imports a module package its entry in
// allow does not list, or when allow is not exactly the imports made.
func TestLayers(t *testing.T) {
	pkgs := scan(t, moduleRoot(t))
	if pkgs["internal/lint"] == nil {
		t.Fatal("the scan did not find this package; is the module root right?")
	}
	for _, p := range check(pkgs, allow) {
		t.Error(p)
	}
}

// check returns the differences between pkgs' imports and the allow-list
// rules, sorted, each saying what to change.
func check(pkgs map[string]*pkgImports, rules map[string]rule) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for pkg, p := range pkgs {
		r, listed := rules[pkg]
		if !listed {
			add("%s: not listed; add to allow in internal/lint/layers_test.go: %q: {why: \"…\", deps: %s, tests: %s}",
				show(pkg), pkg, goList(slices.Sorted(maps.Keys(p.lib))), goList(testExtra(pkg, p)))
			continue
		}
		for dep, files := range p.lib {
			switch {
			case slices.Contains(testOnly, dep):
				add("%s may not import test-only %s outside its tests (%s)", show(pkg), show(dep), strings.Join(files, ", "))
			case !slices.Contains(r.deps, dep):
				add("%s may not import %s (%s); if it should, add %q to allow[%q].deps", show(pkg), show(dep), strings.Join(files, ", "), dep, pkg)
			}
		}
		for dep, files := range p.test {
			if dep != pkg && !slices.Contains(r.deps, dep) && !slices.Contains(r.tests, dep) {
				add("%s tests may not import %s (%s); if they should, add %q to allow[%q].tests", show(pkg), show(dep), strings.Join(files, ", "), dep, pkg)
			}
		}
		for _, dep := range r.deps {
			if _, ok := p.lib[dep]; !ok {
				add("allow[%q].deps lists %s, which no non-test file of %s imports; remove it", pkg, show(dep), show(pkg))
			}
		}
		for _, dep := range r.tests {
			if !slices.Contains(testExtra(pkg, p), dep) {
				add("allow[%q].tests lists %s, which only its tests should import and none does; remove it", pkg, show(dep))
			}
		}
	}
	for pkg, r := range rules {
		if pkgs[pkg] == nil {
			add("allow lists %s, which does not exist; remove it", show(pkg))
		}
		for _, dep := range slices.Concat(r.deps, r.tests) {
			if _, ok := rules[dep]; !ok && pkgs[dep] == nil {
				add("allow[%q] lists %s, which does not exist; remove it", pkg, show(dep))
			}
		}
		for _, n := range never {
			for _, dep := range r.deps {
				if pkg == n.pkg && (dep == n.prefix || strings.HasPrefix(dep, n.prefix+"/")) {
					add("%s may never import %s: %s", show(pkg), show(dep), n.why)
				}
			}
		}
	}
	sort.Strings(problems)
	return problems
}

// testExtra are the module packages p's tests import beyond what its
// non-test files do and itself, sorted.
func testExtra(pkg string, p *pkgImports) []string {
	var out []string
	for dep := range p.test {
		if _, lib := p.lib[dep]; !lib && dep != pkg {
			out = append(out, dep)
		}
	}
	slices.Sort(out)
	return out
}

// goList prints a list of package names as Go source.
func goList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                        "module " + module + "\n",
		"api.go":                        `package deltaview; import _ "` + module + `/internal/engine"`,
		"internal/engine/e.go":          `package engine; import (_ "` + module + `/internal/value"; _ "` + module + `/internal/pgtest"; _ "` + module + `/internal/dataflow")`,
		"internal/engine/e_test.go":     `package engine_test; import (_ "` + module + `/internal/engine"; _ "` + module + `/internal/pgtest"; _ "` + module + `/internal/zset")`,
		"internal/value/v.go":           `package value; import _ "fmt"`,
		"internal/pgtest/p.go":          `package pgtest`,
		"internal/dataflow/d.go":        `package dataflow`,
		"internal/zset/z.go":            `package zset; import _ "` + module + `/internal/value"`,
		"internal/sql/s.go":             `package sql; import _ "` + module + `/internal/dataflow"`,
		"internal/newpkg/n.go":          `package newpkg; import _ "` + module + `/internal/value"`,
		"internal/engine/testdata/x.go": `package x; import _ "` + module + `"`,
	}
	for name, text := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rules := map[string]rule{
		"":                  {deps: []string{"internal/engine"}},
		"internal/engine":   {deps: []string{"internal/value", "internal/expr"}, tests: []string{"internal/pgtest"}},
		"internal/value":    {},
		"internal/pgtest":   {},
		"internal/dataflow": {},
		"internal/zset":     {deps: []string{"internal/value"}},
		"internal/sql":      {deps: []string{"internal/dataflow"}},
		"internal/gone":     {deps: []string{"internal/value"}},
	}
	got := strings.Join(check(scan(t, root), rules), "\n")
	wantList := []string{
		`allow lists internal/gone, which does not exist; remove it`,
		`allow["internal/engine"] lists internal/expr, which does not exist; remove it`,
		`allow["internal/engine"].deps lists internal/expr, which no non-test file of internal/engine imports; remove it`,
		`internal/engine may not import internal/dataflow (internal/engine/e.go); if it should, add "internal/dataflow" to allow["internal/engine"].deps`,
		`internal/engine may not import test-only internal/pgtest outside its tests (internal/engine/e.go)`,
		`internal/engine tests may not import internal/zset (internal/engine/e_test.go); if they should, add "internal/zset" to allow["internal/engine"].tests`,
		`allow["internal/engine"].tests lists internal/pgtest, which only its tests should import and none does; remove it`,
		`internal/newpkg: not listed; add to allow in internal/lint/layers_test.go: "internal/newpkg": {why: "…", deps: []string{"internal/value"}, tests: []string{}}`,
		`internal/sql may never import internal/dataflow: the binder knows aggregates by the catalog in internal/plan, never by the runtime`,
	}
	sort.Strings(wantList)
	want := strings.Join(wantList, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTable checks that the table itself is consistent: no package may
// import a test-only package outside its tests, and each entry says why.
func TestTable(t *testing.T) {
	for p, r := range allow {
		if r.why == "" {
			t.Errorf("allow[%q] says not why", p)
		}
		for _, d := range r.deps {
			if slices.Contains(testOnly, d) {
				t.Errorf("%s may import test-only %s", show(p), d)
			}
		}
		for _, d := range r.tests {
			if slices.Contains(r.deps, d) {
				t.Errorf("allow[%q] lists %s in both deps and tests", p, d)
			}
		}
	}
}
