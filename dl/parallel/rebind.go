package parallel

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/nn"
)

// rebind makes module m use other tensors as its parameters: every
// exported *dl.Tensor field, in m or in any module, slice or struct it
// holds, that points to from[i] is set to to[i].
//
// This is how FSDP gets a module to compute with the parameters it has
// just all-gathered: PyTorch's FSDP setattr's views of the gathered flat
// parameter onto the module (FlatParamHandle._use_unsharded_views) and
// swaps them back afterwards. nn.Module has no setter, so Go code does the
// same with reflection on the module's exported fields (nn's layers keep
// their parameters in exported fields such as Linear.Weight).
//
// It returns an error naming the first parameter it could not find, e.g.
// one kept in an unexported field.
//
// Course: "3D Parallelism y FSDP".
// Paper: Zhao et al. 2023, PyTorch FSDP (arXiv:2304.11277), Section 3.2 (flat parameters).
func rebind(m nn.Module, from, to []*dl.Tensor) error {
	idx := make(map[*dl.Tensor]int, len(from))
	for i, t := range from {
		idx[t] = i
	}
	found := make([]bool, len(from))
	seen := map[uintptr]bool{}
	tensorType := reflect.TypeFor[*dl.Tensor]()
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			if v.Type() == tensorType {
				t := v.Interface().(*dl.Tensor)
				if i, ok := idx[t]; ok && v.CanSet() {
					v.Set(reflect.ValueOf(to[i]))
					found[i] = true
				}
				return
			}
			if seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(m))
	for i, ok := range found {
		if !ok {
			return fmt.Errorf("parallel: cannot swap parameter %d (shape %v) of %T: it is not held in an exported *dl.Tensor field "+
				"(FSDP/ZeRO replace a module's parameters with views of their flat buffers; keep parameters in exported fields, as dl/nn's layers do)",
				i, from[i].Shape(), m)
		}
	}
	return nil
}

// children returns the modules a Sequential (or MLP) applies in order, or
// m alone for any other module: the units ZeRO and FSDP shard one by one,
// like FSDP's auto-wrap policy wrapping each layer.
func children(m nn.Module) []nn.Module {
	switch s := m.(type) {
	case *nn.Sequential:
		return s.Modules
	case *nn.MLP:
		return s.Modules
	}
	return []nn.Module{m}
}

// prefixNames returns the names of m's parameters prefixed for child i of
// a Sequential ("i.weight"), or unchanged when m is the whole model.
func prefixNames(ps []nn.NamedParameter, i int, whole bool) []string {
	out := make([]string, len(ps))
	for j, p := range ps {
		if whole {
			out[j] = p.Name
		} else {
			out[j] = strings.Join([]string{fmt.Sprint(i), p.Name}, ".")
		}
	}
	return out
}

// ModuleTo moves m's parameters to dev, in place, like torch's
// module.to(device): each parameter becomes a copy on dev (a leaf that
// requires grad) and the original is released. The parameters must be
// held in exported fields (see rebind). Pipeline stages use it to put
// their layers on their own device.
func ModuleTo(m nn.Module, dev dl.Device) error {
	from := nn.Parameters(m)
	to := make([]*dl.Tensor, len(from))
	dl.NoGrad(func() {
		for i, p := range from {
			if p.Device() == dev {
				to[i] = p
				continue
			}
			to[i] = p.To(dev).SetRequiresGrad(true)
		}
	})
	if err := rebind(m, from, to); err != nil {
		return err
	}
	for i, p := range from {
		if to[i] != p {
			p.Release()
		}
	}
	return nil
}
