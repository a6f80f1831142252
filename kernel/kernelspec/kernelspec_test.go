package kernelspec

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/internal/checkout"
	"github.com/dlbd/dlbd/kernel/protocol"
)

func fakeRepo(t *testing.T, tools ...string) string {
	t.Helper()
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module "+checkout.ModulePath+"\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if err := os.WriteFile(filepath.Join(repo, "bin", tool), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

func TestInstallWritesKernelspec(t *testing.T) {
	repo := fakeRepo(t, RequiredTools...)
	o := InstallOptions{RepoDir: repo, Env: map[string]string{"DLBD_ASSETS": "/x/assets"}}
	if err := Install(context.Background(), o); err != nil {
		t.Fatalf("Install: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(repo, ".jupyter", "kernels", "dlbd", "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s protocol.Spec
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("kernel.json is not valid JSON: %v", err)
	}
	wantArgv := []string{filepath.Join(repo, "bin", "dlbd"), "launch", "--repo", repo, "{connection_file}"}
	if !slices.Equal(s.Argv, wantArgv) {
		t.Errorf("argv = %q; want %q", s.Argv, wantArgv)
	}
	if s.DisplayName != DisplayName || s.Language != "go" || s.InterruptMode != "message" {
		t.Errorf("spec = %+v; want display %q, language go, interrupt_mode message", s, DisplayName)
	}
	if s.Env["DLBD_ASSETS"] != "/x/assets" || s.Env["DLBD_REPO"] != repo {
		t.Errorf("env = %v; want DLBD_ASSETS and DLBD_REPO", s.Env)
	}
}

func TestInstallMissingToolNamesFix(t *testing.T) {
	repo := fakeRepo(t, "dlbd", "goimports")
	err := Install(context.Background(), InstallOptions{RepoDir: repo})
	if err == nil || !strings.Contains(err.Error(), "gonb") || !strings.Contains(err.Error(), "make kernel") {
		t.Fatalf("Install without bin/gonb: err = %v; want it to name bin/gonb and `make kernel`", err)
	}
}

func TestInstallRelativeRepoRejected(t *testing.T) {
	err := Install(context.Background(), InstallOptions{RepoDir: "relative/dir"})
	if err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Fatalf("Install(relative) err = %v; want an error saying the path must be absolute", err)
	}
}

func TestGonbVersionMatchesGoMod(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	want := "github.com/janpfeifer/gonb " + GonbVersion
	if !strings.Contains(string(data), want) {
		t.Errorf("go.mod does not require %q; update GonbVersion or go.mod", want)
	}
}

func TestKernelEnv(t *testing.T) {
	in := []string{"HOME=/home/s", "PATH=/usr/bin", "GOFLAGS=-mod=mod -trimpath", "GOWORK=/x/go.work", "GOPROXY=https://goproxy.example"}
	env := KernelEnv(in, "/repo", "/usr/local/go/bin", "/home/s/go/pkg/mod")
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	checks := map[string]string{
		"PATH":        "/repo/bin:/usr/local/go/bin:/usr/bin",
		"GOPROXY":     "file:///home/s/go/pkg/mod/cache/download,https://goproxy.example",
		"GOFLAGS":     "-trimpath",
		"GOTOOLCHAIN": "local",
		"HOME":        "/home/s",
	}
	for k, want := range checks {
		if got[k] != want {
			t.Errorf("%s = %q; want %q", k, got[k], want)
		}
	}
	if _, ok := got["GOWORK"]; ok {
		t.Error("GOWORK kept; GoNB must write its own go.work")
	}
	// Launching from a kernel (nested) must not stack the local proxy twice.
	again := KernelEnv(env, "/repo", "/usr/local/go/bin", "/home/s/go/pkg/mod")
	for _, kv := range again {
		if strings.HasPrefix(kv, "GOPROXY=") && strings.Count(kv, "file://") != 1 {
			t.Errorf("nested KernelEnv: %s; want one file:// entry", kv)
		}
	}
}

func TestKernelEnvDefaultProxy(t *testing.T) {
	env := KernelEnv([]string{"PATH=/bin"}, "/r", "/go/bin", "/m")
	if !slices.Contains(env, "GOPROXY=file:///m/cache/download,https://proxy.golang.org,direct") {
		t.Errorf("env = %q; want the default proxy after the local cache", env)
	}
}

func TestCommand(t *testing.T) {
	repo := fakeRepo(t, RequiredTools...)
	goDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(goDir, "go"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	o := LaunchOptions{RepoDir: repo, ConnectionFile: "/tmp/conn.json", GoModCache: "/m"}
	argv, env, err := Command(o, []string{"PATH=" + goDir})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(repo, "bin", "gonb"), "--kernel", "/tmp/conn.json", "--go_work=" + repo, "--raw_error"}
	if !slices.Equal(argv, want) {
		t.Errorf("argv = %q; want %q", argv, want)
	}
	if !slices.Contains(env, "PATH="+filepath.Join(repo, "bin")+":"+goDir+":"+goDir) {
		t.Errorf("env PATH wrong: %q", env)
	}
	if _, _, err := Command(o, []string{"PATH=/nonexistent"}); err == nil || !strings.Contains(err.Error(), "go command") {
		t.Errorf("Command without go on PATH: err = %v; want it to say the go command is missing", err)
	}
	o.ConnectionFile = ""
	if _, _, err := Command(o, []string{"PATH=" + goDir}); err == nil {
		t.Error("Command without a connection file succeeded")
	}
}

func TestLaunchDirectErrors(t *testing.T) {
	// A failure is returned before anything is exec'd.
	err := LaunchDirect(LaunchOptions{RepoDir: "relative", ConnectionFile: "/tmp/c.json"})
	if err == nil || !strings.Contains(err.Error(), "not absolute") {
		t.Errorf("LaunchDirect(relative repo) = %v; want an error saying the path is not absolute", err)
	}
}
