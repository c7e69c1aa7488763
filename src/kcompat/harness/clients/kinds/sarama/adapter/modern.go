//go:build !sarama_pre160

// What sarama's ClusterAdmin has from 1.60.0 on, which older releases lack at compile time: DescribeConfigs with
// its options (synonyms, documentation), config entries' type and documentation, the coordinator of a group, v8+
// OffsetFetch responses, log dirs' space, ListOffsets, ElectLeaders and AlterConsumerGroupOffsets.  legacy.go
// stands in for the rest before 1.60.0 (the installer sets the sarama_pre160 tag; sarama/install.py says when).

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/IBM/sarama"
	"kcompat/adapter/kit"
)

func init() {
	ops["alter_consumer_group_offsets"] = alterConsumerGroupOffsets
	ops["list_offsets"] = listOffsets
	ops["elect_leaders"] = electLeaders
}

type configResourceResult = sarama.ConfigResourceResult

func describeConfigResults(adm sarama.ClusterAdmin, resources []*sarama.ConfigResource, synonyms, documentation bool,
	_ *result) ([]*configResourceResult, error) {
	return adm.DescribeConfigs(resources, sarama.DescribeConfigsOptions{
		IncludeSynonyms: synonyms, IncludeDocumentation: documentation})
}

func entryType(c *sarama.ConfigEntry) string { return kit.Named(kit.ConfigValueTypes, int(c.Type)) }

func entryDocumentation(c *sarama.ConfigEntry) *string { return c.Documentation }

func groupCoordinator(adm sarama.ClusterAdmin, group string) (*sarama.Broker, error) {
	return adm.Coordinator(group)
}

func fetchedBlocks(response *sarama.OffsetFetchResponse) map[string]map[int32]*sarama.OffsetFetchResponseBlock {
	if response.Version >= 8 && len(response.Groups) > 0 {
		return response.Groups[0].Blocks
	}
	return response.Blocks
}

func dirSpace(dir sarama.DescribeLogDirsResponseDirMetadata) (total, usable int64) {
	return dir.TotalBytes, dir.UsableBytes
}

var specTimestamps = map[string]int64{"earliest": sarama.OffsetOldest, "latest": sarama.OffsetNewest,
	"max_timestamp": -3}

func listOffsets(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	for _, q := range args.Queries { // one call per query: the map it takes has one timestamp per partition
		at, ok := specTimestamps[q.Spec]
		if q.Spec == "timestamp" {
			at, ok = 0, true
			if q.Timestamp != nil {
				at = *q.Timestamp
			}
		}
		if !ok {
			return fmt.Errorf("unknown offset spec %q", q.Spec)
		}
		label := kit.ColonLabel(q.Topic, q.Partition)
		listed, err := adm.ListOffsets(map[string]map[int32]int64{q.Topic: {q.Partition: at}}, nil)
		if err != nil {
			each(r, label, err)
			continue
		}
		o, ok := listed[q.Topic][q.Partition]
		if !ok || o == nil {
			r.Add(outcome(label, errors.New("sarama returned no result for "+label)))
			continue
		}
		e := outcome(label, o.Err)
		if e.ErrorCode == 0 {
			e.Fields["offset"], e.Fields["timestamp"] = o.Offset, o.Timestamp
			if o.LeaderEpoch >= 0 {
				e.Fields["leader_epoch"] = o.LeaderEpoch
			}
		}
		r.Add(e)
	}
	return nil
}

func electLeaders(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		ElectionType string               `json:"election_type"`
		Partitions   []kit.TopicPartition `json:"partitions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	how := sarama.PreferredElection
	switch strings.ToLower(args.ElectionType) {
	case "preferred":
	case "unclean":
		how = sarama.UncleanElection
	default:
		return fmt.Errorf("unknown election type %q", args.ElectionType)
	}
	asked := map[string][]int32{}
	for _, p := range args.Partitions {
		asked[p.Topic] = append(asked[p.Topic], p.Partition)
	}
	results, err := adm.ElectLeaders(how, asked)
	if err != nil && len(results) == 0 {
		if _, ok := kafkaError(err); !ok {
			r.Threw(err)
			return nil
		}
	}
	for _, p := range args.Partitions {
		label := kit.DashLabel(p.Topic, p.Partition)
		res, ok := results[p.Topic][p.Partition]
		if !ok || res == nil {
			r.Add(outcome(label, err))
			continue
		}
		e := outcome(label, res.ErrorCode)
		if res.ErrorMessage != nil && e.ErrorCode != 0 {
			e.ErrorMessage = res.ErrorMessage
		}
		r.Add(e)
	}
	return nil
}

func alterConsumerGroupOffsets(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Group   string              `json:"group"`
		Offsets [][]json.RawMessage `json:"offsets"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	offsets := map[string]map[int32]sarama.OffsetAndMetadata{}
	for _, triple := range args.Offsets {
		topic, partition, err := pair(triple)
		if err != nil || len(triple) < 3 {
			return errors.New("an offset is [topic, partition, offset]")
		}
		var at int64
		if err := json.Unmarshal(triple[2], &at); err != nil {
			return err
		}
		if offsets[topic] == nil {
			offsets[topic] = map[int32]sarama.OffsetAndMetadata{}
		}
		offsets[topic][partition] = sarama.OffsetAndMetadata{Offset: at, LeaderEpoch: -1}
	}
	response, err := adm.AlterConsumerGroupOffsets(args.Group, offsets, nil)
	if err != nil || response == nil {
		each(r, args.Group, err)
		return nil
	}
	for topic, partitions := range offsets {
		for partition := range partitions {
			code, ok := response.Errors[topic][partition]
			if !ok {
				r.Add(outcome(kit.ColonLabel(topic, partition), errors.New("sarama returned no result for it")))
				continue
			}
			r.Add(outcome(kit.ColonLabel(topic, partition), code))
		}
	}
	sort.Slice(r.Resources, func(i, j int) bool { return r.Resources[i].Resource < r.Resources[j].Resource })
	return nil
}
