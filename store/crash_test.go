package store_test

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

var kills = flag.Int("store.kills", 10, "how many times TestCrash kills the committing process")

const crashSchema = `
	CREATE TABLE a (id int PRIMARY KEY, v int NOT NULL, s text);
	CREATE TABLE b (id int PRIMARY KEY, a_id int, amt numeric(10,2));
	CREATE TABLE txlog (n int PRIMARY KEY);
	CREATE MATERIALIZED VIEW va AS SELECT v % 7 AS g, count(*) AS n, sum(v) AS total FROM a GROUP BY v % 7;
	CREATE MATERIALIZED VIEW vj AS SELECT a.s, count(*) AS n, sum(b.amt) AS total FROM a JOIN b ON b.a_id = a.id GROUP BY a.s;
	CREATE MATERIALIZED VIEW vt AS SELECT count(*) AS n, max(n) AS last FROM txlog;
`

var crashViews = map[string]string{
	"va": "SELECT v % 7 AS g, count(*) AS n, sum(v) AS total FROM a GROUP BY v % 7",
	"vj": "SELECT a.s, count(*) AS n, sum(b.amt) AS total FROM a JOIN b ON b.a_id = a.id GROUP BY a.s",
	"vt": "SELECT count(*) AS n, max(n) AS last FROM txlog",
}

var crashTables = []string{"SELECT * FROM a ORDER BY id", "SELECT * FROM b ORDER BY id", "SELECT * FROM txlog ORDER BY n"}

// crashTx is transaction n of the stream seeded by seed: inserts,
// upserts, updates and deletes over a and b, now and then a bulk one, and
// its own row in txlog. Its effect depends only on the state before it,
// so a model that runs the same stream in memory holds what the file
// must hold.
func crashTx(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	for range 1 + r.IntN(6) {
		x, y, z := 1+r.IntN(300), r.IntN(1000), 1+r.IntN(300)
		switch r.IntN(12) {
		case 0, 1, 2:
			fmt.Fprintf(&b, "INSERT INTO a VALUES (%d, %d, 's%d') ON CONFLICT (id) DO UPDATE SET v = excluded.v, s = excluded.s;\n", x, y, y%5)
		case 3, 4:
			fmt.Fprintf(&b, "UPDATE a SET v = v + %d WHERE id = %d;\n", y, x)
		case 5:
			fmt.Fprintf(&b, "DELETE FROM a WHERE id = %d;\n", x)
		case 6, 7, 8:
			fmt.Fprintf(&b, "INSERT INTO b VALUES (%d, %d, %d.%02d) ON CONFLICT (id) DO UPDATE SET amt = excluded.amt;\n", x, z, y, y%100)
		case 9:
			fmt.Fprintf(&b, "DELETE FROM b WHERE a_id = %d;\n", z)
		case 10:
			fmt.Fprintf(&b, "INSERT INTO b SELECT g, g %% 300, g / 100.0 FROM generate_series(%d, %d) AS g ON CONFLICT (id) DO NOTHING;\n", 1000+x*10, 1000+x*10+r.IntN(300))
		case 11:
			fmt.Fprintf(&b, "DELETE FROM b WHERE id >= %d AND id < %d;\n", 1000+x*10, 1000+x*10+r.IntN(2000))
		}
	}
	fmt.Fprintf(&b, "INSERT INTO txlog VALUES (%d);\nCOMMIT;\n", n)
	return b.String()
}

// crashChild opens the file, goes on with the stream from the last
// transaction stored, and prints "ack n" once transaction n's commit has
// returned; it runs until it is killed.
func crashChild() {
	fail := func(err error) {
		fmt.Println("error", err)
		os.Exit(1)
	}
	seed, _ := strconv.ParseUint(os.Getenv("DELTAVIEW_STORE_SEED"), 10, 64)
	db, err := deltaview.OpenFile(os.Getenv("DELTAVIEW_STORE_PATH"))
	if err != nil {
		fail(err)
	}
	r, err := db.Query("SELECT coalesce(max(n), 0) FROM txlog")
	if err != nil {
		fail(err)
	}
	n := int(r.Rows[0][0].Int()) + 1
	fmt.Println("ready")
	for ; ; n++ {
		if err := db.Exec(crashTx(seed, n)); err != nil {
			fail(fmt.Errorf("transaction %d: %w", n, err))
		}
		fmt.Println("ack", n)
	}
}

// TestCrash kills a process that commits random transactions at random
// moments, and checks after each kill that the file holds every
// acknowledged transaction, no part of any other but the one in flight
// whole, and views equal to their recomputation.
func TestCrash(t *testing.T) {
	if testing.Short() && *kills == 10 {
		*kills = 3
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d kills", seed, *kills)
	db := open(t, path)
	execSQL(t, db, crashSchema)
	db.Close()
	model := deltaview.Open()
	execSQL(t, model, crashSchema)
	modelN, lastAck, total := 0, 0, 0
	rng := rand.New(rand.NewPCG(seed, 0))
	for kill := 0; kill < *kills; kill++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=crash", "DELTAVIEW_STORE_PATH="+path, fmt.Sprintf("DELTAVIEW_STORE_SEED=%d", seed))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		if l := <-lines; l != "ready" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("kill %d: child said %q", kill, l)
		}
		time.AfterFunc(time.Duration(rng.IntN(150_000))*time.Microsecond, func() { cmd.Process.Signal(syscall.SIGKILL) })
		for l := range lines {
			n, ok := strings.CutPrefix(l, "ack ")
			if !ok {
				t.Fatalf("kill %d: child said %q", kill, l)
			}
			a, _ := strconv.Atoi(n)
			if a != lastAck+1 {
				t.Fatalf("kill %d: acknowledgement %d after %d", kill, a, lastAck)
			}
			lastAck = a
			total++
		}
		cmd.Wait()

		db := open(t, path)
		r, err := db.Query("SELECT count(*), coalesce(max(n), 0) FROM txlog")
		if err != nil {
			t.Fatal(err)
		}
		cnt, m := int(r.Rows[0][0].Int()), int(r.Rows[0][1].Int())
		if m < lastAck {
			t.Fatalf("kill %d: transaction %d was acknowledged, the file holds up to %d", kill, lastAck, m)
		}
		if m > lastAck+1 || cnt != m {
			t.Fatalf("kill %d: %d transactions stored up to %d, %d acknowledged", kill, cnt, m, lastAck)
		}
		// The one in flight may have committed before the kill: it
		// counts as acknowledged from now on.
		lastAck = m
		for ; modelN < m; modelN++ {
			execSQL(t, model, crashTx(seed, modelN+1))
		}
		for _, q := range crashTables {
			got, want := query(t, db, q), query(t, model, q)
			if !slices.Equal(got, want) {
				t.Fatalf("kill %d, after transaction %d: %s holds %d rows, the model %d", kill, m, q, len(got), len(want))
			}
		}
		viewsEqualRecomputation(t, db, crashViews)
		for name := range crashViews {
			got, _ := db.View(name)
			want, _ := model.View(name)
			if !slices.Equal(dump(got), dump(want)) {
				t.Fatalf("kill %d: view %s differs from the model's", kill, name)
			}
		}
		db.Close()
	}
	t.Logf("%d kills, %d transactions acknowledged, all present; %d in the file", *kills, total, lastAck)
}
