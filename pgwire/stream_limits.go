package pgwire

import (
	"errors"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// flushStream writes a COPY (SUBSCRIBE …) stream's buffered rows within
// the server's stream write timeout: a client that reads nothing cannot
// hold its connection for ever (its subscription has already been ended
// by the commits that found its queue full, which never wait for it).
func (c *conn) flushStream() error {
	c.nc.SetWriteDeadline(time.Now().Add(c.srv.streamWrite))
	err := c.be.Flush()
	if err != nil {
		if c.srv.logf != nil {
			c.srv.logf("connection from %s: subscriber disconnected: it read nothing for %s", c.nc.RemoteAddr(), c.srv.streamWrite)
		}
		return err
	}
	c.nc.SetWriteDeadline(time.Time{})
	return nil
}

// subscriptionEnded is the error of a stream whose subscription ended for
// the server's reason: a subscriber too slow for the commits gets 53400.
func subscriptionEnded(err error) error {
	if errors.Is(err, deltaview.ErrLagged) {
		return pgerr.New(pgerr.ConfigurationLimitExceeded, "the subscriber fell %d commits behind and was dropped", deltaview.DefaultQueue).
			WithHint("read the stream faster, or subscribe again WITH (snapshot) to start over from the view's rows")
	}
	return pgerr.Wrap(err)
}
