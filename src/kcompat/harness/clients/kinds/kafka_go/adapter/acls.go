package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/segmentio/kafka-go"
	"kcompat/adapter/kit"
)

// Kafka's ACL enums by their Java names (as kcompat's arguments and labels write them), by wire value.
var (
	aclResourceTypes = []string{"UNKNOWN", "ANY", "TOPIC", "GROUP", "CLUSTER", "TRANSACTIONAL_ID",
		"DELEGATION_TOKEN", "USER"}
	aclOperations = []string{"UNKNOWN", "ANY", "ALL", "READ", "WRITE", "CREATE", "DELETE", "ALTER", "DESCRIBE",
		"CLUSTER_ACTION", "DESCRIBE_CONFIGS", "ALTER_CONFIGS", "IDEMPOTENT_WRITE", "CREATE_TOKENS", "DESCRIBE_TOKENS"}
	aclPermissions = []string{"UNKNOWN", "ANY", "DENY", "ALLOW"}
	aclPatterns    = []string{"UNKNOWN", "ANY", "MATCH", "LITERAL", "PREFIXED"}
)

func enumValue(names []string, what string, name string) (int8, error) {
	for i, known := range names {
		if strings.EqualFold(known, name) {
			return int8(i), nil
		}
	}
	return 0, badArgs{fmt.Sprintf("args: %s %q is not one of %v", what, name, names)}
}

// aclArgs is an AclSpec or an AclFilter as the protocol writes them; a filter's null strings match anything.
type aclArgs struct {
	ResourceType string  `json:"resource_type"`
	ResourceName *string `json:"resource_name"`
	Pattern      string  `json:"pattern"`
	Principal    *string `json:"principal"`
	Host         *string `json:"host"`
	Operation    string  `json:"operation"`
	Permission   string  `json:"permission"`
}

type aclValues struct {
	resourceType, pattern, operation, permission int8
	name, principal, host                        string
}

func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func orAny(s *string) string {
	if s == nil {
		return "*"
	}
	return *s
}

func (a aclArgs) values() (v aclValues, err error) {
	if v.resourceType, err = enumValue(aclResourceTypes, "resource_type", a.ResourceType); err != nil {
		return v, err
	}
	if v.pattern, err = enumValue(aclPatterns, "pattern", a.Pattern); err != nil {
		return v, err
	}
	if v.operation, err = enumValue(aclOperations, "operation", a.Operation); err != nil {
		return v, err
	}
	if v.permission, err = enumValue(aclPermissions, "permission", a.Permission); err != nil {
		return v, err
	}
	// kafka-go's filter strings are nullable on the wire: its empty string is Kafka's null, "match any".
	v.name, v.principal, v.host = orEmpty(a.ResourceName), orEmpty(a.Principal), orEmpty(a.Host)
	return v, nil
}

// filterLabel names a filter's result as kcompat's AclFilter.label does: topic:t1:User:alice:ANY:ANY.
func (a aclArgs) filterLabel() string {
	return strings.Join([]string{strings.ToLower(a.ResourceType), orAny(a.ResourceName), orAny(a.Principal),
		strings.ToUpper(a.Operation), strings.ToUpper(a.Permission)}, ":")
}

// bindingLabel names a binding as kcompat's AclSpec.label does: topic:t1:User:alice:READ:ALLOW.
func bindingLabel(resourceType int8, name, principal string, operation, permission int8) string {
	return strings.Join([]string{strings.ToLower(kit.Named(aclResourceTypes, int(resourceType))), name, principal,
		kit.Named(aclOperations, int(operation)), kit.Named(aclPermissions, int(permission))}, ":")
}

func createACLs(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		ACLs []aclArgs `json:"acls"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	entries := make([]kafka.ACLEntry, 0, len(args.ACLs))
	labels := make([]string, 0, len(args.ACLs))
	for _, a := range args.ACLs {
		v, err := a.values()
		if err != nil {
			return nil, err
		}
		entries = append(entries, kafka.ACLEntry{ResourceType: kafka.ResourceType(v.resourceType), ResourceName: v.name,
			ResourcePatternType: kafka.PatternType(v.pattern), Principal: v.principal, Host: v.host,
			Operation: kafka.ACLOperationType(v.operation), PermissionType: kafka.ACLPermissionType(v.permission)})
		labels = append(labels, a.filterLabel())
	}
	res := kit.NewResult()
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.CreateACLs(ctx, &kafka.CreateACLsRequest{ACLs: entries})
	if err != nil {
		return callFailed(res, err, labels), nil
	}
	for i, label := range labels {
		var failed error
		if i < len(answer.Errors) {
			failed = answer.Errors[i]
		}
		res.Resources = append(res.Resources, outcome(label, failed))
	}
	return res, nil
}

func describeACLs(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		Filter aclArgs `json:"filter"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	v, err := args.Filter.values()
	if err != nil {
		return nil, err
	}
	label := args.Filter.filterLabel()
	res := kit.NewResult()
	res.ResultFields = []string{"bindings"}
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.DescribeACLs(ctx, &kafka.DescribeACLsRequest{Filter: kafka.ACLFilter{
		ResourceTypeFilter: kafka.ResourceType(v.resourceType), ResourceNameFilter: v.name,
		ResourcePatternTypeFilter: kafka.PatternType(v.pattern), PrincipalFilter: v.principal, HostFilter: v.host,
		Operation: kafka.ACLOperationType(v.operation), PermissionType: kafka.ACLPermissionType(v.permission)}})
	if err != nil {
		return callFailed(res, err, []string{label}), nil
	}
	entry := outcome(label, answer.Error)
	if answer.Error == nil {
		bindings := []string{}
		for _, r := range answer.Resources {
			for _, acl := range r.ACLs {
				bindings = append(bindings, bindingLabel(int8(r.ResourceType), r.ResourceName, acl.Principal,
					int8(acl.Operation), int8(acl.PermissionType)))
			}
		}
		sort.Strings(bindings)
		entry.Fields["bindings"] = bindings
	}
	res.Resources = append(res.Resources, entry)
	return res, nil
}

func deleteACLs(client *kafka.Client, raw json.RawMessage) (*result, error) {
	var args struct {
		Filters []aclArgs `json:"filters"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	filters := make([]kafka.DeleteACLsFilter, 0, len(args.Filters))
	labels := make([]string, 0, len(args.Filters))
	for _, f := range args.Filters {
		v, err := f.values()
		if err != nil {
			return nil, err
		}
		filters = append(filters, kafka.DeleteACLsFilter{ResourceTypeFilter: kafka.ResourceType(v.resourceType),
			ResourceNameFilter: v.name, ResourcePatternTypeFilter: kafka.PatternType(v.pattern),
			PrincipalFilter: v.principal, HostFilter: v.host, Operation: kafka.ACLOperationType(v.operation),
			PermissionType: kafka.ACLPermissionType(v.permission)})
		labels = append(labels, f.filterLabel())
	}
	res := kit.NewResult()
	res.ResultFields = []string{"deleted"}
	ctx, cancel := callContext()
	defer cancel()
	answer, err := client.DeleteACLs(ctx, &kafka.DeleteACLsRequest{Filters: filters})
	if err != nil {
		return callFailed(res, err, labels), nil
	}
	for i, label := range labels {
		if i >= len(answer.Results) {
			break
		}
		r := answer.Results[i]
		entry := outcome(label, r.Error)
		if r.Error == nil {
			deleted := []string{}
			for _, m := range r.MatchingACLs {
				deleted = append(deleted, bindingLabel(int8(m.ResourceType), m.ResourceName, m.Principal,
					int8(m.Operation), int8(m.PermissionType)))
			}
			sort.Strings(deleted)
			entry.Fields["deleted"] = deleted
		}
		res.Resources = append(res.Resources, entry)
	}
	return res, nil
}
