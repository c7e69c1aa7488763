// The surface `conn`: kafka-go's kafka.Conn, the path its README shows for topics (kafka.Dial to a bootstrap
// broker, conn.Controller, a Conn to the controller for CreateTopics and DeleteTopics, ReadPartitions to list).
//
// Conn sends the request versions its methods are written for and negotiates none: CreateTopics v0,
// DeleteTopics v0, Metadata v1 (ReadPartitions: v6 where the broker's ApiVersions offers it). A broker that
// dropped those versions closes the connection, and the call's answer is that error. Conn.CreateTopics and
// Conn.DeleteTopics return one error for the call (the first topic's; CreateTopics passes over
// TOPIC_ALREADY_EXISTS, its documented idempotence), recorded as each named topic's error. What Conn has no
// method for (configs, partitions, ACLs) is the client lacking it: NotImplementedError.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/sasl/plain"
	"kcompat/adapter/kit"
)

// connSurface is the request's surface name for kafka.Conn; kafka.Client is the default.
const connSurface = "conn"

var connOperations = map[string]func(*conns, json.RawMessage) (*result, error){
	"create_topics":    connCreateTopics,
	"delete_topics":    connDeleteTopics,
	"list_topics":      connListTopics,
	"describe_cluster": connDescribeCluster,
}

// conns is one connection's Conns, dialed on first use and kept between requests as an application keeps them:
// one to a bootstrap broker, one to the controller it names.
type conns struct {
	dialer     *kafka.Dialer
	bootstrap  []string
	broker     *kafka.Conn
	controller *kafka.Conn
}

func newConns(c *kit.Connection) *conns {
	dialer := &kafka.Dialer{Timeout: kit.CallTimeout, DialFunc: wire}
	if c.Username != nil {
		dialer.SASLMechanism = plain.Mechanism{Username: *c.Username, Password: kit.Deref(c.Password, "")}
	}
	return &conns{dialer: dialer, bootstrap: strings.Split(c.Bootstrap, ",")}
}

// callConn runs an op on the Conn surface; one the surface has no method for is the client lacking it.
func (cs *clients) callConn(req *kit.Request) (*result, error) {
	op, ok := connOperations[req.Op]
	if !ok {
		res := kit.NewResult()
		res.Exception = kit.Text("NotImplementedError")
		res.ExceptionMessage = kit.Text(fmt.Sprintf("kafka-go's kafka.Conn has no method for %s", req.Op))
		return res, nil
	}
	c, ok := cs.conns[req.Connection.Key()]
	if !ok {
		c = newConns(req.Connection)
		cs.conns[req.Connection.Key()] = c
	}
	res, err := op(c, req.Args)
	if res != nil && res.Exception != nil {
		c.close() // a connection that failed is in no known state: the next call dials again
	}
	return res, err
}

func (c *conns) close() {
	for _, conn := range []*kafka.Conn{c.broker, c.controller} {
		if conn != nil {
			conn.Close()
		}
	}
	c.broker, c.controller = nil, nil
}

// toBroker is the Conn to a bootstrap broker (the first that answers the dial), its deadline the call's.
func (c *conns) toBroker() (*kafka.Conn, error) {
	if c.broker == nil {
		ctx, cancel := callContext()
		defer cancel()
		var err error
		for _, host := range c.bootstrap {
			if c.broker, err = c.dialer.DialContext(ctx, "tcp", host); err == nil {
				break
			}
		}
		if c.broker == nil {
			return nil, err
		}
	}
	return c.broker, c.broker.SetDeadline(time.Now().Add(kit.CallTimeout))
}

// toController is the Conn to the controller the bootstrap broker's Metadata names, as kafka-go's README dials it.
func (c *conns) toController() (*kafka.Conn, error) {
	if c.controller == nil {
		broker, err := c.toBroker()
		if err != nil {
			return nil, err
		}
		controller, err := broker.Controller()
		if err != nil {
			return nil, err
		}
		if controller.Host == "" {
			return nil, errors.New("the broker's Metadata names no controller")
		}
		ctx, cancel := callContext()
		defer cancel()
		address := net.JoinHostPort(controller.Host, strconv.Itoa(controller.Port))
		if c.controller, err = c.dialer.DialContext(ctx, "tcp", address); err != nil {
			return nil, err
		}
	}
	return c.controller, c.controller.SetDeadline(time.Now().Add(kit.CallTimeout))
}

// connFailed records a Conn call's error: a Kafka error is every named resource's, any other the call's.
func connFailed(res *result, err error, names []string) *result {
	if err == nil {
		for _, name := range names {
			res.Resources = append(res.Resources, outcome(name, nil))
		}
		return res
	}
	return callFailed(res, err, names)
}

func connCreateTopics(c *conns, raw json.RawMessage) (*result, error) {
	var args struct {
		Topics       []newTopic `json:"topics"`
		ValidateOnly bool       `json:"validate_only"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	topics, names, err := topicConfigs(args.Topics)
	if err != nil {
		return nil, err
	}
	res := kit.NewResult()
	res.UnsupportedFields = map[string]string{"num_partitions": "kafka.Conn.CreateTopics",
		"replication_factor": "kafka.Conn.CreateTopics", "configs": "kafka.Conn.CreateTopics"}
	if args.ValidateOnly {
		res.Unsupported("validate_only") // Conn.CreateTopics takes topic configs only
	}
	controller, err := c.toController()
	if err != nil {
		return callFailed(res, err, names), nil
	}
	return connFailed(res, controller.CreateTopics(topics...), names), nil
}

func connDeleteTopics(c *conns, raw json.RawMessage) (*result, error) {
	var args struct {
		Names    []string `json:"names"`
		TopicIDs []string `json:"topic_ids"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := kit.NewResult()
	if len(args.TopicIDs) > 0 {
		res.Unsupported("topic_ids") // Conn.DeleteTopics takes names only
	}
	if len(args.Names) == 0 {
		return res, nil
	}
	controller, err := c.toController()
	if err != nil {
		return callFailed(res, err, args.Names), nil
	}
	return connFailed(res, controller.DeleteTopics(args.Names...), args.Names), nil
}

func connListTopics(c *conns, raw json.RawMessage) (*result, error) {
	args := struct {
		ListInternal bool `json:"list_internal"`
	}{ListInternal: true}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := kit.NewResult()
	res.ResultFields = []string{"partitions"}
	res.UnsupportedFields = map[string]string{"internal": "kafka.Partition"}
	if !args.ListInternal {
		res.Unsupported("list_internal") // ReadPartitions lists every topic Metadata gives
	}
	broker, err := c.toBroker()
	if err != nil {
		return callFailed(res, err, nil), nil
	}
	partitions, err := broker.ReadPartitions()
	if err != nil {
		return callFailed(res, err, nil), nil
	}
	counts := map[string]int{}
	for _, p := range partitions {
		counts[p.Topic]++
	}
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		entry := outcome(name, nil)
		entry.Fields["partitions"] = counts[name]
		res.Add(entry)
	}
	return res, nil
}

func connDescribeCluster(c *conns, raw json.RawMessage) (*result, error) {
	var args struct {
		IncludeAuthorizedOperations bool `json:"include_authorized_operations"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, err
	}
	res := kit.NewResult()
	res.ResultFields = []string{"nodes", "controller"}
	res.UnsupportedFields = map[string]string{"cluster_id": "kafka.Conn"} // its Metadata v1 carries none
	if args.IncludeAuthorizedOperations {
		res.Unsupported("include_authorized_operations")
	}
	broker, err := c.toBroker()
	if err != nil {
		return callFailed(res, err, []string{"cluster"}), nil
	}
	brokers, err := broker.Brokers()
	if err != nil {
		return callFailed(res, err, []string{"cluster"}), nil
	}
	controller, err := broker.Controller()
	if err != nil {
		return callFailed(res, err, []string{"cluster"}), nil
	}
	entry := outcome("cluster", nil)
	nodes := []int{}
	for _, b := range brokers {
		nodes = append(nodes, b.ID)
	}
	sort.Ints(nodes)
	entry.Fields["nodes"] = nodes
	entry.Fields["controller"] = nil // Controller is the zero Broker where Metadata names no live one
	if controller.Host != "" {
		entry.Fields["controller"] = controller.ID
	}
	res.Add(entry)
	return res, nil
}
