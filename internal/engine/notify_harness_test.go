package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/cockroachdb/datadriven"
)

// notifications prints the notifications the session receives once a
// statement has run (as a server sends them before ReadyForQuery), one
// line each: NOTIFICATION: channel "payload" from self | another session.
// With PostgreSQL, its connection must have received the same ones: a
// PostgreSQL server sends a listener its notifications before its next
// statement's answer ends, so they are buffered by then.
func (h *harness) notifications(t failer, d *datadriven.TestData, hs *hsession, out *bytes.Buffer, usePG bool) {
	t.Helper()
	var got []string
	for _, n := range hs.s.TakeNotifications() {
		got = append(got, notificationLine(n.Channel, n.Payload, n.PID == hs.s.BackendPID()))
	}
	for _, l := range got {
		fmt.Fprintln(out, l)
	}
	if !usePG || hs.pg == nil {
		return
	}
	done, cancel := context.WithCancel(context.Background())
	cancel() // only those received: WaitForNotification does not read
	var want []string
	for {
		n, err := hs.pg.WaitForNotification(done)
		if err != nil || n == nil {
			break
		}
		want = append(want, notificationLine(n.Channel, n.Payload, n.PID == hs.pg.PgConn().PID()))
	}
	if !slices.Equal(got, want) {
		fatalAt(t, d, "notifications differ from PostgreSQL's:\n%q\nPostgreSQL:\n%q", got, want)
	}
}

func notificationLine(channel, payload string, self bool) string {
	from := "another session"
	if self {
		from = "self"
	}
	return fmt.Sprintf("NOTIFICATION: %s %q from %s", channel, payload, from)
}
