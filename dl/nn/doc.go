// Package nn holds dl's layers and their checkpoints: modules with named
// parameters and state dicts saved as safetensors files that Python opens.
//
// # Overview
//
// Names follow PyTorch ("0.weight", "layers.1.bias"), so a state dict saved
// here loads into the matching torch module with
// safetensors.torch.load_file and load_state_dict. Initialisations are
// PyTorch's defaults (Linear and Conv2d: kaiming_uniform_(a=√5) weights,
// that is U(−1/√fan_in, 1/√fan_in), and the same bound for the bias;
// BatchNorm2d: weight ones, bias zeros).
//
// Loading is all-or-nothing: the checkpoint is read and compared with the
// module in full (missing keys, unexpected keys, shape and dtype
// mismatches, all listed at once in a *[StateDictError]) before any
// parameter is written.
//
// [Module] is the interface; [Linear], [Sequential], [MLP], [Embedding],
// [LayerNorm], [Dropout], the activations ([ReLU], [GELU], [Tanh],
// [Sigmoid]), the causal Transformer [Block] and the convolutional layers
// ([Conv2d], [MaxPool2d], [AvgPool2d], [AdaptiveAvgPool2d], [BatchNorm2d],
// [Flatten]) implement it. Modules with state that is not trained
// (BatchNorm2d's running statistics) are [BufferModule]s; [NamedBuffers]
// lists their buffers with PyTorch's state-dict names. [Save] and
// [Load] write and read safetensors files; [StateDict] and [LoadStateDict]
// do the same in memory. Parameters are created as [InitConfig] says
// (dtype, device, generator). testdata/mlp_step_anchor.py is the PyTorch
// anchor of the MLP training-step benchmark; testdata/conv_reference.py
// writes the PyTorch results the convolutional layers are tested against.
//
// # Errors
//
// A checkpoint that does not fit the module is a *[StateDictError]; file
// problems come from package dl/safetensors (errors wrapping
// safetensors.ErrFormat, or I/O errors).
//
// # Concepts
//
// Course: "Almacenamiento para pipelines de DL" (checkpoints),
// "Prácticas de eficiencia computacional" and "Redes convolucionales".
// Paper: He et al. 2015, Delving Deep into Rectifiers (arXiv:1502.01852),
// for the Kaiming initialisation; Ioffe and Szegedy 2015, Batch
// Normalization (arXiv:1502.03167).
package nn
