package pgenc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Direct keeps one of PostgreSQL's conversions between two encodings
// neither of which is UTF8 (EUC_JP to SJIS, KOI8R to WIN1251, LATIN1 to
// MULE_INTERNAL …). They are PostgreSQL's own algorithms and tables,
// which often differ from the composition through UTF8, so each is a
// table of its own, generated from PostgreSQL by
// TestDirectMatchPostgres -generate: every character of the source
// encoding maps to its bytes in the destination, or to the error
// PostgreSQL gives for it; a character the table lacks has no
// equivalent.
type Direct struct {
	From, To string
	clen     charLen
	lead     leadLen
	conv     map[uint32]directEntry
}

// directEntry is one character's conversion: out's n bytes, or, when
// code is set, the error naming the character's first n bytes.
type directEntry struct {
	out  uint32
	n    uint8
	code uint8
}

// The codes of a directEntry.
const (
	directOK = iota
	directUntranslatable
	directInvalid
)

// directPairs are PostgreSQL's default conversions between two
// encodings other than UTF8 (pg_conversion), each both ways.
var directPairs = func() map[[2]string]bool {
	m := map[[2]string]bool{}
	for _, p := range strings.Fields(`KOI8R>WIN1251 KOI8R>WIN866 WIN866>WIN1251 ISO_8859_5>KOI8R ISO_8859_5>WIN1251
		ISO_8859_5>WIN866 EUC_JP>SJIS EUC_TW>BIG5 LATIN2>WIN1250 EUC_JIS_2004>SHIFT_JIS_2004`) {
		a, b, _ := strings.Cut(p, ">")
		m[[2]string{a, b}], m[[2]string{b, a}] = true, true
	}
	for _, e := range strings.Fields("KOI8R ISO_8859_5 WIN1251 WIN866 EUC_CN EUC_JP SJIS EUC_KR EUC_TW BIG5 LATIN1 LATIN2 LATIN3 LATIN4 WIN1250") {
		m[[2]string{e, "MULE_INTERNAL"}], m[[2]string{"MULE_INTERNAL", e}] = true, true
	}
	return m
}()

// DirectPairs lists the direct conversions, sorted.
func DirectPairs() [][2]string {
	var out [][2]string
	for p := range directPairs {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i][0] < out[j][0] || out[i][0] == out[j][0] && out[i][1] < out[j][1]
	})
	return out
}

var (
	directMu    sync.Mutex
	directCache = map[[2]string]*Direct{}
)

// GetDirect returns PostgreSQL's conversion from src to dst, or nil when
// it has none between the two.
func GetDirect(src, dst string) (*Direct, error) {
	p := [2]string{src, dst}
	if !directPairs[p] {
		return nil, nil
	}
	directMu.Lock()
	defer directMu.Unlock()
	if d, ok := directCache[p]; ok {
		return d, nil
	}
	c, err := Checker(src)
	if err != nil {
		return nil, err
	}
	d := &Direct{From: src, To: dst, clen: singleLen, lead: singleLen, conv: map[uint32]directEntry{}}
	if c.mb != nil {
		d.clen, d.lead = c.mb.clen, c.mb.lead
	}
	data, err := tables.ReadFile(directFile(src, dst))
	if err != nil {
		return nil, fmt.Errorf("pgenc: %s to %s: %w", src, dst, err)
	}
	if err := d.read(bufio.NewReader(flate.NewReader(bytes.NewReader(data)))); err != nil {
		return nil, fmt.Errorf("pgenc: %s to %s's table: %w", src, dst, err)
	}
	directCache[p] = d
	return d, nil
}

func directFile(src, dst string) string { return "tables/" + src + "-" + dst + ".bin" }

// singleLen is a single-byte encoding's character length.
func singleLen([]byte) int { return 1 }

// Convert appends src, which must be valid in d.From, to dst in d.To, up
// to the first character that does not convert, whose error it returns:
// 22P05, or 22021 where PostgreSQL's conversion checks more than its
// verifier.
func (d *Direct) Convert(dst, src []byte) ([]byte, error) {
	for i := 0; i < len(src); {
		c := src[i]
		if c < 0x80 {
			dst = append(dst, c)
			i++
			continue
		}
		n := max(d.clen(src[i:]), 1)
		e, ok := d.conv[pack(src[i:i+n])]
		if !ok {
			e = directEntry{code: directUntranslatable, n: uint8(n)}
		}
		switch e.code {
		case directOK:
			dst = appendN(dst, e.out, int(e.n))
			i += n
			continue
		case directInvalid:
			return dst, pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding %q: %s", d.From, hexBytes(src[i:min(len(src), i+int(e.n))]))
		}
		return dst, pgerr.New(codeUntranslatable, "character with byte sequence %s in encoding %q has no equivalent in encoding %q",
			hexBytes(src[i:min(len(src), i+int(e.n))]), d.From, d.To)
	}
	return dst, nil
}

// appendN appends the n low bytes of v, big-endian.
func appendN(dst []byte, v uint32, n int) []byte {
	for k := n - 1; k >= 0; k-- {
		dst = append(dst, byte(v>>(8*k)))
	}
	return dst
}

// A table file, flate compressed, holds varints: n, then n × (the
// character's packed bytes − the previous one's, its entry's out, and
// code | n<<2), sorted by the character's bytes.
func (d *Direct) read(r io.ByteReader) error {
	n, err := binary.ReadUvarint(r)
	var seq uint64
	for i := uint64(0); i < n && err == nil; i++ {
		var delta, out, flags uint64
		if delta, err = binary.ReadUvarint(r); err != nil {
			break
		}
		if out, err = binary.ReadUvarint(r); err != nil {
			break
		}
		if flags, err = binary.ReadUvarint(r); err != nil {
			break
		}
		seq += delta
		d.conv[uint32(seq)] = directEntry{out: uint32(out), code: uint8(flags & 3), n: uint8(flags >> 2)}
	}
	return err
}

// writeDirect writes entries, keyed by packed character, as read reads
// them.
func writeDirect(w io.Writer, conv map[uint32]directEntry) error {
	keys := make([]uint32, 0, len(conv))
	for k := range conv {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	buf := binary.AppendUvarint(nil, uint64(len(keys)))
	var prev uint32
	for _, k := range keys {
		e := conv[k]
		buf = binary.AppendUvarint(buf, uint64(k-prev))
		buf = binary.AppendUvarint(buf, uint64(e.out))
		buf = binary.AppendUvarint(buf, uint64(e.code)|uint64(e.n)<<2)
		prev = k
	}
	return writeCompressed(w, buf)
}
