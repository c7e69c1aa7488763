// Topics and the cluster: create, partitions, list, describe, delete; describe the cluster.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

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
			r.Unsupported("assignments")
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
			r.Unsupported("assignments")
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
		r.Threw(err)
		return nil
	}
	for _, d := range topics.Sorted() {
		r.Add(topicEntry(d))
	}
	return nil
}

// describeTopics: kadm describes named topics through Metadata (it has no DescribeTopicPartitions, KIP-966).
func describeTopics(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	names := args.Names
	r.ResultFields = append(r.ResultFields, "internal", "partitions")
	if len(names) == 0 { // kadm lists every topic for no names; DescribeTopicPartitions' listing mode it lacks
		r.Unsupported("names")
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
		r.Unsupported("topic_ids")
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
	r.Add(e)
	return nil
}

func brokerID(name string) (int32, error) {
	id, err := strconv.Atoi(name)
	if err != nil {
		return 0, fmt.Errorf("broker resource %q is not a node id", name)
	}
	return int32(id), nil
}
