"""The public names of torch, torch.Tensor, torch.nn.functional and torch.autograd that the
tutorials learners run use: PyTorch's beginner tutorials (tensors, autograd, building and
training a network, data loading, saving), d2l (zh/en) chapters 2-4 and 5 (preliminaries,
linear networks, MLPs, builders' guide), micrograd's tests, and the seed tutorials. Names found
in the programs under tests/fidelity/tutorials/ and tests/lessons/seeds/ are added to these.
"""

TORCH = """
tensor Tensor as_tensor from_numpy zeros ones zeros_like ones_like full full_like empty
empty_like eye arange linspace rand randn randint randperm rand_like randn_like normal
manual_seed Generator seed initial_seed is_tensor numel cat concat stack split chunk unbind
reshape squeeze unsqueeze transpose permute flatten t where masked_select gather index_select
matmul mm bmm dot mv outer einsum tensordot add sub mul div true_divide neg pow exp log sqrt
rsqrt sin cos tan tanh sigmoid relu abs clamp clip floor ceil round trunc sign log1p expm1
log2 log10 atan atan2 asin acos sinh cosh erf maximum minimum max min amax amin argmax argmin
sum mean prod std var norm cumsum cumprod logsumexp median sort argsort topk unique flip roll
tril triu diag diagonal hstack vstack eq ne lt le gt ge equal allclose isclose isnan isinf
isfinite nan_to_num all any logical_and logical_or logical_not softmax log_softmax no_grad
enable_grad set_grad_enabled is_grad_enabled inference_mode float32 float64 float int64 int32
long int bool uint8 double float16 half dtype Size device get_default_dtype set_default_dtype
set_printoptions save load cuda backends accelerator set_default_device get_default_device
autograd nn optim utils clone detach subtract multiply divide remainder fmod floor_divide
hypot xlogy fmax fmin lerp addcmul addmm unique_consecutive is_floating_point
FloatTensor DoubleTensor LongTensor IntTensor ByteTensor BoolTensor HalfTensor
""".split()

TENSOR = """
shape size dim ndim dtype device requires_grad grad grad_fn is_leaf data item tolist numpy
backward retain_grad register_hook requires_grad_ detach detach_ clone contiguous view
view_as reshape reshape_as expand expand_as squeeze unsqueeze transpose permute t T mT
flatten repeat tile split chunk narrow to cpu cuda float double long int bool half type
type_as numel element_size is_contiguous stride zero_ fill_ copy_ add_ sub_ mul_ div_ pow_
clamp_ normal_ uniform_ add sub mul div pow exp log sqrt abs neg relu sigmoid tanh softmax
log_softmax sum mean prod max min amax amin argmax argmin std var norm cumsum all any eq ne
gt lt ge le matmul mm dot masked_fill masked_fill_ index_select gather sort argsort topk
floor ceil round clamp clip sign sin cos log1p exp_ new_zeros new_ones new_full new_tensor
unique flip roll tril triu diagonal unflatten t_ unsqueeze_ addcmul_ lerp_ fill_diagonal_
is_floating_point register_post_accumulate_grad_hook output_nr _version _base _is_view
unique_consecutive retains_grad is_inference resize_ nelement
__add__ __sub__ __mul__ __truediv__ __floordiv__ __mod__ __pow__ __matmul__ __neg__
__getitem__ __setitem__ __len__ __iter__ __bool__ __float__ __int__ __index__ __repr__
""".split()

FUNCTIONAL = """
relu tanh sigmoid softmax log_softmax dropout linear mse_loss nll_loss cross_entropy
binary_cross_entropy binary_cross_entropy_with_logits l1_loss smooth_l1_loss huber_loss
embedding layer_norm batch_norm one_hot leaky_relu gelu silu softplus elu conv2d max_pool2d
avg_pool2d pad normalize cosine_similarity conv1d adaptive_avg_pool2d dropout2d relu6 hardtanh
logsigmoid softmin mish hardswish hardsigmoid selu celu conv_transpose2d max_pool1d avg_pool1d
adaptive_max_pool2d interpolate unfold fold kl_div cross_entropy group_norm instance_norm
dropout1d prelu glu logsigmoid softsign tanhshrink threshold
""".split()

# torch.nn: the layers, containers and losses of a first deep-learning course (PyTorch's
# beginner tutorials and "What is torch.nn really?", d2l chapters 3-8 (CNNs, LeNet, AlexNet,
# VGG, NiN, GoogLeNet, batch norm, ResNet) and the classic Chinese tutorial repositories)
NN = """
Module Parameter Linear Identity Sequential ModuleList ModuleDict ParameterList ParameterDict
Flatten Unflatten ReLU LeakyReLU PReLU ELU SELU CELU GELU SiLU Mish Softplus Hardtanh ReLU6
Sigmoid Tanh LogSigmoid Softmax Softmin LogSoftmax Hardswish Hardsigmoid Softsign Tanhshrink
Threshold Dropout Dropout1d Dropout2d Conv1d Conv2d Conv3d ConvTranspose2d MaxPool1d MaxPool2d
AvgPool1d AvgPool2d AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveMaxPool2d BatchNorm1d
BatchNorm2d LayerNorm GroupNorm InstanceNorm2d LocalResponseNorm Embedding RNN LSTM GRU
MSELoss L1Loss CrossEntropyLoss NLLLoss BCELoss BCEWithLogitsLoss HuberLoss SmoothL1Loss
KLDivLoss Upsample ZeroPad2d init functional utils
""".split()

# torch.nn.init
INIT = """
uniform_ normal_ constant_ ones_ zeros_ eye_ dirac_ xavier_uniform_ xavier_normal_
kaiming_uniform_ kaiming_normal_ trunc_normal_ orthogonal_ sparse_ calculate_gain
""".split()

AUTOGRAD = """
grad backward Function Variable functional graph gradcheck gradgradcheck no_grad enable_grad
set_grad_enabled inference_mode set_detect_anomaly detect_anomaly function
""".split()

# torch.autograd.graph: what PyTorch's "Autograd mechanics" notes and torchviz use
GRAPH = """
Node saved_tensors_hooks save_on_cpu disable_saved_tensors_hooks register_multi_grad_hook
GradientEdge get_gradient_edge increment_version
""".split()

# torch.autograd.functional: what d2l's and PyTorch's higher-order examples use
AUTOGRAD_FUNCTIONAL = """
jacobian hessian vjp jvp hvp vhp
""".split()
