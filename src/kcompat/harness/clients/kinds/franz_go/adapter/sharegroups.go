// Share groups (KIP-932) and their start offsets, through kadm's share-group calls.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"sort"

	"github.com/twmb/franz-go/pkg/kadm"
	"kcompat/adapter/kit"
)

// describeShareGroups: kadm always asks for the groups' authorized operations, and keeps no error message.
func describeShareGroups(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Groups                      []string `json:"groups"`
		IncludeAuthorizedOperations bool     `json:"include_authorized_operations"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "state", "members", "coordinator", "partition_assignor",
		"authorized_operations")
	if len(args.Groups) == 0 { // kadm would describe every share group instead
		return nil
	}
	described, err := adm.DescribeShareGroups(ctx, args.Groups...)
	got := map[string]*resource{}
	for name, d := range described {
		e := outcome(name, d.Err, "")
		if d.Err == nil {
			e.Fields["state"] = d.GroupState
			e.Fields["partition_assignor"] = d.Assignor
			e.Fields["coordinator"] = d.Coordinator.NodeID
			members := []map[string]any{}
			for _, m := range d.Members {
				members = append(members, map[string]any{"member_id": m.MemberID, "client_id": m.ClientID,
					"host": m.ClientHost, "group_instance_id": nil, "assignment": assignment(m.Assignment)})
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

// assignment is a member's assigned partitions as topic:partition labels, sorted.
func assignment(set kadm.TopicsSet) []string {
	labels := []string{}
	for topic, partitions := range set {
		for partition := range partitions {
			labels = append(labels, kit.ColonLabel(topic, partition))
		}
	}
	sort.Strings(labels)
	return labels
}

// listShareGroupOffsets: kadm describes a group's start offsets on every partition it has one on, not on chosen
// partitions: where partitions are asked, the answer keeps those.  A negative start offset is none (null).
func listShareGroupOffsets(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Group      string              `json:"group"`
		Partitions [][]json.RawMessage `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	wanted := map[string]bool{}
	for _, p := range args.Partitions {
		topic, partition, err := pair(p)
		if err != nil {
			return err
		}
		wanted[kit.ColonLabel(topic, partition)] = true
	}
	r.ResultFields = append(r.ResultFields, "offset")
	described, err := adm.DescribeShareGroupOffsets(ctx, args.Group)
	d, ok := described[args.Group]
	if !ok || d.Err != nil {
		if ok {
			err = d.Err
		}
		finish(r, []string{args.Group}, nil, err)
		return nil
	}
	entries := []*resource{}
	for topic, partitions := range d.Offsets {
		for partition, o := range partitions {
			label := kit.ColonLabel(topic, partition)
			if args.Partitions != nil && !wanted[label] {
				continue
			}
			e := outcome(label, o.Err, "")
			if o.Err == nil {
				e.Fields["offset"] = nil
				if o.StartOffset >= 0 {
					e.Fields["offset"] = o.StartOffset
				}
			}
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Resource < entries[j].Resource })
	r.Resources = append(r.Resources, entries...)
	return nil
}

// alterShareGroupOffsets: kadm takes each offset's At as the partition's new start offset.
func alterShareGroupOffsets(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
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
	responses, err := adm.AlterShareGroupOffsets(ctx, args.Group, offsets)
	if err != nil { // kadm returns the group's own error, or the request's, with no partition's
		finish(r, []string{args.Group}, nil, err)
		return nil
	}
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, perr := range partitions {
			got[kit.ColonLabel(topic, partition)] = outcome(kit.ColonLabel(topic, partition), perr, "")
		}
	}
	finish(r, labels, got, nil)
	return nil
}

func deleteShareGroupOffsets(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Group  string   `json:"group"`
		Topics []string `json:"topics"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	responses, err := adm.DeleteShareGroupOffsets(ctx, args.Group, args.Topics...)
	if err != nil { // kadm returns the group's own error, or the request's, with no topic's
		finish(r, []string{args.Group}, nil, err)
		return nil
	}
	got := map[string]*resource{}
	for topic, terr := range responses {
		got[topic] = outcome(topic, terr, "")
	}
	finish(r, args.Topics, got, nil)
	return nil
}
