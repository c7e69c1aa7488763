package main

// The request versions the library sent, read from the frames it writes on its connections (the library's own
// dialer wraps each one): a request frame is its size (int32), then its API key and version (int16 each).  An
// answer's request_version is the last version of its operation's API sent during the call, as the Java sidecar
// reads it from kafka-clients' log; null when the call sent none.

import (
	"encoding/binary"
	"net"
	"sync"
)

// apiKeys is the API whose version each operation's answer reports (harness/operations/<op>.py's “api“).
var apiKeys = map[string]int16{
	"create_topics": 19, "create_partitions": 37, "describe_configs": 32, "list_topics": 3, "create_acls": 30,
	"describe_topics": 75, "delete_topics": 20, "describe_cluster": 3, "alter_configs": 33,
	"incremental_alter_configs": 44, "describe_acls": 29, "delete_acls": 31, "list_consumer_groups": 16,
	"describe_consumer_groups": 15, "delete_consumer_groups": 42, "list_consumer_group_offsets": 9,
	"alter_consumer_group_offsets": 8, "delete_records": 21, "list_offsets": 2, "elect_leaders": 43,
	"alter_partition_reassignments": 45, "list_partition_reassignments": 46, "describe_log_dirs": 35,
	"delete_consumer_group_offsets": 47, "describe_user_scram_credentials": 50, "alter_user_scram_credentials": 51,
}

type sentLog struct {
	mu   sync.Mutex
	sent [][2]int16
}

var requests sentLog

func (l *sentLog) record(key, version int16) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent = append(l.sent, [2]int16{key, version})
}

// mark is a position in the log: since looks only at what came after it.
func (l *sentLog) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.sent)
}

// since is the last version of API key sent after mark, or nil.
func (l *sentLog) since(mark int, key int16) *int {
	l.mu.Lock()
	defer l.mu.Unlock()
	var found *int
	for _, sent := range l.sent[min(mark, len(l.sent)):] {
		if sent[0] == key {
			version := int(sent[1])
			found = &version
		}
	}
	return found
}

// recordingConn reads the header of every request frame written through it into requests.
type recordingConn struct {
	net.Conn
	mu      sync.Mutex
	header  []byte
	skip    int
	unknown bool // a write it could not read as frames (an unframed SASL token): it stops reading this conn
}

func (c *recordingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.observe(p[:n])
	return n, err
}

func (c *recordingConn) observe(p []byte) {
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
		requests.record(key, version)
		c.skip = size - 4
	}
}
