package deltaview

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// Change is one row of a view's delta: Diff is +n when n copies of Row
// entered the view and -n when n left.
type Change struct {
	Row  []Value
	Diff int64
}

// Delta is a view's change in one committed transaction, at logical time
// TS. Deltas are consolidated: no row appears twice and no Diff is zero.
//
// A subscription's last call, when it ends for any reason but its cancel
// function, is a Delta whose Err says why and whose other fields are
// empty: ErrLagged, a *PanicError, or an *Error with SQLSTATE 42P01 when
// the view is dropped.
type Delta struct {
	TS      uint64
	Changes []Change
	Err     error
}

// ErrLagged ends a subscription whose queue was full when a commit
// changed its view: the deltas it missed are lost, so its view of the rows
// is stale. Subscribe again with SubscribeOptions.Snapshot to start over
// from the view's rows.
var ErrLagged = errors.New("deltaview: subscriber lagged behind the commits; subscribe again from a snapshot")

// PanicError ends a subscription whose function panicked.
type PanicError struct {
	Value any    // what the function panicked with
	Stack []byte // the stack of the call that panicked
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("deltaview: subscriber panicked: %v", e.Value)
}

// DefaultQueue is how many deltas wait for a subscriber when
// SubscribeOptions.Queue is zero.
const DefaultQueue = 1024

// SubscribeOptions tune a subscription.
type SubscribeOptions struct {
	// Snapshot makes the first call a Delta holding the view's rows (each
	// with Diff +n for n copies; none if the view is empty) at the TS of
	// the last commit, read at once with the registration: the deltas that
	// follow continue from exactly those rows, none lost or repeated.
	Snapshot bool
	// Queue is how many deltas may wait while the function runs
	// (DefaultQueue when zero). A commit that finds the queue full ends
	// the subscription with ErrLagged instead of waiting.
	Queue int
}

// Subscribe is SubscribeWith with the default options: fn receives each
// delta of the view from now on.
func (db *DB) Subscribe(view string, fn func(Delta)) (cancel func(), err error) {
	return db.SubscribeWith(view, SubscribeOptions{}, fn)
}

// SubscribeWith calls fn with the view's delta after each commit that
// changes it, in commit order (TS increasing). A commit whose changes to
// the view cancel out calls nothing. With opts.Snapshot the first call
// holds the view's rows, and the deltas continue from them.
//
// Each subscription has its own goroutine and queue: fn runs outside the
// database's lock, so it may read and write the database, and a slow fn
// delays no commit. A commit copies the delta into the queue; when the
// queue is full the subscription ends with ErrLagged. A panic in fn ends
// the subscription with a *PanicError and touches nothing else. Either way
// fn is called once more with the error in Delta.Err, then never again;
// deltas still queued are dropped. Dropping the view ends the
// subscription in the same way, after the deltas of the commits before the
// drop: they are the view's history up to its end.
//
// cancel ends the subscription: once it returns, fn is not running and
// will not be called again, and the goroutine is gone — unless cancel is
// called from inside fn, where it returns at once and the running call is
// the last. cancel may be called more than once.
func (db *DB) SubscribeWith(view string, opts SubscribeOptions, fn func(Delta)) (cancel func(), err error) {
	if fn == nil {
		return nil, pgerr.New(pgerr.InvalidParameter, "a subscription needs a function to call")
	}
	if opts.Queue < 0 {
		return nil, pgerr.New(pgerr.InvalidParameter, "subscription queue length must not be negative: %d", opts.Queue)
	}
	if opts.Queue == 0 {
		opts.Queue = DefaultQueue
	}
	s := &subscriber{
		fn:    fn,
		queue: make(chan Delta, opts.Queue),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	snap, unregister, err := db.e.Watch(view, opts.Snapshot, s.offer, s.dropped)
	if err != nil {
		return nil, err
	}
	var first *Delta
	if opts.Snapshot {
		first = &Delta{TS: snap.TS, Changes: changes(snap.Rows)}
	}
	go s.run(first)
	return func() {
		s.end(nil)
		unregister()
		if goroutineID() != s.gid.Load() {
			<-s.done
		}
	}, nil
}

// subscriber keeps one subscription's queue of deltas, delivered to fn by
// its own goroutine.
type subscriber struct {
	fn    func(Delta)
	queue chan Delta
	once  sync.Once
	err   error         // why the subscription ended (nil: cancelled); set before stop closes
	drain bool          // deliver the queued deltas before err (the view was dropped); set before stop closes
	stop  chan struct{} // closed when the subscription ends
	done  chan struct{} // closed when the goroutine returns
	gid   atomic.Uint64 // the goroutine's id, to tell a cancel from inside fn
}

// offer queues a copy of a commit's delta. It runs inside the commit: it
// never blocks and never calls fn. It returns false once the subscription
// has ended.
func (s *subscriber) offer(ts uint64, d zset.ZSet) bool {
	select {
	case <-s.stop:
		return false
	default:
	}
	if len(s.queue) == cap(s.queue) {
		s.end(ErrLagged)
		return false
	}
	select {
	case s.queue <- Delta{TS: ts, Changes: changes(d)}:
		return true
	default: // a commit running concurrently filled it
		s.end(ErrLagged)
		return false
	}
}

// end ends the subscription for err; the first end wins.
func (s *subscriber) end(err error) {
	s.once.Do(func() {
		s.err = err
		close(s.stop)
	})
}

// dropped ends the subscription because its view was dropped, once the
// deltas already queued are delivered. It runs inside the commit that
// drops the view: no delta is offered after it.
func (s *subscriber) dropped(err error) {
	s.once.Do(func() {
		s.err, s.drain = err, true
		close(s.stop)
	})
}

func (s *subscriber) ended() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// run delivers the snapshot, then the queue, until the subscription ends.
func (s *subscriber) run(first *Delta) {
	defer close(s.done)
	s.gid.Store(goroutineID())
	if first != nil && !s.ended() {
		s.call(*first)
	}
	ok := true // no call has panicked
	for !s.ended() {
		select {
		case <-s.stop:
		case d := <-s.queue:
			// A delta taken as its view is dropped is the first of
			// those to deliver before the error.
			if !s.ended() || s.drain {
				ok = s.call(d)
			}
		}
	}
	if s.drain && ok {
		for len(s.queue) > 0 && s.call(<-s.queue) {
		}
	}
	if s.err != nil {
		s.call(Delta{Err: s.err})
	}
}

// call runs fn and reports whether it returned; a panic ends the
// subscription with a *PanicError (a panic in the call that reports an
// error, or in one that delivers the deltas queued before a drop, is
// dropped: the subscription has ended already).
func (s *subscriber) call(d Delta) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			s.end(&PanicError{Value: r, Stack: debug.Stack()})
			ok = false
		}
	}()
	s.fn(d)
	return true
}

// changes copies a delta that the engine reuses after the commit.
func changes(d zset.ZSet) []Change {
	out := make([]Change, len(d))
	for i, en := range d {
		out[i] = Change{Row: append([]Value(nil), en.Row...), Diff: en.W}
	}
	return out
}

// goroutineID returns the running goroutine's id, read from the first line
// of its stack trace ("goroutine 7 [running]:"). Go offers no other way
// for cancel to know that it runs inside fn, where waiting for fn to
// return would wait forever.
func goroutineID() uint64 {
	var buf [64]byte
	b := bytes.TrimPrefix(buf[:runtime.Stack(buf[:], false)], []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}
