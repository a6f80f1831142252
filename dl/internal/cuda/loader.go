package cuda

import (
	"os"
	"reflect"
	"sync"
)

// symbol binds one C function to a Go function variable.
type symbol struct {
	fn    any      // pointer to a func variable, e.g. &cuMemAlloc
	names []string // C names, preferred first (a versioned "_v2" before its fallback)
	// optional symbols may be absent (newer API); the variable stays nil.
	optional bool
}

// sym is a required symbol; opt an optional one.
func sym(fn any, names ...string) symbol { return symbol{fn: fn, names: names} }
func opt(fn any, names ...string) symbol { return symbol{fn: fn, names: names, optional: true} }

// library is one shared library, found and bound once per process.
type library struct {
	spec  libSpec
	syms  []symbol
	once  sync.Once
	path  string // where it was found
	err   error
	after func() error // run once after binding (cuInit for the driver)
}

// load finds, opens and binds the library once; later calls return the
// same result. Loading never panics: a missing library is an error value.
func (l *library) load() error {
	l.once.Do(func() {
		major := 0
		if l.spec.cudaMajor {
			major = driverMajor()
		}
		l.path, l.err = l.open(candidates(l.spec, major, os.Getenv, guessSites(os.Getenv)))
		if l.err != nil && l.spec.toolkit {
			// Last resort: ask Python where its packages are.
			if sites := pythonSites(); len(sites) > 0 {
				var err error
				if l.path, err = l.open(candidates(l.spec, major, func(string) string { return "" }, sites)); err == nil {
					l.err = nil
				}
			}
		}
		if l.err == nil && l.after != nil {
			l.err = l.after()
		}
	})
	return l.err
}

// open tries each candidate and binds the symbols of the first that loads.
func (l *library) open(cands []string) (string, error) {
	le := &LoadError{Lib: l.spec.display, Tried: cands, kind: l.spec.kind}
	for _, c := range cands {
		h, err := dlopen(c)
		if err != nil {
			if le.Reason == "" {
				le.Reason = err.Error()
			}
			continue
		}
		if missing := bindAll(h, l.syms); len(missing) > 0 {
			le.Tried, le.Missing = []string{c}, missing
			return "", le
		}
		return c, nil
	}
	if le.Reason == "" {
		le.Reason = "no candidates"
	}
	return "", le
}

// bindAll binds every symbol of the table and returns the required ones
// that are missing (by their preferred name).
func bindAll(h uintptr, table []symbol) (missing []string) {
	for _, s := range table {
		if !bindOne(h, s) && !s.optional {
			missing = append(missing, s.names[0])
		}
	}
	return missing
}

// bindOne registers the first of s.names that the library exports.
func bindOne(h uintptr, s symbol) bool {
	for _, n := range s.names {
		if addr, ok := dlsym(h, n); ok {
			register(s.fn, addr)
			return true
		}
	}
	return false
}

// bound reports whether the func variable behind fn has been set.
func bound(fn any) bool { return !reflect.ValueOf(fn).Elem().IsNil() }
