package pgenc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"embed"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
)

// tables holds the multi-byte encodings' conversions, one file each,
// generated from PostgreSQL 15 by TestTablesMatchPostgres -generate,
// which also checks them, every character both ways. A file is flate
// compressed; inside, all numbers are varints:
//
//	n, then n × (bytes − previous bytes, first code point − previous, second code point or 0)
//	m, then m × (code point − previous, bytes or 0): where UTF8 → encoding is not
//	      the inverse of the first list (the lowest bytes decoding to a code point)
//	p, then p × (code point, code point, bytes): pairs converting to one character
//
//go:embed tables/*.bin
var tables embed.FS

// multiBytes are the multi-byte encodings that convert, with PostgreSQL's
// verifier and mblen for each.
var multiBytes = map[string]struct {
	clen charLen
	lead leadLen
}{
	"EUC_JP": {eucJPLen, eucLead}, "EUC_JIS_2004": {eucJPLen, eucLead}, "EUC_CN": {eucKRLen, eucCNLead},
	"EUC_KR": {eucKRLen, eucLead}, "EUC_TW": {eucTWLen, eucTWLead}, "JOHAB": {johabLen, eucLead},
	"SJIS": {sjisLen, sjisLead}, "SHIFT_JIS_2004": {sjisLen, sjisLead},
	"BIG5": {nonNULLen, twoLead}, "GBK": {nonNULLen, twoLead}, "UHC": {nonNULLen, twoLead},
	"GB18030": {gb18030Len, gb18030Lead},
}

var (
	mbMu    sync.Mutex
	mbCache = map[string]*multiByte{}
)

// loadMultiByte reads enc's table, once.
func loadMultiByte(enc string) (*multiByte, error) {
	mbMu.Lock()
	defer mbMu.Unlock()
	if m, ok := mbCache[enc]; ok {
		return m, nil
	}
	f, ok := multiBytes[enc]
	if !ok {
		return nil, nil
	}
	data, err := tables.ReadFile("tables/" + enc + ".bin")
	if err != nil {
		return nil, fmt.Errorf("pgenc: %s: %w", enc, err)
	}
	m := &multiByte{name: enc, clen: f.clen, lead: f.lead, gb18030: enc == "GB18030"}
	if err := m.read(bufio.NewReader(flate.NewReader(bytes.NewReader(data)))); err != nil {
		return nil, fmt.Errorf("pgenc: %s's table: %w", enc, err)
	}
	mbCache[enc] = m
	return m, nil
}

func (m *multiByte) read(r io.ByteReader) error {
	var err error
	next := func() int64 {
		if err != nil {
			return 0
		}
		var v int64
		v, err = binary.ReadVarint(r)
		return v
	}
	n := next()
	m.dec = make(map[uint32]string, n)
	m.enc = make(map[rune]uint32, n)
	var seq, r1 int64
	for i := int64(0); i < n && err == nil; i++ {
		seq += next()
		r1 += next()
		s := string(rune(r1))
		if r2 := next(); r2 != 0 {
			s += string(rune(r2))
		} else if _, ok := m.enc[rune(r1)]; !ok {
			m.enc[rune(r1)] = uint32(seq)
		}
		m.dec[uint32(seq)] = s
	}
	var cp int64
	for i, n := int64(0), next(); i < n && err == nil; i++ {
		cp += next()
		if v := next(); v == 0 {
			delete(m.enc, rune(cp))
		} else {
			m.enc[rune(cp)] = uint32(v)
		}
	}
	for i, n := int64(0), next(); i < n && err == nil; i++ {
		if m.pairs == nil {
			m.pairs = map[[2]rune]uint32{}
		}
		r1, r2 := rune(next()), rune(next())
		m.pairs[[2]rune{r1, r2}] = uint32(next())
	}
	return err
}

// writeTable writes a table in the format read reads: dec sorted by
// bytes, enc the exceptions sorted by code point.
func writeTable(w io.Writer, dec []decEntry, enc []encEntry, pairs []pairEntry) error {
	var buf []byte
	put := func(v int64) { buf = binary.AppendVarint(buf, v) }
	put(int64(len(dec)))
	var seq, r1 int64
	for _, d := range dec {
		put(int64(d.seq) - seq)
		put(int64(d.r[0]) - r1)
		put(int64(d.r[1]))
		seq, r1 = int64(d.seq), int64(d.r[0])
	}
	put(int64(len(enc)))
	var cp int64
	for _, e := range enc {
		put(int64(e.r) - cp)
		put(int64(e.seq))
		cp = int64(e.r)
	}
	put(int64(len(pairs)))
	for _, p := range pairs {
		put(int64(p.r[0]))
		put(int64(p.r[1]))
		put(int64(p.seq))
	}
	return writeCompressed(w, buf)
}

type decEntry struct {
	seq uint32
	r   [2]rune
}

type encEntry struct {
	r   rune
	seq uint32
}

type pairEntry struct {
	r   [2]rune
	seq uint32
}

// writeCompressed writes buf to w deflated, as the tables are stored.
func writeCompressed(w io.Writer, buf []byte) error {
	fw, err := flate.NewWriter(w, flate.BestCompression)
	if err != nil {
		return err
	}
	if _, err := fw.Write(buf); err != nil {
		return err
	}
	return fw.Close()
}
