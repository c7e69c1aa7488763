package kit

// The request versions a library sent, read from the frames it writes on its connections (its own dialer wraps
// each one in RecordingConn): a request frame is its size (int32), then its API key and version (int16 each). An
// answer's request_version is the last version sent during the call of one of the APIs its request names, as
// the Java sidecar reads it from kafka-clients' log; null when the call sent none.

import (
	"encoding/binary"
	"net"
	"sync"
)

// SentLog is every (API key, version) written, in order.
type SentLog struct {
	mu   sync.Mutex
	sent [][2]int16
}

// Requests is what this program's connections wrote.
var Requests SentLog

func (l *SentLog) record(key, version int16) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent = append(l.sent, [2]int16{key, version})
}

// Mark is a position in the log: Since looks only at what came after it.
func (l *SentLog) Mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.sent)
}

// Since is the last version of any of keys sent after mark, or nil.
func (l *SentLog) Since(mark int, keys ...int16) *int {
	l.mu.Lock()
	defer l.mu.Unlock()
	var found *int
	for _, sent := range l.sent[min(mark, len(l.sent)):] {
		for _, key := range keys {
			if sent[0] == key {
				version := int(sent[1])
				found = &version
			}
		}
	}
	return found
}

// RecordingConn reads the header of every request frame written through it into Requests.
type RecordingConn struct {
	net.Conn
	mu      sync.Mutex
	header  []byte
	skip    int
	unknown bool // a write it could not read as frames (an unframed SASL token): it stops reading this conn
}

func (c *RecordingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.observe(p[:n])
	return n, err
}

func (c *RecordingConn) observe(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(p) > 0 && !c.unknown {
		if c.skip > 0 {
			step := min(c.skip, len(p))
			c.skip, p = c.skip-step, p[step:]
			continue
		}
		step := min(8-len(c.header), len(p))
		c.header, p = append(c.header, p[:step]...), p[step:]
		if len(c.header) < 8 {
			return
		}
		size := int(int32(binary.BigEndian.Uint32(c.header[0:4])))
		key, version := int16(binary.BigEndian.Uint16(c.header[4:6])), int16(binary.BigEndian.Uint16(c.header[6:8]))
		c.header = c.header[:0]
		if size < 4 || size > 1<<28 || key < 0 || key > 1000 || version < 0 || version > 100 {
			c.unknown = true
			return
		}
		Requests.record(key, version)
		c.skip = size - 4
	}
}
