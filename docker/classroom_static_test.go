package docker_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pin returns the version requirements file f pins for pkg (pkg==VERSION).
func pin(t *testing.T, f, pkg string) string {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(pkg) + `==([0-9][^\s;]*)`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s does not pin %s (%s==VERSION)", f, pkg, pkg)
	}
	return string(m[1])
}

// TestClassroomPinsOneJupyterHub: the hub's JupyterHub and the image's jupyterhub-singleuser
// are the same version (a different major version refuses to talk), in requirements.txt, its
// lock and the hub's requirements.
func TestClassroomPinsOneJupyterHub(t *testing.T) {
	image := pin(t, filepath.Join(repo, "requirements.txt"), "jupyterhub")
	lock := pin(t, filepath.Join(repo, "requirements.lock"), "jupyterhub")
	hub := pin(t, filepath.Join("classroom", "requirements.txt"), "jupyterhub")
	if image != lock || image != hub {
		t.Errorf("jupyterhub: requirements.txt %s, requirements.lock %s, docker/classroom/requirements.txt %s; want one version", image, lock, hub)
	}
	if !strings.HasPrefix(image, "5.") {
		t.Errorf("jupyterhub %s: z2jh-values.yaml and the README name chart 4.x, JupyterHub 5", image)
	}
}

// TestZ2JHValuesFitTheImage: the Zero to JupyterHub values run the image as it is built: its
// user and group, the home directory the volume goes over, the command its entry point knows.
func TestZ2JHValuesFitTheImage(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("classroom", "z2jh-values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"uid: 1000", "fsGid: 1000", "homeMountPath: /home/student", "cmd: jupyterhub-singleuser",
		"DLBD_WORK: /home/student/work", "mountPath: /dev/shm", "authenticator_class: nativeauthenticator.NativeAuthenticator"} {
		if !strings.Contains(text, want) {
			t.Errorf("z2jh-values.yaml lacks %q", want)
		}
	}
	df := strings.Join(instructions(t), "\n")
	for _, want := range []string{"useradd --create-home --uid 1000 --user-group --shell /bin/bash student", "DLBD_WORK=/home/student/work", "JUPYTER_PATH=/opt/dlbd/.jupyter"} {
		if !strings.Contains(df, want) {
			t.Errorf("docker/Dockerfile no longer has %q, which z2jh-values.yaml relies on", want)
		}
	}
}
