// Outcomes: a sarama error as the protocol names it.

package main

import (
	"errors"
	"regexp"
	"strings"

	"github.com/IBM/sarama"
	"kcompat/adapter/kit"
)

// kafkaError is the Kafka error an error carries (sarama wraps KError in TopicError, its own sentinel errors...).
func kafkaError(err error) (sarama.KError, bool) {
	var ke sarama.KError
	if errors.As(err, &ke) && ke != sarama.ErrNoError {
		return ke, true
	}
	return 0, false
}

// outcome is one resource's entry: no error, or the Kafka code and name its error carries (-1
// UNKNOWN_SERVER_ERROR for an error that carries none, as Kafka's Errors.forException has it); the message is the
// broker's where sarama kept it.
func outcome(name string, err error) *resource {
	e := &resource{Resource: name, ErrorName: "NONE", Fields: map[string]any{}}
	if err == nil {
		return e
	}
	if ke, ok := err.(sarama.KError); ok && ke == sarama.ErrNoError {
		return e
	}
	e.ErrorCode, e.ErrorName = -1, "UNKNOWN_SERVER_ERROR"
	if ke, ok := kafkaError(err); ok {
		e.ErrorCode, e.ErrorName = int(ke), kit.ErrorName(int16(ke))
	}
	message := err.Error()
	var topicErr *sarama.TopicError
	var partitionErr *sarama.TopicPartitionError
	if errors.As(err, &topicErr) && topicErr.ErrMsg != nil {
		message = *topicErr.ErrMsg
	} else if errors.As(err, &partitionErr) && partitionErr.ErrMsg != nil {
		message = *partitionErr.ErrMsg
	}
	e.ErrorMessage, e.Exception = kit.Text(message), kit.Text(kit.ExceptionName(err))
	return e
}

// each adds one resource's outcome of a call that answers for it alone: a Kafka error is the resource's, any
// other error the call's exception (the resource is left out, as the library said nothing of it).
func each(r *result, name string, err error) *resource {
	if err != nil {
		if _, ok := kafkaError(err); !ok {
			r.Threw(err)
			return nil
		}
	}
	e := outcome(name, err)
	r.Add(e)
	return e
}

var camel = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// upperSnake turns sarama's enum names into Kafka's: IdempotentWrite -> IDEMPOTENT_WRITE.
func upperSnake(s string) string { return strings.ToUpper(camel.ReplaceAllString(s, "${1}_${2}")) }
