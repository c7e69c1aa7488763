package kit

import (
	"strconv"
	"strings"
)

// ConfigTarget is a config resource as the protocol names it (ConfigTarget in harness/clients/base.py).
type ConfigTarget struct {
	ResourceType string `json:"resource_type"`
	Name         string `json:"name"`
}

// Kind is the target's resource type in kcompat's spelling ("topic", "broker_logger").
func (t ConfigTarget) Kind() string { return strings.ToLower(t.ResourceType) }

func (t ConfigTarget) Label() string { return t.Kind() + ":" + t.Name }

// TopicPartition is one partition as the protocol names it.
type TopicPartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

func DashLabel(t string, p int32) string  { return t + "-" + strconv.Itoa(int(p)) }
func ColonLabel(t string, p int32) string { return t + ":" + strconv.Itoa(int(p)) }

// ErrorName is Kafka's name for an error code; a code the table lacks is named as kcompat names one it does
// not know (harness/clients/base.py error_name).
func ErrorName(code int16) string {
	if name, ok := errorNames[code]; ok {
		return name
	}
	if code > 0 {
		return "UNKNOWN_SERVER_ERROR_" + strconv.Itoa(int(code))
	}
	return "CLIENT_ERROR_" + strconv.Itoa(int(code))
}

// ConfigSources and ConfigValueTypes are Kafka's names of DescribeConfigs' enums, by wire value (libraries name
// them their own way).
var ConfigSources = []string{"UNKNOWN", "DYNAMIC_TOPIC_CONFIG", "DYNAMIC_BROKER_CONFIG",
	"DYNAMIC_DEFAULT_BROKER_CONFIG", "STATIC_BROKER_CONFIG", "DEFAULT_CONFIG", "DYNAMIC_BROKER_LOGGER_CONFIG",
	"CLIENT_METRICS_CONFIG", "GROUP_CONFIG"}
var ConfigValueTypes = []string{"UNKNOWN", "BOOLEAN", "STRING", "INT", "SHORT", "LONG", "DOUBLE", "LIST", "CLASS",
	"PASSWORD"}

// Named is Kafka's name of an enum value by its wire value, UNKNOWN past the end.
func Named(names []string, value int) string {
	if value >= 0 && value < len(names) {
		return names[value]
	}
	return "UNKNOWN"
}
