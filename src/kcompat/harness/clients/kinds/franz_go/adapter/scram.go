// SCRAM credentials: describe, alter.

package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
)

// scramMechanisms are Kafka's ScramMechanism names by wire value (as the Java enum has them).
var scramMechanisms = map[string]kadm.ScramMechanism{"SCRAM_SHA_256": kadm.ScramSha256, "SCRAM_SHA_512": kadm.ScramSha512}

func scramName(m kadm.ScramMechanism) string {
	for name, value := range scramMechanisms {
		if value == m {
			return name
		}
	}
	return "UNKNOWN"
}

func describeUserScramCredentials(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Users []string `json:"users"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "credentials")
	described, err := adm.DescribeUserSCRAMs(ctx, args.Users...)
	got := map[string]*resource{}
	for user, d := range described {
		e := outcome(user, d.Err, d.ErrMessage)
		if d.Err == nil {
			credentials := []map[string]any{}
			for _, info := range d.CredInfos {
				credentials = append(credentials, map[string]any{"mechanism": scramName(info.Mechanism),
					"iterations": info.Iterations})
			}
			e.Fields["credentials"] = credentials
		}
		got[user] = e
	}
	finish(r, args.Users, got, err)
	return nil
}

// alterUserScramCredentials: kadm salts each password itself (24 random bytes, pbkdf2), as kafka-clients does.
func alterUserScramCredentials(ctx context.Context, adm *kadm.Client, raw json.RawMessage, r *result) error {
	var args struct {
		Upsertions []struct {
			User       string `json:"user"`
			Password   string `json:"password"`
			Mechanism  string `json:"mechanism"`
			Iterations int32  `json:"iterations"`
		} `json:"upsertions"`
		Deletions []struct {
			User      string `json:"user"`
			Mechanism string `json:"mechanism"`
		} `json:"deletions"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	var upserts []kadm.UpsertSCRAM
	var deletes []kadm.DeleteSCRAM
	users := []string{}
	for _, u := range args.Upsertions {
		mechanism, ok := scramMechanisms[u.Mechanism]
		if !ok {
			return fmt.Errorf("unknown SCRAM mechanism %q", u.Mechanism)
		}
		upserts = append(upserts, kadm.UpsertSCRAM{User: u.User, Mechanism: mechanism, Iterations: u.Iterations,
			Password: u.Password})
		users = append(users, u.User)
	}
	for _, d := range args.Deletions {
		mechanism, ok := scramMechanisms[d.Mechanism]
		if !ok {
			return fmt.Errorf("unknown SCRAM mechanism %q", d.Mechanism)
		}
		deletes = append(deletes, kadm.DeleteSCRAM{User: d.User, Mechanism: mechanism})
		users = append(users, d.User)
	}
	altered, err := adm.AlterUserSCRAMs(ctx, deletes, upserts)
	got := map[string]*resource{}
	for user, a := range altered {
		got[user] = outcome(user, a.Err, a.ErrMessage)
	}
	finish(r, unique(users), got, err)
	return nil
}
