// Command adapter drives sarama's ClusterAdmin for kcompat over the adapter protocol (docs/ADAPTERS.md): JSON lines
// on stdin and stdout, free-form log on stderr.  Each op's args and result fields are those of the Java sidecar's
// class of the same name (harness/clients/sidecar/kcompat/sidecar/ops/).  What ClusterAdmin can't express is named
// in unsupported_options and the call is made without it; a Kafka error or a library error is data.
//
// Config.Version, the Kafka version sarama assumes before it knows the broker, is one choice per release, never per
// cell, and the ready line says it ("kafka_version", "kafka_version_rule"): from sarama 1.46.0 sarama.MaxVersion, the
// newest this release knows, because from that release sarama reads each broker's ApiVersions and lowers every
// request to what the broker has (its CHANGELOG: Version "can safely be set to a maximum or higher value than the
// remote cluster"); before 1.46.0, which sends what Version names without asking, sarama.DefaultVersion, its
// documented default.
package main

import (
	"bufio"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/IBM/sarama"
)

const protocol = 2

// callTimeout bounds every library call, the ClusterAdmin's making included: kcompat's KCOMPAT_ADAPTER_DEADLINE,
// 60 s where it gives none (docs/ADAPTERS.md). kcompat waits longer for the answer, so a call that ends at this
// deadline is data: its answer says so in deadline_reached.
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
	// UnsupportedFields names result fields the library's API has no way to carry, with that API.
	UnsupportedFields map[string]string `json:"unsupported_fields,omitempty"`
	// DeadlineReached is callTimeout's seconds where the call returned only when that deadline expired.
	DeadlineReached *float64 `json:"deadline_reached,omitempty"`
}

func newResult() *result {
	return &result{Resources: []*resource{}, ResultFields: []string{}, UnsupportedOptions: []string{}}
}

func (r *result) reachedDeadline() {
	seconds := callTimeout.Seconds()
	r.DeadlineReached = &seconds
}

func (r *result) add(e *resource) { r.Resources = append(r.Resources, e) }

func (r *result) unsupported(option string) {
	for _, known := range r.UnsupportedOptions {
		if known == option {
			return
		}
	}
	r.UnsupportedOptions = append(r.UnsupportedOptions, option)
}

// threw records an error of the call as a whole (not of one resource).
func (r *result) threw(err error) {
	name, message := typeName(err), err.Error()
	r.Exception, r.ExceptionMessage = &name, &message
}

// op runs one admin call; an error it returns is the adapter's failure (an argument it can't read).
type op func(adm sarama.ClusterAdmin, args json.RawMessage, r *result) error

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

// -- the release, its Kafka version, the clients ------------------------------------------------------------------

func libraryRelease() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/IBM/sarama" {
				if dep.Replace != nil {
					return strings.TrimPrefix(dep.Replace.Version, "v")
				}
				return strings.TrimPrefix(dep.Version, "v")
			}
		}
	}
	return "unknown"
}

func atLeast(release string, major, minor int) bool {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	return err1 == nil && err2 == nil && (ma > major || ma == major && mi >= minor)
}

// kafkaVersion is Config.Version for this release, and the rule that chose it (the package comment says why).
func kafkaVersion(release string) (sarama.KafkaVersion, string) {
	if atLeast(release, 1, 46) {
		return sarama.MaxVersion, "sarama.MaxVersion: from 1.46.0 sarama lowers each request to the broker's ApiVersions"
	}
	return sarama.DefaultVersion, "sarama.DefaultVersion: before 1.46.0 sarama sends what Version names, unasked"
}

type admin struct {
	adm  sarama.ClusterAdmin
	busy bool
}

// admins holds one ClusterAdmin per distinct connection (bootstrap, user, password) between calls.
var admins = map[string]*admin{}

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

func config(c *connection) *sarama.Config {
	conf := sarama.NewConfig()
	conf.ClientID = "kcompat-sarama"
	conf.Version, _ = kafkaVersion(libraryRelease())
	conf.Admin.Timeout = 30 * time.Second
	conf.Admin.Retry.Max = 2
	conf.Net.DialTimeout, conf.Net.ReadTimeout, conf.Net.WriteTimeout = 10*time.Second, 30*time.Second, 30*time.Second
	conf.Metadata.Retry.Max = 2
	conf.Net.Proxy.Enable, conf.Net.Proxy.Dialer = true, recordingDialer{} // not a proxy: its own dialing, read
	if c.Username != nil {
		conf.Net.SASL.Enable = true
		conf.Net.SASL.Mechanism = sarama.SASLTypePlaintext
		conf.Net.SASL.User = *c.Username
		if c.Password != nil {
			conf.Net.SASL.Password = *c.Password
		}
	}
	return conf
}

// recordingDialer dials as sarama does (10 s), each connection read for the request versions it carries.
type recordingDialer struct{}

func (recordingDialer) Dial(network, address string) (net.Conn, error) {
	conn, err := net.DialTimeout(network, address, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Conn: conn}, nil
}

func closeAdmin(c *connection) {
	key := connectionKey(c)
	if a, ok := admins[key]; ok {
		delete(admins, key)
		go a.adm.Close() // a ClusterAdmin stuck in a call would block its Close: closed aside
	}
}

func main() {
	log.SetOutput(os.Stderr) // stdout carries protocol lines only
	sarama.Logger = log.New(os.Stderr, "[sarama] ", log.LstdFlags)
	out := bufio.NewWriter(os.Stdout)
	names := make([]string, 0, len(ops))
	for name := range ops {
		names = append(names, name)
	}
	sort.Strings(names)
	release := libraryRelease()
	version, rule := kafkaVersion(release)
	write(out, map[string]any{"ready": release, "protocol": protocol, "operations": names,
		"kafka_version": version.String(), "kafka_version_rule": rule})
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
	for key, a := range admins {
		delete(admins, key)
		if !a.busy {
			a.adm.Close()
		}
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

type outcomeOfRun struct {
	r   *result
	err error
	a   *admin // the ClusterAdmin the call used, made for it where none was kept
}

// run makes the call in a goroutine bounded by callTimeout: sarama takes no context, and a call past the bound
// is the call's exception, the deadline reached (its ClusterAdmin is put aside: the next call makes a new one).
// A call that returned at the bound or later, its library's own timeout as long as ours, reached it too.
func run(req request) (*result, error) {
	if req.Op == "close" {
		if req.Connection != nil {
			closeAdmin(req.Connection)
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
	key := connectionKey(req.Connection)
	a := admins[key]
	if a != nil {
		a.busy = true
	}
	done := make(chan outcomeOfRun, 1)
	mark, started := requests.mark(), time.Now()
	go call(req, handler, a, done)
	select {
	case o := <-done:
		if o.a != nil {
			o.a.busy = false
			admins[key] = o.a
		}
		if o.r != nil {
			o.r.RequestVersion = requests.since(mark, apiKeys[req.Op])
			if time.Since(started) >= callTimeout {
				o.r.reachedDeadline()
			}
		}
		return o.r, o.err
	case <-time.After(callTimeout):
		closeAdmin(req.Connection)
		go abandon(done, a)
		late := newResult()
		late.threw(fmt.Errorf("sarama gave no answer to %s within %s", req.Op, callTimeout))
		late.RequestVersion = requests.since(mark, apiKeys[req.Op])
		late.reachedDeadline()
		return late, nil
	}
}

// call runs one op on its connection's ClusterAdmin, making one where none is kept (sarama's NewClusterAdmin
// reaches the cluster: its error is the observation), and sends what came of it on done.
func call(req request, handler op, a *admin, done chan<- outcomeOfRun) {
	r := newResult()
	defer func() {
		if p := recover(); p != nil {
			log.Printf("panic in %s: %v\n%s", req.Op, p, debug.Stack())
			done <- outcomeOfRun{nil, fmt.Errorf("panic: %v", p), a}
		}
	}()
	if a == nil {
		adm, err := sarama.NewClusterAdmin(strings.Split(req.Connection.Bootstrap, ","), config(req.Connection))
		if err != nil {
			r.threw(err)
			done <- outcomeOfRun{r, nil, nil}
			return
		}
		a = &admin{adm: adm}
	}
	err := handler(a.adm, req.Args, r)
	done <- outcomeOfRun{r, err, a}
}

// abandon closes the ClusterAdmin a call given up on made for itself (not kept, the one it was given closed
// aside already), whenever that call ends.
func abandon(done <-chan outcomeOfRun, kept *admin) {
	if o := <-done; o.a != nil && o.a != kept {
		o.a.adm.Close()
	}
}

// -- outcomes -----------------------------------------------------------------------------------------------------

func typeName(err error) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", err), "*")
}

func strptr(s string) *string { return &s }

// kafkaError is the Kafka error an error carries (sarama wraps KError in TopicError, its own sentinel errors...).
func kafkaError(err error) (sarama.KError, bool) {
	var ke sarama.KError
	if errors.As(err, &ke) && ke != sarama.ErrNoError {
		return ke, true
	}
	return 0, false
}

func errorName(code sarama.KError) string {
	if name, ok := kafkaErrorNames[int16(code)]; ok {
		return name
	}
	if code > 0 {
		return "UNKNOWN_SERVER_ERROR_" + strconv.Itoa(int(code))
	}
	return "CLIENT_ERROR_" + strconv.Itoa(int(code))
}

// outcome is one resource's entry: no error, or the Kafka code and name its error carries (-1
// UNKNOWN_SERVER_ERROR for an error that carries none, as Kafka's Errors.forException has it); the message is the
// broker's where sarama kept it.
func outcome(name string, err error) *resource {
	e := &resource{Resource: name, ErrorName: "NONE", Fields: map[string]any{}}
	if err == nil {
		return e
	}
	if ke, ok := err.(sarama.KError); ok && ke == sarama.ErrNoError {
		return e
	}
	e.ErrorCode, e.ErrorName = -1, "UNKNOWN_SERVER_ERROR"
	if ke, ok := kafkaError(err); ok {
		e.ErrorCode, e.ErrorName = int(ke), errorName(ke)
	}
	message := err.Error()
	var topicErr *sarama.TopicError
	var partitionErr *sarama.TopicPartitionError
	if errors.As(err, &topicErr) && topicErr.ErrMsg != nil {
		message = *topicErr.ErrMsg
	} else if errors.As(err, &partitionErr) && partitionErr.ErrMsg != nil {
		message = *partitionErr.ErrMsg
	}
	e.ErrorMessage, e.Exception = strptr(message), strptr(typeName(err))
	return e
}

// each adds one resource's outcome of a call that answers for it alone: a Kafka error is the resource's, any
// other error the call's exception (the resource is left out, as the library said nothing of it).
func each(r *result, name string, err error) *resource {
	if err != nil {
		if _, ok := kafkaError(err); !ok {
			r.threw(err)
			return nil
		}
	}
	e := outcome(name, err)
	r.add(e)
	return e
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

func (t configTarget) saramaType() (sarama.ConfigResourceType, error) {
	switch t.kind() {
	case "topic":
		return sarama.TopicResource, nil
	case "broker":
		return sarama.BrokerResource, nil
	}
	return 0, fmt.Errorf("configs are described and altered for topic and broker resources, not %q", t.kind())
}

type topicPartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

func dashLabel(t string, p int32) string  { return t + "-" + strconv.Itoa(int(p)) }
func colonLabel(t string, p int32) string { return t + ":" + strconv.Itoa(int(p)) }

var configSources = []string{"UNKNOWN", "DYNAMIC_TOPIC_CONFIG", "DYNAMIC_BROKER_CONFIG",
	"DYNAMIC_DEFAULT_BROKER_CONFIG", "STATIC_BROKER_CONFIG", "DEFAULT_CONFIG", "DYNAMIC_BROKER_LOGGER_CONFIG",
	"CLIENT_METRICS_CONFIG", "GROUP_CONFIG"}
var configTypes = []string{"UNKNOWN", "BOOLEAN", "STRING", "INT", "SHORT", "LONG", "DOUBLE", "LIST", "CLASS",
	"PASSWORD"}

// kafkaName is Kafka's name of an enum value by its wire value (sarama names them its own way).
func kafkaName(names []string, value int) string {
	if value >= 0 && value < len(names) {
		return names[value]
	}
	return "UNKNOWN"
}

var camel = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// upperSnake turns sarama's enum names into Kafka's: IdempotentWrite -> IDEMPOTENT_WRITE.
func upperSnake(s string) string { return strings.ToUpper(camel.ReplaceAllString(s, "${1}_${2}")) }

// -- the KIP ops --------------------------------------------------------------------------------------------------

type newTopic struct {
	Name              string             `json:"name"`
	Partitions        *int32             `json:"partitions"`
	ReplicationFactor *int16             `json:"replication_factor"`
	Assignments       map[string][]int32 `json:"assignments"`
	Configs           map[string]string  `json:"configs"`
}

// createTopics: ClusterAdmin.CreateTopic, one topic a call; it returns an error only (no KIP-525 fields).
func createTopics(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool       `json:"validate_only"`
		Topics       []newTopic `json:"topics"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	// ClusterAdmin.CreateTopic hands back an error only: KIP-525's result fields have no way through it
	r.UnsupportedFields = map[string]string{"num_partitions": "sarama.ClusterAdmin.CreateTopic",
		"replication_factor": "sarama.ClusterAdmin.CreateTopic", "configs": "sarama.ClusterAdmin.CreateTopic"}
	for _, t := range args.Topics {
		detail := &sarama.TopicDetail{NumPartitions: -1, ReplicationFactor: -1, ConfigEntries: map[string]*string{}}
		if t.Assignments != nil {
			detail.ReplicaAssignment = map[int32][]int32{}
			for partition, replicas := range t.Assignments {
				index, err := strconv.Atoi(partition)
				if err != nil {
					return fmt.Errorf("assignment key %q is not a partition index", partition)
				}
				detail.ReplicaAssignment[int32(index)] = replicas
			}
		} else {
			if t.Partitions != nil {
				detail.NumPartitions = *t.Partitions
			}
			if t.ReplicationFactor != nil {
				detail.ReplicationFactor = *t.ReplicationFactor
			}
		}
		for k, v := range t.Configs {
			value := v
			detail.ConfigEntries[k] = &value
		}
		each(r, t.Name, adm.CreateTopic(t.Name, detail, args.ValidateOnly))
	}
	return nil
}

func createPartitions(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool `json:"validate_only"`
		Partitions   []struct {
			Topic       string    `json:"topic"`
			TotalCount  int32     `json:"total_count"`
			Assignments [][]int32 `json:"assignments"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, p := range args.Partitions {
		each(r, p.Topic, adm.CreatePartitions(p.Topic, p.TotalCount, p.Assignments, args.ValidateOnly))
	}
	return nil
}

func configEntry(c sarama.ConfigEntry, typed, documented bool) map[string]any {
	entry := map[string]any{"name": c.Name, "value": c.Value, "read_only": c.ReadOnly, "is_default": c.Default,
		"source": kafkaName(configSources, int(c.Source)), "sensitive": c.Sensitive}
	if c.Sensitive {
		entry["value"] = nil
	}
	synonyms := make([]map[string]any, 0, len(c.Synonyms))
	for _, s := range c.Synonyms {
		synonyms = append(synonyms, map[string]any{"name": s.ConfigName, "value": s.ConfigValue,
			"source": kafkaName(configSources, int(s.Source))})
	}
	entry["synonyms"] = synonyms
	if typed { // KIP-569 (DescribeConfigs v3): every entry's type
		entry["type"] = kafkaName(configTypes, int(c.Type))
	}
	if documented { // KIP-569: documentation, where it was asked for
		entry["documentation"] = c.Documentation
	}
	return entry
}

// describeConfigs: ClusterAdmin.DescribeConfigs with the synonyms and documentation options. sarama's ConfigEntry
// has Type and Documentation, decoded from DescribeConfigs v3 on: an entry has its type where the request sent
// (read off the wire, sent.go) was v3 or newer, and documentation where any entry came back documented.
func describeConfigs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeSynonyms      bool           `json:"include_synonyms"`
		IncludeDocumentation bool           `json:"include_documentation"`
		Resources            []configTarget `json:"resources"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	resources := []*sarama.ConfigResource{}
	for _, target := range args.Resources {
		kind, err := target.saramaType()
		if err != nil {
			return err
		}
		resources = append(resources, &sarama.ConfigResource{Type: kind, Name: target.Name})
	}
	mark := requests.mark()
	results, err := adm.DescribeConfigs(resources, sarama.DescribeConfigsOptions{
		IncludeSynonyms: args.IncludeSynonyms, IncludeDocumentation: args.IncludeDocumentation})
	sent := requests.since(mark, apiKeys["describe_configs"])
	typed := sent != nil && *sent >= 3
	if err != nil && len(results) == 0 {
		if _, ok := kafkaError(err); !ok {
			r.threw(err)
			return nil
		}
	}
	documented := false
	for _, res := range results {
		for _, c := range res.Configs {
			documented = documented || c.Documentation != nil
		}
	}
	fields := []string{"name", "value", "read_only", "is_default", "source", "sensitive", "synonyms"}
	if typed {
		fields = append(fields, "type")
	}
	if documented {
		fields = append(fields, "documentation")
	}
	for _, field := range fields {
		r.ResultFields = append(r.ResultFields, "configs."+field)
	}
	for _, target := range args.Resources {
		kind, _ := target.saramaType()
		var found *sarama.ConfigResourceResult
		for _, res := range results {
			if res.Type == kind && res.Name == target.Name {
				found = res
			}
		}
		switch {
		case found == nil && err != nil:
			r.add(outcome(target.label(), err))
		case found == nil:
			r.add(outcome(target.label(), errors.New("sarama returned no result for "+target.label())))
		case found.ErrorCode != sarama.ErrNoError:
			e := outcome(target.label(), found.ErrorCode)
			if found.ErrorMsg != "" {
				e.ErrorMessage = strptr(found.ErrorMsg)
			}
			r.add(e)
		default:
			e := outcome(target.label(), nil)
			entries := make([]map[string]any, 0, len(found.Configs))
			for _, c := range found.Configs {
				entries = append(entries, configEntry(c, typed, documented))
			}
			e.Fields["configs"] = entries
			r.add(e)
		}
	}
	return nil
}

// listTopics: ClusterAdmin.ListTopics (Metadata of every topic, then DescribeConfigs of them all); it has no
// option to leave out internal topics.
func listTopics(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	args := struct {
		ListInternal *bool `json:"list_internal"`
	}{}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if args.ListInternal != nil && !*args.ListInternal {
		r.unsupported("list_internal")
	}
	r.ResultFields = append(r.ResultFields, "partitions")
	topics, err := adm.ListTopics()
	if err != nil {
		r.threw(err)
		return nil
	}
	names := make([]string, 0, len(topics))
	for name := range topics {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		e := outcome(name, nil)
		e.Fields["partitions"] = topics[name].NumPartitions
		r.add(e)
	}
	return nil
}

// describeTopics: ClusterAdmin.DescribeTopics, a Metadata request for the named topics.
func describeTopics(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Topics []string `json:"topics"`
		Names  []string `json:"names"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	names := append(args.Topics, args.Names...)
	r.ResultFields = append(r.ResultFields, "internal", "partitions")
	if len(names) == 0 { // DescribeTopicPartitions' listing mode (no names) it lacks
		r.unsupported("names")
		return nil
	}
	metadata, err := adm.DescribeTopics(names)
	if err != nil {
		r.threw(err)
		return nil
	}
	byName := map[string]*sarama.TopicMetadata{}
	for _, m := range metadata {
		byName[m.Name] = m
	}
	for _, name := range names {
		m, ok := byName[name]
		if !ok {
			r.add(outcome(name, errors.New("sarama returned no metadata for "+name)))
			continue
		}
		e := outcome(name, m.Err)
		if m.Err == sarama.ErrNoError {
			e.Fields["internal"], e.Fields["partitions"] = m.IsInternal, len(m.Partitions)
		}
		r.add(e)
	}
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

func (a aclSpec) filterLabel() string {
	return strings.ToLower(a.ResourceType) + ":" + deref(a.ResourceName, "*") + ":" + deref(a.Principal, "*") + ":" +
		a.Operation + ":" + a.Permission
}

// enums reads Kafka's names (TRANSACTIONAL_ID, READ, ALLOW, LITERAL) into sarama's types.
func (a aclSpec) enums() (sarama.AclResourceType, sarama.AclOperation, sarama.AclPermissionType,
	sarama.AclResourcePatternType, error) {
	var kind sarama.AclResourceType
	var operation sarama.AclOperation
	var permission sarama.AclPermissionType
	var pattern sarama.AclResourcePatternType
	text := func(s string) []byte { return []byte(strings.ToLower(strings.ReplaceAll(s, "_", ""))) }
	if err := kind.UnmarshalText(text(a.ResourceType)); err != nil {
		return 0, 0, 0, 0, err
	}
	if err := operation.UnmarshalText(text(a.Operation)); err != nil {
		return 0, 0, 0, 0, err
	}
	if err := permission.UnmarshalText(text(a.Permission)); err != nil {
		return 0, 0, 0, 0, err
	}
	if err := pattern.UnmarshalText(text(a.Pattern)); err != nil {
		return 0, 0, 0, 0, err
	}
	return kind, operation, permission, pattern, nil
}

func bindingLabel(res sarama.Resource, acl sarama.Acl) string {
	return strings.ToLower(upperSnake(res.ResourceType.String())) + ":" + res.ResourceName + ":" + acl.Principal + ":" +
		upperSnake(acl.Operation.String()) + ":" + upperSnake(acl.PermissionType.String())
}

// createACLs: ClusterAdmin.CreateACL, one binding a call (CreateACLs answers one error for all of them).
func createACLs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		ACLs []aclSpec `json:"acls"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, a := range args.ACLs {
		kind, operation, permission, pattern, err := a.enums()
		if err != nil {
			return err
		}
		res := sarama.Resource{ResourceType: kind, ResourceName: deref(a.ResourceName, ""), ResourcePatternType: pattern}
		acl := sarama.Acl{Principal: deref(a.Principal, ""), Host: deref(a.Host, "*"), Operation: operation,
			PermissionType: permission}
		each(r, a.Label, adm.CreateACL(res, acl))
	}
	return nil
}

func (a aclSpec) filter() (sarama.AclFilter, error) {
	kind, operation, permission, pattern, err := a.enums()
	if err != nil {
		return sarama.AclFilter{}, err
	}
	return sarama.AclFilter{ResourceType: kind, ResourceName: a.ResourceName, ResourcePatternTypeFilter: pattern,
		Principal: a.Principal, Host: a.Host, Operation: operation, PermissionType: permission}, nil
}

func describeACLs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Filter aclSpec `json:"filter"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	filter, err := args.Filter.filter()
	if err != nil {
		return err
	}
	listed, err := adm.ListAcls(filter)
	if e := each(r, args.Filter.filterLabel(), err); e != nil && err == nil {
		bindings := []string{}
		for _, res := range listed {
			for _, acl := range res.Acls {
				bindings = append(bindings, bindingLabel(res.Resource, *acl))
			}
		}
		sort.Strings(bindings)
		e.Fields["bindings"] = bindings
	}
	return nil
}

// deleteACLs: ClusterAdmin.DeleteACL, one filter a call.
func deleteACLs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Filters []aclSpec `json:"filters"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, a := range args.Filters {
		filter, err := a.filter()
		if err != nil {
			return err
		}
		matched, err := adm.DeleteACL(filter, false)
		if e := each(r, a.filterLabel(), err); e != nil && err == nil {
			deleted := []string{}
			for _, m := range matched {
				if m.Err == sarama.ErrNoError {
					deleted = append(deleted, bindingLabel(m.Resource, m.Acl))
				}
			}
			sort.Strings(deleted)
			e.Fields["deleted"] = deleted
		}
	}
	return nil
}

// -- topics, cluster, configs -------------------------------------------------------------------------------------

// deleteTopics: ClusterAdmin.DeleteTopic, by name only (it has no deletion by topic id).
func deleteTopics(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	for _, name := range args.Names {
		each(r, name, adm.DeleteTopic(name))
	}
	return nil
}

// describeCluster: ClusterAdmin.DescribeCluster gives brokers and the controller; no cluster id and no authorized
// operations.
func describeCluster(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeAuthorizedOperations bool `json:"include_authorized_operations"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if args.IncludeAuthorizedOperations {
		r.unsupported("include_authorized_operations")
	}
	r.ResultFields = append(r.ResultFields, "nodes", "controller")
	brokers, controller, err := adm.DescribeCluster()
	if e := each(r, "cluster", err); e != nil && err == nil {
		nodes := []int32{}
		for _, b := range brokers {
			nodes = append(nodes, b.ID())
		}
		sort.Slice(nodes, func(i, j int) bool { return nodes[i] < nodes[j] })
		e.Fields["nodes"] = nodes
		e.Fields["controller"] = nil
		if controller >= 0 {
			e.Fields["controller"] = controller
		}
	}
	return nil
}

// alterConfigs: the legacy AlterConfigs (ClusterAdmin.AlterConfig), one resource a call.
func alterConfigs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	for _, item := range args.Resources {
		kind, err := item.Target.saramaType()
		if err != nil {
			return err
		}
		entries := map[string]*string{}
		for name, value := range item.Configs {
			v := value
			entries[name] = &v
		}
		each(r, item.Target.label(), adm.AlterConfig(kind, item.Target.Name, entries, args.ValidateOnly))
	}
	return nil
}

var incrementalOps = map[string]sarama.IncrementalAlterConfigsOperation{
	"SET": sarama.IncrementalAlterConfigsOperationSet, "DELETE": sarama.IncrementalAlterConfigsOperationDelete,
	"APPEND":   sarama.IncrementalAlterConfigsOperationAppend,
	"SUBTRACT": sarama.IncrementalAlterConfigsOperationSubtract,
}

func incrementalAlterConfigs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	for _, item := range args.Resources {
		kind, err := item.Target.saramaType()
		if err != nil {
			return err
		}
		entries := map[string]sarama.IncrementalAlterConfigsEntry{}
		for _, o := range item.Ops {
			op, ok := incrementalOps[strings.ToUpper(o.Op)]
			if !ok {
				return fmt.Errorf("unknown config op %q", o.Op)
			}
			entries[o.Name] = sarama.IncrementalAlterConfigsEntry{Operation: op, Value: o.Value}
		}
		each(r, item.Target.label(), adm.IncrementalAlterConfig(kind, item.Target.Name, entries, args.ValidateOnly))
	}
	return nil
}

// -- groups -------------------------------------------------------------------------------------------------------

// listConsumerGroups: ClusterAdmin.ListConsumerGroups gives each group's protocol type only: no state, no filter.
func listConsumerGroups(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		States []string `json:"states"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if len(args.States) > 0 {
		r.unsupported("states")
	}
	groups, err := adm.ListConsumerGroups()
	if err != nil && len(groups) == 0 {
		r.threw(err)
		return nil
	}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r.add(outcome(name, nil))
	}
	if err != nil { // some brokers answered, others did not: the listing is partial
		r.threw(err)
	}
	return nil
}

// describeConsumerGroups: ClusterAdmin.DescribeConsumerGroups never asks for authorized operations; the
// coordinator is ClusterAdmin.Coordinator's.
func describeConsumerGroups(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Groups                      []string `json:"groups"`
		IncludeAuthorizedOperations bool     `json:"include_authorized_operations"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if args.IncludeAuthorizedOperations {
		r.unsupported("include_authorized_operations")
	}
	r.ResultFields = append(r.ResultFields, "state", "members", "coordinator", "partition_assignor")
	if len(args.Groups) == 0 {
		return nil
	}
	described, err := adm.DescribeConsumerGroups(args.Groups)
	if err != nil {
		if _, ok := kafkaError(err); !ok {
			r.threw(err)
			return nil
		}
	}
	byName := map[string]*sarama.GroupDescription{}
	for _, d := range described {
		byName[d.GroupId] = d
	}
	for _, group := range args.Groups {
		d, ok := byName[group]
		if !ok {
			r.add(outcome(group, err))
			continue
		}
		e := outcome(group, d.Err)
		if d.Err == sarama.ErrNoError {
			e.Fields["state"], e.Fields["partition_assignor"] = d.State, d.Protocol
			e.Fields["coordinator"] = nil
			if b, cerr := adm.Coordinator(group); cerr == nil {
				e.Fields["coordinator"] = b.ID()
			}
			ids := make([]string, 0, len(d.Members))
			for id := range d.Members {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			members := []map[string]any{}
			for _, id := range ids {
				m := d.Members[id]
				members = append(members, map[string]any{"member_id": m.MemberId, "client_id": m.ClientId,
					"host": m.ClientHost, "group_instance_id": m.GroupInstanceId})
			}
			e.Fields["members"] = members
		}
		r.add(e)
	}
	return nil
}

func deleteConsumerGroups(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Groups []string `json:"groups"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, group := range args.Groups {
		each(r, group, adm.DeleteConsumerGroup(group))
	}
	return nil
}

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

func listConsumerGroupOffsets(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Group      string              `json:"group"`
		Partitions [][]json.RawMessage `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "offset", "metadata")
	var asked map[string][]int32
	if args.Partitions != nil {
		asked = map[string][]int32{}
		for _, p := range args.Partitions {
			topic, partition, err := pair(p)
			if err != nil {
				return err
			}
			asked[topic] = append(asked[topic], partition)
		}
	}
	response, err := adm.ListConsumerGroupOffsets(args.Group, asked)
	if err != nil || response == nil {
		each(r, args.Group, err)
		return nil
	}
	blocks := response.Blocks
	if response.Version >= 8 && len(response.Groups) > 0 {
		blocks = response.Groups[0].Blocks
	}
	entries := []*resource{}
	for topic, partitions := range blocks {
		for partition, block := range partitions {
			e := outcome(colonLabel(topic, partition), block.Err)
			if block.Err == sarama.ErrNoError {
				e.Fields["offset"] = nil
				if block.Offset >= 0 {
					e.Fields["offset"] = block.Offset
				}
				e.Fields["metadata"] = block.Metadata
			}
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Resource < entries[j].Resource })
	r.Resources = append(r.Resources, entries...)
	return nil
}

func alterConsumerGroupOffsets(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Group   string              `json:"group"`
		Offsets [][]json.RawMessage `json:"offsets"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	offsets := map[string]map[int32]sarama.OffsetAndMetadata{}
	for _, triple := range args.Offsets {
		topic, partition, err := pair(triple)
		if err != nil || len(triple) < 3 {
			return errors.New("an offset is [topic, partition, offset]")
		}
		var at int64
		if err := json.Unmarshal(triple[2], &at); err != nil {
			return err
		}
		if offsets[topic] == nil {
			offsets[topic] = map[int32]sarama.OffsetAndMetadata{}
		}
		offsets[topic][partition] = sarama.OffsetAndMetadata{Offset: at, LeaderEpoch: -1}
	}
	response, err := adm.AlterConsumerGroupOffsets(args.Group, offsets, nil)
	if err != nil || response == nil {
		each(r, args.Group, err)
		return nil
	}
	for topic, partitions := range offsets {
		for partition := range partitions {
			code, ok := response.Errors[topic][partition]
			if !ok {
				r.add(outcome(colonLabel(topic, partition), errors.New("sarama returned no result for it")))
				continue
			}
			r.add(outcome(colonLabel(topic, partition), code))
		}
	}
	sort.Slice(r.Resources, func(i, j int) bool { return r.Resources[i].Resource < r.Resources[j].Resource })
	return nil
}

// -- partitions, offsets, replicas --------------------------------------------------------------------------------

// deleteRecords: ClusterAdmin.DeleteRecords, one topic a call, answers an error only (no low watermark).
func deleteRecords(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	byTopic, order := map[string]map[int32]int64{}, []string{}
	for _, b := range args.Before {
		if byTopic[b.Topic] == nil {
			byTopic[b.Topic] = map[int32]int64{}
			order = append(order, b.Topic)
		}
		byTopic[b.Topic][b.Partition] = b.Offset
	}
	for _, topic := range order {
		err := adm.DeleteRecords(topic, byTopic[topic])
		if _, ok := kafkaError(err); err != nil && !ok {
			r.threw(err)
			continue
		}
		partitions := make([]int32, 0, len(byTopic[topic]))
		for p := range byTopic[topic] {
			partitions = append(partitions, p)
		}
		sort.Slice(partitions, func(i, j int) bool { return partitions[i] < partitions[j] })
		for _, p := range partitions { // sarama answers for the topic as a whole
			r.add(outcome(colonLabel(topic, p), err))
		}
	}
	return nil
}

var specTimestamps = map[string]int64{"earliest": sarama.OffsetOldest, "latest": sarama.OffsetNewest,
	"max_timestamp": -3}

func listOffsets(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	for _, q := range args.Queries { // one call per query: the map it takes has one timestamp per partition
		at, ok := specTimestamps[q.Spec]
		if q.Spec == "timestamp" {
			at, ok = 0, true
			if q.Timestamp != nil {
				at = *q.Timestamp
			}
		}
		if !ok {
			return fmt.Errorf("unknown offset spec %q", q.Spec)
		}
		label := colonLabel(q.Topic, q.Partition)
		listed, err := adm.ListOffsets(map[string]map[int32]int64{q.Topic: {q.Partition: at}}, nil)
		if err != nil {
			each(r, label, err)
			continue
		}
		o, ok := listed[q.Topic][q.Partition]
		if !ok || o == nil {
			r.add(outcome(label, errors.New("sarama returned no result for "+label)))
			continue
		}
		e := outcome(label, o.Err)
		if e.ErrorCode == 0 {
			e.Fields["offset"], e.Fields["timestamp"] = o.Offset, o.Timestamp
			if o.LeaderEpoch >= 0 {
				e.Fields["leader_epoch"] = o.LeaderEpoch
			}
		}
		r.add(e)
	}
	return nil
}

func electLeaders(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		ElectionType string           `json:"election_type"`
		Partitions   []topicPartition `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	how := sarama.PreferredElection
	switch strings.ToLower(args.ElectionType) {
	case "preferred":
	case "unclean":
		how = sarama.UncleanElection
	default:
		return fmt.Errorf("unknown election type %q", args.ElectionType)
	}
	asked := map[string][]int32{}
	for _, p := range args.Partitions {
		asked[p.Topic] = append(asked[p.Topic], p.Partition)
	}
	results, err := adm.ElectLeaders(how, asked)
	if err != nil && len(results) == 0 {
		if _, ok := kafkaError(err); !ok {
			r.threw(err)
			return nil
		}
	}
	for _, p := range args.Partitions {
		label := dashLabel(p.Topic, p.Partition)
		res, ok := results[p.Topic][p.Partition]
		if !ok || res == nil {
			r.add(outcome(label, err))
			continue
		}
		e := outcome(label, res.ErrorCode)
		if res.ErrorMessage != nil && e.ErrorCode != 0 {
			e.ErrorMessage = res.ErrorMessage
		}
		r.add(e)
	}
	return nil
}

// alterPartitionReassignments: ClusterAdmin.AlterPartitionReassignments takes a topic's replica lists by partition
// index from 0: partitions that are not 0..n-1 of a topic can't be expressed (and a gap would cancel another's).
func alterPartitionReassignments(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Reassignments []struct {
			Partition topicPartition `json:"partition"`
			Replicas  []int32        `json:"replicas"`
		} `json:"reassignments"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	byTopic, order := map[string]map[int32][]int32{}, []string{}
	for _, item := range args.Reassignments {
		t := item.Partition.Topic
		if byTopic[t] == nil {
			byTopic[t] = map[int32][]int32{}
			order = append(order, t)
		}
		byTopic[t][item.Partition.Partition] = item.Replicas
	}
	for _, topic := range order {
		assignment := make([][]int32, len(byTopic[topic]))
		contiguous := true
		for p, replicas := range byTopic[topic] {
			if p < 0 || int(p) >= len(assignment) {
				contiguous = false
				break
			}
			assignment[p] = replicas
		}
		if !contiguous {
			r.unsupported("partition")
			continue
		}
		err := adm.AlterPartitionReassignments(topic, assignment)
		if _, ok := kafkaError(err); err != nil && !ok {
			r.threw(err)
			continue
		}
		for p := range assignment { // sarama answers one error for the topic's partitions
			r.add(outcome(dashLabel(topic, int32(p)), err))
		}
	}
	return nil
}

// listPartitionReassignments: ClusterAdmin.ListPartitionReassignments lists named partitions of one topic a call;
// every reassignment of the cluster (no partitions named) it can't ask for.
func listPartitionReassignments(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	byTopic, order := map[string][]int32{}, []string{}
	for _, p := range *args.Partitions {
		if byTopic[p.Topic] == nil {
			order = append(order, p.Topic)
		}
		byTopic[p.Topic] = append(byTopic[p.Topic], p.Partition)
	}
	entries := []*resource{}
	for _, topic := range order {
		status, err := adm.ListPartitionReassignments(topic, byTopic[topic])
		if err != nil {
			if _, ok := kafkaError(err); !ok {
				r.threw(err)
				return nil
			}
			r.add(outcome("*", err))
			return nil
		}
		for t, partitions := range status {
			for p, s := range partitions {
				e := outcome(dashLabel(t, p), nil)
				e.Fields["replicas"], e.Fields["adding_replicas"] = ints(s.Replicas), ints(s.AddingReplicas)
				e.Fields["removing_replicas"] = ints(s.RemovingReplicas)
				entries = append(entries, e)
			}
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Resource < entries[j].Resource })
	r.Resources = append(r.Resources, entries...)
	return nil
}

func ints(values []int32) []int32 {
	if values == nil {
		return []int32{}
	}
	return values
}

func describeLogDirs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Brokers []int32 `json:"brokers"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "replicas", "total_bytes", "usable_bytes")
	described, err := adm.DescribeLogDirs(args.Brokers)
	if err != nil && len(described) == 0 {
		r.threw(err)
		return nil
	}
	for _, broker := range args.Brokers {
		dirs, ok := described[broker]
		if !ok {
			r.add(outcome(strconv.Itoa(int(broker))+":*", err))
			continue
		}
		sort.Slice(dirs, func(i, j int) bool { return dirs[i].Path < dirs[j].Path })
		for _, dir := range dirs {
			e := outcome(strconv.Itoa(int(broker))+":"+dir.Path, dir.ErrorCode)
			replicas := []map[string]any{}
			for _, t := range dir.Topics {
				for _, p := range t.Partitions {
					replicas = append(replicas, map[string]any{"topic": t.Topic, "partition": p.PartitionID,
						"size": p.Size, "offset_lag": p.OffsetLag, "is_future": p.IsTemporary})
				}
			}
			e.Fields["replicas"] = replicas
			e.Fields["total_bytes"], e.Fields["usable_bytes"] = nil, nil
			if dir.TotalBytes >= 0 {
				e.Fields["total_bytes"] = dir.TotalBytes
			}
			if dir.UsableBytes >= 0 {
				e.Fields["usable_bytes"] = dir.UsableBytes
			}
			r.add(e)
		}
	}
	return nil
}

// -- offsets of groups, SCRAM credentials -------------------------------------------------------------------------

// deleteConsumerGroupOffsets: ClusterAdmin.DeleteConsumerGroupOffset, one partition a call.
func deleteConsumerGroupOffsets(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Group      string              `json:"group"`
		Partitions [][]json.RawMessage `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, p := range args.Partitions {
		topic, partition, err := pair(p)
		if err != nil {
			return err
		}
		each(r, colonLabel(topic, partition), adm.DeleteConsumerGroupOffset(args.Group, topic, partition))
	}
	return nil
}

// scramMechanisms are Kafka's ScramMechanism names by wire value (as the Java enum has them).
var scramMechanisms = map[string]sarama.ScramMechanismType{"SCRAM_SHA_256": 1, "SCRAM_SHA_512": 2}

func scramName(m sarama.ScramMechanismType) string {
	for name, value := range scramMechanisms {
		if value == m {
			return name
		}
	}
	return "UNKNOWN"
}

func describeUserScramCredentials(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Users []string `json:"users"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "credentials")
	described, err := adm.DescribeUserScramCredentials(args.Users)
	if err != nil {
		if _, ok := kafkaError(err); !ok {
			r.threw(err)
			return nil
		}
	}
	byUser := map[string]*sarama.DescribeUserScramCredentialsResult{}
	for _, d := range described {
		byUser[d.User] = d
	}
	for _, user := range args.Users {
		d, ok := byUser[user]
		if !ok {
			r.add(outcome(user, err))
			continue
		}
		e := outcome(user, d.ErrorCode)
		if d.ErrorCode != sarama.ErrNoError && d.ErrorMessage != nil {
			e.ErrorMessage = d.ErrorMessage
		} else if d.ErrorCode == sarama.ErrNoError {
			credentials := []map[string]any{}
			for _, info := range d.CredentialInfos {
				credentials = append(credentials, map[string]any{"mechanism": scramName(info.Mechanism),
					"iterations": info.Iterations})
			}
			e.Fields["credentials"] = credentials
		}
		r.add(e)
	}
	return nil
}

// alterUserScramCredentials: ClusterAdmin upserts and deletes in two calls (UpsertUserScramCredentials,
// DeleteUserScramCredentials); sarama salts a password with the salt it is given: 24 random bytes here, as
// kafka-clients makes one.
func alterUserScramCredentials(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	var upserts []sarama.AlterUserScramCredentialsUpsert
	var deletes []sarama.AlterUserScramCredentialsDelete
	for _, u := range args.Upsertions {
		mechanism, ok := scramMechanisms[u.Mechanism]
		if !ok {
			return fmt.Errorf("unknown SCRAM mechanism %q", u.Mechanism)
		}
		salt := make([]byte, 24)
		if _, err := rand.Read(salt); err != nil {
			return err
		}
		upserts = append(upserts, sarama.AlterUserScramCredentialsUpsert{Name: u.User, Mechanism: mechanism,
			Iterations: u.Iterations, Salt: salt, Password: []byte(u.Password)})
	}
	for _, d := range args.Deletions {
		mechanism, ok := scramMechanisms[d.Mechanism]
		if !ok {
			return fmt.Errorf("unknown SCRAM mechanism %q", d.Mechanism)
		}
		deletes = append(deletes, sarama.AlterUserScramCredentialsDelete{Name: d.User, Mechanism: mechanism})
	}
	alter := func(users []string, results []*sarama.AlterUserScramCredentialsResult, err error) {
		if err != nil {
			for _, user := range users {
				each(r, user, err)
			}
			return
		}
		for _, res := range results {
			e := outcome(res.User, res.ErrorCode)
			if res.ErrorCode != sarama.ErrNoError && res.ErrorMessage != nil {
				e.ErrorMessage = res.ErrorMessage
			}
			r.add(e)
		}
	}
	if len(upserts) > 0 {
		users := []string{}
		for _, u := range upserts {
			users = append(users, u.Name)
		}
		results, err := adm.UpsertUserScramCredentials(upserts)
		alter(users, results, err)
	}
	if len(deletes) > 0 {
		users := []string{}
		for _, d := range deletes {
			users = append(users, d.Name)
		}
		results, err := adm.DeleteUserScramCredentials(deletes)
		alter(users, results, err)
	}
	return nil
}
