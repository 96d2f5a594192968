//go:build !linux

package pgrepl

// block leaves the socket in Go's network poller, elsewhere than on Linux.
func (c *pacedConn) block() {}
