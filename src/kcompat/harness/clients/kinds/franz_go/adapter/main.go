// Command adapter drives franz-go's admin client (kadm) for kcompat over the adapter protocol (docs/ADAPTERS.md):
// JSON lines on stdin and stdout, free-form log on stderr.  Each op's args and result fields are those of the
// Java sidecar's class of the same name (harness/clients/sidecar/kcompat/sidecar/ops/).  What kadm can't express
// is named in unsupported_options and the call is made without it; a Kafka error or a library error is data.
//
// A client reference's "max_versions" setting caps every request version at a Kafka release's, as a user does with
// kgo.MaxVersions: the version set is franz-go's own for that release (kversion.FromString, which takes a release
// with or without its patch); a release kversion doesn't know is the adapter's failure, naming the nearest it does.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"kcompat/adapter/kit"
)

type (
	result   = kit.Result
	resource = kit.Resource
)

// op runs one admin call; an error it returns is the adapter's failure (an argument it can't read).
type op func(ctx context.Context, adm *kadm.Client, args json.RawMessage, r *result) error

var ops = map[string]op{
	"create_topics": createTopics, "create_partitions": createPartitions, "describe_configs": describeConfigs,
	"list_topics": listTopics, "create_acls": createACLs, "describe_topics": describeTopics,
	"delete_topics": deleteTopics, "describe_cluster": describeCluster, "alter_configs": alterConfigs,
	"incremental_alter_configs": incrementalAlterConfigs, "describe_acls": describeACLs, "delete_acls": deleteACLs,
	"list_consumer_groups": listConsumerGroups, "describe_consumer_groups": describeConsumerGroups,
	"delete_consumer_groups": deleteConsumerGroups, "list_consumer_group_offsets": listConsumerGroupOffsets,
	"alter_consumer_group_offsets": alterConsumerGroupOffsets, "delete_records": deleteRecords,
	"list_offsets": listOffsets, "elect_leaders": electLeaders,
	"alter_partition_reassignments": alterPartitionReassignments,
	"list_partition_reassignments":  listPartitionReassignments, "describe_log_dirs": describeLogDirs,
	"delete_consumer_group_offsets":   deleteConsumerGroupOffsets,
	"describe_user_scram_credentials": describeUserScramCredentials,
	"alter_user_scram_credentials":    alterUserScramCredentials,
	"list_config_resources":           listConfigResources, "describe_share_groups": describeShareGroups,
	"list_share_group_offsets":   listShareGroupOffsets,
	"alter_share_group_offsets":  alterShareGroupOffsets,
	"delete_share_group_offsets": deleteShareGroupOffsets,
}

// clients holds one kgo client per distinct connection (bootstrap, user, password) between calls.
var clients = map[string]*kgo.Client{}

func clientFor(c *kit.Connection) (*kgo.Client, error) {
	key := c.Key()
	if cl, ok := clients[key]; ok {
		return cl, nil
	}
	opts := []kgo.Opt{kgo.SeedBrokers(strings.Split(c.Bootstrap, ",")...), kgo.ClientID("kcompat-franz-go"),
		kgo.RequestTimeoutOverhead(30 * time.Second), kgo.Dialer(dial)}
	if release, ok := c.Setting("max_versions"); ok {
		versions, err := maxVersions(release)
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.MaxVersions(versions))
	}
	if c.Username != nil {
		password := ""
		if c.Password != nil {
			password = *c.Password
		}
		opts = append(opts, kgo.SASL(plain.Auth{User: *c.Username, Pass: password}.AsMechanism()))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	clients[key] = cl
	return cl, nil
}

// maxVersions is kversion's version set of a Kafka release, or an error naming the releases nearest it that
// kversion knows.
func maxVersions(release string) (*kversion.Versions, error) {
	if versions := kversion.FromString(release); versions != nil {
		return versions, nil
	}
	known := kversion.VersionStrings() // newest first, without the patch ("v4.4", ..., "v0.8.0")
	wanted := releaseKey(release)
	var below, above string
	for _, name := range known {
		if compareKeys(releaseKey(name), wanted) <= 0 {
			below = name
			break
		}
		above = name
	}
	nearest := strings.Trim(strings.Join([]string{below, above}, ", "), ", ")
	return nil, fmt.Errorf("franz-go's kversion has no version set for max_versions=%s: nearest %s", release,
		nearest)
}

// releaseKey is a release's numbers, "v" and anything past the digits aside.
func releaseKey(release string) []int {
	var key []int
	for _, part := range strings.Split(strings.TrimPrefix(release, "v"), ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			break
		}
		key = append(key, n)
	}
	return key
}

func compareKeys(a, b []int) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return len(a) - len(b)
}

// dial is kgo's own dialing (10 s, as its default), each connection read for the request versions it carries.
func dial(ctx context.Context, network, host string) (net.Conn, error) {
	conn, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, network, host)
	if err != nil {
		return nil, err
	}
	return &kit.RecordingConn{Conn: conn}, nil
}

func closeClient(c *kit.Connection) {
	key := c.Key()
	if cl, ok := clients[key]; ok {
		cl.Close()
		delete(clients, key)
	}
}

func main() {
	kit.ExceptionName = typeName
	names := make([]string, 0, len(ops))
	for name := range ops {
		names = append(names, name)
	}
	kit.Serve(kit.Adapter{Release: strings.TrimPrefix(kit.ModuleVersion("github.com/twmb/franz-go"), "v"),
		Operations: names,
		Ready: map[string]any{"modules": map[string]string{
			"kadm": kit.ModuleVersion("github.com/twmb/franz-go/pkg/kadm"),
			"kmsg": kit.ModuleVersion("github.com/twmb/franz-go/pkg/kmsg")}},
		Call: run, Close: closeClient, CloseAll: closeAll})
}

func closeAll() {
	for key, cl := range clients {
		cl.Close()
		delete(clients, key)
	}
}

// run makes one call with a context bounded by kit.CallTimeout.
func run(req *kit.Request) (*result, error) {
	handler := ops[req.Op]
	cl, err := clientFor(req.Connection)
	if err != nil {
		return nil, err
	}
	if req.Connection.Surface == kmsgSurface {
		handler = onKmsg(cl, req.Op)
	}
	ctx, cancel := context.WithTimeout(context.Background(), kit.CallTimeout)
	defer cancel()
	r := kit.NewResult()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				log.Printf("panic in %s: %v\n%s", req.Op, p, debug.Stack())
				done <- fmt.Errorf("panic: %v", p)
			}
		}()
		done <- handler(ctx, kadm.NewClient(cl), req.Args, r)
	}()
	answered, err := awaitCall(ctx, done)
	if !answered { // still in the call: its client is closed aside, the next call makes a new one
		closeClient(req.Connection)
		r = kit.NewResult()
		r.Threw(fmt.Errorf("franz-go gave no answer to %s within %s: %w", req.Op, kit.CallTimeout, ctx.Err()))
	} else if err != nil {
		return nil, err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) { // it returned only when its context had expired
		r.ReachedDeadline()
	}
	return r, nil
}

// awaitCall waits for a call's handler until its context expires and a second more: kgo gives up a request
// when its context does, but not a new connection's ApiVersions, which waits out kgo's own read timeout.
func awaitCall(ctx context.Context, done <-chan error) (bool, error) {
	select {
	case err := <-done:
		return true, err
	case <-ctx.Done():
	}
	select {
	case err := <-done:
		return true, err
	case <-time.After(time.Second):
		return false, nil
	}
}
