package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// JSEngines are the JavaScript peers, by the name run.mjs takes.
var JSEngines = []string{"tanstack", "zero", "d2ts"}

// JSEngineNames are the systems' labels, for rows that cannot run at all.
var JSEngineNames = map[string]string{"tanstack": "TanStack DB", "zero": "Zero (zqlite)", "d2ts": "d2ts"}

// InstallJS installs the peers' packages into dir/node_modules with npm
// ci (npm install when there is no lock file yet), unless they are there
// already and no older than the lock file.
func InstallJS(dir string, log io.Writer) error {
	lock := filepath.Join(dir, "package-lock.json")
	stamp := filepath.Join(dir, "node_modules", ".package-lock.json")
	if li, err := os.Stat(lock); err == nil {
		if si, err := os.Stat(stamp); err == nil && !si.ModTime().Before(li.ModTime()) {
			return nil
		}
	}
	args := []string{"ci", "--no-audit", "--no-fund"}
	if _, err := os.Stat(lock); err != nil {
		args[0] = "install"
	}
	cmd := exec.Command("npm", args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm %s in %s: %w", args[0], dir, err)
	}
	return nil
}

// RunJS runs one JavaScript engine at every size in ns, with node in dir,
// and reports each cell as run.mjs prints it. Node's standard error goes
// to log.
func RunJS(dir, engine string, ns []int, views []View, opt Options, log io.Writer, report func(Cell)) error {
	var sizes, names []string
	for _, n := range ns {
		sizes = append(sizes, strconv.Itoa(n))
	}
	for _, v := range views {
		names = append(names, v.Name)
	}
	var batches []string
	for _, b := range opt.Batches {
		batches = append(batches, strconv.Itoa(b))
	}
	cmd := exec.Command("node", "--expose-gc", "--max-old-space-size=8192", "run.mjs",
		"--engine", engine, "--n", strings.Join(sizes, ","), "--views", strings.Join(names, ","),
		"--latency-ms", strconv.FormatInt(opt.LatencyTime.Milliseconds(), 10),
		"--latency-min", strconv.Itoa(opt.LatencyMin), "--latency-max", strconv.Itoa(opt.LatencyMax),
		"--batch-ms", strconv.FormatInt(opt.BatchTime.Milliseconds(), 10),
		"--max-batch-sec", strconv.FormatFloat(opt.MaxBatchTime.Seconds(), 'f', -1, 64),
		"--batches", strings.Join(batches, ","))
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = io.MultiWriter(log, &stderr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c Cell
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return fmt.Errorf("%s: bad output line %q: %w", engine, sc.Text(), err)
		}
		seen[fmt.Sprint(c.N, c.View)] = true
		c.checkMemory()
		report(c)
	}
	err = cmd.Wait()
	if err != nil {
		// Whatever did not report is an error row, with node's last words.
		msg := lastLine(stderr.String())
		for _, n := range ns {
			for _, v := range views {
				if !seen[fmt.Sprint(n, v.Name)] {
					report(Cell{System: JSEngineNames[engine], View: v.Name, N: n, Status: "error",
						Note: fmt.Sprintf("node exited (%v): %s", err, msg)})
				}
			}
		}
	}
	return nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "at ") && !strings.HasPrefix(l, "Node.js") {
			return l
		}
	}
	return ""
}
