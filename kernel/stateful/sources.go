package stateful

import (
	"context"
	"fmt"
	"regexp"
)

// packageChanged finds the package a "different version" load error names.
var packageChanged = regexp.MustCompile(`different version of package (\S+)`)

// packageOf returns the package a "different version" load error names.
func packageOf(evalue string) string {
	if m := packageChanged.FindStringSubmatch(evalue); m != nil {
		return m[1]
	}
	return "a package of this module"
}

// checkSources looks for edits of the module's source since the host was
// built (a student changing dl mid-session). When the host program is no
// longer up to date, the session starts over with a new one, as after a
// load that failed for the same reason. Edits that do not reach the host
// (a notebook, a test) change nothing.
func (s *Session) checkSources(ctx context.Context, out Output) *Result {
	fp := s.fingerprint(s.o.Repo)
	if fp == s.sources {
		return nil
	}
	s.sources = fp
	bin, err := s.buildHost(ctx)
	if err != nil {
		r := errorResult("kernel", "this module's source changed and the kernel's process does not build any more: "+err.Error())
		return &r
	}
	if fileStamp(bin) == s.hostStamp {
		return nil
	}
	return s.sourceChanged(ctx, "this module", out)
}

// sourceChanged starts the session over after this module's source
// changed under it (pkg names what changed): a new host, an empty history,
// the package index read again, and a message for the student. It returns
// a result only when that fails.
func (s *Session) sourceChanged(ctx context.Context, pkg string, out Output) *Result {
	lost := lostValues(s.hist)
	if s.h != nil {
		s.h.stop(closeGrace)
		s.h = nil
	}
	out.Stream("stderr", fmt.Sprintf("The source of %s changed since this notebook's session started: the kernel's process was rebuilt with it. %s\n", pkg, lost))
	bin, err := s.buildHost(ctx)
	if err != nil {
		r := errorResult("kernel", err.Error())
		return &r
	}
	s.hostBin, s.hostStamp, s.sources = bin, fileStamp(bin), s.fingerprint(s.o.Repo)
	s.index.Reset()
	s.resetHistory()
	return nil
}
