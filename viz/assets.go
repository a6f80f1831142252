package viz

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EChartsVersion is the ECharts release that scripts/echarts/install.sh
// installs and that Init loads.
const EChartsVersion = "5.6.0"

// Environment variables that locate the ECharts library at run time. A
// notebook cell is compiled in a temporary directory, so paths relative to the
// module do not work; the kernelspec sets AssetsEnv.
const (
	// AssetsEnv names the assets directory given to scripts/echarts/install.sh;
	// the library is AssetsEnv/echarts/<EChartsVersion>/echarts.min.js.
	AssetsEnv = "DLBD_ASSETS"
	// EChartsFileEnv, when set, is the path of echarts.min.js itself.
	EChartsFileEnv = "DLBD_ECHARTS_JS"
)

// ErrEChartsMissing is wrapped by the error returned when the ECharts
// library cannot be found or is damaged.
var ErrEChartsMissing = errors.New("viz: ECharts library not installed")

// SetupError says why the ECharts library could not be loaded and which setup
// step installs it. It unwraps to ErrEChartsMissing.
type SetupError struct {
	Tried  []string // paths looked at, in order
	Reason string   // what was wrong
}

// Error names the paths tried and the fix.
func (e *SetupError) Error() string {
	return fmt.Sprintf("viz: ECharts %s not available: %s (tried %s); run `make kernel` in the dlbd repository "+
		"(it runs scripts/echarts/install.sh <repo>/.assets and sets %s in the kernelspec), then restart the kernel",
		EChartsVersion, e.Reason, strings.Join(e.Tried, ", "), AssetsEnv)
}

// Unwrap returns ErrEChartsMissing.
func (e *SetupError) Unwrap() error { return ErrEChartsMissing }

// LocateECharts returns the path of echarts.min.js: $DLBD_ECHARTS_JS if set,
// else $DLBD_ASSETS/echarts/<EChartsVersion>/echarts.min.js. It returns a
// *SetupError when neither names an existing file.
func LocateECharts() (string, error) {
	var tried []string
	if p := os.Getenv(EChartsFileEnv); p != "" {
		if regularFile(p) {
			return p, nil
		}
		tried = append(tried, "$"+EChartsFileEnv+"="+p)
	}
	dir := os.Getenv(AssetsEnv)
	if dir == "" {
		tried = append(tried, "$"+AssetsEnv+" (not set)")
		return "", &SetupError{Tried: tried, Reason: "$" + AssetsEnv + " is not set: the notebook is not running on the dlbd kernel, or the kernel was installed without it"}
	}
	p := filepath.Join(dir, "echarts", EChartsVersion, "echarts.min.js")
	if regularFile(p) {
		return p, nil
	}
	tried = append(tried, p)
	return "", &SetupError{Tried: tried, Reason: "file not found"}
}

// loadECharts reads the library and checks it: against the SHA-512 that the
// install script recorded beside it (when present), and for the version
// banner.
func loadECharts() ([]byte, error) {
	p, err := LocateECharts()
	if err != nil {
		return nil, err
	}
	lib, err := os.ReadFile(p)
	if err != nil {
		return nil, &SetupError{Tried: []string{p}, Reason: err.Error()}
	}
	if want, err := os.ReadFile(p + ".sha512"); err == nil {
		sum := sha512.Sum512(lib)
		if got := base64.StdEncoding.EncodeToString(sum[:]); got != strings.TrimSpace(string(want)) {
			return nil, &SetupError{Tried: []string{p}, Reason: "the file does not match its recorded SHA-512 (damaged or edited)"}
		}
	}
	if !bytes.Contains(lib, []byte(`"`+EChartsVersion+`"`)) {
		return nil, &SetupError{Tried: []string{p}, Reason: "the file is not ECharts " + EChartsVersion}
	}
	if unsafeInScript(string(lib)) {
		return nil, &SetupError{Tried: []string{p}, Reason: "the file contains </script or <!-- and cannot be inlined"}
	}
	return lib, nil
}

func regularFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Size() > 0
}
