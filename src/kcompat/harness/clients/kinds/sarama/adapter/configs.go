// Configs: describe, alter, alter incrementally.

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/IBM/sarama"
	"kcompat/adapter/kit"
)

// describeConfigsKey is DescribeConfigs' API key: sarama decodes an entry's type from its v3 on.
const describeConfigsKey = 32

// saramaType is a config target's resource type as sarama has it (topics and brokers only).
func saramaType(t kit.ConfigTarget) (sarama.ConfigResourceType, error) {
	switch t.Kind() {
	case "topic":
		return sarama.TopicResource, nil
	case "broker":
		return sarama.BrokerResource, nil
	}
	return 0, fmt.Errorf("configs are described and altered for topic and broker resources, not %q", t.Kind())
}

func configEntry(c sarama.ConfigEntry, typed, documented bool) map[string]any {
	entry := map[string]any{"name": c.Name, "value": c.Value, "read_only": c.ReadOnly, "is_default": c.Default,
		"source": kit.Named(kit.ConfigSources, int(c.Source)), "sensitive": c.Sensitive}
	if c.Sensitive {
		entry["value"] = nil
	}
	synonyms := make([]map[string]any, 0, len(c.Synonyms))
	for _, s := range c.Synonyms {
		synonyms = append(synonyms, map[string]any{"name": s.ConfigName, "value": s.ConfigValue,
			"source": kit.Named(kit.ConfigSources, int(s.Source))})
	}
	entry["synonyms"] = synonyms
	if typed { // KIP-569 (DescribeConfigs v3): every entry's type
		entry["type"] = entryType(&c)
	}
	if documented { // KIP-569: documentation, where it was asked for
		entry["documentation"] = entryDocumentation(&c)
	}
	return entry
}

// describeConfigs: ClusterAdmin.DescribeConfigs with the synonyms and documentation options. sarama's ConfigEntry
// has Type and Documentation, decoded from DescribeConfigs v3 on: an entry has its type where the request sent
// (read off the wire by the kit's RecordingConn) was v3 or newer, and documentation where any entry came back
// documented.
func describeConfigs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeSynonyms      bool               `json:"include_synonyms"`
		IncludeDocumentation bool               `json:"include_documentation"`
		Targets              []kit.ConfigTarget `json:"targets"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	resources := []*sarama.ConfigResource{}
	for _, target := range args.Targets {
		kind, err := saramaType(target)
		if err != nil {
			return err
		}
		resources = append(resources, &sarama.ConfigResource{Type: kind, Name: target.Name})
	}
	mark := kit.Requests.Mark()
	results, err := describeConfigResults(adm, resources, args.IncludeSynonyms, args.IncludeDocumentation, r)
	sent := kit.Requests.Since(mark, describeConfigsKey)
	typed := sent != nil && *sent >= 3
	if err != nil && len(results) == 0 {
		if _, ok := kafkaError(err); !ok {
			r.Threw(err)
			return nil
		}
	}
	documented := false
	for _, res := range results {
		for _, c := range res.Configs {
			documented = documented || entryDocumentation(&c) != nil
		}
	}
	fields := []string{"name", "value", "read_only", "is_default", "source", "sensitive", "synonyms"}
	if typed {
		fields = append(fields, "type")
	}
	if documented {
		fields = append(fields, "documentation")
	}
	for _, field := range fields {
		r.ResultFields = append(r.ResultFields, "configs."+field)
	}
	for _, target := range args.Targets {
		kind, _ := saramaType(target)
		var found *configResourceResult
		for _, res := range results {
			if res.Type == kind && res.Name == target.Name {
				found = res
			}
		}
		switch {
		case found == nil && err != nil:
			r.Add(outcome(target.Label(), err))
		case found == nil:
			r.Add(outcome(target.Label(), errors.New("sarama returned no result for "+target.Label())))
		case found.ErrorCode != sarama.ErrNoError:
			e := outcome(target.Label(), found.ErrorCode)
			if found.ErrorMsg != "" {
				e.ErrorMessage = kit.Text(found.ErrorMsg)
			}
			r.Add(e)
		default:
			e := outcome(target.Label(), nil)
			entries := make([]map[string]any, 0, len(found.Configs))
			for _, c := range found.Configs {
				entries = append(entries, configEntry(c, typed, documented))
			}
			e.Fields["configs"] = entries
			r.Add(e)
		}
	}
	return nil
}

// alterConfigs: the legacy AlterConfigs (ClusterAdmin.AlterConfig), one resource a call.
func alterConfigs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool `json:"validate_only"`
		Resources    []struct {
			Target  kit.ConfigTarget  `json:"target"`
			Configs map[string]string `json:"configs"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, item := range args.Resources {
		kind, err := saramaType(item.Target)
		if err != nil {
			return err
		}
		entries := map[string]*string{}
		for name, value := range item.Configs {
			v := value
			entries[name] = &v
		}
		each(r, item.Target.Label(), adm.AlterConfig(kind, item.Target.Name, entries, args.ValidateOnly))
	}
	return nil
}

var incrementalOps = map[string]sarama.IncrementalAlterConfigsOperation{
	"SET": sarama.IncrementalAlterConfigsOperationSet, "DELETE": sarama.IncrementalAlterConfigsOperationDelete,
	"APPEND":   sarama.IncrementalAlterConfigsOperationAppend,
	"SUBTRACT": sarama.IncrementalAlterConfigsOperationSubtract,
}

func incrementalAlterConfigs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		ValidateOnly bool `json:"validate_only"`
		Resources    []struct {
			Target kit.ConfigTarget `json:"target"`
			Ops    []struct {
				Name  string  `json:"name"`
				Value *string `json:"value"`
				Op    string  `json:"op"`
			} `json:"ops"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, item := range args.Resources {
		kind, err := saramaType(item.Target)
		if err != nil {
			return err
		}
		entries := map[string]sarama.IncrementalAlterConfigsEntry{}
		for _, o := range item.Ops {
			op, ok := incrementalOps[strings.ToUpper(o.Op)]
			if !ok {
				return fmt.Errorf("unknown config op %q", o.Op)
			}
			entries[o.Name] = sarama.IncrementalAlterConfigsEntry{Operation: op, Value: o.Value}
		}
		each(r, item.Target.Label(), adm.IncrementalAlterConfig(kind, item.Target.Name, entries, args.ValidateOnly))
	}
	return nil
}
