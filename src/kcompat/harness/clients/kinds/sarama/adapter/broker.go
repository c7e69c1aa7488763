// The surface `broker`: sarama's *sarama.Broker, its request methods called with request structs as a user fills
// them (sarama.NewBroker(addr), Broker.Open(config), then CreateTopics, DeleteTopics, DescribeConfigs, ...).
//
// A request struct's Version is what the user sets; these leave it as the struct has it, zero, the way sarama's
// own Broker example writes its MetadataRequest literal, except Metadata, made with sarama.NewMetadataRequest at
// Config.Version (the "version" setting where one is named): Metadata v0 names no controller, and CreateTopics and
// DeleteTopics go to the controller it names, as ClusterAdmin sends them.  From 1.46.0 sarama lowers a request
// to the broker's newest version but never raises it, so a v0 the broker dropped is sent all the same, and the
// broker closes the connection: that error is the call's.  Requests' options a v0 request can't carry
// (validate_only, include_synonyms) are named unsupported.  What this surface has no request for here is the
// client lacking it: NotImplementedError.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/IBM/sarama"
	"kcompat/adapter/kit"
)

// brokerSurface is the request's surface name for *sarama.Broker; ClusterAdmin is the default.
const brokerSurface = "broker"

// brokerTimeout is the Timeout every request that has one carries, the ClusterAdmin's (Config.Admin.Timeout).
const brokerTimeout = 30 * time.Second

var brokerOps = map[string]func(*brokers, json.RawMessage, *result) error{
	"create_topics": brokerCreateTopics, "delete_topics": brokerDeleteTopics, "list_topics": brokerListTopics,
	"describe_topics": brokerDescribeTopics, "describe_cluster": brokerDescribeCluster,
	"describe_configs": brokerDescribeConfigs, "alter_configs": brokerAlterConfigs,
	"create_partitions": brokerCreatePartitions,
}

// brokers is one connection's Brokers, opened on first use and kept between requests: one to a bootstrap broker,
// one to the controller its Metadata names.
type brokers struct {
	conf       *sarama.Config
	bootstrap  []string
	seed       *sarama.Broker
	controller *sarama.Broker
}

// kept holds each connection's Brokers on this surface.
var kept = map[string]*brokers{}

func (b *brokers) close() {
	for _, broker := range []*sarama.Broker{b.seed, b.controller} {
		if broker != nil {
			go broker.Close() // a Broker stuck in a call would block its Close: closed aside
		}
	}
	b.seed, b.controller = nil, nil
}

// toSeed is an open Broker to the first bootstrap address that answers ApiVersions-or-Metadata.
func (b *brokers) toSeed() (*sarama.Broker, error) {
	if b.seed != nil {
		return b.seed, nil
	}
	var failed error
	for _, addr := range b.bootstrap {
		broker := sarama.NewBroker(addr)
		if err := broker.Open(b.conf); err != nil {
			failed = err
			continue
		}
		if _, err := broker.Connected(); err != nil {
			failed = err
			go broker.Close()
			continue
		}
		b.seed = broker
		return broker, nil
	}
	return nil, failed
}

// metadata is the seed's Metadata of topics (nil: every topic) at the version sarama.NewMetadataRequest picks.
func (b *brokers) metadata(topics []string) (*sarama.MetadataResponse, error) {
	seed, err := b.toSeed()
	if err != nil {
		return nil, err
	}
	return seed.GetMetadata(sarama.NewMetadataRequest(b.conf.Version, topics))
}

// toController is an open Broker to the controller the seed's Metadata names.
func (b *brokers) toController() (*sarama.Broker, error) {
	if b.controller != nil {
		return b.controller, nil
	}
	response, err := b.metadata([]string{})
	if err != nil {
		return nil, err
	}
	for _, broker := range response.Brokers {
		if broker.ID() == response.ControllerID {
			if err := broker.Open(b.conf); err != nil && !errors.Is(err, sarama.ErrAlreadyConnected) {
				return nil, err
			}
			b.controller = broker
			return broker, nil
		}
	}
	return nil, fmt.Errorf("the broker's Metadata names controller %d, not among its brokers", response.ControllerID)
}

// runBroker runs an op on the Broker surface, bounded by kit.CallTimeout as run bounds ClusterAdmin's; an op the
// surface has no request for is the client lacking it, and a call that failed outside Kafka leaves its Brokers
// closed (in no known state: the next call opens them again).
func runBroker(req *kit.Request) (*result, error) {
	handler, ok := brokerOps[req.Op]
	if !ok {
		r := kit.NewResult()
		r.Exception = kit.Text("NotImplementedError")
		r.ExceptionMessage = kit.Text(fmt.Sprintf("this surface sends no request for %s", req.Op))
		return r, nil
	}
	b, ok := kept[req.Connection.Key()]
	if !ok {
		b = &brokers{conf: config(req.Connection), bootstrap: strings.Split(req.Connection.Bootstrap, ",")}
		kept[req.Connection.Key()] = b
	}
	r := kit.NewResult()
	done := make(chan error, 1)
	go func() { done <- handler(b, req.Args, r) }()
	select {
	case err := <-done:
		if r.Exception != nil {
			b.close()
		}
		return r, err
	case <-time.After(kit.CallTimeout):
		b.close()
		delete(kept, req.Connection.Key())
		late := kit.NewResult()
		late.Threw(fmt.Errorf("sarama gave no answer to %s within %s", req.Op, kit.CallTimeout))
		return late, nil
	}
}

func closeBrokers(c *kit.Connection) {
	if b, ok := kept[c.Key()]; ok {
		b.close()
		delete(kept, c.Key())
	}
}

// answered adds each name's outcome: its code from the response, or the call's error for every name.
func answered(r *result, names []string, err error, code func(name string) error) {
	if err != nil {
		if _, isKafka := kafkaError(err); !isKafka {
			r.Threw(err)
			return
		}
	}
	for _, name := range names {
		if err != nil {
			r.Add(outcome(name, err))
		} else {
			r.Add(outcome(name, code(name)))
		}
	}
}

func brokerCreateTopics(b *brokers, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool       `json:"validate_only"`
		Topics       []newTopic `json:"topics"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.UnsupportedFields = map[string]string{"num_partitions": "sarama.TopicError",
		"replication_factor": "sarama.TopicError", "configs": "sarama.TopicError"}
	if args.ValidateOnly {
		r.Unsupported("validate_only") // CreateTopics v1 on
	}
	request := &sarama.CreateTopicsRequest{TopicDetails: map[string]*sarama.TopicDetail{}, Timeout: brokerTimeout}
	names := []string{}
	for _, t := range args.Topics {
		detail, err := topicDetail(t)
		if err != nil {
			return err
		}
		request.TopicDetails[t.Name] = detail
		names = append(names, t.Name)
	}
	controller, err := b.toController()
	var response *sarama.CreateTopicsResponse
	if err == nil {
		response, err = controller.CreateTopics(request)
	}
	answered(r, names, err, func(name string) error {
		if e, ok := response.TopicErrors[name]; ok && e.Err != sarama.ErrNoError {
			return e
		}
		return nil
	})
	return nil
}

// topicDetail is a topic to create as sarama's TopicDetail: -1 where the request leaves a number to the broker.
func topicDetail(t newTopic) (*sarama.TopicDetail, error) {
	detail := &sarama.TopicDetail{NumPartitions: -1, ReplicationFactor: -1, ConfigEntries: map[string]*string{}}
	if t.Assignments != nil {
		detail.ReplicaAssignment = map[int32][]int32{}
		for partition, replicas := range t.Assignments {
			index, err := strconv.Atoi(partition)
			if err != nil {
				return nil, fmt.Errorf("assignment key %q is not a partition index", partition)
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
	return detail, nil
}

func brokerDeleteTopics(b *brokers, raw json.RawMessage, r *result) error {
	var args struct {
		Names    []string `json:"names"`
		TopicIDs []string `json:"topic_ids"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if len(args.TopicIDs) > 0 {
		r.Unsupported("topic_ids") // DeleteTopics v6 on
	}
	if len(args.Names) == 0 {
		return nil
	}
	controller, err := b.toController()
	var response *sarama.DeleteTopicsResponse
	if err == nil {
		response, err = controller.DeleteTopics(&sarama.DeleteTopicsRequest{Topics: args.Names, Timeout: brokerTimeout})
	}
	answered(r, args.Names, err, func(name string) error {
		if code, ok := response.TopicErrorCodes[name]; ok && code != sarama.ErrNoError {
			return code
		}
		return nil
	})
	return nil
}

// brokerListTopics: Metadata of every topic, internal ones with them (Metadata has no option to leave them out).
func brokerListTopics(b *brokers, raw json.RawMessage, r *result) error {
	args := struct {
		ListInternal *bool `json:"list_internal"`
	}{}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if args.ListInternal != nil && !*args.ListInternal {
		r.Unsupported("list_internal")
	}
	r.ResultFields = append(r.ResultFields, "partitions", "internal")
	response, err := b.metadata(nil)
	if err != nil {
		r.Threw(err)
		return nil
	}
	sort.Slice(response.Topics, func(i, j int) bool { return response.Topics[i].Name < response.Topics[j].Name })
	for _, t := range response.Topics {
		e := outcome(t.Name, nil)
		e.Fields["partitions"], e.Fields["internal"] = len(t.Partitions), t.IsInternal
		r.Add(e)
	}
	return nil
}

func brokerDescribeTopics(b *brokers, raw json.RawMessage, r *result) error {
	var args struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "internal", "partitions")
	if len(args.Names) == 0 { // DescribeTopicPartitions' listing mode (no names): no request for it
		r.Unsupported("names")
		return nil
	}
	response, err := b.metadata(args.Names)
	if err != nil {
		r.Threw(err)
		return nil
	}
	byName := map[string]*sarama.TopicMetadata{}
	for _, m := range response.Topics {
		byName[m.Name] = m
	}
	for _, name := range args.Names {
		m, ok := byName[name]
		if !ok {
			r.Add(outcome(name, errors.New("the broker's Metadata has no entry for "+name)))
			continue
		}
		e := outcome(name, m.Err)
		if m.Err == sarama.ErrNoError {
			e.Fields["internal"], e.Fields["partitions"] = m.IsInternal, len(m.Partitions)
		}
		r.Add(e)
	}
	return nil
}

// brokerDescribeCluster: Metadata's brokers, controller and (from its v2) cluster id.
func brokerDescribeCluster(b *brokers, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeAuthorizedOperations bool `json:"include_authorized_operations"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if args.IncludeAuthorizedOperations {
		r.Unsupported("include_authorized_operations")
	}
	r.ResultFields = append(r.ResultFields, "nodes", "controller")
	response, err := b.metadata([]string{})
	if err != nil {
		r.Threw(err)
		return nil
	}
	e := outcome("cluster", nil)
	nodes := []int32{}
	for _, broker := range response.Brokers {
		nodes = append(nodes, broker.ID())
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i] < nodes[j] })
	e.Fields["nodes"], e.Fields["controller"] = nodes, nil
	if response.ControllerID >= 0 {
		e.Fields["controller"] = response.ControllerID
	}
	if response.ClusterID != nil {
		r.ResultFields = append(r.ResultFields, "cluster_id")
		e.Fields["cluster_id"] = *response.ClusterID
	}
	r.Add(e)
	return nil
}

// brokerDescribeConfigs: one DescribeConfigs to the seed broker (v0: no synonyms, no types, no documentation).
func brokerDescribeConfigs(b *brokers, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeSynonyms      bool               `json:"include_synonyms"`
		IncludeDocumentation bool               `json:"include_documentation"`
		Targets              []kit.ConfigTarget `json:"targets"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if args.IncludeSynonyms {
		r.Unsupported("include_synonyms") // DescribeConfigs v1 on
	}
	if args.IncludeDocumentation {
		r.Unsupported("include_documentation") // v3 on
	}
	request := &sarama.DescribeConfigsRequest{}
	labels := []string{}
	for _, target := range args.Targets {
		kind, err := saramaType(target)
		if err != nil {
			return err
		}
		request.Resources = append(request.Resources, &sarama.ConfigResource{Type: kind, Name: target.Name})
		labels = append(labels, target.Label())
	}
	for _, field := range []string{"name", "value", "read_only", "is_default", "source", "sensitive", "synonyms"} {
		r.ResultFields = append(r.ResultFields, "configs."+field)
	}
	seed, err := b.toSeed()
	var response *sarama.DescribeConfigsResponse
	if err == nil {
		response, err = seed.DescribeConfigs(request)
	}
	if err != nil {
		answered(r, labels, err, nil)
		return nil
	}
	for i, target := range args.Targets {
		r.Add(describedConfigs(labels[i], target, request.Resources[i].Type, response))
	}
	return nil
}

func describedConfigs(label string, target kit.ConfigTarget, kind sarama.ConfigResourceType,
	response *sarama.DescribeConfigsResponse) *resource {
	for _, res := range response.Resources {
		if res.Type != kind || res.Name != target.Name {
			continue
		}
		if res.ErrorCode != 0 {
			e := outcome(label, sarama.KError(res.ErrorCode))
			if res.ErrorMsg != "" {
				e.ErrorMessage = kit.Text(res.ErrorMsg)
			}
			return e
		}
		e := outcome(label, nil)
		entries := make([]map[string]any, 0, len(res.Configs))
		for _, c := range res.Configs {
			entries = append(entries, configEntry(*c, false, false))
		}
		e.Fields["configs"] = entries
		return e
	}
	return outcome(label, errors.New("the broker's DescribeConfigs has no entry for "+label))
}

// brokerAlterConfigs: one AlterConfigs (v0) to the seed broker.
func brokerAlterConfigs(b *brokers, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool `json:"validate_only"`
		Resources    []struct {
			Target  kit.ConfigTarget  `json:"target"`
			Configs map[string]string `json:"configs"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	request := &sarama.AlterConfigsRequest{ValidateOnly: args.ValidateOnly}
	labels := []string{}
	for _, item := range args.Resources {
		kind, err := saramaType(item.Target)
		if err != nil {
			return err
		}
		entries := map[string]*string{}
		for name, value := range item.Configs {
			v := value
			entries[name] = &v
		}
		request.Resources = append(request.Resources,
			&sarama.AlterConfigsResource{Type: kind, Name: item.Target.Name, ConfigEntries: entries})
		labels = append(labels, item.Target.Label())
	}
	seed, err := b.toSeed()
	var response *sarama.AlterConfigsResponse
	if err == nil {
		response, err = seed.AlterConfigs(request)
	}
	answered(r, labels, err, func(label string) error {
		for i, asked := range request.Resources {
			if labels[i] != label {
				continue
			}
			for _, res := range response.Resources {
				if res.Type == asked.Type && res.Name == asked.Name {
					return resourceError(sarama.KError(res.ErrorCode), res.ErrorMsg)
				}
			}
		}
		return errors.New("the broker's AlterConfigs has no entry for " + label)
	})
	return nil
}

// resourceError is a response entry's error: its code, with the broker's message where it sent one.
func resourceError(code sarama.KError, message string) error {
	if code == sarama.ErrNoError {
		return nil
	}
	if message == "" {
		return code
	}
	return &sarama.TopicError{Err: code, ErrMsg: &message}
}

// brokerCreatePartitions: one CreatePartitions (v0) to the controller.
func brokerCreatePartitions(b *brokers, raw json.RawMessage, r *result) error {
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
	request := &sarama.CreatePartitionsRequest{TopicPartitions: map[string]*sarama.TopicPartition{},
		Timeout: brokerTimeout, ValidateOnly: args.ValidateOnly}
	names := []string{}
	for _, p := range args.Partitions {
		request.TopicPartitions[p.Topic] = &sarama.TopicPartition{Count: p.TotalCount, Assignment: p.Assignments}
		names = append(names, p.Topic)
	}
	controller, err := b.toController()
	var response *sarama.CreatePartitionsResponse
	if err == nil {
		response, err = controller.CreatePartitions(request)
	}
	answered(r, names, err, func(name string) error {
		if e, ok := response.TopicPartitionErrors[name]; ok && e.Err != sarama.ErrNoError {
			return e
		}
		return nil
	})
	return nil
}
