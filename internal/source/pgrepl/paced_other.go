//go:build !linux

package pgrepl

import "errors"

// block leaves the socket in Go's network poller, elsewhere than on Linux.
func (c *pacedConn) block() {}

// The blocking calls are never made: the socket never leaves the poller.

var errNotBlocking = errors.New("the socket is in the network poller")

var errAgain = errors.New("again")

func rawRead(int, []byte) (int, error)                 { return 0, errNotBlocking }
func shutdownFD(int)                                   {}
func queued(int) int                                   { return -1 }
func (c *pacedConn) blockingWrite([]byte) (int, error) { return 0, errNotBlocking }
func closeFD(int) error                                { return errNotBlocking }
