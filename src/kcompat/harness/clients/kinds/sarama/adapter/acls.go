// ACLs: create, describe, delete.

package main

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/IBM/sarama"
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

func (a aclSpec) filterLabel() string {
	return strings.ToLower(a.ResourceType) + ":" + kit.Deref(a.ResourceName, "*") + ":" + kit.Deref(a.Principal, "*") + ":" +
		a.Operation + ":" + a.Permission
}

// enums reads Kafka's names (TRANSACTIONAL_ID, READ, ALLOW, LITERAL) into sarama's types.
func (a aclSpec) enums() (sarama.AclResourceType, sarama.AclOperation, sarama.AclPermissionType,
	sarama.AclResourcePatternType, error) {
	var kind sarama.AclResourceType
	var operation sarama.AclOperation
	var permission sarama.AclPermissionType
	var pattern sarama.AclResourcePatternType
	text := func(s string) []byte { return []byte(strings.ToLower(strings.ReplaceAll(s, "_", ""))) }
	if err := kind.UnmarshalText(text(a.ResourceType)); err != nil {
		return 0, 0, 0, 0, err
	}
	if err := operation.UnmarshalText(text(a.Operation)); err != nil {
		return 0, 0, 0, 0, err
	}
	if err := permission.UnmarshalText(text(a.Permission)); err != nil {
		return 0, 0, 0, 0, err
	}
	if err := pattern.UnmarshalText(text(a.Pattern)); err != nil {
		return 0, 0, 0, 0, err
	}
	return kind, operation, permission, pattern, nil
}

func bindingLabel(res sarama.Resource, acl sarama.Acl) string {
	return strings.ToLower(upperSnake(res.ResourceType.String())) + ":" + res.ResourceName + ":" + acl.Principal + ":" +
		upperSnake(acl.Operation.String()) + ":" + upperSnake(acl.PermissionType.String())
}

// createACLs: ClusterAdmin.CreateACL, one binding a call (CreateACLs answers one error for all of them).
func createACLs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		ACLs []aclSpec `json:"acls"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, a := range args.ACLs {
		kind, operation, permission, pattern, err := a.enums()
		if err != nil {
			return err
		}
		res := sarama.Resource{ResourceType: kind, ResourceName: kit.Deref(a.ResourceName, ""), ResourcePatternType: pattern}
		acl := sarama.Acl{Principal: kit.Deref(a.Principal, ""), Host: kit.Deref(a.Host, "*"), Operation: operation,
			PermissionType: permission}
		each(r, a.filterLabel(), adm.CreateACL(res, acl))
	}
	return nil
}

func (a aclSpec) filter() (sarama.AclFilter, error) {
	kind, operation, permission, pattern, err := a.enums()
	if err != nil {
		return sarama.AclFilter{}, err
	}
	return sarama.AclFilter{ResourceType: kind, ResourceName: a.ResourceName, ResourcePatternTypeFilter: pattern,
		Principal: a.Principal, Host: a.Host, Operation: operation, PermissionType: permission}, nil
}

func describeACLs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Filter aclSpec `json:"filter"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	filter, err := args.Filter.filter()
	if err != nil {
		return err
	}
	listed, err := adm.ListAcls(filter)
	if e := each(r, args.Filter.filterLabel(), err); e != nil && err == nil {
		bindings := []string{}
		for _, res := range listed {
			for _, acl := range res.Acls {
				bindings = append(bindings, bindingLabel(res.Resource, *acl))
			}
		}
		sort.Strings(bindings)
		e.Fields["bindings"] = bindings
	}
	return nil
}

// deleteACLs: ClusterAdmin.DeleteACL, one filter a call.
func deleteACLs(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Filters []aclSpec `json:"filters"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	for _, a := range args.Filters {
		filter, err := a.filter()
		if err != nil {
			return err
		}
		matched, err := adm.DeleteACL(filter, false)
		if e := each(r, a.filterLabel(), err); e != nil && err == nil {
			deleted := []string{}
			for _, m := range matched {
				if m.Err == sarama.ErrNoError {
					deleted = append(deleted, bindingLabel(m.Resource, m.Acl))
				}
			}
			sort.Strings(deleted)
			e.Fields["deleted"] = deleted
		}
	}
	return nil
}
