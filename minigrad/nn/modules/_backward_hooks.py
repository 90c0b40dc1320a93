"""A module's backward hooks, as PyTorch runs them (``torch.utils.hooks.BackwardHook``).

``module.register_full_backward_hook(hook)`` calls ``hook(module, grad_input, grad_output)``
once the gradients of the module's tensor inputs are known; ``register_full_backward_pre_hook``
calls ``hook(module, grad_output)`` before them. Both may return replacements. To see those
gradients, the call wraps the module's tensor inputs, and then its outputs, in an identity
``BackwardHookFunction``: the graph gains ``BackwardHookFunctionBackward`` nodes, as PyTorch's
does, and the hooks sit on those nodes.

>>> import minigrad as torch
>>> layer = torch.nn.Linear(2, 1)
>>> _ = layer.register_full_backward_hook(lambda m, gin, gout: print(gout))
>>> out = layer(torch.ones(1, 2, requires_grad=True))
>>> out.grad_fn.name()
'BackwardHookFunctionBackward'
>>> out.sum().backward()
(tensor([[1.]]),)
"""

from __future__ import annotations

import warnings

from ..._tensor import Tensor
from ...autograd.function import Function
from ...autograd.grad_mode import is_grad_enabled

__all__ = ["BackwardHookFunction", "BackwardHook"]


class BackwardHookFunction(Function):
    """The identity; its node is where a module's backward hooks see the gradients."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        return args


def _pack_with_none(indices, values, size) -> tuple:
    res = [None] * size
    for idx, val in zip(indices, values):
        res[idx] = val
    return tuple(res)


class BackwardHook:
    """One module call's hooks: ``setup_input_hook(args)`` before ``forward``,
    ``setup_output_hook(result)`` after it."""

    def __init__(self, module, user_hooks, user_pre_hooks) -> None:
        self.module, self.user_hooks, self.user_pre_hooks = module, user_hooks, user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_tensors_index = self.output_tensors_index = None

    def _input_hook(self, grad_input, _):
        if self.grad_outputs is None:  # the gradient reached the inputs not through the outputs
            return None
        res = _pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                   f"got {len(out)}, but expected {len(res)}")
            res = out
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_tensors_index)

    def _output_hook(self, _, grad_output):
        self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_output,
                                            self.n_outputs)
        for pre_hook in self.user_pre_hooks:
            new = pre_hook(self.module, self.grad_outputs)
            if new is None:
                continue
            if len(new) != len(self.grad_outputs):
                raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(new)}, but expected {len(self.grad_outputs)}")
            self.grad_outputs = new
        local = self.grad_outputs
        if self.input_tensors_index is None:  # no input needs a gradient: call the hooks now
            warnings.warn("Full backward hook is firing when gradients are computed with respect "
                          "to module outputs since no inputs require gradients. See https://docs."
                          "pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module."
                          "register_full_backward_hook for more details.", stacklevel=5)
            grad_inputs = (None,) * self.n_inputs
            for hook in self.user_hooks:
                res = hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple) and
                                            all(el is None for el in res)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        return tuple(local[i] for i in self.output_tensors_index)

    def _apply_on_tensors(self, hook, args):
        index = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        tensors = [args[i] for i in index]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        if not tensors:
            raise RuntimeError("Cannot set Module backward hook for a Module with no input "
                               "Tensors.")
        new = BackwardHookFunction.apply(*tensors)
        next(t.grad_fn for t in new if t.grad_fn is not None).register_hook(hook)
        out = list(args)
        for i, t in zip(index, new):
            out[i] = t
        return tuple(out), index

    def setup_input_hook(self, args):
        res, self.input_tensors_index = self._apply_on_tensors(self._input_hook, args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, result):
        single = not isinstance(result, tuple)
        args = (result,) if single else result
        res, self.output_tensors_index = self._apply_on_tensors(self._output_hook, args)
        self.n_outputs = len(args)
        return res[0] if single else res
