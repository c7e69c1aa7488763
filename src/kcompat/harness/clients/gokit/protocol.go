// Package kit is what every Go adapter of kcompat shares (docs/ADAPTERS.md): the protocol's loop and shapes, the
// call deadline, the connection wrapper that reads the request versions a library writes, and Kafka's error
// names. A library's program says only how it makes a call and keeps its clients (Serve's Adapter), and holds
// its handlers, one file per area. The build copies this directory into each adapter's module as
// kcompat/adapter/kit (harness/clients/gomodule.py).
package kit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Protocol is the version of docs/ADAPTERS.md this kit speaks.
const Protocol = 3

// CallTimeout bounds every library call: kcompat's KCOMPAT_ADAPTER_DEADLINE, 60 s where it gives none.
// kcompat waits longer for the answer, so a call that ends at this deadline is data: its answer says so in
// deadline_reached.
var CallTimeout = deadline()

func deadline() time.Duration {
	seconds, err := strconv.ParseFloat(os.Getenv("KCOMPAT_ADAPTER_DEADLINE"), 64)
	if err != nil || seconds <= 0 {
		return 60 * time.Second
	}
	return time.Duration(seconds * float64(time.Second))
}

// Connection is the cluster a request is for, and the configuration of the client that makes it: the library
// settings of its client reference (absent: the library's defaults) and the admin surface it drives (absent:
// the kind's default).
type Connection struct {
	Bootstrap string         `json:"bootstrap"`
	Username  *string        `json:"username"`
	Password  *string        `json:"password"`
	Settings  map[string]any `json:"settings"`
	Surface   string         `json:"surface"`
}

// Key tells connections apart: one client is kept per distinct (bootstrap, user, password, settings, surface).
func (c *Connection) Key() string {
	settings, _ := json.Marshal(c.Settings) // map keys are sorted: one configuration, one key
	return c.Bootstrap + "\x00" + Deref(c.Username, "") + "\x00" + Deref(c.Password, "") + "\x00" +
		string(settings) + "\x00" + c.Surface
}

// Setting is the text of one library setting of the connection; ok is false where the reference names none.
func (c *Connection) Setting(name string) (value string, ok bool) {
	v, ok := c.Settings[name]
	if !ok || v == nil {
		return "", false
	}
	if text, isText := v.(string); isText {
		return text, true
	}
	return fmt.Sprint(v), true
}

// Request is one request line; APIKeys are the APIs its operation sends, whose last version the answer reports.
type Request struct {
	ID         json.RawMessage `json:"id"`
	Op         string          `json:"op"`
	APIKeys    []int16         `json:"api_keys"`
	Connection *Connection     `json:"connection"`
	Args       json.RawMessage `json:"args"`
}

// Resource is one resource's entry of a result.
type Resource struct {
	Resource     string         `json:"resource"`
	ErrorCode    int            `json:"error_code"`
	ErrorName    string         `json:"error_name"`
	ErrorMessage *string        `json:"error_message"`
	Fields       map[string]any `json:"fields"`
	Exception    *string        `json:"exception"`
}

// Result is one call's answer.
type Result struct {
	RequestVersion     *int        `json:"request_version"`
	Resources          []*Resource `json:"resources"`
	ResultFields       []string    `json:"result_fields"`
	Exception          *string     `json:"exception"`
	ExceptionMessage   *string     `json:"exception_message"`
	UnsupportedOptions []string    `json:"unsupported_options"`
	// UnsupportedFields names result fields the library's API type has no way to carry, with that type.
	UnsupportedFields map[string]string `json:"unsupported_fields,omitempty"`
	// DeadlineReached is CallTimeout's seconds where the call returned only when that deadline expired.
	DeadlineReached *float64 `json:"deadline_reached,omitempty"`
}

func NewResult() *Result {
	return &Result{Resources: []*Resource{}, ResultFields: []string{}, UnsupportedOptions: []string{}}
}

func (r *Result) Add(e *Resource) { r.Resources = append(r.Resources, e) }

// Unsupported names an option the library can't express (once); the call is made without it.
func (r *Result) Unsupported(option string) {
	for _, known := range r.UnsupportedOptions {
		if known == option {
			return
		}
	}
	r.UnsupportedOptions = append(r.UnsupportedOptions, option)
}

// Threw records an error of the call as a whole (not of one resource).
func (r *Result) Threw(err error) {
	name, message := ExceptionName(err), err.Error()
	r.Exception, r.ExceptionMessage = &name, &message
}

// ReachedDeadline marks a call that returned only when CallTimeout expired.
func (r *Result) ReachedDeadline() {
	seconds := CallTimeout.Seconds()
	r.DeadlineReached = &seconds
}

// ExceptionName is the exception kcompat records for an error: its Go type, unless a library names some
// otherwise (franz-go names an unexported sentinel after its variable).
var ExceptionName = func(err error) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", err), "*")
}

func Text(s string) *string { return &s }

func Deref(s *string, otherwise string) string {
	if s == nil {
		return otherwise
	}
	return *s
}

// ModuleVersion is the version of a module linked into this program, as the build recorded it ("v1.2.3").
func ModuleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == path {
				if dep.Replace != nil {
					return dep.Replace.Version
				}
				return dep.Version
			}
		}
	}
	return "unknown"
}

// Adapter is one library behind the protocol.
type Adapter struct {
	Release    string         // the library's release, the ready line's "ready"
	Operations []string       // the operations it implements
	Ready      map[string]any // more keys of the ready line
	// Call makes one call of a declared operation with a connection, bounded by CallTimeout; an error is the
	// adapter's failure (an argument it can't read), never the library's.
	Call     func(req *Request) (*Result, error)
	Close    func(c *Connection) // closes the client kept for c, if any
	CloseAll func()              // at the end of stdin
}

// Serve writes the ready line, answers each request line in turn until stdin ends, then closes every client.
func Serve(a Adapter) {
	log.SetOutput(os.Stderr) // stdout carries protocol lines only
	out := bufio.NewWriter(os.Stdout)
	names := append([]string{}, a.Operations...)
	sort.Strings(names)
	ready := map[string]any{"ready": a.Release, "protocol": Protocol, "operations": names}
	for key, value := range a.Ready {
		ready[key] = value
	}
	write(out, ready)
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			write(out, a.answer(line))
		}
		if err != nil {
			break
		}
	}
	a.CloseAll()
}

func write(out *bufio.Writer, v any) {
	line, err := json.Marshal(v)
	if err != nil {
		log.Printf("can't encode an answer: %v", err)
		line, _ = json.Marshal(map[string]any{"failure": map[string]string{"class": "json", "message": err.Error()}})
	}
	out.Write(append(line, '\n'))
	out.Flush()
}

// answer is one answer line for one request line; whatever goes wrong is a failure answer, never a crash.
func (a Adapter) answer(line []byte) (reply map[string]any) {
	var req Request
	reply = map[string]any{"id": nil}
	defer func() {
		if p := recover(); p != nil {
			log.Printf("panic in %s: %v\n%s", req.Op, p, debug.Stack())
			delete(reply, "result")
			reply["failure"] = map[string]string{"class": "panic", "message": fmt.Sprint(p)}
		}
	}()
	if err := json.Unmarshal(line, &req); err != nil {
		reply["failure"] = map[string]string{"class": "json", "message": err.Error()}
		return reply
	}
	reply["id"] = req.ID
	r, err := a.run(&req)
	if err != nil {
		reply["failure"] = map[string]string{"class": ExceptionName(err), "message": err.Error()}
		return reply
	}
	reply["result"] = r
	return reply
}

// run answers close itself; any other declared op is the library's call, its request version read off the
// frames written meanwhile (the request's API keys), its deadline noted where it returned only then.
func (a Adapter) run(req *Request) (*Result, error) {
	if req.Op == "close" {
		if req.Connection != nil {
			a.Close(req.Connection)
		}
		return NewResult(), nil
	}
	if !a.declares(req.Op) {
		return nil, fmt.Errorf("unknown op %q", req.Op)
	}
	if req.Connection == nil || req.Connection.Bootstrap == "" {
		return nil, errors.New("this op needs a connection")
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("{}")
	}
	mark, started := Requests.Mark(), time.Now()
	r, err := a.Call(req)
	if err != nil {
		return nil, err
	}
	r.RequestVersion = Requests.Since(mark, req.APIKeys...)
	if time.Since(started) >= CallTimeout {
		r.ReachedDeadline()
	}
	return r, nil
}

func (a Adapter) declares(op string) bool {
	for _, name := range a.Operations {
		if name == op {
			return true
		}
	}
	return false
}
