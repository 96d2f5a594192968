package expr

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"encoding/binary"
	"hash"
	"sync"
	"time"

	"github.com/deltaview/deltaview/internal/value"
)

// The uuid-ossp extension: UUIDs of RFC 4122's versions 1, 3, 4 and 5 and
// its namespace constants. v3 and v5 hash a namespace and a name, and are
// immutable, so that a view may call them; v1, v1mc and v4 are volatile.
// Version 1 takes its node from a random number drawn once per process,
// with the multicast bit set (RFC 4122 §4.5), since the engine reads no
// network interface; v1mc draws a new one each call, as PostgreSQL does.
func init() {
	U, T := value.UUID, value.Text
	konst := func(name string, u [16]byte) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Result: value.UUIDType,
			Eval: func([]value.Value) (value.Value, error) { return value.NewUUID(u), nil }}
	}
	hashed := func(name string, newHash func() hash.Hash, version byte) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: kinds(U, T), Result: value.UUIDType,
			Eval: func(a []value.Value) (value.Value, error) {
				return value.NewUUID(nameUUID(newHash(), a[0].Str(), textOf(a[1]), version)), nil
			}}
	}
	volatile := func(name string, gen func() [16]byte) *FuncDef {
		return &FuncDef{Name: name, Volatile: true, Strict: true, Result: value.UUIDType,
			Eval: func([]value.Value) (value.Value, error) { return value.NewUUID(gen()), nil }}
	}
	registerExtension(&Extension{
		Name: "uuid-ossp", Version: "1.1", Relocatable: true,
		Comment: "generate universally unique identifiers (UUIDs)",
		Funcs: []*FuncDef{
			konst("uuid_nil", [16]byte{}),
			konst("uuid_ns_dns", namespaceUUID(0x10)),
			konst("uuid_ns_url", namespaceUUID(0x11)),
			konst("uuid_ns_oid", namespaceUUID(0x12)),
			konst("uuid_ns_x500", namespaceUUID(0x14)),
			volatile("uuid_generate_v1", func() [16]byte { return timeUUID(processNode()) }),
			volatile("uuid_generate_v1mc", func() [16]byte { return timeUUID(randomNode()) }),
			hashed("uuid_generate_v3", md5.New, 3),
			volatile("uuid_generate_v4", randomUUID),
			hashed("uuid_generate_v5", sha1.New, 5),
		},
	})
}

// namespaceUUID is RFC 4122's namespace 6ba7b8xx-9dad-11d1-80b4-00c04fd430c8.
func namespaceUUID(b byte) [16]byte {
	return [16]byte{0x6b, 0xa7, 0xb8, b, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}
}

// nameUUID is a name-based UUID (RFC 4122 §4.3): the hash of the
// namespace's 16 bytes then the name, with the version and variant set.
func nameUUID(h hash.Hash, ns, name string, version byte) [16]byte {
	h.Write([]byte(ns))
	h.Write([]byte(name))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | version<<4
	u[8] = u[8]&0x3f | 0x80
	return u
}

// randomUUID is a version 4 UUID.
func randomUUID() [16]byte {
	var u [16]byte
	_, _ = rand.Read(u[:]) // crypto/rand.Read never fails
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return u
}

// gregorianOffset is the count of 100 ns intervals from 1582-10-15, the
// epoch of version 1 UUIDs, to 1970-01-01.
const gregorianOffset = 0x01b21dd213814000

// uuidClock keeps version 1 UUIDs of one process distinct: a clock that
// has not moved since the last UUID is pushed one interval on.
var uuidClock struct {
	mu   sync.Mutex
	last uint64
	seq  uint16
	node [6]byte
	once sync.Once
}

// timeUUID is a version 1 UUID (RFC 4122 §4.2) of the node given.
func timeUUID(node [6]byte) [16]byte {
	c := &uuidClock
	c.mu.Lock()
	if c.last == 0 {
		var b [2]byte
		_, _ = rand.Read(b[:])
		c.seq = binary.BigEndian.Uint16(b[:]) & 0x3fff
	}
	t := uint64(time.Now().UnixNano()/100) + gregorianOffset
	if t <= c.last {
		t = c.last + 1
	}
	c.last = t
	seq := c.seq
	c.mu.Unlock()
	var u [16]byte
	binary.BigEndian.PutUint32(u[0:], uint32(t))
	binary.BigEndian.PutUint16(u[4:], uint16(t>>32))
	binary.BigEndian.PutUint16(u[6:], uint16(t>>48)&0x0fff|0x1000)
	binary.BigEndian.PutUint16(u[8:], seq|0x8000)
	copy(u[10:], node[:])
	return u
}

// processNode is the node of version 1 UUIDs, drawn once per process.
func processNode() [6]byte {
	uuidClock.once.Do(func() { uuidClock.node = randomNode() })
	return uuidClock.node
}

// randomNode is a random node with the multicast bit set, which no
// network card's address has.
func randomNode() [6]byte {
	var n [6]byte
	_, _ = rand.Read(n[:])
	n[0] |= 0x01
	return n
}
