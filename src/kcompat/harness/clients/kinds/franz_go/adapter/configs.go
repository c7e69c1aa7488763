// Configs: describe, alter, alter incrementally.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"kcompat/adapter/kit"
)

func configEntry(c kadm.Config) map[string]any {
	entry := map[string]any{"name": c.Key, "value": c.Value, "source": c.Source.String(), "sensitive": c.Sensitive}
	synonyms := make([]map[string]any, 0, len(c.Synonyms))
	for _, s := range c.Synonyms {
		synonyms = append(synonyms, map[string]any{"name": s.Key, "value": s.Value, "source": s.Source.String()})
	}
	entry["synonyms"] = synonyms
	return entry
}

// describeConfigs: kadm always asks for synonyms and never for documentation (KIP-569); its entries (kadm.Config:
// key, value, sensitive, source, synonyms) carry no read-only flag, type or documentation, though kmsg's
// DescribeConfigsResponse under it has them: each is named in unsupported_fields with kadm.Config.
func describeConfigs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		IncludeSynonyms      bool               `json:"include_synonyms"`
		IncludeDocumentation bool               `json:"include_documentation"`
		Targets              []kit.ConfigTarget `json:"targets"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if args.IncludeDocumentation {
		r.Unsupported("include_documentation")
	}
	r.UnsupportedFields = map[string]string{"configs.read_only": "kadm.Config", "configs.type": "kadm.Config",
		"configs.documentation": "kadm.Config"}
	r.ResultFields = append(r.ResultFields, "configs.name", "configs.value", "configs.source", "configs.sensitive",
		"configs.synonyms")
	for _, target := range args.Targets {
		var configs kadm.ResourceConfigs
		var err error
		switch target.Kind() {
		case "topic":
			configs, err = adm.DescribeTopicConfigs(ctx, target.Name)
		case "broker":
			id, convErr := strconv.Atoi(target.Name)
			if convErr != nil {
				return fmt.Errorf("broker resource %q is not a node id", target.Name)
			}
			configs, err = adm.DescribeBrokerConfigs(ctx, int32(id))
		default:
			return fmt.Errorf("configs are described for topic and broker resources, not %q", target.Kind())
		}
		got := map[string]*resource{}
		for _, c := range configs {
			if c.Name != target.Name {
				continue
			}
			e := outcome(target.Label(), c.Err, c.ErrMessage)
			if c.Err == nil {
				entries := make([]map[string]any, 0, len(c.Configs))
				for _, config := range c.Configs {
					entries = append(entries, configEntry(config))
				}
				e.Fields["configs"] = entries
			}
			got[target.Label()] = e
		}
		finish(r, []string{target.Label()}, got, err)
	}
	return nil
}

type alterFunc func(ctx context.Context, configs []kadm.AlterConfig, target kit.ConfigTarget) (kadm.AlterConfigsResponses, error)

// alterEach runs one kadm alteration per resource (kadm alters many resources only with one shared config set).
func alterEach(ctx context.Context, r *result, target kit.ConfigTarget, configs []kadm.AlterConfig, alter alterFunc) {
	responses, err := alter(ctx, configs, target)
	got := map[string]*resource{}
	for _, response := range responses {
		if response.Name == target.Name {
			got[target.Label()] = outcome(target.Label(), response.Err, response.ErrMessage)
		}
	}
	finish(r, []string{target.Label()}, got, err)
}

func alterer(adm *kadm.Client, validate, state bool) (alterFunc, error) {
	topic, broker := adm.AlterTopicConfigs, adm.AlterBrokerConfigs
	switch {
	case validate && state:
		topic, broker = adm.ValidateAlterTopicConfigsState, adm.ValidateAlterBrokerConfigsState
	case validate:
		topic, broker = adm.ValidateAlterTopicConfigs, adm.ValidateAlterBrokerConfigs
	case state:
		topic, broker = adm.AlterTopicConfigsState, adm.AlterBrokerConfigsState
	}
	return func(ctx context.Context, configs []kadm.AlterConfig, target kit.ConfigTarget) (kadm.AlterConfigsResponses, error) {
		switch target.Kind() {
		case "topic":
			return topic(ctx, configs, target.Name)
		case "broker":
			id, err := brokerID(target.Name)
			if err != nil {
				return nil, err
			}
			return broker(ctx, configs, id)
		}
		return nil, fmt.Errorf("configs are altered for topic and broker resources, not %q", target.Kind())
	}, nil
}

// alterConfigs: the legacy AlterConfigs (kadm's *ConfigsState calls).
func alterConfigs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
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
	alter, _ := alterer(adm, args.ValidateOnly, true)
	for _, item := range args.Resources {
		if k := item.Target.Kind(); k != "topic" && k != "broker" {
			return fmt.Errorf("configs are altered for topic and broker resources, not %q", k)
		}
		configs := []kadm.AlterConfig{}
		for name, value := range item.Configs {
			configs = append(configs, kadm.AlterConfig{Name: name, Value: kadm.StringPtr(value)})
		}
		alterEach(ctx, r, item.Target, configs, alter)
	}
	return nil
}

var incrementalOps = map[string]kadm.IncrementalOp{
	"SET": kadm.SetConfig, "DELETE": kadm.DeleteConfig, "APPEND": kadm.AppendConfig, "SUBTRACT": kadm.SubtractConfig,
}

func incrementalAlterConfigs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
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
	alter, _ := alterer(adm, args.ValidateOnly, false)
	for _, item := range args.Resources {
		if k := item.Target.Kind(); k != "topic" && k != "broker" {
			return fmt.Errorf("configs are altered for topic and broker resources, not %q", k)
		}
		configs := []kadm.AlterConfig{}
		for _, o := range item.Ops {
			op, ok := incrementalOps[strings.ToUpper(o.Op)]
			if !ok {
				return fmt.Errorf("unknown config op %q", o.Op)
			}
			configs = append(configs, kadm.AlterConfig{Op: op, Name: o.Name, Value: o.Value})
		}
		alterEach(ctx, r, item.Target, configs, alter)
	}
	return nil
}

// configResourceTypes are ConfigResource.Type's names (kcompat's, as the sidecar's) by kadm's type.
var configResourceTypes = map[kadm.ConfigResourceType]string{kadm.ConfigResourceTopic: "TOPIC",
	kadm.ConfigResourceBroker: "BROKER", kadm.ConfigResourceBrokerLogger: "BROKER_LOGGER",
	kadm.ConfigResourceClientMetrics: "CLIENT_METRICS", kadm.ConfigResourceGroupConfig: "GROUP"}

// listConfigResources: each listed resource as TYPE:name; the response's error is a result named cluster.
func listConfigResources(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ResourceTypes []string `json:"resource_types"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	types := []kadm.ConfigResourceType{}
	for _, name := range args.ResourceTypes {
		t, ok := configResourceType(name)
		if !ok {
			return fmt.Errorf("unknown config resource type %q", name)
		}
		types = append(types, t)
	}
	listed, err := adm.ListConfigResources(ctx, types...)
	if err == nil {
		err = listed.Err
	}
	if err != nil {
		finish(r, []string{"cluster"}, nil, err)
		return nil
	}
	for _, c := range listed.Sorted() {
		name, ok := configResourceTypes[c.Type]
		if !ok {
			name = "UNKNOWN"
		}
		r.Add(outcome(name+":"+c.Name, nil, ""))
	}
	return nil
}

func configResourceType(name string) (kadm.ConfigResourceType, bool) {
	for t, known := range configResourceTypes {
		if known == name {
			return t, true
		}
	}
	return kadm.ConfigResourceUnknown, false
}
