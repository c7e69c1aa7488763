//go:build sarama_pre160

// Stand-ins for what modern.go uses, written against the ClusterAdmin of sarama 1.38.1 (the last release under
// github.com/Shopify/sarama) for every release before 1.60.0.  What these releases can't express is said as
// sarama would leave it: DescribeConfig one resource a call without synonyms or documentation (a broker's error
// message becomes the error, its code lost), no coordinator of a group, OffsetFetch before v8, no log dir space;
// ListOffsets, ElectLeaders and AlterConsumerGroupOffsets are not declared, so those calls are the client lacking
// them.

package main

import (
	"errors"

	"github.com/IBM/sarama"
)

type configResourceResult struct {
	Type      sarama.ConfigResourceType
	Name      string
	ErrorCode sarama.KError
	ErrorMsg  string
	Configs   []sarama.ConfigEntry
}

// describeConfigResults: ClusterAdmin.DescribeConfig for each resource; an error that is not Kafka's is returned
// (the last one), so that the resources it left without a result carry it.
func describeConfigResults(adm sarama.ClusterAdmin, resources []*sarama.ConfigResource, synonyms, documentation bool,
	r *result) ([]*configResourceResult, error) {
	if synonyms {
		r.Unsupported("include_synonyms")
	}
	if documentation {
		r.Unsupported("include_documentation")
	}
	results := []*configResourceResult{}
	var failed error
	for _, resource := range resources {
		entries, err := adm.DescribeConfig(*resource)
		var code sarama.KError
		switch {
		case errors.As(err, &code):
			results = append(results, &configResourceResult{Type: resource.Type, Name: resource.Name, ErrorCode: code})
		case err != nil:
			failed = err
		default:
			results = append(results, &configResourceResult{Type: resource.Type, Name: resource.Name, Configs: entries})
		}
	}
	return results, failed
}

// entryType is never asked for: these releases send DescribeConfigs v2 at most, whose entries have no type.
func entryType(*sarama.ConfigEntry) string { return "" }

func entryDocumentation(*sarama.ConfigEntry) *string { return nil }

func groupCoordinator(sarama.ClusterAdmin, string) (*sarama.Broker, error) {
	return nil, errors.New("this sarama release's ClusterAdmin has no Coordinator")
}

func fetchedBlocks(response *sarama.OffsetFetchResponse) map[string]map[int32]*sarama.OffsetFetchResponseBlock {
	return response.Blocks
}

func dirSpace(sarama.DescribeLogDirsResponseDirMetadata) (total, usable int64) { return -1, -1 }
