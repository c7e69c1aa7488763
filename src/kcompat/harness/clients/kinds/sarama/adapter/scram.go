// SCRAM credentials: describe, alter.

package main

import (
	"crypto/rand"
	"encoding/json"
	"fmt"

	"github.com/IBM/sarama"
)

// scramMechanisms are Kafka's ScramMechanism names by wire value (as the Java enum has them).
var scramMechanisms = map[string]sarama.ScramMechanismType{"SCRAM_SHA_256": 1, "SCRAM_SHA_512": 2}

func scramName(m sarama.ScramMechanismType) string {
	for name, value := range scramMechanisms {
		if value == m {
			return name
		}
	}
	return "UNKNOWN"
}

func describeUserScramCredentials(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
	var args struct {
		Users []string `json:"users"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	r.ResultFields = append(r.ResultFields, "credentials")
	described, err := adm.DescribeUserScramCredentials(args.Users)
	if err != nil {
		if _, ok := kafkaError(err); !ok {
			r.Threw(err)
			return nil
		}
	}
	byUser := map[string]*sarama.DescribeUserScramCredentialsResult{}
	for _, d := range described {
		byUser[d.User] = d
	}
	for _, user := range args.Users {
		d, ok := byUser[user]
		if !ok {
			r.Add(outcome(user, err))
			continue
		}
		e := outcome(user, d.ErrorCode)
		if d.ErrorCode != sarama.ErrNoError && d.ErrorMessage != nil {
			e.ErrorMessage = d.ErrorMessage
		} else if d.ErrorCode == sarama.ErrNoError {
			credentials := []map[string]any{}
			for _, info := range d.CredentialInfos {
				credentials = append(credentials, map[string]any{"mechanism": scramName(info.Mechanism),
					"iterations": info.Iterations})
			}
			e.Fields["credentials"] = credentials
		}
		r.Add(e)
	}
	return nil
}

// alterUserScramCredentials: ClusterAdmin upserts and deletes in two calls (UpsertUserScramCredentials,
// DeleteUserScramCredentials); sarama salts a password with the salt it is given: 24 random bytes here, as
// kafka-clients makes one.
func alterUserScramCredentials(adm sarama.ClusterAdmin, raw json.RawMessage, r *result) error {
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
	var upserts []sarama.AlterUserScramCredentialsUpsert
	var deletes []sarama.AlterUserScramCredentialsDelete
	for _, u := range args.Upsertions {
		mechanism, ok := scramMechanisms[u.Mechanism]
		if !ok {
			return fmt.Errorf("unknown SCRAM mechanism %q", u.Mechanism)
		}
		salt := make([]byte, 24)
		if _, err := rand.Read(salt); err != nil {
			return err
		}
		upserts = append(upserts, sarama.AlterUserScramCredentialsUpsert{Name: u.User, Mechanism: mechanism,
			Iterations: u.Iterations, Salt: salt, Password: []byte(u.Password)})
	}
	for _, d := range args.Deletions {
		mechanism, ok := scramMechanisms[d.Mechanism]
		if !ok {
			return fmt.Errorf("unknown SCRAM mechanism %q", d.Mechanism)
		}
		deletes = append(deletes, sarama.AlterUserScramCredentialsDelete{Name: d.User, Mechanism: mechanism})
	}
	alter := func(users []string, results []*sarama.AlterUserScramCredentialsResult, err error) {
		if err != nil {
			for _, user := range users {
				each(r, user, err)
			}
			return
		}
		for _, res := range results {
			e := outcome(res.User, res.ErrorCode)
			if res.ErrorCode != sarama.ErrNoError && res.ErrorMessage != nil {
				e.ErrorMessage = res.ErrorMessage
			}
			r.Add(e)
		}
	}
	if len(upserts) > 0 {
		users := []string{}
		for _, u := range upserts {
			users = append(users, u.Name)
		}
		results, err := adm.UpsertUserScramCredentials(upserts)
		alter(users, results, err)
	}
	if len(deletes) > 0 {
		users := []string{}
		for _, d := range deletes {
			users = append(users, d.Name)
		}
		results, err := adm.DeleteUserScramCredentials(deletes)
		alter(users, results, err)
	}
	return nil
}
