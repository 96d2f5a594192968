package postgres_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

var subKills = flag.Int("pgsource.kills", 5, "how many times TestKillWhileStreaming kills the subscribing process")

// killChildEnv names the file a child process of TestKillWhileStreaming
// opens.
const killChildEnv = "DELTAVIEW_SUBKILL_PATH"

// killChild opens the file, whose subscription resumes streaming, says
// so, and streams until it is killed.
func killChild(path string) {
	db, err := deltaview.OpenFile(path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	defer db.Close()
	fmt.Println("ready")
	select {}
}

// TestKillWhileStreaming kills, at random moments, a process whose
// subscription streams a steady flow of upstream transactions, and opens
// the file again each time. A kill can come between a commit and the
// confirmation of its position upstream: the server then sends that
// transaction again, and the position stored with the commit must skip
// it. At the end the views equal upstream, nothing doubled (b has no key)
// and nothing lost.
func TestKillWhileStreaming(t *testing.T) {
	srv, conn, path, views, db := subscribed(t, "kill.db")
	waitApplied(t, db, conn, "s")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// The upstream writer: small transactions, one after the other.
	writer, err := pgx.Connect(context.Background(), srv.ConnString(conn.Config().Database))
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(context.Background())
	type result struct {
		n   int
		err error
	}
	stop, done := make(chan struct{}), make(chan result)
	go func() {
		i := 0
		for ; ; i++ {
			select {
			case <-stop:
				done <- result{n: i}
				return
			default:
			}
			// At most a hundred a second: each is a durable commit
			// here, one sync of the file's log.
			time.Sleep(10 * time.Millisecond)
			if _, err := writer.Exec(context.Background(), upstreamTxSQL(i)); err != nil {
				<-stop
				done <- result{n: i, err: err}
				return
			}
		}
	}()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d kills", seed, *subKills)
	rng := rand.New(rand.NewPCG(seed, 0))
	for kill := 0; kill < *subKills; kill++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), killChildEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			close(stop)
			<-done
			t.Fatalf("kill %d: child said %q", kill, line)
		}
		time.Sleep(time.Duration(200+rng.IntN(1500)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
	}
	close(stop)
	r := <-done
	if r.err != nil {
		t.Fatalf("upstream transaction %d: %v", r.n, r.err)
	}
	t.Logf("%d upstream transactions while killing", r.n)

	db, err = deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The backlog of the last kills, one durable commit a transaction.
	waitAppliedWithin(t, db, conn, "s", 5*time.Minute)
	for name, q := range views {
		got, want := dvRows(t, db, "SELECT * FROM "+name), pgRows(t, conn, q)
		if !slices.Equal(got, want) {
			t.Fatalf("view %s holds\n%s\nupstream computes\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for _, q := range []string{"SELECT * FROM a", "SELECT * FROM b"} {
		if got, want := dvRows(t, db, q), pgRows(t, conn, q); !slices.Equal(got, want) {
			t.Fatalf("%s: %d rows here, %d upstream", q, len(got), len(want))
		}
	}
}
