package docker_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

type testCA struct{ path, pem string }

// writeTestCA writes a new self-signed CA certificate, as a proxy's would be, to a PEM file.
func writeTestCA(t *testing.T) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "dlbd test proxy CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	p := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	path := filepath.Join(t.TempDir(), "proxy-ca.pem")
	if err := os.WriteFile(path, []byte(p), 0o644); err != nil {
		t.Fatal(err)
	}
	return testCA{path, p}
}

// withCA runs docker/with-ca.sh with the script given to sh -c and DLBD_CA_CERTS=extra.
func withCA(t *testing.T, extra, script string) string {
	t.Helper()
	cmd := exec.Command("sh", "with-ca.sh", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "DLBD_CA_CERTS="+extra, "TMPDIR="+t.TempDir(), "DLBD_CA_KEEP=", "MAVEN_OPTS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("with-ca.sh: %v\n%s", err, out)
	}
	return string(out)
}

const systemBundle = "/etc/ssl/certs/ca-certificates.crt"

func TestWithCASetsEveryClientsBundle(t *testing.T) {
	if _, err := os.Stat(systemBundle); err != nil {
		t.Skipf("no system CA bundle here: %v", err)
	}
	ca := writeTestCA(t)
	// The host's whole bundle plus the proxy's CA, as make docker-test passes it.
	sys, _ := os.ReadFile(systemBundle)
	bundle := filepath.Join(t.TempDir(), "host-bundle.pem")
	if err := os.WriteFile(bundle, append(append([]byte{}, sys...), ca.pem...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := withCA(t, bundle, `for v in SSL_CERT_FILE PIP_CERT REQUESTS_CA_BUNDLE NODE_EXTRA_CA_CERTS npm_config_cafile GIT_SSL_CAINFO CURL_CA_BUNDLE; do
  eval "f=\$$v"; [ "$f" = "$SSL_CERT_FILE" ] || echo "$v differs: $f"; done
echo "certs $(grep -c 'BEGIN CERTIFICATE' "$SSL_CERT_FILE")"
grep -q "CAInfo \"$SSL_CERT_FILE\"" "$APT_CONFIG" || echo "apt: no CAInfo"
echo "dir $(dirname "$SSL_CERT_FILE")"
case "$MAVEN_OPTS" in *-Djavax.net.ssl.trustStore=*) ts=${MAVEN_OPTS#*trustStore=}; ts=${ts%% *}
  keytool -list -storepass changeit -keystore "$ts" 2>/dev/null | grep -c '^dlbd-extra' | sed 's/^/java extra /' ;;
  *) command -v keytool >/dev/null && echo "maven: no trust store" ;; esac
cat "$SSL_CERT_FILE"`)
	if strings.Contains(out, "differs") || strings.Contains(out, "apt: no CAInfo") || strings.Contains(out, "maven: no trust store") {
		t.Errorf("a client is not given the bundle:\n%s", firstLines(out, 12))
	}
	want := strings.Count(string(sys), "BEGIN CERTIFICATE") + 1
	if !strings.Contains(out, "certs "+strconv.Itoa(want)+"\n") {
		t.Errorf("bundle: want the system's %d certificates plus the proxy's, each once; got %s", want-1, firstLines(out, 3))
	}
	if !strings.Contains(out, ca.pem) {
		t.Error("the proxy's CA is not in the bundle")
	}
	if _, err := exec.LookPath("keytool"); err == nil && !strings.Contains(out, "java extra 1\n") {
		t.Errorf("maven's trust store: want exactly the one extra CA imported; got %s", firstLines(out, 12))
	}
	// The files are removed when the command ends (a build step leaves nothing in its layer).
	for _, l := range strings.Split(out, "\n") {
		if d, ok := strings.CutPrefix(l, "dir "); ok {
			if _, err := os.Stat(d); err == nil {
				t.Errorf("%s is left behind after the command", d)
			}
		}
	}
}

func TestWithCAWithoutCertificatesRunsTheCommandAsIs(t *testing.T) {
	out := withCA(t, filepath.Join(t.TempDir(), "absent.pem"), `echo "SSL_CERT_FILE=${SSL_CERT_FILE:-unset}"`)
	if want := "SSL_CERT_FILE=" + os.Getenv("SSL_CERT_FILE"); os.Getenv("SSL_CERT_FILE") == "" && !strings.Contains(out, "unset") || os.Getenv("SSL_CERT_FILE") != "" && !strings.Contains(out, want) {
		t.Errorf("no CA file: the environment must stay as it was; got %q", out)
	}
	notPEM := filepath.Join(t.TempDir(), "x.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "with-ca.sh", "true")
	cmd.Env = append(os.Environ(), "DLBD_CA_CERTS="+notPEM)
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "no PEM certificate") {
		t.Errorf("a file without certificates: err = %v, output %q; want a clear failure", err, b)
	}
}

func firstLines(s string, n int) string {
	l := strings.SplitN(s, "\n", n+1)
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "\n")
}
