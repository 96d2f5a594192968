package engine

import (
	"slices"
	"sync"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// notifyQueue keeps the notifications committed and not yet read by every
// session that was listening when they were committed, in commit order,
// and each listening session's channels and place in it, as PostgreSQL's
// notification queue does.
//
// LISTEN, UNLISTEN and NOTIFY take effect when their transaction commits
// (none on rollback, nor those a ROLLBACK TO undid): the commit first
// applies the session's LISTEN and UNLISTEN, in order, then appends its
// notifications, so a session that listens receives its own. A session
// starts reading at the queue's end when it begins to listen, and reads
// when it takes its notifications (TakeNotifications): those of the
// channels it listens on then, as PostgreSQL filters when it reads. An
// entry goes when every listener has read past it. Positions are those of
// PostgreSQL's queue (entries packed into 8 kB pages), so that
// pg_notification_queue_usage() counts pages as it does.
type notifyQueue struct {
	mu sync.Mutex
	// entries are the notifications not yet read by every listener;
	// entries[0] is number base.
	entries []notifyEntry
	base    uint64
	// head is the position after the last entry; reserved the bytes the
	// open transactions' notifications will take.
	head     int64
	reserved int64
	// listeners are the sessions that listen on a channel.
	listeners map[*Session]*listener
	// pages bounds the queue: a notification that would make it span more
	// is refused (54000). Zero for notifyQueuePages.
	pages int64
}

// notifyEntry is one notification and its position in the queue.
type notifyEntry struct {
	Notification
	pos int64
}

// listener is a listening session: its channels, in the order it began
// to listen on them, and the number of the next entry it reads.
type listener struct {
	channels []string
	next     uint64
}

// Notification is one NOTIFY as a listening session receives it: its
// channel, its payload ("" for none) and the pg_backend_pid() of the
// session that sent it.
type Notification struct {
	Channel, Payload string
	PID              int32
}

const (
	// notifyPageSize is the size of a page of PostgreSQL's queue, and
	// notifyHeader that of an entry without its channel and payload.
	notifyPageSize = 8192
	notifyHeader   = 16
	notifyEmpty    = 20 // an entry with no channel nor payload, aligned
	// notifyQueuePages bounds the queue: 1 GB, in memory, where
	// PostgreSQL's holds 8 GB on disk.
	notifyQueuePages = 1 << 17
	// maxChannel and maxPayload are PostgreSQL's bounds (NAMEDATALEN, and
	// a block less room for the channel and the header).
	maxChannel = 64
	maxPayload = 8000
)

// entrySize is the room an entry takes in the queue, as PostgreSQL
// counts it: a header, the channel and the payload each with a 0 byte,
// aligned to 4.
func entrySize(channel, payload string) int64 {
	n := int64(notifyHeader + len(channel) + len(payload) + 2)
	return (n + 3) &^ 3
}

// notifyTx is what the session's open transaction does to notifications:
// the NOTIFYs to send at its commit, in order, a duplicate (the same
// channel and payload) folded into the first as PostgreSQL folds it, and
// the LISTEN and UNLISTEN to apply, in order. reserved is the room in the
// queue the sends hold until the transaction ends.
type notifyTx struct {
	sends    []Notification
	seen     map[[2]string]struct{} // the sends, once there are many
	actions  []sql.Listen
	reserved int64
}

var _ expr.Notifier = (*Session)(nil)

// Notify implements expr.Notifier: NOTIFY and pg_notify queue a
// notification for the transaction's commit. The checks and messages are
// PostgreSQL's; a queue too full to take it is 54000 here, where
// PostgreSQL finds it at the commit.
func (s *Session) Notify(channel, payload string) error {
	switch {
	case channel == "":
		return pgerr.New(pgerr.InvalidParameter, "channel name cannot be empty")
	case len(channel) >= maxChannel:
		return pgerr.New(pgerr.InvalidParameter, "channel name too long")
	case len(payload) >= maxPayload:
		return pgerr.New(pgerr.InvalidParameter, "payload string too long")
	}
	t := &s.ntx
	key := [2]string{channel, payload}
	if t.seen != nil {
		if _, dup := t.seen[key]; dup {
			return nil
		}
	} else if slices.ContainsFunc(t.sends, func(n Notification) bool { return n.Channel == channel && n.Payload == payload }) {
		return nil
	}
	size := entrySize(channel, payload)
	q := &s.e.notifyQ
	q.mu.Lock()
	full := q.full(size)
	if !full {
		q.reserved += size
	}
	q.mu.Unlock()
	if full {
		return pgerr.New(pgerr.ProgramLimitExceeded, "too many notifications in the NOTIFY queue").
			WithHint("a listening session has not read its notifications: end its transaction, or UNLISTEN")
	}
	t.reserved += size
	t.sends = append(t.sends, Notification{Channel: channel, Payload: payload})
	if t.seen == nil && len(t.sends) > 16 {
		// Beyond a few, a set finds duplicates, as PostgreSQL's hash.
		t.seen = make(map[[2]string]struct{}, 2*len(t.sends))
		for _, n := range t.sends {
			t.seen[[2]string{n.Channel, n.Payload}] = struct{}{}
		}
	} else if t.seen != nil {
		t.seen[key] = struct{}{}
	}
	return nil
}

// full reports whether size more bytes, after those reserved, would
// make the queue span more pages than it may. The caller holds q.mu.
func (q *notifyQueue) full(size int64) bool {
	limit := q.pages
	if limit == 0 {
		limit = notifyQueuePages
	}
	end := q.head + q.reserved + size
	return end/notifyPageSize-q.tail()/notifyPageSize >= limit
}

// tail is the position of the first entry some listener has not read.
// The caller holds q.mu.
func (q *notifyQueue) tail() int64 {
	if len(q.entries) > 0 {
		return q.entries[0].pos
	}
	return q.head
}

// ListeningChannels implements expr.Notifier.
func (s *Session) ListeningChannels() []string {
	q := &s.e.notifyQ
	q.mu.Lock()
	defer q.mu.Unlock()
	if l := q.listeners[s]; l != nil {
		return slices.Clone(l.channels)
	}
	return nil
}

// NotificationQueueUsage implements expr.Notifier: the pages between the
// oldest entry a listener has not read and the queue's end, as a fraction
// of those the queue may span.
func (s *Session) NotificationQueueUsage() float64 {
	q := &s.e.notifyQ
	q.mu.Lock()
	defer q.mu.Unlock()
	limit := q.pages
	if limit == 0 {
		limit = notifyQueuePages
	}
	return float64(q.head/notifyPageSize-q.tail()/notifyPageSize) / float64(limit)
}

// execListen runs LISTEN and UNLISTEN: applied at the commit.
func (s *Session) execListen(l *sql.Listen) (Result, error) {
	s.ntx.actions = append(s.ntx.actions, *l)
	if l.Unlisten {
		return Result{Tag: "UNLISTEN"}, nil
	}
	return Result{Tag: "LISTEN"}, nil
}

// execNotify runs NOTIFY.
func (s *Session) execNotify(n *sql.Notify) (Result, error) {
	if err := s.Notify(n.Channel, n.Payload); err != nil {
		return Result{}, err
	}
	return Result{Tag: "NOTIFY"}, nil
}

// endNotify ends the transaction's notifications: at a commit its LISTEN
// and UNLISTEN take effect and its notifications join the queue, waking
// the sessions that listen on their channels; at a rollback they are
// forgotten.
func (s *Session) endNotify(commit bool) {
	t := &s.ntx
	if len(t.sends) == 0 && len(t.actions) == 0 {
		return
	}
	var pid int32
	if commit && len(t.sends) > 0 {
		pid = s.BackendPID()
	}
	q := &s.e.notifyQ
	q.mu.Lock()
	q.reserved -= t.reserved
	if commit {
		q.applyListen(s, t.actions)
		q.appendSends(t.sends, pid)
	}
	q.mu.Unlock()
	clear(t.sends)
	clear(t.actions)
	t.sends, t.actions, t.seen, t.reserved = t.sends[:0], t.actions[:0], nil, 0
}

// applyListen applies a transaction's LISTEN and UNLISTEN to the
// session's channels. The caller holds q.mu.
func (q *notifyQueue) applyListen(s *Session, actions []sql.Listen) {
	if len(actions) == 0 {
		return
	}
	l := q.listeners[s]
	var chans []string
	if l != nil {
		chans = l.channels
	}
	for _, a := range actions {
		switch {
		case a.Unlisten && a.Channel == "":
			clear(chans)
			chans = chans[:0]
		case a.Unlisten:
			chans = slices.DeleteFunc(chans, func(c string) bool { return c == a.Channel })
		case !slices.Contains(chans, a.Channel):
			chans = append(chans, a.Channel)
		}
	}
	switch {
	case len(chans) > 0 && l == nil:
		if q.listeners == nil {
			q.listeners = map[*Session]*listener{}
		}
		q.listeners[s] = &listener{channels: chans, next: q.base + uint64(len(q.entries))}
		s.listening.Store(true)
	case len(chans) > 0:
		l.channels = chans
	case l != nil:
		delete(q.listeners, s)
		s.listening.Store(false)
		q.trim()
	}
}

// appendSends appends a commit's notifications and wakes the sessions
// that listen on their channels. With no listener they reach no one and
// are not kept. The caller holds q.mu.
func (q *notifyQueue) appendSends(sends []Notification, pid int32) {
	if len(sends) == 0 || len(q.listeners) == 0 {
		return
	}
	for _, n := range sends {
		size := entrySize(n.Channel, n.Payload)
		if q.head%notifyPageSize+size > notifyPageSize {
			q.head += notifyPageSize - q.head%notifyPageSize // the rest of the page stays empty
		}
		n.PID = pid
		q.entries = append(q.entries, notifyEntry{Notification: n, pos: q.head})
		q.head += size
		if q.head%notifyPageSize+notifyEmpty > notifyPageSize {
			q.head += notifyPageSize - q.head%notifyPageSize // no room for another entry
		}
	}
	for ls, l := range q.listeners {
		if ls.notifyWake == nil {
			continue
		}
		for _, n := range sends {
			if slices.Contains(l.channels, n.Channel) {
				select {
				case ls.notifyWake <- struct{}{}:
				default: // already woken
				}
				break
			}
		}
	}
}

// trim drops the entries every listener has read. The caller holds q.mu.
func (q *notifyQueue) trim() {
	end := q.base + uint64(len(q.entries))
	low := end
	for _, l := range q.listeners {
		low = min(low, l.next)
	}
	k := int(low - q.base)
	if k == 0 {
		return
	}
	clear(q.entries[:k]) // their strings go
	q.entries = q.entries[k:]
	q.base = low
}

// TakeNotifications returns the notifications committed on the session's
// channels since it last took them, in commit order, and forgets them.
// Inside a transaction block it returns none, as PostgreSQL sends none to
// a client in a transaction: they wait for its end.
func (s *Session) TakeNotifications() []Notification {
	if s.block || !s.listening.Load() {
		return nil // without the queue's lock, which every session shares
	}
	q := &s.e.notifyQ
	q.mu.Lock()
	defer q.mu.Unlock()
	l := q.listeners[s]
	if l == nil {
		return nil
	}
	var out []Notification
	for _, en := range q.entries[l.next-q.base:] {
		if slices.Contains(l.channels, en.Channel) {
			out = append(out, en.Notification)
		}
	}
	l.next = q.base + uint64(len(q.entries))
	q.trim()
	return out
}

// NotificationWake returns a channel that receives when a notification on
// one of the session's channels may have been committed: a signal to call
// TakeNotifications. A signal is not lost while no one waits; several
// commits may send one.
func (s *Session) NotificationWake() <-chan struct{} {
	q := &s.e.notifyQ
	q.mu.Lock()
	defer q.mu.Unlock()
	if s.notifyWake == nil {
		s.notifyWake = make(chan struct{}, 1)
	}
	return s.notifyWake
}

// Listening reports whether the session listens on a channel (its last
// commit left it listening).
func (s *Session) Listening() bool { return s.listening.Load() }

// unlistenAll stops the session listening, at its end.
func (s *Session) unlistenAll() {
	// Only the session's own commits add it to the listeners or take it
	// out, and it is closing: listening says whether it is there without
	// the queue's lock, which a session ending every typed transaction
	// (a Tx's, returned to its pool) would otherwise take each time.
	if !s.listening.Load() {
		return
	}
	q := &s.e.notifyQ
	q.mu.Lock()
	if q.listeners[s] != nil {
		delete(q.listeners, s)
		s.listening.Store(false)
		q.trim()
	}
	q.mu.Unlock()
}

// notifyMark is where the transaction's notifications and LISTENs are,
// for a savepoint or a PL/pgSQL block with an EXCEPTION clause.
func (s *Session) notifyMark() (sends, actions int) {
	return len(s.ntx.sends), len(s.ntx.actions)
}

// notifyUndo forgets the notifications and LISTENs after a mark.
func (s *Session) notifyUndo(sends, actions int) {
	t := &s.ntx
	if sends < len(t.sends) {
		var size int64
		for _, n := range t.sends[sends:] {
			size += entrySize(n.Channel, n.Payload)
			if t.seen != nil {
				delete(t.seen, [2]string{n.Channel, n.Payload})
			}
		}
		q := &s.e.notifyQ
		q.mu.Lock()
		q.reserved -= size
		q.mu.Unlock()
		t.reserved -= size
		clear(t.sends[sends:])
		t.sends = t.sends[:sends]
	}
	if actions < len(t.actions) {
		clear(t.actions[actions:])
		t.actions = t.actions[:actions]
	}
}
