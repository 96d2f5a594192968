package pgenc

import "io"

// reader converts what it reads, in an encoding, to UTF8.
type reader struct {
	r    io.Reader
	e    *Encoding
	in   []byte
	held int    // bytes at in's start of a character cut short by the last read
	out  []byte // converted, not yet read
	buf  []byte // out's storage
	err  error  // returned once out is read: the input's, or a conversion's
}

// NewReader returns a reader of r's bytes, in e, converted to UTF8. A
// byte that does not convert is an error once everything before it has
// been read, so that the reader's client (COPY) places it on its line.
func (e *Encoding) NewReader(r io.Reader) io.Reader {
	return &reader{r: r, e: e, in: make([]byte, 1<<15)}
}

func (c *reader) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		n, err := c.r.Read(c.in[c.held:])
		n += c.held
		var cerr error
		var used int
		c.buf, used, cerr = c.e.decodeSome(c.buf[:0], c.in[:n], err != nil)
		c.held = copy(c.in, c.in[used:n])
		c.out = c.buf
		switch {
		case cerr != nil:
			c.err = cerr
		case err != nil:
			c.err = err
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}
