package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// MinJava is the oldest Java major version the servers run on (Spark 4 and Kafka 4 need 17).
const MinJava = 17

// ErrNoJava is wrapped by Java when no usable java command is found.
var ErrNoJava = errors.New("java not found")

// JavaFix is the advice of every Java error.
const JavaFix = "run scripts/setup.sh (it installs Debian's default-jre-headless), or install Java 17 or 21 yourself: sudo apt-get install openjdk-17-jre-headless; or set JAVA_HOME"

var javaVersionRE = regexp.MustCompile(`version "(\d+)(?:\.(\d+))?`)

// Java returns the java command to use — explicit when not empty, else $JAVA_HOME/bin/java,
// else java on PATH — and its major version. It fails, naming the fix, when there is none
// or it is older than MinJava.
func Java(explicit string) (path string, major int, err error) {
	path = explicit
	if path == "" {
		if home := os.Getenv("JAVA_HOME"); home != "" {
			path = filepath.Join(home, "bin", "java")
		} else if p, lerr := exec.LookPath("java"); lerr == nil {
			path = p
		}
	}
	if path == "" {
		return "", 0, fmt.Errorf("%w on PATH (nor JAVA_HOME): %s", ErrNoJava, JavaFix)
	}
	if _, serr := os.Stat(path); serr != nil {
		return "", 0, fmt.Errorf("%w at %s: %s", ErrNoJava, path, JavaFix)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-version").CombinedOutput()
	if err != nil {
		return "", 0, fmt.Errorf("%w: %s -version failed (%v): %s", ErrNoJava, path, err, JavaFix)
	}
	m := javaVersionRE.FindSubmatch(out)
	if m == nil {
		return "", 0, fmt.Errorf("%w: cannot read the version in %q: %s", ErrNoJava, out, JavaFix)
	}
	major, _ = strconv.Atoi(string(m[1]))
	if major == 1 && m[2] != nil { // "1.8.0_392" is Java 8
		major, _ = strconv.Atoi(string(m[2]))
	}
	if major < MinJava {
		return "", 0, fmt.Errorf("%w: %s is Java %d, older than %d: %s", ErrNoJava, path, major, MinJava, JavaFix)
	}
	return path, major, nil
}
