package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// TestNotifyQueueFull fills a queue of four pages that a listener inside
// a transaction holds: NOTIFY fails with 54000 when the queue would span
// more, and once the listener's transaction ends (it reads) the queue
// takes more.
func TestNotifyQueueFull(t *testing.T) {
	e := engine.New()
	engine.SetNotifyQueuePages(e, 4)
	lis, snd := e.NewSession(), e.NewSession()
	defer lis.Close()
	defer snd.Close()
	run := func(s *engine.Session, q string) error {
		t.Helper()
		st, err := sql.Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Exec(st)
		return err
	}
	for _, q := range []string{`LISTEN c`, `BEGIN`, `SELECT 1`} {
		if err := run(lis, q); err != nil {
			t.Fatal(err)
		}
	}
	sent := 0
	var err error
	for ; sent < 100; sent++ {
		if err = run(snd, fmt.Sprintf(`NOTIFY c, '%0900d'`, sent)); err != nil {
			break
		}
	}
	// 920 bytes each, 8 to a page: the four pages hold 32.
	if pgerr.Code(err) != pgerr.ProgramLimitExceeded || sent != 4*8 {
		t.Fatalf("after %d notifications: %v, want 54000 after 32", sent, err)
	}
	if got := len(lis.TakeNotifications()); got != 0 {
		t.Fatalf("a listener in a transaction took %d", got)
	}
	if err := run(lis, `COMMIT`); err != nil {
		t.Fatal(err)
	}
	if got := len(lis.TakeNotifications()); got != sent {
		t.Fatalf("took %d notifications, want %d", got, sent)
	}
	if err := run(snd, `NOTIFY c, 'room again'`); err != nil {
		t.Fatalf("after the listener read: %v", err)
	}
	if n := lis.TakeNotifications(); len(n) != 1 || n[0].Payload != "room again" {
		t.Fatalf("took %v", n)
	}
}
