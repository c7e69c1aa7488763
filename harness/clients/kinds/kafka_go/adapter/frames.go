package main

// What kafka-go sent: its Transport dials through wire(), whose connections read the header of every request
// frame they write (size int32, then API key and version, int16 each). An answer's request_version is the last
// version of its operation's API written during the call; null when the call wrote none (kafka-go's Client
// answers Metadata from its transport's cache, so a list may send nothing).

import (
	"context"
	"encoding/binary"
	"net"
	"sync"
)

// opAPIs is the API each declared operation's answer reports (harness/operations/<op>.py names it).
var opAPIs = map[string]int16{"create_topics": 19, "create_partitions": 37, "delete_topics": 20,
	"describe_configs": 32, "list_topics": 3, "describe_cluster": 3, "create_acls": 30, "describe_acls": 29,
	"delete_acls": 31}

type written struct {
	mu   sync.Mutex
	sent [][2]int16 // (API key, version) in the order written
}

var frames written

func (w *written) add(key, version int16) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent = append(w.sent, [2]int16{key, version})
}

func (w *written) position() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.sent)
}

// lastSince is the version of the last frame of API key written after position from, or nil.
func (w *written) lastSince(from int, key int16) *int {
	w.mu.Lock()
	defer w.mu.Unlock()
	var found *int
	for _, frame := range w.sent[from:] {
		if frame[0] == key {
			version := int(frame[1])
			found = &version
		}
	}
	return found
}

// headerConn follows the frames written on one connection: skip is what remains of the current frame's body,
// head collects the first bytes of the next frame until its size, key and version are known.
type headerConn struct {
	net.Conn
	mu   sync.Mutex
	head []byte
	skip int
}

func (c *headerConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.follow(p)
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *headerConn) follow(p []byte) {
	for len(p) > 0 {
		if c.skip > 0 {
			n := min(c.skip, len(p))
			c.skip -= n
			p = p[n:]
			continue
		}
		n := min(8-len(c.head), len(p))
		c.head = append(c.head, p[:n]...)
		p = p[n:]
		if len(c.head) == 8 {
			size := int(int32(binary.BigEndian.Uint32(c.head[:4])))
			frames.add(int16(binary.BigEndian.Uint16(c.head[4:6])), int16(binary.BigEndian.Uint16(c.head[6:8])))
			c.skip = max(size-4, 0)
			c.head = c.head[:0]
		}
	}
}

var dialer net.Dialer

// wire is the Transport's Dial: the library's own connection, its request headers noted.
func wire(ctx context.Context, network, address string) (net.Conn, error) {
	conn, err := dialer.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return &headerConn{Conn: conn}, nil
}
