package protocol

// Spec is the content of a kernel.json file, as described in
// https://jupyter-client.readthedocs.io/en/latest/kernels.html#kernelspecs.
// Package kernel/jupyter reads it back (embedded in its KernelSpec) and
// package kernel/kernelspec writes it.
type Spec struct {
	// Argv is the command line; Jupyter substitutes "{connection_file}"
	// and "{resource_dir}".
	Argv []string `json:"argv"`
	// DisplayName is what front-ends show, like "Go (Deep Learning y Big Data)".
	DisplayName string `json:"display_name"`
	// Language is the cells' language, like "go".
	Language string `json:"language"`
	// InterruptMode is "signal" (SIGINT to the kernel, the default when
	// empty) or "message" (interrupt_request on the control channel).
	InterruptMode string `json:"interrupt_mode,omitempty"`
	// Env is merged into the kernel's environment, overriding inherited
	// values; "${NAME}" in a value expands to the inherited NAME.
	Env map[string]string `json:"env,omitempty"`
	// Metadata is free-form.
	Metadata map[string]any `json:"metadata,omitempty"`
}
