package value

import (
	"bytes"
	"strings"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/unicode/norm"
)

// collationKeys keeps, per collation, the ICU sort keys of the strings it
// compared lately, so that a string is put through the collator once
// rather than at each comparison: a sort, a top-k, a min/max reserve or a
// merge join compares each value many times, and a collator comparison
// costs microseconds where comparing two keys costs nanoseconds. Keys
// order as the collator does (collate.Collator's keys are its comparison
// written out), which a test checks over random strings.
//
// The cache holds two generations of at most keyCacheSize strings each:
// a lookup that misses the current generation but hits the old one moves
// the key to the current one, and a full current generation becomes the
// old one, so that memory stays bounded while the strings in use stay.
type collationKeys struct {
	mu       sync.Mutex
	cur, old map[string][]byte
}

// keyCacheSize bounds a generation of a collation's key cache (strings).
const keyCacheSize = 1 << 15

// key returns s's sort key under c, from the cache or computed.
func (c *Collation) key(s string) []byte {
	k := &c.keys
	k.mu.Lock()
	if key, ok := k.cur[s]; ok {
		k.mu.Unlock()
		return key
	}
	key, ok := k.old[s]
	k.mu.Unlock()
	if !ok {
		col := c.pool.Get().(*collate.Collator)
		var buf collate.Buffer
		// ICU orders canonically equivalent strings alike, so a
		// contraction matches through a precomposed letter (Czech "cĥ"
		// is "ch" with a circumflex, after "h"); x/text matches
		// contractions on the letters as written, so it is given the
		// decomposed form.
		key = bytes.Clone(col.KeyFromString(&buf, norm.NFD.String(s)))
		c.pool.Put(col)
	}
	k.mu.Lock()
	if len(k.cur) >= keyCacheSize {
		k.old, k.cur = k.cur, nil
	}
	if k.cur == nil {
		k.cur = make(map[string][]byte, 64)
	}
	// The string is copied: s may share the memory of a larger buffer
	// (a decoded page, a row) that the cache must not keep alive.
	k.cur[strings.Clone(s)] = key
	k.mu.Unlock()
	return key
}
