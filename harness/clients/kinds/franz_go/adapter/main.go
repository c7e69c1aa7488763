// Command adapter drives franz-go's admin client (kadm) for kcompat over the adapter protocol (docs/ADAPTERS.md):
// JSON lines on stdin and stdout, free-form log on stderr.  Each op's args and result fields are those of the
// Java sidecar's class of the same name (harness/clients/sidecar/kcompat/sidecar/ops/).  What kadm can't express
// is named in unsupported_options and the call is made without it; a Kafka error or a library error is data.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/plain"
)

const protocol = 2

// callTimeout bounds every library call (each call's context): kcompat's KCOMPAT_ADAPTER_DEADLINE, 60 s where it
// gives none (docs/ADAPTERS.md). kcompat waits longer for the answer, so a call that ends at this deadline is
// data: its answer says so in deadline_reached.
var callTimeout = deadline()

func deadline() time.Duration {
	seconds, err := strconv.ParseFloat(os.Getenv("KCOMPAT_ADAPTER_DEADLINE"), 64)
	if err != nil || seconds <= 0 {
		return 60 * time.Second
	}
	return time.Duration(seconds * float64(time.Second))
}

type connection struct {
	Bootstrap string  `json:"bootstrap"`
	Username  *string `json:"username"`
	Password  *string `json:"password"`
}

type request struct {
	ID         json.RawMessage `json:"id"`
	Op         string          `json:"op"`
	Connection *connection     `json:"connection"`
	Args       json.RawMessage `json:"args"`
}

type resource struct {
	Resource     string         `json:"resource"`
	ErrorCode    int            `json:"error_code"`
	ErrorName    string         `json:"error_name"`
	ErrorMessage *string        `json:"error_message"`
	Fields       map[string]any `json:"fields"`
	Exception    *string        `json:"exception"`
}

type result struct {
	RequestVersion     *int        `json:"request_version"`
	Resources          []*resource `json:"resources"`
	ResultFields       []string    `json:"result_fields"`
	Exception          *string     `json:"exception"`
	ExceptionMessage   *string     `json:"exception_message"`
	UnsupportedOptions []string    `json:"unsupported_options"`
	// UnsupportedFields names result fields the library's API type has no way to carry, with that type.
	UnsupportedFields map[string]string `json:"unsupported_fields,omitempty"`
	// DeadlineReached is callTimeout's seconds where the call returned only when its context expired.
	DeadlineReached *float64 `json:"deadline_reached,omitempty"`
}

func newResult() *result {
	return &result{Resources: []*resource{}, ResultFields: []string{}, UnsupportedOptions: []string{}}
}

func (r *result) add(e *resource) { r.Resources = append(r.Resources, e) }

func (r *result) unsupported(option string) {
	r.UnsupportedOptions = append(r.UnsupportedOptions, option)
}

// threw records an error of the call as a whole (not of one resource).
func (r *result) threw(err error) {
	name, message := typeName(err), err.Error()
	r.Exception, r.ExceptionMessage = &name, &message
}

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
}

// clients holds one kgo client per distinct connection (bootstrap, user, password) between calls.
var clients = map[string]*kgo.Client{}

func connectionKey(c *connection) string {
	user, password := "", ""
	if c.Username != nil {
		user = *c.Username
	}
	if c.Password != nil {
		password = *c.Password
	}
	return c.Bootstrap + "\x00" + user + "\x00" + password
}

func clientFor(c *connection) (*kgo.Client, error) {
	key := connectionKey(c)
	if cl, ok := clients[key]; ok {
		return cl, nil
	}
	opts := []kgo.Opt{kgo.SeedBrokers(strings.Split(c.Bootstrap, ",")...), kgo.ClientID("kcompat-franz-go"),
		kgo.RequestTimeoutOverhead(30 * time.Second), kgo.Dialer(dial)}
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

// dial is kgo's own dialing (10 s, as its default), each connection read for the request versions it carries.
func dial(ctx context.Context, network, host string) (net.Conn, error) {
	conn, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, network, host)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Conn: conn}, nil
}

func closeClient(c *connection) {
	key := connectionKey(c)
	if cl, ok := clients[key]; ok {
		cl.Close()
		delete(clients, key)
	}
}

// moduleVersion is the version of a module linked into this program, as the build recorded it.
func moduleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == path {
				if dep.Replace != nil {
					return dep.Replace.Version
				}
				return dep.Version
			}
		}
	}
	return "unknown"
}

func main() {
	log.SetOutput(os.Stderr) // stdout carries protocol lines only
	out := bufio.NewWriter(os.Stdout)
	names := make([]string, 0, len(ops))
	for name := range ops {
		names = append(names, name)
	}
	sort.Strings(names)
	write(out, map[string]any{
		"ready": strings.TrimPrefix(moduleVersion("github.com/twmb/franz-go"), "v"), "protocol": protocol,
		"operations": names,
		"modules": map[string]string{"kadm": moduleVersion("github.com/twmb/franz-go/pkg/kadm"),
			"kmsg": moduleVersion("github.com/twmb/franz-go/pkg/kmsg")},
	})
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			write(out, answer(line))
		}
		if err != nil {
			break
		}
	}
	for key, cl := range clients {
		cl.Close()
		delete(clients, key)
	}
}

func write(out *bufio.Writer, v any) {
	line, err := json.Marshal(v)
	if err != nil {
		log.Printf("can't encode an answer: %v", err)
		line, _ = json.Marshal(map[string]any{"failure": map[string]string{"class": "json", "message": err.Error()}})
	}
	out.Write(append(line, '\n'))
	out.Flush()
}

// answer is one answer line for one request line; whatever goes wrong is a failure answer, never a crash.
func answer(line []byte) (reply map[string]any) {
	var req request
	reply = map[string]any{"id": nil}
	defer func() {
		if p := recover(); p != nil {
			log.Printf("panic in %s: %v\n%s", req.Op, p, debug.Stack())
			delete(reply, "result")
			reply["failure"] = map[string]string{"class": "panic", "message": fmt.Sprint(p)}
		}
	}()
	if err := json.Unmarshal(line, &req); err != nil {
		reply["failure"] = map[string]string{"class": "json", "message": err.Error()}
		return reply
	}
	reply["id"] = req.ID
	r, err := run(req)
	if err != nil {
		reply["failure"] = map[string]string{"class": typeName(err), "message": err.Error()}
		return reply
	}
	reply["result"] = r
	return reply
}

func run(req request) (*result, error) {
	if req.Op == "close" {
		if req.Connection != nil {
			closeClient(req.Connection)
		}
		return newResult(), nil
	}
	handler, ok := ops[req.Op]
	if !ok {
		return nil, fmt.Errorf("unknown op %q", req.Op)
	}
	if req.Connection == nil {
		return nil, errors.New("this op needs a connection")
	}
	cl, err := clientFor(req.Connection)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	r, mark := newResult(), requests.mark()
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
		r = newResult()
		r.threw(fmt.Errorf("franz-go gave no answer to %s within %s: %w", req.Op, callTimeout, ctx.Err()))
	} else if err != nil {
		return nil, err
	}
	r.RequestVersion = requests.since(mark, apiKeys[req.Op])
	if errors.Is(ctx.Err(), context.DeadlineExceeded) { // it returned only when its context had expired
		seconds := callTimeout.Seconds()
		r.DeadlineReached = &seconds
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

// -- outcomes -----------------------------------------------------------------------------------------------------

// typeName is an error's Go type, the exception kcompat records; kgo's refusal of a request the broker lacks
// (its unexported errBrokerTooOld, a plain errors.New) is named after that variable, so that the kind can
// declare it as its refusal (harness/clients/kinds/franz_go/__init__.py).
func typeName(err error) string {
	if brokerTooOld(err) {
		return "kgo.errBrokerTooOld"
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", err), "*")
}

func brokerTooOld(err error) bool {
	if err == nil {
		return false
	}
	if strings.HasPrefix(err.Error(), "broker is too old") {
		return true
	}
	switch wrapped := err.(type) {
	case interface{ Unwrap() []error }:
		for _, inner := range wrapped.Unwrap() {
			if brokerTooOld(inner) {
				return true
			}
		}
	case interface{ Unwrap() error }:
		return brokerTooOld(wrapped.Unwrap())
	}
	return false
}

func strptr(s string) *string { return &s }

// outcome is one resource's entry: no error, or the Kafka code and name its error carries (-1
// UNKNOWN_SERVER_ERROR for an error that carries none, as Kafka's Errors.forException has it).
func outcome(name string, err error, message string) *resource {
	e := &resource{Resource: name, ErrorName: "NONE", Fields: map[string]any{}}
	if err == nil {
		return e
	}
	e.ErrorCode, e.ErrorName = -1, "UNKNOWN_SERVER_ERROR"
	var ke *kerr.Error
	if errors.As(err, &ke) {
		e.ErrorCode, e.ErrorName = int(ke.Code), ke.Message
		if message == "" {
			message = ke.Description
		}
	}
	if message == "" {
		message = err.Error()
	}
	e.ErrorMessage, e.Exception = strptr(message), strptr(typeName(err))
	return e
}

// isKafka says whether an error of a whole call carries a Kafka error code (the broker answered with one).
func isKafka(err error) bool {
	var ke *kerr.Error
	return errors.As(err, &ke)
}

// finish adds one entry per requested resource: its own, or the call's error for one the library gave none.
// A call that failed without a Kafka error and gave nothing is the call's exception.
func finish(r *result, requested []string, got map[string]*resource, err error) {
	if err != nil && !isKafka(err) && len(got) == 0 {
		r.threw(err)
		return
	}
	for _, name := range requested {
		if e, ok := got[name]; ok {
			r.add(e)
		} else if err != nil {
			r.add(outcome(name, err, ""))
		} else {
			r.add(outcome(name, errors.New("the library returned no result for "+name), ""))
		}
	}
}

// -- shared argument shapes ---------------------------------------------------------------------------------------

type configTarget struct {
	Type         string `json:"type"`
	ResourceType string `json:"resource_type"`
	Name         string `json:"name"`
}

func (t configTarget) kind() string {
	if t.ResourceType != "" {
		return strings.ToLower(t.ResourceType)
	}
	return strings.ToLower(t.Type)
}

func (t configTarget) label() string { return t.kind() + ":" + t.Name }

type topicPartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

func dashLabel(t string, p int32) string  { return t + "-" + strconv.Itoa(int(p)) }
func colonLabel(t string, p int32) string { return t + ":" + strconv.Itoa(int(p)) }

func configEntry(c kadm.Config) map[string]any {
	entry := map[string]any{"name": c.Key, "value": c.Value, "source": c.Source.String(), "sensitive": c.Sensitive}
	synonyms := make([]map[string]any, 0, len(c.Synonyms))
	for _, s := range c.Synonyms {
		synonyms = append(synonyms, map[string]any{"name": s.Key, "value": s.Value, "source": s.Source.String()})
	}
	entry["synonyms"] = synonyms
	return entry
}

// -- the KIP ops --------------------------------------------------------------------------------------------------

type newTopic struct {
	Name              string             `json:"name"`
	Partitions        *int32             `json:"partitions"`
	ReplicationFactor *int16             `json:"replication_factor"`
	Assignments       map[string][]int32 `json:"assignments"`
	Configs           map[string]string  `json:"configs"`
}

// createTopics: kadm creates topics sharing one partition count, replication factor and config set, so each topic
// is its own call; it has no replica assignments (left out, named unsupported).
func createTopics(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool       `json:"validate_only"`
		Topics       []newTopic `json:"topics"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "num_partitions", "replication_factor", "configs")
	for _, t := range args.Topics {
		partitions, replication := int32(-1), int16(-1) // -1: the broker's default (KIP-464)
		if t.Partitions != nil {
			partitions = *t.Partitions
		}
		if t.ReplicationFactor != nil {
			replication = *t.ReplicationFactor
		}
		if t.Assignments != nil {
			r.unsupported("assignments")
		}
		configs := map[string]*string{}
		for k, v := range t.Configs {
			configs[k] = kadm.StringPtr(v)
		}
		create := adm.CreateTopics
		if args.ValidateOnly {
			create = adm.ValidateCreateTopics
		}
		responses, err := create(ctx, partitions, replication, configs, t.Name)
		got := map[string]*resource{}
		if response, ok := responses[t.Name]; ok {
			e := outcome(t.Name, response.Err, response.ErrMessage)
			entries := make([]map[string]any, 0, len(response.Configs))
			keys := make([]string, 0, len(response.Configs))
			for key := range response.Configs {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				entry := configEntry(response.Configs[key])
				delete(entry, "synonyms") // CreateTopics answers carry none
				entries = append(entries, entry)
			}
			e.Fields["num_partitions"], e.Fields["replication_factor"] = response.NumPartitions, response.ReplicationFactor
			e.Fields["configs"] = entries
			got[t.Name] = e
		}
		finish(r, []string{t.Name}, got, err)
	}
	r.UnsupportedOptions = unique(r.UnsupportedOptions)
	return nil
}

func unique(values []string) []string {
	seen, out := map[string]bool{}, []string{}
	for _, v := range values {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// createPartitions: kadm sets a topic's total partition count (UpdatePartitions); it has no replica assignments.
func createPartitions(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool `json:"validate_only"`
		Partitions   []struct {
			Topic       string    `json:"topic"`
			TotalCount  int       `json:"total_count"`
			Assignments [][]int32 `json:"assignments"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	update := adm.UpdatePartitions
	if args.ValidateOnly {
		update = adm.ValidateUpdatePartitions
	}
	for _, p := range args.Partitions {
		if p.Assignments != nil {
			r.unsupported("assignments")
		}
		responses, err := update(ctx, p.TotalCount, p.Topic)
		got := map[string]*resource{}
		if response, ok := responses[p.Topic]; ok {
			got[p.Topic] = outcome(p.Topic, response.Err, response.ErrMessage)
		}
		finish(r, []string{p.Topic}, got, err)
	}
	r.UnsupportedOptions = unique(r.UnsupportedOptions)
	return nil
}

// describeConfigs: kadm always asks for synonyms and never for documentation (KIP-569); its entries (kadm.Config:
// key, value, sensitive, source, synonyms) carry no read-only flag, type or documentation, though kmsg's
// DescribeConfigsResponse under it has them: each is named in unsupported_fields with kadm.Config.
func describeConfigs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeSynonyms      bool           `json:"include_synonyms"`
		IncludeDocumentation bool           `json:"include_documentation"`
		Resources            []configTarget `json:"resources"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if args.IncludeDocumentation {
		r.unsupported("include_documentation")
	}
	r.UnsupportedFields = map[string]string{"configs.read_only": "kadm.Config", "configs.type": "kadm.Config",
		"configs.documentation": "kadm.Config"}
	r.ResultFields = append(r.ResultFields, "configs.name", "configs.value", "configs.source", "configs.sensitive",
		"configs.synonyms")
	for _, target := range args.Resources {
		var configs kadm.ResourceConfigs
		var err error
		switch target.kind() {
		case "topic":
			configs, err = adm.DescribeTopicConfigs(ctx, target.Name)
		case "broker":
			id, convErr := strconv.Atoi(target.Name)
			if convErr != nil {
				return fmt.Errorf("broker resource %q is not a node id", target.Name)
			}
			configs, err = adm.DescribeBrokerConfigs(ctx, int32(id))
		default:
			return fmt.Errorf("configs are described for topic and broker resources, not %q", target.kind())
		}
		got := map[string]*resource{}
		for _, c := range configs {
			if c.Name != target.Name {
				continue
			}
			e := outcome(target.label(), c.Err, c.ErrMessage)
			if c.Err == nil {
				entries := make([]map[string]any, 0, len(c.Configs))
				for _, config := range c.Configs {
					entries = append(entries, configEntry(config))
				}
				e.Fields["configs"] = entries
			}
			got[target.label()] = e
		}
		finish(r, []string{target.label()}, got, err)
	}
	return nil
}

func topicEntry(d kadm.TopicDetail) *resource {
	e := outcome(d.Topic, d.Err, "")
	e.Fields["internal"], e.Fields["partitions"] = d.IsInternal, len(d.Partitions)
	return e
}

// listTopics: Metadata of every topic, through kgo's metadata cache (kadm's ListTopics).
func listTopics(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	args := struct {
		ListInternal *bool `json:"list_internal"`
	}{}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	list := adm.ListTopicsWithInternal
	if args.ListInternal != nil && !*args.ListInternal {
		list = adm.ListTopics
	}
	r.ResultFields = append(r.ResultFields, "internal", "partitions")
	topics, err := list(ctx)
	if err != nil {
		r.threw(err)
		return nil
	}
	for _, d := range topics.Sorted() {
		r.add(topicEntry(d))
	}
	return nil
}

// describeTopics: kadm describes named topics through Metadata (it has no DescribeTopicPartitions, KIP-966).
func describeTopics(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Topics []string `json:"topics"`
		Names  []string `json:"names"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	names := append(args.Topics, args.Names...)
	r.ResultFields = append(r.ResultFields, "internal", "partitions")
	if len(names) == 0 { // kadm lists every topic for no names; DescribeTopicPartitions' listing mode it lacks
		r.unsupported("names")
		return nil
	}
	topics, err := adm.ListTopicsWithInternal(ctx, names...)
	got := map[string]*resource{}
	for name, d := range topics {
		got[name] = topicEntry(d)
	}
	finish(r, names, got, err)
	return nil
}

type aclSpec struct {
	ResourceType string  `json:"resource_type"`
	ResourceName *string `json:"resource_name"`
	Principal    *string `json:"principal"`
	Operation    string  `json:"operation"`
	Permission   string  `json:"permission"`
	Host         *string `json:"host"`
	Pattern      string  `json:"pattern"`
	Label        string  `json:"label"`
}

func deref(s *string, otherwise string) string {
	if s == nil {
		return otherwise
	}
	return *s
}

// filterLabel names a filter's result as AclFilter.label does: topic:t:User:alice:ANY:ANY.
func (a aclSpec) filterLabel() string {
	return strings.ToLower(a.ResourceType) + ":" + deref(a.ResourceName, "*") + ":" + deref(a.Principal, "*") + ":" +
		a.Operation + ":" + a.Permission
}

// builder is the kadm ACL builder of one binding or filter; a resource type it has no method for is an error.
func (a aclSpec) builder(filter bool) (*kadm.ACLBuilder, error) {
	b := kadm.NewACLs()
	var names []string
	if a.ResourceName != nil {
		names = []string{*a.ResourceName}
	}
	switch strings.ToLower(a.ResourceType) {
	case "topic":
		b.MaybeTopics(names...)
		if filter && names == nil {
			b.Topics()
		}
	case "group":
		b.MaybeGroups(names...)
		if filter && names == nil {
			b.Groups()
		}
	case "cluster":
		b.Clusters()
	case "transactional_id":
		b.MaybeTransactionalIDs(names...)
		if filter && names == nil {
			b.TransactionalIDs()
		}
	case "delegation_token":
		b.MaybeDelegationTokens(names...)
		if filter && names == nil {
			b.DelegationTokens()
		}
	case "any":
		b.AnyResource(names...)
	default:
		return nil, fmt.Errorf("unknown ACL resource type %q", a.ResourceType)
	}
	operation, err := kmsg.ParseACLOperation(a.Operation)
	if err != nil {
		return nil, err
	}
	b.Operations(operation)
	pattern, err := kmsg.ParseACLResourcePatternType(a.Pattern)
	if err != nil {
		return nil, err
	}
	b.ResourcePatternType(pattern)
	var principals, hosts []string
	if a.Principal != nil {
		principals = []string{*a.Principal}
	}
	if a.Host != nil {
		hosts = []string{*a.Host}
	}
	switch strings.ToUpper(a.Permission) {
	case "ALLOW":
		b.Allow(principals...).AllowHosts(hosts...)
	case "DENY":
		b.Deny(principals...).DenyHosts(hosts...)
	case "ANY":
		b.Allow(principals...).AllowHosts(hosts...).Deny(principals...).DenyHosts(hosts...)
	default:
		return nil, fmt.Errorf("unknown ACL permission %q", a.Permission)
	}
	return b, nil
}

func bindingLabel(t kmsg.ACLResourceType, name, principal string, op kmsg.ACLOperation, perm kmsg.ACLPermissionType) string {
	kind := strings.ToLower(t.String())
	if t == kmsg.ACLResourceTypeTransactionalId {
		kind = "transactional_id"
	} else if t == kmsg.ACLResourceTypeDelegationToken {
		kind = "delegation_token"
	}
	return kind + ":" + name + ":" + principal + ":" + strings.ToUpper(op.String()) + ":" + strings.ToUpper(perm.String())
}

// createACLs: one kadm call per binding (its builder makes the cross product of what it is given).
func createACLs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ACLs []aclSpec `json:"acls"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, acl := range args.ACLs {
		b, err := acl.builder(false)
		if err != nil {
			return err
		}
		results, err := adm.CreateACLs(ctx, b)
		got := map[string]*resource{}
		if len(results) > 0 {
			got[acl.Label] = outcome(acl.Label, results[0].Err, results[0].ErrMessage)
		}
		finish(r, []string{acl.Label}, got, err)
	}
	return nil
}

func describeACLs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Filter aclSpec `json:"filter"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	b, err := args.Filter.builder(true)
	if err != nil {
		return err
	}
	label := args.Filter.filterLabel()
	results, err := adm.DescribeACLs(ctx, b)
	got := map[string]*resource{}
	if err == nil {
		var firstErr error
		message := ""
		bindings := []string{}
		for _, res := range results { // the builder may make several filters (ANY permission): their union
			if res.Err != nil && firstErr == nil {
				firstErr, message = res.Err, res.ErrMessage
			}
			for _, d := range res.Described {
				bindings = append(bindings, bindingLabel(d.Type, d.Name, d.Principal, d.Operation, d.Permission))
			}
		}
		e := outcome(label, firstErr, message)
		if firstErr == nil {
			sort.Strings(bindings)
			e.Fields["bindings"] = unique(bindings)
		}
		got[label] = e
	}
	finish(r, []string{label}, got, err)
	return nil
}

func deleteACLs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Filters []aclSpec `json:"filters"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, filter := range args.Filters {
		b, err := filter.builder(true)
		if err != nil {
			return err
		}
		label := filter.filterLabel()
		results, err := adm.DeleteACLs(ctx, b)
		got := map[string]*resource{}
		if err == nil {
			var firstErr error
			message := ""
			deleted := []string{}
			for _, res := range results {
				if res.Err != nil && firstErr == nil {
					firstErr, message = res.Err, res.ErrMessage
				}
				for _, d := range res.Deleted {
					if d.Err == nil {
						deleted = append(deleted, bindingLabel(d.Type, d.Name, d.Principal, d.Operation, d.Permission))
					}
				}
			}
			e := outcome(label, firstErr, message)
			if firstErr == nil {
				sort.Strings(deleted)
				e.Fields["deleted"] = unique(deleted)
			}
			got[label] = e
		}
		finish(r, []string{label}, got, err)
	}
	return nil
}

// -- topics, cluster, configs -------------------------------------------------------------------------------------

// deleteTopics: by name (kadm has no deletion by topic id).
func deleteTopics(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Names    []string `json:"names"`
		TopicIDs []string `json:"topic_ids"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if len(args.TopicIDs) > 0 {
		r.unsupported("topic_ids")
	}
	if len(args.Names) == 0 {
		return nil
	}
	responses, err := adm.DeleteTopics(ctx, args.Names...)
	got := map[string]*resource{}
	for name, response := range responses {
		got[name] = outcome(name, response.Err, response.ErrMessage)
	}
	finish(r, args.Names, got, err)
	return nil
}

func operationNames(ops []kmsg.ACLOperation) []string {
	names := make([]string, 0, len(ops))
	for _, op := range ops {
		names = append(names, strings.ToUpper(op.String()))
	}
	sort.Strings(names)
	return names
}

func describeCluster(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeAuthorizedOperations bool `json:"include_authorized_operations"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "nodes", "controller", "cluster_id", "authorized_operations")
	if args.IncludeAuthorizedOperations {
		ctx = kadm.WithAuthorizedOps(ctx)
	}
	m, err := adm.BrokerMetadata(ctx)
	if err != nil {
		finish(r, []string{"cluster"}, nil, err)
		return nil
	}
	e := outcome("cluster", nil, "")
	e.Fields["nodes"] = m.Brokers.NodeIDs()
	e.Fields["controller"] = nil
	if m.Controller >= 0 {
		e.Fields["controller"] = m.Controller
	}
	e.Fields["cluster_id"] = m.Cluster
	e.Fields["authorized_operations"] = nil
	if args.IncludeAuthorizedOperations && m.AuthorizedOperations != nil {
		e.Fields["authorized_operations"] = operationNames(m.AuthorizedOperations)
	}
	r.add(e)
	return nil
}

func brokerID(name string) (int32, error) {
	id, err := strconv.Atoi(name)
	if err != nil {
		return 0, fmt.Errorf("broker resource %q is not a node id", name)
	}
	return int32(id), nil
}

type alterFunc func(ctx context.Context, configs []kadm.AlterConfig, target configTarget) (kadm.AlterConfigsResponses, error)

// alterEach runs one kadm alteration per resource (kadm alters many resources only with one shared config set).
func alterEach(ctx context.Context, r *result, target configTarget, configs []kadm.AlterConfig, alter alterFunc) {
	responses, err := alter(ctx, configs, target)
	got := map[string]*resource{}
	for _, response := range responses {
		if response.Name == target.Name {
			got[target.label()] = outcome(target.label(), response.Err, response.ErrMessage)
		}
	}
	finish(r, []string{target.label()}, got, err)
}

func alterer(adm *kadm.Client, validate, state bool) (alterFunc, error) {
	topic, broker := adm.AlterTopicConfigs, adm.AlterBrokerConfigs
	switch {
	case validate && state:
		topic, broker = adm.ValidateAlterTopicConfigsState, adm.ValidateAlterBrokerConfigsState
	case validate:
		topic, broker = adm.ValidateAlterTopicConfigs, adm.ValidateAlterBrokerConfigs
	case state:
		topic, broker = adm.AlterTopicConfigsState, adm.AlterBrokerConfigsState
	}
	return func(ctx context.Context, configs []kadm.AlterConfig, target configTarget) (kadm.AlterConfigsResponses, error) {
		switch target.kind() {
		case "topic":
			return topic(ctx, configs, target.Name)
		case "broker":
			id, err := brokerID(target.Name)
			if err != nil {
				return nil, err
			}
			return broker(ctx, configs, id)
		}
		return nil, fmt.Errorf("configs are altered for topic and broker resources, not %q", target.kind())
	}, nil
}

// alterConfigs: the legacy AlterConfigs (kadm's *ConfigsState calls).
func alterConfigs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool `json:"validate_only"`
		Resources    []struct {
			Target  configTarget      `json:"target"`
			Configs map[string]string `json:"configs"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	alter, _ := alterer(adm, args.ValidateOnly, true)
	for _, item := range args.Resources {
		if k := item.Target.kind(); k != "topic" && k != "broker" {
			return fmt.Errorf("configs are altered for topic and broker resources, not %q", k)
		}
		configs := []kadm.AlterConfig{}
		for name, value := range item.Configs {
			configs = append(configs, kadm.AlterConfig{Name: name, Value: kadm.StringPtr(value)})
		}
		alterEach(ctx, r, item.Target, configs, alter)
	}
	return nil
}

var incrementalOps = map[string]kadm.IncrementalOp{
	"SET": kadm.SetConfig, "DELETE": kadm.DeleteConfig, "APPEND": kadm.AppendConfig, "SUBTRACT": kadm.SubtractConfig,
}

func incrementalAlterConfigs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool `json:"validate_only"`
		Resources    []struct {
			Target configTarget `json:"target"`
			Ops    []struct {
				Name  string  `json:"name"`
				Value *string `json:"value"`
				Op    string  `json:"op"`
			} `json:"ops"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	alter, _ := alterer(adm, args.ValidateOnly, false)
	for _, item := range args.Resources {
		if k := item.Target.kind(); k != "topic" && k != "broker" {
			return fmt.Errorf("configs are altered for topic and broker resources, not %q", k)
		}
		configs := []kadm.AlterConfig{}
		for _, o := range item.Ops {
			op, ok := incrementalOps[strings.ToUpper(o.Op)]
			if !ok {
				return fmt.Errorf("unknown config op %q", o.Op)
			}
			configs = append(configs, kadm.AlterConfig{Op: op, Name: o.Name, Value: o.Value})
		}
		alterEach(ctx, r, item.Target, configs, alter)
	}
	return nil
}

// -- groups -------------------------------------------------------------------------------------------------------

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func listConsumerGroups(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		States []string `json:"states"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "state")
	listed, err := adm.ListGroups(ctx, args.States...)
	if err != nil && len(listed) == 0 {
		r.threw(err)
		return nil
	}
	for _, g := range listed.Sorted() {
		e := outcome(g.Group, nil, "")
		e.Fields["state"] = nullable(g.State)
		r.add(e)
	}
	if err != nil { // some brokers answered, others did not: the listing is partial
		r.threw(err)
	}
	return nil
}

// describeConsumerGroups: kadm always asks for the groups' authorized operations (KIP-430).
func describeConsumerGroups(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Groups                      []string `json:"groups"`
		IncludeAuthorizedOperations bool     `json:"include_authorized_operations"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "state", "members", "coordinator", "partition_assignor",
		"authorized_operations")
	if len(args.Groups) == 0 {
		return nil
	}
	described, err := adm.DescribeGroups(ctx, args.Groups...)
	got := map[string]*resource{}
	for name, d := range described {
		e := outcome(name, d.Err, d.ErrMessage)
		if d.Err == nil {
			e.Fields["state"] = d.State
			e.Fields["partition_assignor"] = d.Protocol
			e.Fields["coordinator"] = d.Coordinator.NodeID
			members := []map[string]any{}
			for _, m := range d.Members {
				members = append(members, map[string]any{"member_id": m.MemberID, "client_id": m.ClientID,
					"host": m.ClientHost, "group_instance_id": m.InstanceID})
			}
			e.Fields["members"] = members
			e.Fields["authorized_operations"] = nil
			if args.IncludeAuthorizedOperations && d.AuthorizedOperations != nil {
				e.Fields["authorized_operations"] = operationNames(d.AuthorizedOperations)
			}
		}
		got[name] = e
	}
	finish(r, args.Groups, got, err)
	return nil
}

func deleteConsumerGroups(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Groups []string `json:"groups"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if len(args.Groups) == 0 {
		return nil
	}
	responses, err := adm.DeleteGroups(ctx, args.Groups...)
	got := map[string]*resource{}
	for name, response := range responses {
		message, _ := member(response, "ErrMessage").(string) // kadm 1.19+ (KIP-1331)
		got[name] = outcome(name, response.Err, message)
	}
	finish(r, args.Groups, got, err)
	return nil
}

// pair reads a [topic, partition] JSON pair.
func pair(raw []json.RawMessage) (string, int32, error) {
	if len(raw) < 2 {
		return "", 0, errors.New("a partition is [topic, partition]")
	}
	var topic string
	var partition int32
	if err := json.Unmarshal(raw[0], &topic); err != nil {
		return "", 0, err
	}
	if err := json.Unmarshal(raw[1], &partition); err != nil {
		return "", 0, err
	}
	return topic, partition, nil
}

// listConsumerGroupOffsets: kadm fetches a group's offsets for whole topics (or all), not for single partitions:
// asked partitions, their topics are fetched and the answer keeps the partitions asked.
func listConsumerGroupOffsets(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Group      string              `json:"group"`
		Partitions [][]json.RawMessage `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "offset", "metadata")
	var responses kadm.OffsetResponses
	var err error
	wanted := map[string]bool{}
	if args.Partitions == nil {
		responses, err = adm.FetchOffsets(ctx, args.Group)
	} else {
		topics := []string{}
		for _, p := range args.Partitions {
			topic, partition, perr := pair(p)
			if perr != nil {
				return perr
			}
			if !wanted[topic] {
				topics = append(topics, topic)
			}
			wanted[topic], wanted[colonLabel(topic, partition)] = true, true
		}
		responses, err = adm.FetchOffsetsForTopics(ctx, args.Group, topics...)
	}
	if err != nil {
		finish(r, []string{args.Group}, nil, err)
		return nil
	}
	entries := []*resource{}
	for topic, partitions := range responses {
		for partition, o := range partitions {
			label := colonLabel(topic, partition)
			if args.Partitions != nil && !wanted[label] {
				continue
			}
			e := outcome(label, o.Err, "")
			if o.Err == nil {
				e.Fields["offset"] = nil
				if o.At >= 0 {
					e.Fields["offset"] = o.At
				}
				e.Fields["metadata"] = o.Metadata
			}
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Resource < entries[j].Resource })
	r.Resources = append(r.Resources, entries...)
	return nil
}

func alterConsumerGroupOffsets(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Group   string              `json:"group"`
		Offsets [][]json.RawMessage `json:"offsets"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	offsets, labels := kadm.Offsets{}, []string{}
	for _, triple := range args.Offsets {
		topic, partition, err := pair(triple)
		if err != nil || len(triple) < 3 {
			return errors.New("an offset is [topic, partition, offset]")
		}
		var at int64
		if err := json.Unmarshal(triple[2], &at); err != nil {
			return err
		}
		offsets.Add(kadm.Offset{Topic: topic, Partition: partition, At: at, LeaderEpoch: -1})
		labels = append(labels, colonLabel(topic, partition))
	}
	responses, err := adm.CommitOffsets(ctx, args.Group, offsets)
	if err != nil && len(responses) == 0 {
		finish(r, []string{args.Group}, nil, err)
		return nil
	}
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, o := range partitions {
			got[colonLabel(topic, partition)] = outcome(colonLabel(topic, partition), o.Err, "")
		}
	}
	finish(r, labels, got, err)
	return nil
}

// -- partitions, offsets, replicas --------------------------------------------------------------------------------

func deleteRecords(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Before []struct {
			Topic     string `json:"topic"`
			Partition int32  `json:"partition"`
			Offset    int64  `json:"offset"`
		} `json:"before"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "low_watermark")
	offsets, labels := kadm.Offsets{}, []string{}
	for _, b := range args.Before {
		offsets.Add(kadm.Offset{Topic: b.Topic, Partition: b.Partition, At: b.Offset, LeaderEpoch: -1})
		labels = append(labels, colonLabel(b.Topic, b.Partition))
	}
	responses, err := adm.DeleteRecords(ctx, offsets)
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, d := range partitions {
			e := outcome(colonLabel(topic, partition), d.Err, "")
			if d.Err == nil {
				e.Fields["low_watermark"] = d.LowWatermark
			}
			got[e.Resource] = e
		}
	}
	finish(r, labels, got, err)
	return nil
}

// listOffsets: kadm lists offsets of whole topics, one call per spec; the answer keeps the partitions asked.
func listOffsets(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Queries []struct {
			Topic     string `json:"topic"`
			Partition int32  `json:"partition"`
			Spec      string `json:"spec"`
			Timestamp *int64 `json:"timestamp"`
		} `json:"queries"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "offset", "timestamp", "leader_epoch")
	for _, q := range args.Queries {
		var listed kadm.ListedOffsets
		var err error
		switch q.Spec {
		case "earliest":
			listed, err = adm.ListStartOffsets(ctx, q.Topic)
		case "latest":
			listed, err = adm.ListEndOffsets(ctx, q.Topic)
		case "max_timestamp":
			listed, err = adm.ListMaxTimestampOffsets(ctx, q.Topic)
		case "timestamp":
			at := int64(0)
			if q.Timestamp != nil {
				at = *q.Timestamp
			}
			listed, err = adm.ListOffsetsAfterMilli(ctx, at, q.Topic)
		default:
			return fmt.Errorf("unknown offset spec %q", q.Spec)
		}
		label := colonLabel(q.Topic, q.Partition)
		got := map[string]*resource{}
		if o, ok := listed.Lookup(q.Topic, q.Partition); ok {
			e := outcome(label, o.Err, "")
			if o.Err == nil {
				e.Fields["offset"], e.Fields["timestamp"] = o.Offset, o.Timestamp
				if o.LeaderEpoch >= 0 {
					e.Fields["leader_epoch"] = o.LeaderEpoch
				}
			}
			got[label] = e
		}
		finish(r, []string{label}, got, err)
	}
	return nil
}

func electLeaders(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ElectionType string           `json:"election_type"`
		Partitions   []topicPartition `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	how := kadm.ElectPreferredReplica
	switch strings.ToLower(args.ElectionType) {
	case "preferred":
	case "unclean":
		how = kadm.ElectLiveReplica
	default:
		return fmt.Errorf("unknown election type %q", args.ElectionType)
	}
	set, labels := kadm.TopicsSet{}, []string{}
	for _, p := range args.Partitions {
		set.Add(p.Topic, p.Partition)
		labels = append(labels, dashLabel(p.Topic, p.Partition))
	}
	results, err := adm.ElectLeaders(ctx, how, set)
	got := map[string]*resource{}
	for topic, partitions := range results {
		for partition, res := range partitions {
			e := outcome(dashLabel(topic, partition), res.Err, res.ErrMessage)
			got[e.Resource] = e
		}
	}
	finish(r, labels, got, err)
	return nil
}

func alterPartitionReassignments(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Reassignments []struct {
			Partition topicPartition `json:"partition"`
			Replicas  []int32        `json:"replicas"`
		} `json:"reassignments"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	req, labels := kadm.AlterPartitionAssignmentsReq{}, []string{}
	for _, item := range args.Reassignments {
		if item.Replicas == nil {
			req.CancelAssign(item.Partition.Topic, item.Partition.Partition)
		} else {
			req.Assign(item.Partition.Topic, item.Partition.Partition, item.Replicas)
		}
		labels = append(labels, dashLabel(item.Partition.Topic, item.Partition.Partition))
	}
	responses, err := adm.AlterPartitionAssignments(ctx, req)
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, res := range partitions {
			e := outcome(dashLabel(topic, partition), res.Err, res.ErrMessage)
			got[e.Resource] = e
		}
	}
	finish(r, labels, got, err)
	return nil
}

// listPartitionReassignments: kadm lists the reassignments of named partitions only (none named: it sends nothing).
func listPartitionReassignments(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Partitions *[]topicPartition `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "replicas", "adding_replicas", "removing_replicas")
	if args.Partitions == nil {
		r.unsupported("partitions")
		return nil
	}
	set := kadm.TopicsSet{}
	for _, p := range *args.Partitions {
		set.Add(p.Topic, p.Partition)
	}
	listed, err := adm.ListPartitionReassignments(ctx, set)
	if err != nil {
		finish(r, []string{"*"}, nil, err)
		return nil
	}
	for _, res := range listed.Sorted() {
		e := outcome(dashLabel(res.Topic, res.Partition), nil, "")
		e.Fields["replicas"], e.Fields["adding_replicas"] = ints(res.Replicas), ints(res.AddingReplicas)
		e.Fields["removing_replicas"] = ints(res.RemovingReplicas)
		r.add(e)
	}
	return nil
}

// member is a struct's field by name, nil where this kadm release has none: one source builds against kadm
// releases whose results gained fields (as the Java sidecar reads members by name).
func member(value any, name string) any {
	field := reflect.ValueOf(value).FieldByName(name)
	if !field.IsValid() {
		return nil
	}
	return field.Interface()
}

func ints(values []int32) []int32 {
	if values == nil {
		return []int32{}
	}
	return values
}

func describeLogDirs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Brokers []int32 `json:"brokers"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "replicas", "total_bytes", "usable_bytes")
	for _, broker := range args.Brokers {
		dirs, err := adm.DescribeBrokerLogDirs(ctx, broker, nil)
		whole := strconv.Itoa(int(broker)) + ":*"
		if err != nil {
			finish(r, []string{whole}, nil, err)
			continue
		}
		for _, dir := range dirs.Sorted() {
			e := outcome(strconv.Itoa(int(broker))+":"+dir.Dir, dir.Err, "")
			replicas := []map[string]any{}
			for _, p := range dir.Topics.Sorted() {
				replicas = append(replicas, map[string]any{"topic": p.Topic, "partition": p.Partition,
					"size": p.Size, "offset_lag": p.OffsetLag, "is_future": p.IsFuture})
			}
			e.Fields["replicas"] = replicas
			for _, volume := range [][2]string{{"TotalBytes", "total_bytes"}, {"UsableBytes", "usable_bytes"}} {
				e.Fields[volume[1]] = nil // -1 or a kadm without the field (before 1.19): not reported
				if bytes, ok := member(dir, volume[0]).(int64); ok && bytes >= 0 {
					e.Fields[volume[1]] = bytes
				}
			}
			r.add(e)
		}
	}
	return nil
}

// -- offsets of groups, SCRAM credentials -------------------------------------------------------------------------

func deleteConsumerGroupOffsets(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Group      string              `json:"group"`
		Partitions [][]json.RawMessage `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	set, labels := kadm.TopicsSet{}, []string{}
	for _, p := range args.Partitions {
		topic, partition, err := pair(p)
		if err != nil {
			return err
		}
		set.Add(topic, partition)
		labels = append(labels, colonLabel(topic, partition))
	}
	responses, err := adm.DeleteOffsets(ctx, args.Group, set)
	if err != nil && len(responses) == 0 {
		finish(r, []string{args.Group}, nil, err)
		return nil
	}
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, perr := range partitions {
			got[colonLabel(topic, partition)] = outcome(colonLabel(topic, partition), perr, "")
		}
	}
	finish(r, labels, got, err)
	return nil
}

// scramMechanisms are Kafka's ScramMechanism names by wire value (as the Java enum has them).
var scramMechanisms = map[string]kadm.ScramMechanism{"SCRAM_SHA_256": kadm.ScramSha256, "SCRAM_SHA_512": kadm.ScramSha512}

func scramName(m kadm.ScramMechanism) string {
	for name, value := range scramMechanisms {
		if value == m {
			return name
		}
	}
	return "UNKNOWN"
}

func describeUserScramCredentials(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Users []string `json:"users"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "credentials")
	described, err := adm.DescribeUserSCRAMs(ctx, args.Users...)
	got := map[string]*resource{}
	for user, d := range described {
		e := outcome(user, d.Err, d.ErrMessage)
		if d.Err == nil {
			credentials := []map[string]any{}
			for _, info := range d.CredInfos {
				credentials = append(credentials, map[string]any{"mechanism": scramName(info.Mechanism),
					"iterations": info.Iterations})
			}
			e.Fields["credentials"] = credentials
		}
		got[user] = e
	}
	finish(r, args.Users, got, err)
	return nil
}

// alterUserScramCredentials: kadm salts each password itself (24 random bytes, pbkdf2), as kafka-clients does.
func alterUserScramCredentials(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Upsertions []struct {
			User       string `json:"user"`
			Password   string `json:"password"`
			Mechanism  string `json:"mechanism"`
			Iterations int32  `json:"iterations"`
		} `json:"upsertions"`
		Deletions []struct {
			User      string `json:"user"`
			Mechanism string `json:"mechanism"`
		} `json:"deletions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	var upserts []kadm.UpsertSCRAM
	var deletes []kadm.DeleteSCRAM
	users := []string{}
	for _, u := range args.Upsertions {
		mechanism, ok := scramMechanisms[u.Mechanism]
		if !ok {
			return fmt.Errorf("unknown SCRAM mechanism %q", u.Mechanism)
		}
		upserts = append(upserts, kadm.UpsertSCRAM{User: u.User, Mechanism: mechanism, Iterations: u.Iterations,
			Password: u.Password})
		users = append(users, u.User)
	}
	for _, d := range args.Deletions {
		mechanism, ok := scramMechanisms[d.Mechanism]
		if !ok {
			return fmt.Errorf("unknown SCRAM mechanism %q", d.Mechanism)
		}
		deletes = append(deletes, kadm.DeleteSCRAM{User: d.User, Mechanism: mechanism})
		users = append(users, d.User)
	}
	altered, err := adm.AlterUserSCRAMs(ctx, deletes, upserts)
	got := map[string]*resource{}
	for user, a := range altered {
		got[user] = outcome(user, a.Err, a.ErrMessage)
	}
	finish(r, unique(users), got, err)
	return nil
}
