// The surface `kmsg`: franz-go's raw protocol messages, each a kmsg.NewPtrXRequest filled in and sent with
// kgo.Client.Request, the path franz-go's docs give for what kadm doesn't wrap.  The request's version is left to
// kgo, which sends the newest both it and the broker have (no SetVersion); kgo routes each request as Kafka wants
// it (CreateTopics, DeleteTopics and CreatePartitions to the controller, a broker's configs to that broker).  The
// answer is the response as decoded, each field where the version sent carries it.  What this surface sends no
// request for here is the client lacking it: NotImplementedError.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"kcompat/adapter/kit"
)

// kmsgSurface is the request's surface name for raw kmsg requests; kadm is the default.
const kmsgSurface = "kmsg"

// kmsgTimeout is the TimeoutMillis every request that has one carries, kadm's default.
const kmsgTimeout = 15000

type kmsgOp func(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error

var kmsgOps = map[string]kmsgOp{
	"create_topics": kmsgCreateTopics, "delete_topics": kmsgDeleteTopics, "list_topics": kmsgListTopics,
	"describe_topics": kmsgDescribeTopics, "describe_cluster": kmsgDescribeCluster,
	"describe_configs": kmsgDescribeConfigs, "alter_configs": kmsgAlterConfigs,
	"create_partitions": kmsgCreatePartitions,
}

// onKmsg is the op that runs req.Op on the surface `kmsg` with cl: one it sends no request for answers the
// client lacking it.
func onKmsg(cl *kgo.Client, name string) op {
	handler, ok := kmsgOps[name]
	if !ok {
		return func(_ context.Context, _ *kadm.Client, _ json.RawMessage, r *result) error {
			r.Exception = kit.Text("NotImplementedError")
			r.ExceptionMessage = kit.Text(fmt.Sprintf("this surface sends no kmsg request for %s", name))
			return nil
		}
	}
	return func(ctx context.Context, _ *kadm.Client, raw json.RawMessage, r *result) error {
		return handler(ctx, cl, raw, r)
	}
}

// codeError is a response entry's error code as kerr's error, nil for none.
func codeError(code int16) error { return kerr.ErrorForCode(code) }

func kmsgCreateTopics(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool       `json:"validate_only"`
		Topics       []newTopic `json:"topics"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	req := kmsg.NewPtrCreateTopicsRequest()
	req.TimeoutMillis, req.ValidateOnly = kmsgTimeout, args.ValidateOnly
	names := []string{}
	for _, t := range args.Topics {
		topic, err := kmsgTopic(t)
		if err != nil {
			return err
		}
		req.Topics = append(req.Topics, topic)
		names = append(names, t.Name)
	}
	resp, err := req.RequestWith(ctx, cl)
	got := map[string]*resource{}
	if err == nil {
		if resp.Version >= 5 { // KIP-525: the created topic's partitions, replication factor and configs
			r.ResultFields = append(r.ResultFields, "num_partitions", "replication_factor", "configs")
		}
		for _, t := range resp.Topics {
			e := outcome(t.Topic, codeError(t.ErrorCode), kit.Deref(t.ErrorMessage, ""))
			if resp.Version >= 5 {
				e.Fields["num_partitions"], e.Fields["replication_factor"] = t.NumPartitions, t.ReplicationFactor
				e.Fields["configs"] = createdConfigs(t.Configs)
			}
			got[t.Topic] = e
		}
	}
	finish(r, names, got, err)
	return nil
}

// kmsgTopic is a topic to create as CreateTopics has it: -1 where the request leaves a number to the broker.
func kmsgTopic(t newTopic) (kmsg.CreateTopicsRequestTopic, error) {
	topic := kmsg.NewCreateTopicsRequestTopic()
	topic.Topic, topic.NumPartitions, topic.ReplicationFactor = t.Name, -1, -1
	if t.Assignments != nil {
		for partition, replicas := range t.Assignments {
			index, err := strconv.Atoi(partition)
			if err != nil {
				return topic, fmt.Errorf("assignment key %q is not a partition index", partition)
			}
			assignment := kmsg.NewCreateTopicsRequestTopicReplicaAssignment()
			assignment.Partition, assignment.Replicas = int32(index), replicas
			topic.ReplicaAssignment = append(topic.ReplicaAssignment, assignment)
		}
		sort.Slice(topic.ReplicaAssignment, func(i, j int) bool {
			return topic.ReplicaAssignment[i].Partition < topic.ReplicaAssignment[j].Partition
		})
	} else {
		if t.Partitions != nil {
			topic.NumPartitions = *t.Partitions
		}
		if t.ReplicationFactor != nil {
			topic.ReplicationFactor = *t.ReplicationFactor
		}
	}
	for name, value := range t.Configs {
		config := kmsg.NewCreateTopicsRequestTopicConfig()
		config.Name, config.Value = name, kmsg.StringPtr(value)
		topic.Configs = append(topic.Configs, config)
	}
	return topic, nil
}

func createdConfigs(configs []kmsg.CreateTopicsResponseTopicConfig) []map[string]any {
	entries := make([]map[string]any, 0, len(configs))
	for _, c := range configs {
		entry := map[string]any{"name": c.Name, "value": c.Value, "read_only": c.ReadOnly,
			"source": kit.Named(kit.ConfigSources, int(c.Source)), "sensitive": c.IsSensitive}
		if c.IsSensitive {
			entry["value"] = nil
		}
		entries = append(entries, entry)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i]["name"].(string) < entries[j]["name"].(string) })
	return entries
}

func kmsgDeleteTopics(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Names    []string `json:"names"`
		TopicIDs []string `json:"topic_ids"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if len(args.TopicIDs) > 0 {
		r.Unsupported("topic_ids") // the protocol's topic ids, not read here
	}
	if len(args.Names) == 0 {
		return nil
	}
	req := kmsg.NewPtrDeleteTopicsRequest()
	req.TimeoutMillis, req.TopicNames = kmsgTimeout, args.Names // TopicNames up to v5, Topics from v6: kmsg sets both
	for _, name := range args.Names {
		topic := kmsg.NewDeleteTopicsRequestTopic()
		topic.Topic = kmsg.StringPtr(name)
		req.Topics = append(req.Topics, topic)
	}
	resp, err := req.RequestWith(ctx, cl)
	got := map[string]*resource{}
	if err == nil {
		for _, t := range resp.Topics {
			name := kit.Deref(t.Topic, "")
			got[name] = outcome(name, codeError(t.ErrorCode), kit.Deref(t.ErrorMessage, ""))
		}
	}
	finish(r, args.Names, got, err)
	return nil
}

// metadata is one Metadata request: topics nil asks for every topic, empty for none.
func metadata(ctx context.Context, cl *kgo.Client, topics []string) (*kmsg.MetadataResponse, error) {
	req := kmsg.NewPtrMetadataRequest()
	if topics != nil {
		req.Topics = []kmsg.MetadataRequestTopic{}
	}
	for _, name := range topics {
		topic := kmsg.NewMetadataRequestTopic()
		topic.Topic = kmsg.StringPtr(name)
		req.Topics = append(req.Topics, topic)
	}
	return req.RequestWith(ctx, cl)
}

// kmsgListTopics: Metadata of every topic, internal ones with them (Metadata has no option to leave them out).
func kmsgListTopics(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error {
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
	resp, err := metadata(ctx, cl, nil)
	if err != nil {
		r.Threw(err)
		return nil
	}
	sort.Slice(resp.Topics, func(i, j int) bool {
		return kit.Deref(resp.Topics[i].Topic, "") < kit.Deref(resp.Topics[j].Topic, "")
	})
	for _, t := range resp.Topics {
		e := outcome(kit.Deref(t.Topic, ""), nil, "")
		e.Fields["partitions"], e.Fields["internal"] = len(t.Partitions), t.IsInternal
		r.Add(e)
	}
	return nil
}

func kmsgDescribeTopics(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "internal", "partitions")
	if len(args.Names) == 0 { // DescribeTopicPartitions' listing mode (no names): no request for it here
		r.Unsupported("names")
		return nil
	}
	resp, err := metadata(ctx, cl, args.Names)
	got := map[string]*resource{}
	if err == nil {
		for _, t := range resp.Topics {
			name := kit.Deref(t.Topic, "")
			e := outcome(name, codeError(t.ErrorCode), "")
			if t.ErrorCode == 0 {
				e.Fields["internal"], e.Fields["partitions"] = t.IsInternal, len(t.Partitions)
			}
			got[name] = e
		}
	}
	finish(r, args.Names, got, err)
	return nil
}

// kmsgDescribeCluster: Metadata's brokers, controller and (from its v2) cluster id.
func kmsgDescribeCluster(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error {
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
	resp, err := metadata(ctx, cl, []string{})
	if err != nil {
		r.Threw(err)
		return nil
	}
	e := outcome("cluster", nil, "")
	nodes := []int32{}
	for _, b := range resp.Brokers {
		nodes = append(nodes, b.NodeID)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i] < nodes[j] })
	e.Fields["nodes"], e.Fields["controller"] = nodes, nil
	if resp.ControllerID >= 0 {
		e.Fields["controller"] = resp.ControllerID
	}
	if resp.Version >= 2 {
		r.ResultFields = append(r.ResultFields, "cluster_id")
		e.Fields["cluster_id"] = resp.ClusterID
	}
	r.Add(e)
	return nil
}

// kmsgResourceType is a config target's resource type as kmsg has it.
func kmsgResourceType(t kit.ConfigTarget) (kmsg.ConfigResourceType, error) {
	switch t.Kind() {
	case "topic":
		return kmsg.ConfigResourceTypeTopic, nil
	case "broker":
		return kmsg.ConfigResourceTypeBroker, nil
	case "broker_logger":
		return kmsg.ConfigResourceTypeBrokerLogger, nil
	}
	return 0, fmt.Errorf("configs are described and altered for topic, broker and broker_logger resources, not %q",
		t.Kind())
}

// kmsgDescribeConfigs: one DescribeConfigs; an entry's type is the response's from v3, its documentation where
// asked for (v3 on), and is_default the v0 flag or, from v1, a DEFAULT_CONFIG source (kmsg decodes the wire as
// it is, where kadm and other libraries derive the flag).
func kmsgDescribeConfigs(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeSynonyms      bool               `json:"include_synonyms"`
		IncludeDocumentation bool               `json:"include_documentation"`
		Targets              []kit.ConfigTarget `json:"targets"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	req := kmsg.NewPtrDescribeConfigsRequest()
	req.IncludeSynonyms, req.IncludeDocumentation = args.IncludeSynonyms, args.IncludeDocumentation
	labels := []string{}
	for _, target := range args.Targets {
		kind, err := kmsgResourceType(target)
		if err != nil {
			return err
		}
		resource := kmsg.NewDescribeConfigsRequestResource()
		resource.ResourceType, resource.ResourceName = kind, target.Name
		req.Resources = append(req.Resources, resource)
		labels = append(labels, target.Label())
	}
	resp, err := req.RequestWith(ctx, cl)
	if err == nil {
		fields := []string{"name", "value", "read_only", "is_default", "source", "sensitive", "synonyms"}
		if resp.Version >= 3 {
			fields = append(fields, "type")
		}
		if resp.Version >= 3 && args.IncludeDocumentation {
			fields = append(fields, "documentation")
		}
		for _, field := range fields {
			r.ResultFields = append(r.ResultFields, "configs."+field)
		}
	}
	got := map[string]*resource{}
	if err == nil {
		for _, res := range resp.Resources {
			label := kit.ConfigTarget{ResourceType: res.ResourceType.String(), Name: res.ResourceName}.Label()
			e := outcome(label, codeError(res.ErrorCode), kit.Deref(res.ErrorMessage, ""))
			if res.ErrorCode == 0 {
				e.Fields["configs"] = describedEntries(res.Configs, resp.Version, args.IncludeDocumentation)
			}
			got[label] = e
		}
	}
	finish(r, labels, got, err)
	return nil
}

func describedEntries(configs []kmsg.DescribeConfigsResponseResourceConfig, version int16,
	documented bool) []map[string]any {
	entries := make([]map[string]any, 0, len(configs))
	for _, c := range configs {
		entry := map[string]any{"name": c.Name, "value": c.Value, "read_only": c.ReadOnly,
			"source": kit.Named(kit.ConfigSources, int(c.Source)), "sensitive": c.IsSensitive}
		entry["is_default"] = c.IsDefault || version >= 1 && c.Source == kmsg.ConfigSourceDefaultConfig
		if c.IsSensitive {
			entry["value"] = nil
		}
		synonyms := make([]map[string]any, 0, len(c.ConfigSynonyms))
		for _, s := range c.ConfigSynonyms {
			synonyms = append(synonyms, map[string]any{"name": s.Name, "value": s.Value,
				"source": kit.Named(kit.ConfigSources, int(s.Source))})
		}
		entry["synonyms"] = synonyms
		if version >= 3 {
			entry["type"] = kit.Named(kit.ConfigValueTypes, int(c.ConfigType))
		}
		if version >= 3 && documented {
			entry["documentation"] = c.Documentation
		}
		entries = append(entries, entry)
	}
	return entries
}

// kmsgAlterConfigs: one AlterConfigs (the legacy request, every config of a resource replaced).
func kmsgAlterConfigs(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error {
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
	req := kmsg.NewPtrAlterConfigsRequest()
	req.ValidateOnly = args.ValidateOnly
	labels := []string{}
	for _, item := range args.Resources {
		kind, err := kmsgResourceType(item.Target)
		if err != nil {
			return err
		}
		resource := kmsg.NewAlterConfigsRequestResource()
		resource.ResourceType, resource.ResourceName = kind, item.Target.Name
		for name, value := range item.Configs {
			config := kmsg.NewAlterConfigsRequestResourceConfig()
			config.Name, config.Value = name, kmsg.StringPtr(value)
			resource.Configs = append(resource.Configs, config)
		}
		req.Resources = append(req.Resources, resource)
		labels = append(labels, item.Target.Label())
	}
	resp, err := req.RequestWith(ctx, cl)
	got := map[string]*resource{}
	if err == nil {
		for _, res := range resp.Resources {
			label := kit.ConfigTarget{ResourceType: res.ResourceType.String(), Name: res.ResourceName}.Label()
			got[label] = outcome(label, codeError(res.ErrorCode), kit.Deref(res.ErrorMessage, ""))
		}
	}
	finish(r, labels, got, err)
	return nil
}

func kmsgCreatePartitions(ctx context.Context, cl *kgo.Client, raw json.RawMessage, r *result) error {
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
	req := kmsg.NewPtrCreatePartitionsRequest()
	req.TimeoutMillis, req.ValidateOnly = kmsgTimeout, args.ValidateOnly
	names := []string{}
	for _, p := range args.Partitions {
		topic := kmsg.NewCreatePartitionsRequestTopic()
		topic.Topic, topic.Count = p.Topic, p.TotalCount
		for _, replicas := range p.Assignments {
			assignment := kmsg.NewCreatePartitionsRequestTopicAssignment()
			assignment.Replicas = replicas
			topic.Assignment = append(topic.Assignment, assignment)
		}
		req.Topics = append(req.Topics, topic)
		names = append(names, p.Topic)
	}
	resp, err := req.RequestWith(ctx, cl)
	got := map[string]*resource{}
	if err == nil {
		for _, t := range resp.Topics {
			got[t.Topic] = outcome(t.Topic, codeError(t.ErrorCode), kit.Deref(t.ErrorMessage, ""))
		}
	}
	finish(r, names, got, err)
	return nil
}
