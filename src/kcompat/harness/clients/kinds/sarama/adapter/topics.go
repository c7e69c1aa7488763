// Topics and the cluster: create, partitions, list, describe, delete; describe the cluster.

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/IBM/sarama"
)

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
		r.Unsupported("list_internal")
	}
	r.ResultFields = append(r.ResultFields, "partitions")
	topics, err := adm.ListTopics()
	if err != nil {
		r.Threw(err)
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
		r.Add(e)
	}
	return nil
}

// describeTopics: ClusterAdmin.DescribeTopics, a Metadata request for the named topics.
func describeTopics(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	names := args.Names
	r.ResultFields = append(r.ResultFields, "internal", "partitions")
	if len(names) == 0 { // DescribeTopicPartitions' listing mode (no names) it lacks
		r.Unsupported("names")
		return nil
	}
	metadata, err := adm.DescribeTopics(names)
	if err != nil {
		r.Threw(err)
		return nil
	}
	byName := map[string]*sarama.TopicMetadata{}
	for _, m := range metadata {
		byName[m.Name] = m
	}
	for _, name := range names {
		m, ok := byName[name]
		if !ok {
			r.Add(outcome(name, errors.New("sarama returned no metadata for "+name)))
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
		r.Unsupported("topic_ids")
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
		r.Unsupported("include_authorized_operations")
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
