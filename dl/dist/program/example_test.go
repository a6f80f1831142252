package program_test

import (
	"os"

	"github.com/dlbd/dlbd/dl/dist/program"
)

// ExampleRegisterModule is what a notebook kernel's process does when it
// starts, its cells being packages of module "example.com/cells" in dir:
// then Run builds the program for a cell's function in that module.
func ExampleRegisterModule() {
	dir := os.Getenv("CELLS_MODULE_DIR") // wherever the kernel keeps the cells' module
	program.RegisterModule("example.com/cells", dir)
}
