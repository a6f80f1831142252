package nn

import "strconv"

// BufferModule is a Module with buffers: tensors that belong to the
// module's state but are not trained, like those of torch's
// register_buffer (BatchNorm2d's running statistics).  An optimiser never
// sees them (they are not in NamedParameters); PyTorch's state_dict
// lists them after the parameters.
type BufferModule interface {
	Module
	// NamedBuffers returns the buffers with PyTorch's names
	// ("running_mean"), always in the same order.
	NamedBuffers() []NamedParameter
}

// NamedBuffers returns the buffers of m and of its descendants through
// Sequential (and MLP) children, named as in PyTorch's state dict
// ("1.running_mean"), like torch's module.named_buffers().  Modules
// without buffers contribute nothing.
func NamedBuffers(m Module) []NamedParameter {
	switch s := m.(type) {
	case BufferModule:
		return s.NamedBuffers()
	case *Sequential:
		return sequentialBuffers(s)
	case *MLP:
		return sequentialBuffers(&s.Sequential)
	}
	return nil
}

func sequentialBuffers(s *Sequential) []NamedParameter {
	var out []NamedParameter
	for i, c := range s.Modules {
		out = append(out, prefixed(strconv.Itoa(i), NamedBuffers(c))...)
	}
	return out
}
