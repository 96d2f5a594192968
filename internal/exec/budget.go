package exec

import (
	"time"
	"unsafe"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// Budget is a Source whose evaluation may materialise at most Max bytes:
// Run counts, as it goes, the rows each node of the plan materialises
// (a row's slice header and values; rows read from the source are shared,
// only their place in the result counts) and stops with Over's error as
// soon as the count exceeds Max, before the memory is taken. A query
// such as SELECT count(*) FROM generate_series(1, 1000000000) thus fails
// instead of exhausting memory.
type Budget struct {
	Source
	Max  int64
	Over func(held int64) error
	held int64
	// Deadline, when set, ends the query with Late's error once passed
	// (statement_timeout): checked every checkEvery charges, so that the
	// clock costs nothing per row.
	Deadline time.Time
	Late     func() error
	// Interrupts, when set, is asked at the same pace for the error of
	// an interrupt another session raised (pg_cancel_backend).
	Interrupts expr.Interrupter
	charges    uint32
}

// checkEvery is how many charges pass between two looks at the clock.
const checkEvery = 1024

// Sizes of what Run materialises: a place in a result, a new row.
const (
	slotBytes  = int64(unsafe.Sizeof(value.Row(nil)))
	valueBytes = int64(unsafe.Sizeof(value.Value{}))
)

// rowBytes is what a new row of width values takes, in its result too.
func rowBytes(width int) int64 { return 2*slotBytes + int64(width)*valueBytes }

// budgetOf returns src's budget, or nil.
func budgetOf(src Source) *Budget {
	b, _ := innerSource[*Budget](src)
	return b
}

// innerSource finds a Source of type T: src, or one src wraps.
func innerSource[T any](src Source) (T, bool) {
	for {
		if t, ok := src.(T); ok {
			return t, true
		}
		switch s := src.(type) {
		case *Budget:
			src = s.Source
		case *working:
			src = s.Source
		case *probing:
			src = s.Source
		case profiler:
			src = s.profile().Source
		default:
			var none T
			return none, false
		}
	}
}

// charge counts n more bytes; nil b counts nothing.
func (b *Budget) charge(n int64) error {
	if b == nil {
		return nil
	}
	b.held += n
	if b.Max > 0 && b.held > b.Max {
		return b.Over(b.held)
	}
	return b.poll()
}

// poll is a cancellation point that counts no memory, for loops that
// take none per row (an aggregate's groups): every checkEvery calls (of
// charge too) it asks for an interrupt and reads the clock. nil b polls
// nothing.
func (b *Budget) poll() error {
	if b == nil {
		return nil
	}
	if b.Late != nil || b.Interrupts != nil {
		if b.charges++; b.charges%checkEvery == 0 {
			if b.Interrupts != nil {
				if err := b.Interrupts.Interrupted(); err != nil {
					return err
				}
			}
			if b.Late != nil && time.Now().After(b.Deadline) {
				return b.Late()
			}
		}
	}
	return nil
}

// Held returns the bytes counted so far.
func (b *Budget) Held() int64 { return b.held }

var _ FilteredSource = (*Budget)(nil)

// ScanFiltered is the source's, when it finds rows through an index: a
// budget does not hide an access path.
func (b *Budget) ScanFiltered(relation string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	if fs, ok := b.Source.(FilteredSource); ok {
		return fs.ScanFiltered(relation, pred, fn)
	}
	return false, nil
}
