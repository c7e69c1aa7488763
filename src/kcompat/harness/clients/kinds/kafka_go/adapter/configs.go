// Configs: describe.

package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/segmentio/kafka-go"
	"kcompat/adapter/kit"
)

// Kafka's ConfigResource types (not kafka-go's ResourceType, which numbers ACL resources).
var configTypes = map[string]int8{"topic": 2, "broker": 4, "broker_logger": 8, "client_metrics": 16, "group": 32}

func typeLabel(value int8) string {
	for name, number := range configTypes {
		if number == value {
			return name
		}
	}
	return strconv.Itoa(int(value))
}

func configEntry(e kafka.DescribeConfigResponseConfigEntry) map[string]any {
	synonyms := []map[string]any{}
	for _, s := range e.ConfigSynonyms {
		synonyms = append(synonyms, map[string]any{"name": s.ConfigName, "value": s.ConfigValue,
			"source": kit.Named(kit.ConfigSources, int(s.ConfigSource))})
	}
	var documentation any
	if e.ConfigDocumentation != "" {
		documentation = e.ConfigDocumentation
	}
	return map[string]any{"name": e.ConfigName, "value": e.ConfigValue, "read_only": e.ReadOnly,
		"source": kit.Named(kit.ConfigSources, int(e.ConfigSource)), "is_default": e.IsDefault, "sensitive": e.IsSensitive,
		"synonyms": synonyms, "type": kit.Named(kit.ConfigValueTypes, int(e.ConfigType)), "documentation": documentation}
}

func describeConfigs(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		Targets              []kit.ConfigTarget `json:"targets"`
		IncludeSynonyms      bool               `json:"include_synonyms"`
		IncludeDocumentation bool               `json:"include_documentation"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	resources := make([]kafka.DescribeConfigRequestResource, 0, len(args.Targets))
	labels := make([]string, 0, len(args.Targets))
	for _, t := range args.Targets {
		number, ok := configTypes[t.Kind()]
		if !ok {
			return nil, badArgs{fmt.Sprintf("args.targets[].resource_type %q is no config resource type", t.ResourceType)}
		}
		resources = append(resources, kafka.DescribeConfigRequestResource{ResourceType: kafka.ResourceType(number),
			ResourceName: t.Name})
		labels = append(labels, t.Label())
	}
	res := kit.NewResult()
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.DescribeConfigs(ctx, &kafka.DescribeConfigsRequest{Resources: resources,
		IncludeSynonyms: args.IncludeSynonyms, IncludeDocumentation: args.IncludeDocumentation})
	if err != nil {
		return callFailed(res, err, labels), nil
	}
	seen := map[string]bool{}
	for _, r := range answer.Resources {
		entry := outcome(typeLabel(r.ResourceType)+":"+r.ResourceName, r.Error)
		if r.Error == nil {
			configs := []map[string]any{}
			for _, e := range r.ConfigEntries {
				converted := configEntry(e)
				for key := range converted {
					seen[key] = true
				}
				configs = append(configs, converted)
			}
			entry.Fields["configs"] = configs
		}
		res.Resources = append(res.Resources, entry)
	}
	for key := range seen {
		res.ResultFields = append(res.ResultFields, "configs."+key)
	}
	sort.Strings(res.ResultFields)
	return res, nil
}
