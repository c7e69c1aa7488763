// The kcompat adapter for segmentio/kafka-go (docs/ADAPTERS.md, protocol 3): its kafka.Client, and its kafka.Conn
// as the surface `conn` (conn.go).
//
// One JSON request per line on stdin, one answer per line on stdout; kafka-go logs nothing by default and
// this program's own notes go to stderr. One kafka.Client with a kafka.Transport of its own per distinct
// connection, kept between requests (the transport holds the connections, their ApiVersions and the
// metadata cache) and closed by the `close` operation or at the end of stdin.
//
// What kafka-go's Client lacks is said, not made up: it has no listInternal option for listing topics, no
// authorized operations in Metadata, no deletion by topic id and no way to pick the broker of a
// CreatePartitions request here; each is named in unsupported_options when a request asks for it.
// Client.Metadata answers from the transport's metadata cache (refreshed every MetadataTTL), as it does for
// any application; a connection's first call fetches it fresh. request_version is read off the frames the
// library writes (the kit's RecordingConn).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
	"strings"

	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/sasl/plain"
	"kcompat/adapter/kit"
)

const module = "github.com/segmentio/kafka-go"

type (
	result   = kit.Result
	resource = kit.Resource
)

var operations = map[string]func(*kafka.Client, json.RawMessage) (*result, error){
	"create_topics":     createTopics,
	"create_partitions": createPartitions,
	"delete_topics":     deleteTopics,
	"describe_configs":  describeConfigs,
	"list_topics":       listTopics,
	"describe_cluster":  describeCluster,
	"create_acls":       createACLs,
	"describe_acls":     describeACLs,
	"delete_acls":       deleteACLs,
}

func main() {
	kit.ExceptionName = exceptionName
	names := make([]string, 0, len(operations))
	for name := range operations {
		names = append(names, name)
	}
	cs := &clients{open: map[string]*kafka.Client{}, conns: map[string]*conns{}}
	kit.Serve(kit.Adapter{Release: strings.TrimPrefix(kit.ModuleVersion(module), "v"), Operations: names,
		Call: cs.call, Close: cs.close, CloseAll: cs.closeAll})
}

// clients holds one kafka.Client, with a Transport of its own, per distinct connection; on the surface `conn`,
// that connection's Conns.
type clients struct {
	open  map[string]*kafka.Client
	conns map[string]*conns
}

func (cs *clients) call(req *kit.Request) (*result, error) {
	fmt.Fprintf(os.Stderr, "kcompat kafka-go adapter: request %s %s %s %s\n", req.ID, req.Op, req.Connection.Bootstrap,
		req.Connection.Surface)
	if req.Connection.Surface == connSurface {
		return cs.callConn(req)
	}
	return operations[req.Op](cs.get(req.Connection), req.Args)
}

func (cs *clients) get(c *kit.Connection) *kafka.Client {
	if client, ok := cs.open[c.Key()]; ok {
		return client
	}
	transport := &kafka.Transport{Dial: wire}
	if c.Username != nil {
		transport.SASL = plain.Mechanism{Username: *c.Username, Password: kit.Deref(c.Password, "")}
	}
	hosts := strings.Split(c.Bootstrap, ",")
	client := &kafka.Client{Addr: kafka.TCP(hosts...), Timeout: kit.CallTimeout, Transport: transport}
	cs.open[c.Key()] = client
	return client
}

func (cs *clients) close(c *kit.Connection) {
	if client, ok := cs.open[c.Key()]; ok {
		client.Transport.(*kafka.Transport).CloseIdleConnections()
		delete(cs.open, c.Key())
	}
	if conns, ok := cs.conns[c.Key()]; ok {
		conns.close()
		delete(cs.conns, c.Key())
	}
}

func (cs *clients) closeAll() {
	for k, client := range cs.open {
		client.Transport.(*kafka.Transport).CloseIdleConnections()
		delete(cs.open, k)
	}
	for k, conns := range cs.conns {
		conns.close()
		delete(cs.conns, k)
	}
}

var dialer net.Dialer

// wire is the Transport's Dial: the library's own connection, its request headers noted (kit.RecordingConn).
func wire(ctx context.Context, network, address string) (net.Conn, error) {
	conn, err := dialer.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return &kit.RecordingConn{Conn: conn}, nil
}

// badArgs is a request the adapter can't read: a failure answer, never a result.
type badArgs struct{ message string }

func (e badArgs) Error() string { return e.message }

// exceptionName is the Go type of the innermost error of a chain (kafka-go wraps its errors with %w).
func exceptionName(err error) string {
	for {
		inner := errors.Unwrap(err)
		if inner == nil {
			return fmt.Sprintf("%T", err)
		}
		err = inner
	}
}

// outcome is one resource's entry: success, a Kafka error by its code and name, or another error by its type.
func outcome(name string, err error) *resource {
	entry := &resource{Resource: name, ErrorName: "NONE", Fields: map[string]any{}}
	if err == nil {
		return entry
	}
	entry.ErrorMessage = kit.Text(err.Error())
	var kerr kafka.Error
	if errors.As(err, &kerr) {
		entry.ErrorCode = int(kerr)
		entry.ErrorName = kit.ErrorName(int16(kerr))
		entry.Exception = kit.Text("kafka.Error")
		return entry
	}
	entry.ErrorCode = -1
	entry.ErrorName = kit.ErrorName(-1)
	entry.Exception = kit.Text(exceptionName(err))
	return entry
}

// callFailed records an error of the whole call. A Kafka error there (the broker refusing the request, for
// one) is every named resource's error, as a per-resource answer would carry it; any other is the exception.
func callFailed(res *result, err error, names []string) *result {
	var kerr kafka.Error
	if errors.As(err, &kerr) && len(names) > 0 {
		for _, name := range names {
			res.Resources = append(res.Resources, outcome(name, err))
		}
		return res
	}
	res.Exception = kit.Text(exceptionName(err))
	res.ExceptionMessage = kit.Text(err.Error())
	return res
}

func decode(raw json.RawMessage, into any) error {
	if err := json.Unmarshal(raw, into); err != nil {
		return badArgs{fmt.Sprintf("args: %v", err)}
	}
	return nil
}

func callContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), kit.CallTimeout)
}

// byRequest lists a response's map in the order the request named its keys, then any others by name.
func byRequest(names []string, errs map[string]error) []*resource {
	out := []*resource{}
	seen := map[string]bool{}
	for _, name := range names {
		if err, ok := errs[name]; ok && !seen[name] {
			out = append(out, outcome(name, err))
			seen[name] = true
		}
	}
	rest := []string{}
	for name := range errs {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	for _, name := range rest {
		out = append(out, outcome(name, errs[name]))
	}
	return out
}
