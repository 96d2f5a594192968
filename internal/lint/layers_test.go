package lint

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/deltaview/deltaview"

// layers lists the module's packages from top to bottom (see DESIGN §3),
// relative to the module root ("" is the root package). A package may
// import any package listed after it, never one listed before it.
var layers = []string{
	"bench", // the benchmark harness: the public API only
	// Targets of views, public so that the root package links no driver.
	"sink/postgres",
	"sink/sqlite",
	"pgwire", // the PostgreSQL wire protocol server: public, so that the root package links no driver
	"",
	"internal/dbaccess", // the DB's engine sessions, for the public packages that serve a DB
	"internal/sink",     // external targets of views: may import the core, never imported by it
	"internal/engine",
	"internal/compile",
	"internal/exec",
	"internal/sql",
	"internal/plan",
	"internal/dataflow/op",
	"internal/partial",
	"internal/dataflow",
	"internal/expr",
	// Sources: outside input → typed change batches; the engine imports
	// them, they import only the change kinds and values below.
	"internal/source/changefeed",
	"internal/source/copyfmt",
	"internal/source",
	"internal/delta",
	"internal/zset",
	"internal/resultfmt",
	"internal/value",
	"internal/pgerr",
	"internal/intmap",
}

// apart lists packages outside the layers, with the module packages each
// may import.
var apart = map[string][]string{
	"cmd/deltaview":            {"", "bench", "pgwire"},              // the CLI: a client of the public API only
	"internal/pgtest":          nil,                                  // test-only: a throwaway PostgreSQL server
	"internal/delta/deltatest": {"internal/delta", "internal/value"}, // test-only: text forms of changes
	"internal/lint":            nil,
}

// testOnly are packages that only tests may import; every package's
// _test.go files may import them, in addition to what the package may.
var testOnly = []string{"internal/pgtest", "internal/delta/deltatest"}

// allowed returns the module packages pkg may import, and whether pkg is
// listed at all.
func allowed(pkg string) (map[string]bool, bool) {
	ok := map[string]bool{}
	if deps, found := apart[pkg]; found {
		for _, d := range deps {
			ok[d] = true
		}
		return ok, true
	}
	i := slices.Index(layers, pkg)
	if i < 0 {
		return nil, false
	}
	for _, d := range layers[i+1:] {
		ok[d] = true
	}
	return ok, true
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

// TestLayers fails when a package imports a module package above it, when
// a non-test file imports a test-only package, or when a package is not
// listed in the layers.
func TestLayers(t *testing.T) {
	pkgs := scan(t, moduleRoot(t))
	if pkgs["internal/lint"] == nil {
		t.Fatal("the scan did not find this package; is the module root right?")
	}
	for _, p := range check(pkgs) {
		t.Error(p)
	}
}

// check returns the violations in pkgs, sorted.
func check(pkgs map[string]*pkgImports) []string {
	var problems []string
	for pkg, p := range pkgs {
		ok, listed := allowed(pkg)
		if !listed {
			problems = append(problems, show(pkg)+": not listed; add it to layers (or apart) in internal/lint/layers_test.go at its place in DESIGN §3")
			continue
		}
		for dep, files := range p.lib {
			if !ok[dep] {
				problems = append(problems, show(pkg)+" may not import "+show(dep)+" ("+strings.Join(files, ", ")+")")
			}
		}
		for dep, files := range p.test {
			if !ok[dep] && !slices.Contains(testOnly, dep) && dep != pkg {
				problems = append(problems, show(pkg)+" tests may not import "+show(dep)+" ("+strings.Join(files, ", ")+")")
			}
		}
	}
	sort.Strings(problems)
	return problems
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                          "module " + module + "\n",
		"api.go":                          `package deltaview; import _ "` + module + `/internal/engine"`,
		"internal/value/v.go":             `package value; import _ "` + module + `/internal/zset"`,
		"internal/value/v_test.go":        `package value_test; import (_ "` + module + `/internal/value"; _ "` + module + `/internal/pgtest")`,
		"internal/zset/z.go":              `package zset; import (_ "fmt"; _ "` + module + `/internal/value")`,
		"internal/zset/z_test.go":         `package zset; import _ "` + module + `/internal/expr"`,
		"internal/engine/e.go":            `package engine; import _ "` + module + `/internal/pgtest"`,
		"internal/newpkg/n.go":            `package newpkg`,
		"internal/engine/testdata/x.go":   `package x; import _ "` + module + `"`,
		"cmd/deltaview/main.go":           `package main; import _ "` + module + `"`,
		"internal/dataflow/op/op_test.go": `package op; import _ "` + module + `/internal/engine"`,
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
	got := strings.Join(check(scan(t, root)), "\n")
	want := strings.Join([]string{
		"internal/dataflow/op tests may not import internal/engine (internal/dataflow/op/op_test.go)",
		"internal/engine may not import internal/pgtest (internal/engine/e.go)",
		"internal/newpkg: not listed; add it to layers (or apart) in internal/lint/layers_test.go at its place in DESIGN §3",
		"internal/value may not import internal/zset (internal/value/v.go)",
		"internal/zset tests may not import internal/expr (internal/zset/z_test.go)",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTable checks that the table itself is consistent.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range layers {
		if seen[p] {
			t.Errorf("%s listed twice", show(p))
		}
		seen[p] = true
	}
	for p, deps := range apart {
		if seen[p] {
			t.Errorf("%s is both in layers and apart", show(p))
		}
		for _, d := range deps {
			if slices.Contains(testOnly, d) {
				t.Errorf("%s may import test-only %s", show(p), d)
			}
		}
	}
	for _, p := range testOnly {
		if seen[p] {
			t.Errorf("test-only %s is in layers: nothing could import it safely", p)
		}
	}
}
