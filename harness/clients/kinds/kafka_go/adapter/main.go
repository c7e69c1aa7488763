// The kcompat adapter for segmentio/kafka-go's kafka.Client (docs/ADAPTERS.md, protocol 2).
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
// library writes (frames.go).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/sasl/plain"
)

const (
	protocolVersion = 2
	module          = "github.com/segmentio/kafka-go"
)

// callTimeout bounds every library call (Client.Timeout and each call's context): kcompat's
// KCOMPAT_ADAPTER_DEADLINE, 60 s where it gives none. kcompat waits longer for the answer, so a call that ends
// at this deadline is data: its answer says so in deadline_reached. kafka-go's Transport waits after a
// CreateTopics response until Metadata shows every topic created without error, ValidateOnly or not
// (transport.go, refreshMetadata): a validated topic never appears, so such a call returns only here.
var callTimeout = deadline()

func deadline() time.Duration {
	seconds, err := strconv.ParseFloat(os.Getenv("KCOMPAT_ADAPTER_DEADLINE"), 64)
	if err != nil || seconds <= 0 {
		return 60 * time.Second
	}
	return time.Duration(seconds * float64(time.Second))
}

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

type connection struct {
	Bootstrap string  `json:"bootstrap"`
	Username  *string `json:"username"`
	Password  *string `json:"password"`
}

type request struct {
	ID         int64           `json:"id"`
	Op         string          `json:"op"`
	Connection *connection     `json:"connection"`
	Args       json.RawMessage `json:"args"`
}

type resource struct {
	Resource     string         `json:"resource"`
	ErrorCode    int16          `json:"error_code"`
	ErrorName    string         `json:"error_name"`
	ErrorMessage *string        `json:"error_message"`
	Fields       map[string]any `json:"fields"`
	Exception    *string        `json:"exception"`
}

type result struct {
	RequestVersion     *int       `json:"request_version"`
	Resources          []resource `json:"resources"`
	ResultFields       []string   `json:"result_fields"`
	Exception          *string    `json:"exception"`
	ExceptionMessage   *string    `json:"exception_message"`
	UnsupportedOptions []string   `json:"unsupported_options"`
	DeadlineReached    *float64   `json:"deadline_reached,omitempty"`
	// UnsupportedFields names result fields the library's API type has no way to carry, with that type.
	UnsupportedFields map[string]string `json:"unsupported_fields,omitempty"`
}

func newResult() *result {
	return &result{Resources: []resource{}, ResultFields: []string{}, UnsupportedOptions: []string{}}
}

// badArgs is a request the adapter can't read: a failure answer, never a result.
type badArgs struct{ message string }

func (e badArgs) Error() string { return e.message }

func text(s string) *string { return &s }

func fmtCode(prefix string, code int16) string { return prefix + strconv.Itoa(int(code)) }

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
func outcome(name string, err error) resource {
	entry := resource{Resource: name, ErrorName: "NONE", Fields: map[string]any{}}
	if err == nil {
		return entry
	}
	entry.ErrorMessage = text(err.Error())
	var kerr kafka.Error
	if errors.As(err, &kerr) {
		entry.ErrorCode = int16(kerr)
		entry.ErrorName = errorName(int16(kerr))
		entry.Exception = text("kafka.Error")
		return entry
	}
	entry.ErrorCode = -1
	entry.ErrorName = errorName(-1)
	entry.Exception = text(exceptionName(err))
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
	res.Exception = text(exceptionName(err))
	res.ExceptionMessage = text(err.Error())
	return res
}

func decode(raw json.RawMessage, into any) error {
	if err := json.Unmarshal(raw, into); err != nil {
		return badArgs{fmt.Sprintf("args: %v", err)}
	}
	return nil
}

func callContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), callTimeout)
}

// byRequest lists a response's map in the order the request named its keys, then any others by name.
func byRequest(names []string, errs map[string]error) []resource {
	out := []resource{}
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

// --- create_topics

type newTopic struct {
	Name              string            `json:"name"`
	Partitions        *int              `json:"partitions"`
	ReplicationFactor *int              `json:"replication_factor"`
	Assignments       map[string][]int  `json:"assignments"`
	Configs           map[string]string `json:"configs"`
}

func createTopics(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		Topics       []newTopic `json:"topics"`
		ValidateOnly bool       `json:"validate_only"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	topics := make([]kafka.TopicConfig, 0, len(args.Topics))
	names := make([]string, 0, len(args.Topics))
	for _, t := range args.Topics {
		config := kafka.TopicConfig{Topic: t.Name, NumPartitions: -1, ReplicationFactor: -1}
		if t.Assignments != nil {
			for key, replicas := range t.Assignments {
				partition, err := strconv.Atoi(key)
				if err != nil {
					return nil, badArgs{fmt.Sprintf("args.topics[].assignments: partition %q is not a number", key)}
				}
				config.ReplicaAssignments = append(config.ReplicaAssignments,
					kafka.ReplicaAssignment{Partition: partition, Replicas: replicas})
			}
			sort.Slice(config.ReplicaAssignments, func(i, j int) bool {
				return config.ReplicaAssignments[i].Partition < config.ReplicaAssignments[j].Partition
			})
		} else {
			if t.Partitions != nil {
				config.NumPartitions = *t.Partitions
			}
			if t.ReplicationFactor != nil {
				config.ReplicationFactor = *t.ReplicationFactor
			}
		}
		keys := make([]string, 0, len(t.Configs))
		for key := range t.Configs {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			config.ConfigEntries = append(config.ConfigEntries, kafka.ConfigEntry{ConfigName: key, ConfigValue: t.Configs[key]})
		}
		topics = append(topics, config)
		names = append(names, t.Name)
	}
	res := newResult() // kafka-go's CreateTopicsResponse carries errors only: no KIP-525 result fields
	res.UnsupportedFields = map[string]string{"num_partitions": "kafka.CreateTopicsResponse",
		"replication_factor": "kafka.CreateTopicsResponse", "configs": "kafka.CreateTopicsResponse"}
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.CreateTopics(ctx, &kafka.CreateTopicsRequest{Topics: topics, ValidateOnly: args.ValidateOnly})
	if err != nil {
		return callFailed(res, err, names), nil
	}
	res.Resources = byRequest(names, answer.Errors)
	return res, nil
}

// --- create_partitions

func createPartitions(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		Partitions []struct {
			Topic       string    `json:"topic"`
			TotalCount  int32     `json:"total_count"`
			Assignments [][]int32 `json:"assignments"`
		} `json:"partitions"`
		ValidateOnly bool            `json:"validate_only"`
		Broker       json.RawMessage `json:"broker"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := newResult()
	if len(args.Broker) > 0 && string(args.Broker) != "null" {
		res.UnsupportedOptions = append(res.UnsupportedOptions, "broker")
	}
	topics := make([]kafka.TopicPartitionsConfig, 0, len(args.Partitions))
	names := make([]string, 0, len(args.Partitions))
	for _, p := range args.Partitions {
		config := kafka.TopicPartitionsConfig{Name: p.Topic, Count: p.TotalCount}
		for _, ids := range p.Assignments {
			config.TopicPartitionAssignments = append(config.TopicPartitionAssignments,
				kafka.TopicPartitionAssignment{BrokerIDs: ids})
		}
		topics = append(topics, config)
		names = append(names, p.Topic)
	}
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.CreatePartitions(ctx, &kafka.CreatePartitionsRequest{Topics: topics, ValidateOnly: args.ValidateOnly})
	if err != nil {
		return callFailed(res, err, names), nil
	}
	res.Resources = byRequest(names, answer.Errors)
	return res, nil
}

// --- delete_topics

func deleteTopics(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		Names    []string `json:"names"`
		TopicIDs []string `json:"topic_ids"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := newResult()
	if len(args.TopicIDs) > 0 {
		res.UnsupportedOptions = append(res.UnsupportedOptions, "topic_ids") // DeleteTopicsRequest takes names only
	}
	if len(args.Names) == 0 {
		return res, nil
	}
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.DeleteTopics(ctx, &kafka.DeleteTopicsRequest{Topics: args.Names})
	if err != nil {
		return callFailed(res, err, args.Names), nil
	}
	res.Resources = byRequest(args.Names, answer.Errors)
	return res, nil
}

// --- describe_configs

// Kafka's ConfigResource types (not kafka-go's ResourceType, which numbers ACL resources).
var configTypes = map[string]int8{"topic": 2, "broker": 4, "broker_logger": 8, "client_metrics": 16, "group": 32}

var configSources = []string{"UNKNOWN", "DYNAMIC_TOPIC_CONFIG", "DYNAMIC_BROKER_CONFIG",
	"DYNAMIC_DEFAULT_BROKER_CONFIG", "STATIC_BROKER_CONFIG", "DEFAULT_CONFIG", "DYNAMIC_BROKER_LOGGER_CONFIG",
	"CLIENT_METRICS_CONFIG", "GROUP_CONFIG"}

var configValueTypes = []string{"UNKNOWN", "BOOLEAN", "STRING", "INT", "SHORT", "LONG", "DOUBLE", "LIST", "CLASS",
	"PASSWORD"}

func named(names []string, value int8) string {
	if value >= 0 && int(value) < len(names) {
		return names[value]
	}
	return "UNKNOWN"
}

func typeLabel(value int8) string {
	for name, number := range configTypes {
		if number == value {
			return name
		}
	}
	return strconv.Itoa(int(value))
}

func configEntry(e kafka.DescribeConfigResponseConfigEntry) map[string]any {
	synonyms := []map[string]any{}
	for _, s := range e.ConfigSynonyms {
		synonyms = append(synonyms, map[string]any{"name": s.ConfigName, "value": s.ConfigValue,
			"source": named(configSources, s.ConfigSource)})
	}
	var documentation any
	if e.ConfigDocumentation != "" {
		documentation = e.ConfigDocumentation
	}
	return map[string]any{"name": e.ConfigName, "value": e.ConfigValue, "read_only": e.ReadOnly,
		"source": named(configSources, e.ConfigSource), "is_default": e.IsDefault, "sensitive": e.IsSensitive,
		"synonyms": synonyms, "type": named(configValueTypes, e.ConfigType), "documentation": documentation}
}

func describeConfigs(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		Resources []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"resources"`
		IncludeSynonyms      bool `json:"include_synonyms"`
		IncludeDocumentation bool `json:"include_documentation"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	resources := make([]kafka.DescribeConfigRequestResource, 0, len(args.Resources))
	labels := make([]string, 0, len(args.Resources))
	for _, r := range args.Resources {
		number, ok := configTypes[strings.ToLower(r.Type)]
		if !ok {
			return nil, badArgs{fmt.Sprintf("args.resources[].type %q is no config resource type", r.Type)}
		}
		resources = append(resources, kafka.DescribeConfigRequestResource{ResourceType: kafka.ResourceType(number),
			ResourceName: r.Name})
		labels = append(labels, strings.ToLower(r.Type)+":"+r.Name)
	}
	res := newResult()
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.DescribeConfigs(ctx, &kafka.DescribeConfigsRequest{Resources: resources,
		IncludeSynonyms: args.IncludeSynonyms, IncludeDocumentation: args.IncludeDocumentation})
	if err != nil {
		return callFailed(res, err, labels), nil
	}
	seen := map[string]bool{}
	for _, r := range answer.Resources {
		entry := outcome(typeLabel(r.ResourceType)+":"+r.ResourceName, r.Error)
		if r.Error == nil {
			configs := []map[string]any{}
			for _, e := range r.ConfigEntries {
				converted := configEntry(e)
				for key := range converted {
					seen[key] = true
				}
				configs = append(configs, converted)
			}
			entry.Fields["configs"] = configs
		}
		res.Resources = append(res.Resources, entry)
	}
	for key := range seen {
		res.ResultFields = append(res.ResultFields, "configs."+key)
	}
	sort.Strings(res.ResultFields)
	return res, nil
}

// --- list_topics and describe_cluster: Metadata, through the transport's cache

func listTopics(client *kafka.Client, raw json.RawMessage) (*result, error) {
	args := struct {
		ListInternal bool `json:"list_internal"`
	}{ListInternal: true}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := newResult()
	res.ResultFields = []string{"internal", "partitions"}
	if !args.ListInternal {
		res.UnsupportedOptions = append(res.UnsupportedOptions, "list_internal") // Metadata lists them all
	}
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.Metadata(ctx, &kafka.MetadataRequest{})
	if err != nil {
		return callFailed(res, err, nil), nil
	}
	topics := answer.Topics
	sort.Slice(topics, func(i, j int) bool { return topics[i].Name < topics[j].Name })
	for _, t := range topics {
		entry := outcome(t.Name, t.Error)
		entry.Fields["internal"] = t.Internal
		entry.Fields["partitions"] = len(t.Partitions)
		res.Resources = append(res.Resources, entry)
	}
	return res, nil
}

func describeCluster(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		IncludeAuthorizedOperations bool `json:"include_authorized_operations"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := newResult()
	res.ResultFields = []string{"nodes", "controller", "cluster_id"}
	if args.IncludeAuthorizedOperations {
		res.UnsupportedOptions = append(res.UnsupportedOptions, "include_authorized_operations")
	}
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.Metadata(ctx, &kafka.MetadataRequest{})
	if err != nil {
		return callFailed(res, err, []string{"cluster"}), nil
	}
	entry := outcome("cluster", nil)
	nodes := []int{}
	for _, b := range answer.Brokers {
		nodes = append(nodes, b.ID)
	}
	sort.Ints(nodes)
	entry.Fields["nodes"] = nodes
	// kafka-go leaves Controller zero-valued (ID 0, no host) when no broker of the answer is the controller.
	if answer.Controller.Host != "" {
		entry.Fields["controller"] = answer.Controller.ID
	} else {
		entry.Fields["controller"] = nil
	}
	if answer.ClusterID != "" {
		entry.Fields["cluster_id"] = answer.ClusterID
	} else {
		entry.Fields["cluster_id"] = nil
	}
	res.Resources = append(res.Resources, entry)
	return res, nil
}

// --- the process: clients per connection, the request loop

type clients struct {
	open map[string]*kafka.Client
}

func key(c *connection) string {
	user, password := "", ""
	if c.Username != nil {
		user = *c.Username
	}
	if c.Password != nil {
		password = *c.Password
	}
	return strings.Join([]string{c.Bootstrap, user, password}, "\x00")
}

func (cs *clients) get(c *connection) (*kafka.Client, error) {
	if c == nil || c.Bootstrap == "" {
		return nil, badArgs{"the request names no connection"}
	}
	if client, ok := cs.open[key(c)]; ok {
		return client, nil
	}
	transport := &kafka.Transport{Dial: wire}
	if c.Username != nil {
		password := ""
		if c.Password != nil {
			password = *c.Password
		}
		transport.SASL = plain.Mechanism{Username: *c.Username, Password: password}
	}
	hosts := strings.Split(c.Bootstrap, ",")
	client := &kafka.Client{Addr: kafka.TCP(hosts...), Timeout: callTimeout, Transport: transport}
	cs.open[key(c)] = client
	return client, nil
}

func (cs *clients) close(c *connection) {
	if c == nil {
		return
	}
	if client, ok := cs.open[key(c)]; ok {
		client.Transport.(*kafka.Transport).CloseIdleConnections()
		delete(cs.open, key(c))
	}
}

func (cs *clients) closeAll() {
	for k, client := range cs.open {
		client.Transport.(*kafka.Transport).CloseIdleConnections()
		delete(cs.open, k)
	}
}

func release() string {
	info, ok := debug.ReadBuildInfo()
	if ok {
		for _, dep := range info.Deps {
			if dep.Path == module {
				return strings.TrimPrefix(dep.Version, "v")
			}
		}
	}
	return "unknown"
}

func (cs *clients) serve(req request) map[string]any {
	answer := map[string]any{"id": req.ID}
	fail := func(class string, err error) map[string]any {
		answer["failure"] = map[string]any{"class": class, "message": strings.ReplaceAll(err.Error(), "\n", " ")}
		return answer
	}
	if req.Op == "close" {
		cs.close(req.Connection)
		answer["result"] = newResult()
		return answer
	}
	op, ok := operations[req.Op]
	if !ok {
		return fail("ValueError", fmt.Errorf("unknown operation %q", req.Op))
	}
	client, err := cs.get(req.Connection)
	if err != nil {
		return fail("ValueError", err)
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("{}")
	}
	from, started := frames.position(), time.Now()
	res, err := op(client, req.Args)
	if err != nil {
		return fail("ValueError", err)
	}
	res.RequestVersion = frames.lastSince(from, opAPIs[req.Op])
	if time.Since(started) >= callTimeout { // every call's context ends there: it returned only when it expired
		seconds := callTimeout.Seconds()
		res.DeadlineReached = &seconds
	}
	answer["result"] = res
	return answer
}

func main() {
	out := json.NewEncoder(os.Stdout)
	names := make([]string, 0, len(operations))
	for name := range operations {
		names = append(names, name)
	}
	sort.Strings(names)
	if err := out.Encode(map[string]any{"ready": release(), "protocol": protocolVersion, "operations": names}); err != nil {
		os.Exit(1)
	}
	cs := &clients{open: map[string]*kafka.Client{}}
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var req request
			var answer map[string]any
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				answer = map[string]any{"id": req.ID, "failure": map[string]any{"class": "ValueError",
					"message": "request is not JSON: " + jerr.Error()}}
			} else {
				bootstrap := ""
				if req.Connection != nil {
					bootstrap = req.Connection.Bootstrap
				}
				fmt.Fprintf(os.Stderr, "kcompat kafka-go adapter: request %d %s %s\n", req.ID, req.Op, bootstrap)
				answer = cs.serve(req)
			}
			if werr := out.Encode(answer); werr != nil {
				fmt.Fprintf(os.Stderr, "kcompat kafka-go adapter: can't write an answer: %v\n", werr)
				break
			}
		}
		if err != nil {
			break // end of stdin: kcompat is done with this adapter
		}
	}
	cs.closeAll()
}
