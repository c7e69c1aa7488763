// Partitions, offsets and replicas: records, offsets, leaders, reassignments, log dirs.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"kcompat/adapter/kit"
)

func deleteRecords(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
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
	r.ResultFields = append(r.ResultFields, "low_watermark")
	offsets, labels := kadm.Offsets{}, []string{}
	for _, b := range args.Before {
		offsets.Add(kadm.Offset{Topic: b.Topic, Partition: b.Partition, At: b.Offset, LeaderEpoch: -1})
		labels = append(labels, kit.ColonLabel(b.Topic, b.Partition))
	}
	responses, err := adm.DeleteRecords(ctx, offsets)
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, d := range partitions {
			e := outcome(kit.ColonLabel(topic, partition), d.Err, "")
			if d.Err == nil {
				e.Fields["low_watermark"] = d.LowWatermark
			}
			got[e.Resource] = e
		}
	}
	finish(r, labels, got, err)
	return nil
}

// listOffsets: kadm lists offsets of whole topics, one call per spec; the answer keeps the partitions asked.
func listOffsets(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
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
	for _, q := range args.Queries {
		var listed kadm.ListedOffsets
		var err error
		switch q.Spec {
		case "earliest":
			listed, err = adm.ListStartOffsets(ctx, q.Topic)
		case "latest":
			listed, err = adm.ListEndOffsets(ctx, q.Topic)
		case "max_timestamp":
			listed, err = adm.ListMaxTimestampOffsets(ctx, q.Topic)
		case "timestamp":
			at := int64(0)
			if q.Timestamp != nil {
				at = *q.Timestamp
			}
			listed, err = adm.ListOffsetsAfterMilli(ctx, at, q.Topic)
		default:
			return fmt.Errorf("unknown offset spec %q", q.Spec)
		}
		label := kit.ColonLabel(q.Topic, q.Partition)
		got := map[string]*resource{}
		if o, ok := listed.Lookup(q.Topic, q.Partition); ok {
			e := outcome(label, o.Err, "")
			if o.Err == nil {
				e.Fields["offset"], e.Fields["timestamp"] = o.Offset, o.Timestamp
				if o.LeaderEpoch >= 0 {
					e.Fields["leader_epoch"] = o.LeaderEpoch
				}
			}
			got[label] = e
		}
		finish(r, []string{label}, got, err)
	}
	return nil
}

func electLeaders(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ElectionType string               `json:"election_type"`
		Partitions   []kit.TopicPartition `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	how := kadm.ElectPreferredReplica
	switch strings.ToLower(args.ElectionType) {
	case "preferred":
	case "unclean":
		how = kadm.ElectLiveReplica
	default:
		return fmt.Errorf("unknown election type %q", args.ElectionType)
	}
	set, labels := kadm.TopicsSet{}, []string{}
	for _, p := range args.Partitions {
		set.Add(p.Topic, p.Partition)
		labels = append(labels, kit.DashLabel(p.Topic, p.Partition))
	}
	results, err := adm.ElectLeaders(ctx, how, set)
	got := map[string]*resource{}
	for topic, partitions := range results {
		for partition, res := range partitions {
			e := outcome(kit.DashLabel(topic, partition), res.Err, res.ErrMessage)
			got[e.Resource] = e
		}
	}
	finish(r, labels, got, err)
	return nil
}

func alterPartitionReassignments(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Reassignments []struct {
			Partition kit.TopicPartition `json:"partition"`
			Replicas  []int32            `json:"replicas"`
		} `json:"reassignments"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	req, labels := kadm.AlterPartitionAssignmentsReq{}, []string{}
	for _, item := range args.Reassignments {
		if item.Replicas == nil {
			req.CancelAssign(item.Partition.Topic, item.Partition.Partition)
		} else {
			req.Assign(item.Partition.Topic, item.Partition.Partition, item.Replicas)
		}
		labels = append(labels, kit.DashLabel(item.Partition.Topic, item.Partition.Partition))
	}
	responses, err := adm.AlterPartitionAssignments(ctx, req)
	got := map[string]*resource{}
	for topic, partitions := range responses {
		for partition, res := range partitions {
			e := outcome(kit.DashLabel(topic, partition), res.Err, res.ErrMessage)
			got[e.Resource] = e
		}
	}
	finish(r, labels, got, err)
	return nil
}

// listPartitionReassignments: kadm lists the reassignments of named partitions only (none named: it sends nothing).
func listPartitionReassignments(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
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
	set := kadm.TopicsSet{}
	for _, p := range *args.Partitions {
		set.Add(p.Topic, p.Partition)
	}
	listed, err := adm.ListPartitionReassignments(ctx, set)
	if err != nil {
		finish(r, []string{"*"}, nil, err)
		return nil
	}
	for _, res := range listed.Sorted() {
		e := outcome(kit.DashLabel(res.Topic, res.Partition), nil, "")
		e.Fields["replicas"], e.Fields["adding_replicas"] = ints(res.Replicas), ints(res.AddingReplicas)
		e.Fields["removing_replicas"] = ints(res.RemovingReplicas)
		r.Add(e)
	}
	return nil
}

// member is a struct's field by name, nil where this kadm release has none: one source builds against kadm
// releases whose results gained fields (as the Java sidecar reads members by name).
func member(value any, name string) any {
	field := reflect.ValueOf(value).FieldByName(name)
	if !field.IsValid() {
		return nil
	}
	return field.Interface()
}

func ints(values []int32) []int32 {
	if values == nil {
		return []int32{}
	}
	return values
}

func describeLogDirs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Brokers []int32 `json:"brokers"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "replicas", "total_bytes", "usable_bytes")
	for _, broker := range args.Brokers {
		dirs, err := adm.DescribeBrokerLogDirs(ctx, broker, nil)
		whole := strconv.Itoa(int(broker)) + ":*"
		if err != nil {
			finish(r, []string{whole}, nil, err)
			continue
		}
		for _, dir := range dirs.Sorted() {
			e := outcome(strconv.Itoa(int(broker))+":"+dir.Dir, dir.Err, "")
			replicas := []map[string]any{}
			for _, p := range dir.Topics.Sorted() {
				replicas = append(replicas, map[string]any{"topic": p.Topic, "partition": p.Partition,
					"size": p.Size, "offset_lag": p.OffsetLag, "is_future": p.IsFuture})
			}
			e.Fields["replicas"] = replicas
			for _, volume := range [][2]string{{"TotalBytes", "total_bytes"}, {"UsableBytes", "usable_bytes"}} {
				e.Fields[volume[1]] = nil // -1 or a kadm without the field (before 1.19): not reported
				if bytes, ok := member(dir, volume[0]).(int64); ok && bytes >= 0 {
					e.Fields[volume[1]] = bytes
				}
			}
			r.Add(e)
		}
	}
	return nil
}
