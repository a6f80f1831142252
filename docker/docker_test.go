// Package docker_test checks what can be checked of the instructors' image without a Docker
// engine: every COPY source exists, every script the image runs is present and executable,
// the build context leaves host builds out, the Dockerfile passes hadolint, and the entry
// point syncs notebooks and sets up authentication as documented.
package docker_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const repo = ".."

// requireTool returns the path of a tool or skips; with DLBD_REQUIRE_KERNEL=1 (make test) a
// missing tool is a failure, since setup installs it.
func requireTool(t *testing.T, candidates ...string) string {
	t.Helper()
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	if os.Getenv("DLBD_REQUIRE_KERNEL") == "1" {
		t.Fatalf("none of %v found; scripts/setup.sh --test installs them", candidates)
	}
	t.Skipf("none of %v found (scripts/setup.sh --test installs them)", candidates)
	return ""
}

// instructions returns the Dockerfile's instructions with line continuations joined.
func instructions(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			cur.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
			continue
		}
		cur.WriteString(trimmed)
		out = append(out, cur.String())
		cur.Reset()
	}
	return out
}

func TestCopySourcesExist(t *testing.T) {
	n := 0
	for _, ins := range instructions(t) {
		f := strings.Fields(ins)
		if len(f) < 3 || (f[0] != "COPY" && f[0] != "ADD") {
			continue
		}
		var args []string
		fromStage := false
		for _, a := range f[1:] {
			if strings.HasPrefix(a, "--from=") {
				fromStage = true
			}
			if !strings.HasPrefix(a, "--") {
				args = append(args, a)
			}
		}
		if fromStage {
			continue
		}
		for _, src := range args[:len(args)-1] {
			n++
			if _, err := os.Stat(filepath.Join(repo, src)); err != nil {
				t.Errorf("%s: source %s does not exist in the build context (repo root)", ins, src)
			}
		}
	}
	if n == 0 {
		t.Fatal("no COPY from the build context found; the image would not contain the repository")
	}
}

func TestScriptsTheImageRunsAreExecutable(t *testing.T) {
	text := strings.Join(instructions(t), "\n")
	for _, p := range regexp.MustCompile(`/opt/dlbd/([\w/.-]+\.(?:sh|py))`).FindAllStringSubmatch(text, -1) {
		checkExecutable(t, p[1], strings.HasSuffix(p[1], ".sh"))
	}
	if !regexp.MustCompile(`(?m)^RUN .*\bscripts/setup\.sh\b`).MatchString(text) {
		t.Error("the image must run scripts/setup.sh, the same setup as `make notebook`")
	}
	checkExecutable(t, "scripts/setup.sh", true)
	// Scripts copied into the image run as commands (dlbd-with-ca).
	for _, ins := range instructions(t) {
		if f := strings.Fields(ins); len(f) >= 3 && f[0] == "COPY" && !strings.HasPrefix(f[1], "--from=") && strings.HasSuffix(f[1], ".sh") {
			checkExecutable(t, f[1], true)
		}
	}
}

func checkExecutable(t *testing.T, rel string, wantExec bool) {
	t.Helper()
	st, err := os.Stat(filepath.Join(repo, rel))
	if err != nil {
		t.Errorf("the image runs %s, which is missing: %v", rel, err)
		return
	}
	if !wantExec {
		return
	}
	if st.Mode()&0o111 == 0 {
		t.Errorf("%s is not executable", rel)
	}
	// The clone the image is built from takes its modes from git's index.
	if out, err := exec.Command("git", "-C", repo, "ls-files", "-s", rel).Output(); err == nil && len(out) > 0 && !strings.HasPrefix(string(out), "100755") {
		t.Errorf("%s is not executable in git (mode %s); git update-index --chmod=+x %s", rel, strings.Fields(string(out))[0], rel)
	}
}

func TestDockerignoreLeavesHostBuildsOut(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repo, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	for _, want := range []string{".git", ".venv", "bin", ".jupyter", ".assets", "build", ".kafka"} {
		if !lines[want] {
			t.Errorf(".dockerignore does not exclude %s (a host build would leak into the image)", want)
		}
	}
}

func TestHadolint(t *testing.T) {
	hadolint := requireTool(t, filepath.Join(repo, ".venv", "bin", "hadolint"), "hadolint")
	for _, f := range []string{"Dockerfile", filepath.Join("classroom", "Dockerfile")} {
		out, err := exec.Command(hadolint, "--no-color", "--config", "hadolint.yaml", f).CombinedOutput()
		if err != nil {
			t.Errorf("hadolint docker/%s: %v\n%s", f, err, out)
		}
	}
}

func TestShellcheck(t *testing.T) {
	sc := requireTool(t, "shellcheck")
	files, _ := filepath.Glob(filepath.Join(repo, "scripts", "*.sh"))
	more, _ := filepath.Glob(filepath.Join(repo, "scripts", "*", "*.sh"))
	here, _ := filepath.Glob("*.sh")
	classroom, _ := filepath.Glob(filepath.Join("classroom", "*.sh"))
	files = append(append(append(files, more...), here...), classroom...)
	// Warnings and errors fail; style notes (SC2002 …) and info (intended word splitting) do not.
	// -x follows the files the scripts source (scripts/docker/common.sh).
	out, err := exec.Command(sc, append([]string{"--severity=warning", "--external-sources"}, files...)...).CombinedOutput()
	if err != nil {
		t.Errorf("shellcheck %v: %v\n%s", files, err, out)
	}
}
