package pgenc

import "io"

// reader converts what it reads, in an encoding, to UTF8.
type reader struct {
	r   io.Reader
	e   *Encoding
	in  []byte
	out []byte // converted, not yet read
	buf []byte // out's storage
	err error  // returned once out is read: the input's, or a conversion's
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
		n, err := c.r.Read(c.in)
		var cerr error
		c.buf, cerr = c.e.ToUTF8(c.buf[:0], c.in[:n])
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
