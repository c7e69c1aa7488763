// Outcomes: a franz-go error as the protocol names it.

package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"kcompat/adapter/kit"
)

// typeName is an error's Go type, the exception kcompat records; kgo's refusal of a request the broker lacks
// (its unexported errBrokerTooOld, a plain errors.New) is named after that variable, so that the kind can
// declare it as its refusal (harness/clients/kinds/franz_go/__init__.py).
func typeName(err error) string {
	if brokerTooOld(err) {
		return "kgo.errBrokerTooOld"
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", err), "*")
}

func brokerTooOld(err error) bool {
	if err == nil {
		return false
	}
	if strings.HasPrefix(err.Error(), "broker is too old") {
		return true
	}
	switch wrapped := err.(type) {
	case interface{ Unwrap() []error }:
		for _, inner := range wrapped.Unwrap() {
			if brokerTooOld(inner) {
				return true
			}
		}
	case interface{ Unwrap() error }:
		return brokerTooOld(wrapped.Unwrap())
	}
	return false
}

// outcome is one resource's entry: no error, or the Kafka code and name its error carries (-1
// UNKNOWN_SERVER_ERROR for an error that carries none, as Kafka's Errors.forException has it).
func outcome(name string, err error, message string) *resource {
	e := &resource{Resource: name, ErrorName: "NONE", Fields: map[string]any{}}
	if err == nil {
		return e
	}
	e.ErrorCode, e.ErrorName = -1, "UNKNOWN_SERVER_ERROR"
	var ke *kerr.Error
	if errors.As(err, &ke) {
		e.ErrorCode, e.ErrorName = int(ke.Code), ke.Message
		if message == "" {
			message = ke.Description
		}
	}
	if message == "" {
		message = err.Error()
	}
	e.ErrorMessage, e.Exception = kit.Text(message), kit.Text(typeName(err))
	return e
}

// isKafka says whether an error of a whole call carries a Kafka error code (the broker answered with one).
func isKafka(err error) bool {
	var ke *kerr.Error
	return errors.As(err, &ke)
}

// finish adds one entry per requested resource: its own, or the call's error for one the library gave none.
// A call that failed without a Kafka error and gave nothing is the call's exception.
func finish(r *result, requested []string, got map[string]*resource, err error) {
	if err != nil && !isKafka(err) && len(got) == 0 {
		r.Threw(err)
		return
	}
	for _, name := range requested {
		if e, ok := got[name]; ok {
			r.Add(e)
		} else if err != nil {
			r.Add(outcome(name, err, ""))
		} else {
			r.Add(outcome(name, errors.New("the library returned no result for "+name), ""))
		}
	}
}
