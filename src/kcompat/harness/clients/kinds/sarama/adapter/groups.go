// Consumer groups and their offsets.

package main

import (
	"encoding/json"
	"errors"
	"sort"

	"github.com/IBM/sarama"
	"kcompat/adapter/kit"
)

// listConsumerGroups: ClusterAdmin.ListConsumerGroups gives each group's protocol type only: no state, no filter.
func listConsumerGroups(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		States []string `json:"states"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if len(args.States) > 0 {
		r.Unsupported("states")
	}
	groups, err := adm.ListConsumerGroups()
	if err != nil && len(groups) == 0 {
		r.Threw(err)
		return nil
	}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r.Add(outcome(name, nil))
	}
	if err != nil { // some brokers answered, others did not: the listing is partial
		r.Threw(err)
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
		r.Unsupported("include_authorized_operations")
	}
	r.ResultFields = append(r.ResultFields, "state", "members", "coordinator", "partition_assignor")
	if len(args.Groups) == 0 {
		return nil
	}
	described, err := adm.DescribeConsumerGroups(args.Groups)
	if err != nil {
		if _, ok := kafkaError(err); !ok {
			r.Threw(err)
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
			r.Add(outcome(group, err))
			continue
		}
		e := outcome(group, d.Err)
		if d.Err == sarama.ErrNoError {
			e.Fields["state"], e.Fields["partition_assignor"] = d.State, d.Protocol
			e.Fields["coordinator"] = nil
			if b, cerr := groupCoordinator(adm, group); cerr == nil {
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
		r.Add(e)
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
	blocks := fetchedBlocks(response)
	entries := []*resource{}
	for topic, partitions := range blocks {
		for partition, block := range partitions {
			e := outcome(kit.ColonLabel(topic, partition), block.Err)
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
		each(r, kit.ColonLabel(topic, partition), adm.DeleteConsumerGroupOffset(args.Group, topic, partition))
	}
	return nil
}
