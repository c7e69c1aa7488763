// Consumer groups and their offsets.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"sort"

	"github.com/twmb/franz-go/pkg/kadm"
	"kcompat/adapter/kit"
)

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
		r.Threw(err)
		return nil
	}
	for _, g := range listed.Sorted() {
		e := outcome(g.Group, nil, "")
		e.Fields["state"] = nullable(g.State)
		r.Add(e)
	}
	if err != nil { // some brokers answered, others did not: the listing is partial
		r.Threw(err)
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
			wanted[topic], wanted[kit.ColonLabel(topic, partition)] = true, true
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
			label := kit.ColonLabel(topic, partition)
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
		labels = append(labels, kit.ColonLabel(topic, partition))
	}
	responses, err := adm.CommitOffsets(ctx, args.Group, offsets)
	if err != nil && len(responses) == 0 {
		finish(r, []string{args.Group}, nil, err)
		return nil
	}
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, o := range partitions {
			got[kit.ColonLabel(topic, partition)] = outcome(kit.ColonLabel(topic, partition), o.Err, "")
		}
	}
	finish(r, labels, got, err)
	return nil
}

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
		labels = append(labels, kit.ColonLabel(topic, partition))
	}
	responses, err := adm.DeleteOffsets(ctx, args.Group, set)
	if err != nil && len(responses) == 0 {
		finish(r, []string{args.Group}, nil, err)
		return nil
	}
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, perr := range partitions {
			got[kit.ColonLabel(topic, partition)] = outcome(kit.ColonLabel(topic, partition), perr, "")
		}
	}
	finish(r, labels, got, err)
	return nil
}
