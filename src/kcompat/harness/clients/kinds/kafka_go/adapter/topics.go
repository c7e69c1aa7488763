// Topics and the cluster: create, partitions, delete, list (Metadata, through the transport's cache);
// describe the cluster.

package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/segmentio/kafka-go"
	"kcompat/adapter/kit"
)

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
	topics, names, err := topicConfigs(args.Topics)
	if err != nil {
		return nil, err
	}
	res := kit.NewResult() // kafka-go's CreateTopicsResponse carries errors only: no KIP-525 result fields
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

// topicConfigs are the request's topics as kafka-go's TopicConfig (both surfaces take it), and their names.
func topicConfigs(requested []newTopic) ([]kafka.TopicConfig, []string, error) {
	topics := make([]kafka.TopicConfig, 0, len(requested))
	names := make([]string, 0, len(requested))
	for _, t := range requested {
		config := kafka.TopicConfig{Topic: t.Name, NumPartitions: -1, ReplicationFactor: -1}
		if t.Assignments != nil {
			for key, replicas := range t.Assignments {
				partition, err := strconv.Atoi(key)
				if err != nil {
					return nil, nil, badArgs{fmt.Sprintf("args.topics[].assignments: partition %q is not a number", key)}
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
	return topics, names, nil
}

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
	res := kit.NewResult()
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

func deleteTopics(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		Names    []string `json:"names"`
		TopicIDs []string `json:"topic_ids"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := kit.NewResult()
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

func listTopics(client *kafka.Client, raw json.RawMessage) (*result, error) {
	args := struct {
		ListInternal bool `json:"list_internal"`
	}{ListInternal: true}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := kit.NewResult()
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
	res := kit.NewResult()
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
