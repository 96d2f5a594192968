package httpapi_test

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
)

var screenshot = flag.String("console-screenshot", "",
	"the PNG file TestConsoleBrowser saves the console to (by default console.png in the test's artifact directory: go test -artifacts keeps it)")

// chromium finds Debian's chromium (which CI installs) or another Chrome.
func chromium() string {
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// TestConsoleBrowser loads the console in a headless Chromium: it lists
// the views, shows a view's rows, shows a commit's change within a second
// of it, and shows the view's plan. It saves a screenshot (see
// -console-screenshot). Under CI=true a missing Chromium fails the test.
func TestConsoleBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no chromium: .ci/run installs Debian's chromium")
		}
		t.Skip("no chromium")
	}
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE orders (id int PRIMARY KEY, cust text, amount numeric(10,2));
		INSERT INTO orders VALUES (1, 'ann', 12.50), (2, 'bob', 250), (3, 'ann', 7.25), (4, 'dee', 31);
		CREATE MATERIALIZED VIEW totals AS SELECT cust, sum(amount) AS total, count(*) AS orders FROM orders GROUP BY cust;
		CREATE MATERIALIZED VIEW big AS SELECT id, cust FROM orders WHERE amount > 100;
		CREATE TABLE customers (name text PRIMARY KEY, city text)`); err != nil {
		t.Fatal(err)
	}
	base := start(t, db, httpapi.Options{})

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1440, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	ctx, cancel := context.WithTimeout(bctx, 90*time.Second)
	defer cancel()

	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`#views tbody tr[data-name="totals"]`),
	); err != nil {
		t.Fatalf("loading the console: %v", err)
	}
	listed, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#views tbody tr')].map(tr => tr.dataset.name)`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(listed, []string{"big", "totals"}) {
		t.Errorf("views listed: %v", listed)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(`#views tbody tr[data-name="totals"]`),
		chromedp.WaitVisible(`#live.live`),
	); err != nil {
		t.Fatalf("selecting a view: %v", err)
	}
	cells := func() []string {
		out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('#rows tbody tr')].map(tr => [...tr.cells].map(td => td.textContent).join(' '))`))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	waitRows := func(what string, within time.Duration, want ...string) time.Duration {
		t.Helper()
		start := time.Now()
		for {
			got := cells()
			if slices.Equal(got, want) {
				return time.Since(start)
			}
			if time.Since(start) > within {
				t.Fatalf("%s: rows %q after %v, want %q", what, got, time.Since(start), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitRows("snapshot", 10*time.Second, "ann 19.75 2", "bob 250 1", "dee 31 1")

	// A commit shows within a second.
	committed := time.Now()
	if err := db.Exec(`INSERT INTO orders VALUES (5, 'cy', 99.5), (6, 'ann', 0.25)`); err != nil {
		t.Fatal(err)
	}
	waitRows("after a commit", time.Second, "ann 20 3", "bob 250 1", "cy 99.5 1", "dee 31 1")
	t.Logf("the commit showed in the console %v after it returned", time.Since(committed).Round(time.Millisecond))

	// The plan tab lists the operators with their state.
	if err := chromedp.Do(ctx,
		chromedp.Click(`button[data-tab="plan"]`),
		chromedp.WaitVisible(`#plan tbody tr`),
	); err != nil {
		t.Fatalf("plan: %v", err)
	}
	ops, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#plan tbody tr td strong')].map(s => s.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ops, []string{"Integrate", "GroupBy", "Input"}) {
		t.Errorf("plan operators: %v", ops)
	}

	// The SQL box runs a statement and shows its result.
	if err := chromedp.Do(ctx,
		chromedp.Click(`button[data-tab="rows"]`),
		chromedp.SetValue(`#sql-text`, `SELECT cust, total FROM totals WHERE total > 30 ORDER BY total DESC`),
		chromedp.Click(`#sql-run`),
		chromedp.WaitVisible(`#sql-out .result table`),
	); err != nil {
		t.Fatalf("SQL box: %v", err)
	}
	out, err := chromedp.Run(ctx, chromedp.Text(`#sql-out`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "bob") || !strings.Contains(out, "SELECT 3") {
		t.Errorf("SQL box output: %q", out)
	}

	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := *screenshot
	if path == "" {
		path = filepath.Join(t.ArtifactDir(), "console.png")
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the console: %s", path)
}
