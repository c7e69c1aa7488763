// ACLs: create, describe, delete.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
	"kcompat/adapter/kit"
)

type aclSpec struct {
	ResourceType string  `json:"resource_type"`
	ResourceName *string `json:"resource_name"`
	Principal    *string `json:"principal"`
	Operation    string  `json:"operation"`
	Permission   string  `json:"permission"`
	Host         *string `json:"host"`
	Pattern      string  `json:"pattern"`
}

// filterLabel names a filter's result as AclFilter.label does: topic:t:User:alice:ANY:ANY.
func (a aclSpec) filterLabel() string {
	return strings.ToLower(a.ResourceType) + ":" + kit.Deref(a.ResourceName, "*") + ":" + kit.Deref(a.Principal, "*") + ":" +
		a.Operation + ":" + a.Permission
}

// builder is the kadm ACL builder of one binding or filter; a resource type it has no method for is an error.
func (a aclSpec) builder(filter bool) (*kadm.ACLBuilder, error) {
	b := kadm.NewACLs()
	var names []string
	if a.ResourceName != nil {
		names = []string{*a.ResourceName}
	}
	switch strings.ToLower(a.ResourceType) {
	case "topic":
		b.MaybeTopics(names...)
		if filter && names == nil {
			b.Topics()
		}
	case "group":
		b.MaybeGroups(names...)
		if filter && names == nil {
			b.Groups()
		}
	case "cluster":
		b.Clusters()
	case "transactional_id":
		b.MaybeTransactionalIDs(names...)
		if filter && names == nil {
			b.TransactionalIDs()
		}
	case "delegation_token":
		b.MaybeDelegationTokens(names...)
		if filter && names == nil {
			b.DelegationTokens()
		}
	case "any":
		b.AnyResource(names...)
	default:
		return nil, fmt.Errorf("unknown ACL resource type %q", a.ResourceType)
	}
	operation, err := kmsg.ParseACLOperation(a.Operation)
	if err != nil {
		return nil, err
	}
	b.Operations(operation)
	pattern, err := kmsg.ParseACLResourcePatternType(a.Pattern)
	if err != nil {
		return nil, err
	}
	b.ResourcePatternType(pattern)
	var principals, hosts []string
	if a.Principal != nil {
		principals = []string{*a.Principal}
	}
	if a.Host != nil {
		hosts = []string{*a.Host}
	}
	switch strings.ToUpper(a.Permission) {
	case "ALLOW":
		b.Allow(principals...).AllowHosts(hosts...)
	case "DENY":
		b.Deny(principals...).DenyHosts(hosts...)
	case "ANY":
		b.Allow(principals...).AllowHosts(hosts...).Deny(principals...).DenyHosts(hosts...)
	default:
		return nil, fmt.Errorf("unknown ACL permission %q", a.Permission)
	}
	return b, nil
}

func bindingLabel(t kmsg.ACLResourceType, name, principal string, op kmsg.ACLOperation, perm kmsg.ACLPermissionType) string {
	kind := strings.ToLower(t.String())
	if t == kmsg.ACLResourceTypeTransactionalId {
		kind = "transactional_id"
	} else if t == kmsg.ACLResourceTypeDelegationToken {
		kind = "delegation_token"
	}
	return kind + ":" + name + ":" + principal + ":" + strings.ToUpper(op.String()) + ":" + strings.ToUpper(perm.String())
}

// createACLs: one kadm call per binding (its builder makes the cross product of what it is given).
func createACLs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		ACLs []aclSpec `json:"acls"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, acl := range args.ACLs {
		b, err := acl.builder(false)
		if err != nil {
			return err
		}
		results, err := adm.CreateACLs(ctx, b)
		got := map[string]*resource{}
		if len(results) > 0 {
			got[acl.filterLabel()] = outcome(acl.filterLabel(), results[0].Err, results[0].ErrMessage)
		}
		finish(r, []string{acl.filterLabel()}, got, err)
	}
	return nil
}

func describeACLs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Filter aclSpec `json:"filter"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	b, err := args.Filter.builder(true)
	if err != nil {
		return err
	}
	label := args.Filter.filterLabel()
	results, err := adm.DescribeACLs(ctx, b)
	got := map[string]*resource{}
	if err == nil {
		var firstErr error
		message := ""
		bindings := []string{}
		for _, res := range results { // the builder may make several filters (ANY permission): their union
			if res.Err != nil && firstErr == nil {
				firstErr, message = res.Err, res.ErrMessage
			}
			for _, d := range res.Described {
				bindings = append(bindings, bindingLabel(d.Type, d.Name, d.Principal, d.Operation, d.Permission))
			}
		}
		e := outcome(label, firstErr, message)
		if firstErr == nil {
			sort.Strings(bindings)
			e.Fields["bindings"] = unique(bindings)
		}
		got[label] = e
	}
	finish(r, []string{label}, got, err)
	return nil
}

func deleteACLs(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Filters []aclSpec `json:"filters"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, filter := range args.Filters {
		b, err := filter.builder(true)
		if err != nil {
			return err
		}
		label := filter.filterLabel()
		results, err := adm.DeleteACLs(ctx, b)
		got := map[string]*resource{}
		if err == nil {
			var firstErr error
			message := ""
			deleted := []string{}
			for _, res := range results {
				if res.Err != nil && firstErr == nil {
					firstErr, message = res.Err, res.ErrMessage
				}
				for _, d := range res.Deleted {
					if d.Err == nil {
						deleted = append(deleted, bindingLabel(d.Type, d.Name, d.Principal, d.Operation, d.Permission))
					}
				}
			}
			e := outcome(label, firstErr, message)
			if firstErr == nil {
				sort.Strings(deleted)
				e.Fields["deleted"] = unique(deleted)
			}
			got[label] = e
		}
		finish(r, []string{label}, got, err)
	}
	return nil
}
