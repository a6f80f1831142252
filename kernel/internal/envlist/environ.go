package envlist

import "strings"

// List is an environment whose keys keep their order. The zero value is an
// empty environment, ready to use.
type List struct {
	keys []string          // in order of first appearance; may hold unset keys
	vals map[string]string // the keys that are set
}

// Parse returns the environment environ (entries "KEY=value").
func Parse(environ []string) *List {
	l := &List{vals: make(map[string]string, len(environ))}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		l.Set(k, v)
	}
	return l
}

// Get returns the value of key and whether it is set.
func (l *List) Get(key string) (string, bool) {
	v, ok := l.vals[key]
	return v, ok
}

// Set sets key to value; a new key goes to the end.
func (l *List) Set(key, value string) {
	if l.vals == nil {
		l.vals = map[string]string{}
	}
	if _, ok := l.vals[key]; !ok {
		l.keys = append(l.keys, key)
	}
	l.vals[key] = value
}

// Unset removes key.
func (l *List) Unset(key string) {
	if _, ok := l.vals[key]; !ok {
		return
	}
	delete(l.vals, key)
	for i, k := range l.keys {
		if k == key {
			l.keys = append(l.keys[:i], l.keys[i+1:]...)
			break
		}
	}
}

// Environ returns the list as "KEY=value" entries, each key once.
func (l *List) Environ() []string {
	out := make([]string, 0, len(l.keys))
	for _, k := range l.keys {
		out = append(out, k+"="+l.vals[k])
	}
	return out
}
