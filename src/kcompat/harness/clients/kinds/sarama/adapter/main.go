// Command adapter drives sarama's ClusterAdmin for kcompat over the adapter protocol (docs/ADAPTERS.md): JSON lines
// on stdin and stdout, free-form log on stderr.  Each op's args and result fields are those of the Java sidecar's
// class of the same name (harness/clients/sidecar/kcompat/sidecar/ops/).  What ClusterAdmin can't express is named
// in unsupported_options and the call is made without it; a Kafka error or a library error is data.
//
// Config.Version, the Kafka version sarama assumes before it knows the broker, is one choice per release, never per
// cell, and the ready line says it ("kafka_version", "kafka_version_rule"): from sarama 1.46.0 sarama.MaxVersion, the
// newest this release knows, because from that release sarama reads each broker's ApiVersions and lowers every
// request to what the broker has (its CHANGELOG: Version "can safely be set to a maximum or higher value than the
// remote cluster"); before 1.46.0, which sends what Version names without asking, sarama.DefaultVersion, its
// documented default.  A client reference's "version" setting replaces that choice for its connections, as a user
// pins Config.Version (often to the broker's release, as sarama's docs advise): sarama.ParseKafkaVersion of the
// release, zeros added where sarama's format wants more parts ("2.3" is 2.3.0, "0.10.2" is 0.10.2.0).
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/IBM/sarama"
	"kcompat/adapter/kit"
)

type (
	result   = kit.Result
	resource = kit.Resource
)

// op runs one admin call; an error it returns is the adapter's failure (an argument it can't read).
type op func(adm sarama.ClusterAdmin, args json.RawMessage, r *result) error

var ops = map[string]op{
	"create_topics": createTopics, "create_partitions": createPartitions, "describe_configs": describeConfigs,
	"list_topics": listTopics, "create_acls": createACLs, "describe_topics": describeTopics,
	"delete_topics": deleteTopics, "describe_cluster": describeCluster, "alter_configs": alterConfigs,
	"incremental_alter_configs": incrementalAlterConfigs, "describe_acls": describeACLs, "delete_acls": deleteACLs,
	"list_consumer_groups": listConsumerGroups, "describe_consumer_groups": describeConsumerGroups,
	"delete_consumer_groups": deleteConsumerGroups, "list_consumer_group_offsets": listConsumerGroupOffsets,
	"delete_records":                deleteRecords,
	"alter_partition_reassignments": alterPartitionReassignments,
	"list_partition_reassignments":  listPartitionReassignments, "describe_log_dirs": describeLogDirs,
	"delete_consumer_group_offsets":   deleteConsumerGroupOffsets,
	"describe_user_scram_credentials": describeUserScramCredentials,
	"alter_user_scram_credentials":    alterUserScramCredentials,
}

func libraryRelease() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/IBM/sarama" {
				if dep.Replace != nil {
					return strings.TrimPrefix(dep.Replace.Version, "v")
				}
				return strings.TrimPrefix(dep.Version, "v")
			}
		}
	}
	return "unknown"
}

func atLeast(release string, major, minor int) bool {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	return err1 == nil && err2 == nil && (ma > major || ma == major && mi >= minor)
}

// kafkaVersion is Config.Version for this release, and the rule that chose it (the package comment says why).
func kafkaVersion(release string) (sarama.KafkaVersion, string) {
	if atLeast(release, 1, 46) {
		return sarama.MaxVersion, "sarama.MaxVersion: from 1.46.0 sarama lowers each request to the broker's ApiVersions"
	}
	return sarama.DefaultVersion, "sarama.DefaultVersion: before 1.46.0 sarama sends what Version names, unasked"
}

type admin struct {
	adm  sarama.ClusterAdmin
	busy bool
}

// admins holds one ClusterAdmin per distinct connection (bootstrap, user, password) between calls.
var admins = map[string]*admin{}

func config(c *kit.Connection) *sarama.Config {
	conf := sarama.NewConfig()
	conf.ClientID = "kcompat-sarama"
	conf.Version, _ = kafkaVersion(libraryRelease())
	if pinned, ok, err := pinnedVersion(c); ok && err == nil {
		conf.Version = pinned
	}
	conf.Admin.Timeout = 30 * time.Second
	conf.Admin.Retry.Max = 2
	conf.Net.DialTimeout, conf.Net.ReadTimeout, conf.Net.WriteTimeout = 10*time.Second, 30*time.Second, 30*time.Second
	conf.Metadata.Retry.Max = 2
	conf.Net.Proxy.Enable, conf.Net.Proxy.Dialer = true, recordingDialer{} // not a proxy: its own dialing, read
	if c.Username != nil {
		conf.Net.SASL.Enable = true
		conf.Net.SASL.Mechanism = sarama.SASLTypePlaintext
		conf.Net.SASL.User = *c.Username
		if c.Password != nil {
			conf.Net.SASL.Password = *c.Password
		}
	}
	return conf
}

// pinnedVersion is Config.Version as the connection's "version" setting names it; ok is false where it names
// none, and err is sarama's refusal of the value, named.
func pinnedVersion(c *kit.Connection) (version sarama.KafkaVersion, ok bool, err error) {
	text, ok := c.Setting("version")
	if !ok {
		return sarama.KafkaVersion{}, false, nil
	}
	parts, wanted := strings.Split(text, "."), 3 // 1.0.0 on; before 1.0 sarama wants four parts, 0.11.0.2
	if parts[0] == "0" {
		wanted = 4
	}
	for len(parts) < wanted {
		parts = append(parts, "0")
	}
	version, err = sarama.ParseKafkaVersion(strings.Join(parts, "."))
	if err != nil {
		return version, true, fmt.Errorf("sarama can't take version=%s as Config.Version: %v", text, err)
	}
	return version, true, nil
}

// recordingDialer dials as sarama does (10 s), each connection read for the request versions it carries.
type recordingDialer struct{}

func (recordingDialer) Dial(network, address string) (net.Conn, error) {
	conn, err := net.DialTimeout(network, address, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &kit.RecordingConn{Conn: conn}, nil
}

func closeAdmin(c *kit.Connection) {
	closeBrokers(c)
	key := c.Key()
	if a, ok := admins[key]; ok {
		delete(admins, key)
		go a.adm.Close() // a ClusterAdmin stuck in a call would block its Close: closed aside
	}
}

func main() {
	sarama.Logger = log.New(os.Stderr, "[sarama] ", log.LstdFlags)
	names := make([]string, 0, len(ops))
	for name := range ops {
		names = append(names, name)
	}
	release := libraryRelease()
	version, rule := kafkaVersion(release)
	kit.Serve(kit.Adapter{Release: release, Operations: names,
		Ready: map[string]any{"kafka_version": version.String(), "kafka_version_rule": rule},
		Call:  run, Close: closeAdmin, CloseAll: closeAll})
}

// closeAll closes every ClusterAdmin kept; one still in a call is left to exit with the program.
func closeAll() {
	for key, b := range kept {
		delete(kept, key)
		b.close()
	}
	for key, a := range admins {
		delete(admins, key)
		if !a.busy {
			a.adm.Close()
		}
	}
}

type outcomeOfRun struct {
	r   *result
	err error
	a   *admin // the ClusterAdmin the call used, made for it where none was kept
}

// run makes the call in a goroutine bounded by kit.CallTimeout: sarama takes no context, and a call past the bound
// is the call's exception, the deadline reached (its ClusterAdmin is put aside: the next call makes a new one).
// A call that returned at the bound or later, its library's own timeout as long as ours, reached it too (kit.Serve
// says so).
func run(req *kit.Request) (*result, error) {
	if _, _, err := pinnedVersion(req.Connection); err != nil {
		return nil, err
	}
	if req.Connection.Surface == brokerSurface {
		return runBroker(req)
	}
	handler := ops[req.Op]
	key := req.Connection.Key()
	a := admins[key]
	if a != nil {
		a.busy = true
	}
	done := make(chan outcomeOfRun, 1)
	go call(req, handler, a, done)
	select {
	case o := <-done:
		if o.a != nil {
			o.a.busy = false
			admins[key] = o.a
		}
		return o.r, o.err
	case <-time.After(kit.CallTimeout):
		closeAdmin(req.Connection)
		go abandon(done, a)
		late := kit.NewResult()
		late.Threw(fmt.Errorf("sarama gave no answer to %s within %s", req.Op, kit.CallTimeout))
		return late, nil
	}
}

// call runs one op on its connection's ClusterAdmin, making one where none is kept (sarama's NewClusterAdmin
// reaches the cluster: its error is the observation), and sends what came of it on done.
func call(req *kit.Request, handler op, a *admin, done chan<- outcomeOfRun) {
	r := kit.NewResult()
	defer func() {
		if p := recover(); p != nil {
			log.Printf("panic in %s: %v\n%s", req.Op, p, debug.Stack())
			done <- outcomeOfRun{nil, fmt.Errorf("panic: %v", p), a}
		}
	}()
	if a == nil {
		adm, err := sarama.NewClusterAdmin(strings.Split(req.Connection.Bootstrap, ","), config(req.Connection))
		if err != nil {
			r.Threw(err)
			done <- outcomeOfRun{r, nil, nil}
			return
		}
		a = &admin{adm: adm}
	}
	err := handler(a.adm, req.Args, r)
	done <- outcomeOfRun{r, err, a}
}

// abandon closes the ClusterAdmin a call given up on made for itself (not kept, the one it was given closed
// aside already), whenever that call ends.
func abandon(done <-chan outcomeOfRun, kept *admin) {
	if o := <-done; o.a != nil && o.a != kept {
		o.a.adm.Close()
	}
}
