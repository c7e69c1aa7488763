// Partitions, offsets and replicas: records, offsets, leaders, reassignments, log dirs.

package main

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/IBM/sarama"
	"kcompat/adapter/kit"
)

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
			r.Threw(err)
			continue
		}
		partitions := make([]int32, 0, len(byTopic[topic]))
		for p := range byTopic[topic] {
			partitions = append(partitions, p)
		}
		sort.Slice(partitions, func(i, j int) bool { return partitions[i] < partitions[j] })
		for _, p := range partitions { // sarama answers for the topic as a whole
			r.Add(outcome(kit.ColonLabel(topic, p), err))
		}
	}
	return nil
}

// alterPartitionReassignments: ClusterAdmin.AlterPartitionReassignments takes a topic's replica lists by partition
// index from 0: partitions that are not 0..n-1 of a topic can't be expressed (and a gap would cancel another's).
func alterPartitionReassignments(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Reassignments []struct {
			Partition kit.TopicPartition `json:"partition"`
			Replicas  []int32            `json:"replicas"`
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
			r.Unsupported("partition")
			continue
		}
		err := adm.AlterPartitionReassignments(topic, assignment)
		if _, ok := kafkaError(err); err != nil && !ok {
			r.Threw(err)
			continue
		}
		for p := range assignment { // sarama answers one error for the topic's partitions
			r.Add(outcome(kit.DashLabel(topic, int32(p)), err))
		}
	}
	return nil
}

// listPartitionReassignments: ClusterAdmin.ListPartitionReassignments lists named partitions of one topic a call;
// every reassignment of the cluster (no partitions named) it can't ask for.
func listPartitionReassignments(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Partitions *[]kit.TopicPartition `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "replicas", "adding_replicas", "removing_replicas")
	if args.Partitions == nil {
		r.Unsupported("partitions")
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
				r.Threw(err)
				return nil
			}
			r.Add(outcome("*", err))
			return nil
		}
		for t, partitions := range status {
			for p, s := range partitions {
				e := outcome(kit.DashLabel(t, p), nil)
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
		r.Threw(err)
		return nil
	}
	for _, broker := range args.Brokers {
		dirs, ok := described[broker]
		if !ok {
			r.Add(outcome(strconv.Itoa(int(broker))+":*", err))
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
			total, usable := dirSpace(dir)
			if total >= 0 {
				e.Fields["total_bytes"] = total
			}
			if usable >= 0 {
				e.Fields["usable_bytes"] = usable
			}
			r.Add(e)
		}
	}
	return nil
}
