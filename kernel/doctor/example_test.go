package doctor_test

import (
	"os"

	"github.com/dlbd/dlbd/kernel/doctor"
)

// ExampleReport_WriteTo shows the lines `dlbd doctor` prints.
func ExampleReport_WriteTo() {
	r := doctor.Report{Checks: []doctor.Check{
		{Name: doctor.CheckKernelspec, OK: true, Detail: `dlbd in /repo/.jupyter/kernels/dlbd ("Go (Deep Learning y Big Data)")`},
		{Name: doctor.CheckStart, Detail: "jupyter: kernel process 42 exit status 1; its last output:\ngo: not found",
			Fix: "run `make kernel` in /repo"},
	}}
	r.WriteTo(os.Stdout)
	// Output:
	// ✓ kernelspec: dlbd in /repo/.jupyter/kernels/dlbd ("Go (Deep Learning y Big Data)")
	// ✗ kernel start: jupyter: kernel process 42 exit status 1; its last output:
	//       go: not found
	//     what to do: run `make kernel` in /repo
	// 1 of 2 checks failed
}
