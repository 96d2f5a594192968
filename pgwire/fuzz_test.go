package pgwire_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/pgwire"
)

// message frames a protocol message: its type byte (none for the startup
// packet), its length, its body.
func message(typ byte, body []byte) []byte {
	var b []byte
	if typ != 0 {
		b = append(b, typ)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(body)+4))
	return append(b, body...)
}

func cstring(s string) []byte { return append([]byte(s), 0) }

// FuzzMessages sends arbitrary bytes as a client's whole stream, startup
// packet included, then ends it, to a server on a loopback port that
// serves every input on one database: no input may crash the process,
// and the server must still stop cleanly at the end.
func FuzzMessages(f *testing.F) {
	startup := binary.BigEndian.AppendUint32(nil, 196608) // protocol 3.0
	startup = append(startup, cstring("user")...)
	startup = append(startup, cstring("deltaview")...)
	startup = append(startup, cstring("database")...)
	startup = append(startup, cstring("deltaview")...)
	startup = append(startup, 0)
	hello := message(0, startup)
	query := func(q string) []byte { return message('Q', cstring(q)) }
	seeds := [][]byte{
		hello,
		append(append([]byte{}, hello...), query("SELECT 1")...),
		append(append([]byte{}, hello...), query("CREATE TABLE t (a int PRIMARY KEY, b text); INSERT INTO t VALUES (1, 'x'); SELECT * FROM t")...),
		append(append([]byte{}, hello...), query("COPY t FROM STDIN")...),
		append(append([]byte{}, hello...), query("BEGIN; SELECT 1/0; COMMIT")...),
		append(append([]byte{}, hello...), message('P', append(append(cstring("s"), cstring("SELECT $1::int")...), 0, 0))...),
		append(append([]byte{}, hello...), '!', 0, 0, 0, 8, 1, 2, 3, 4),
		append(append([]byte{}, hello...), 'Q', 0xff, 0xff, 0xff, 0xf0),
		message(0, binary.BigEndian.AppendUint32(nil, 80877103)),                                 // SSLRequest
		message(0, append(binary.BigEndian.AppendUint32(nil, 80877102), 0, 0, 0, 1, 0, 0, 0, 2)), // CancelRequest
	}
	for _, s := range seeds {
		f.Add(s)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- pgwire.Serve(ctx, deltaview.Open(), ln, pgwire.Options{}) }()
	f.Cleanup(func() {
		cancel()
		select {
		case err := <-served:
			if err != nil {
				f.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			f.Errorf("Serve did not return 10s after its context ended")
		}
	})

	f.Fuzz(func(t *testing.T, data []byte) {
		if n := exchange(t, ln.Addr().String(), data); bytes.Equal(data, hello) && n == 0 {
			t.Fatal("the server answered nothing to a startup packet")
		}
	})
}

// exchange sends data to the server at addr on a connection of its own,
// closes the writing side, and reads until the server closes; it returns
// the bytes the server sent.
func exchange(t *testing.T, addr string, data []byte) int64 {
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	client := nc.(*net.TCPConn)
	defer client.Close()
	client.SetDeadline(time.Now().Add(5 * time.Second))
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		client.Write(data)
		client.CloseWrite() // the server reads the end of the stream
	}()
	n, _ := io.Copy(io.Discard, client) // until the server closes
	<-wrote
	return n
}
