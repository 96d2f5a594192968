package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// Machine describes where a run happened.
type Machine struct {
	Cores     int     `json:"cores"`
	CPU       string  `json:"cpu"`
	MemoryGiB float64 `json:"memory_gib"`
	LoadStart string  `json:"load_start"` // /proc/loadavg's 1, 5 and 15 minute averages
	LoadEnd   string  `json:"load_end"`
	OS        string  `json:"os"`
	Go        string  `json:"go"`
	Node      string  `json:"node,omitempty"`
	Postgres  string  `json:"postgres,omitempty"`
}

func (m Machine) String() string {
	s := fmt.Sprintf("%d cores (%s), %.0f GiB memory, %s; load average (1, 5, 15 min) %s at the start, %s at the end; %s",
		m.Cores, m.CPU, m.MemoryGiB, m.OS, m.LoadStart, m.LoadEnd, m.Go)
	if m.Node != "" {
		s += ", Node.js " + m.Node
	}
	if m.Postgres != "" {
		s += ", " + m.Postgres
	}
	return s
}

// DescribeMachine reads the machine's figures from /proc and the tools.
func DescribeMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH, Go: runtime.Version(), LoadStart: LoadAvg()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb float64
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "MemTotal:") {
				fmt.Sscanf(strings.TrimPrefix(line, "MemTotal:"), "%f", &kb)
			}
		}
		m.MemoryGiB = kb / (1 << 20)
	}
	if out, err := exec.Command("node", "--version").Output(); err == nil {
		m.Node = strings.TrimSpace(string(out))
	}
	return m
}

// LoadAvg returns the 1, 5 and 15 minute load averages.
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], ", ")
}
