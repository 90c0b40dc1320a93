"""Saving and loading a module's state: ``Module.state_dict()`` and ``load_state_dict()``.

A state dict maps dotted names (``'0.weight'``, ``'fc.bias'``) to tensors: each module's own
parameters, then its persistent buffers, then its sub-modules' entries, as in PyTorch.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from ..._tensor import Tensor

__all__ = ["save", "load"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it did not find, and those it did not use."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _own_state(module) -> dict:
    """The module's own parameters and persistent buffers (not its sub-modules'), by name."""
    own = {name: p for name, p in module._parameters.items() if p is not None}
    own.update((name, b) for name, b in module._buffers.items()
               if b is not None and name not in module._non_persistent_buffers_set)
    return own


def save(module, destination, prefix: str, keep_vars: bool):
    if destination is None:
        destination = OrderedDict()
        destination._metadata = OrderedDict()
    destination._metadata[prefix[:-1]] = {"version": module._version}
    for name, t in _own_state(module).items():
        destination[prefix + name] = t if keep_vars else t.detach()
    for name, child in module._modules.items():
        if child is not None:
            save(child, destination, prefix + name + ".", keep_vars)
    return destination


def load(module, state_dict, strict: bool) -> _IncompatibleKeys:
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing, unexpected, errors = [], [], []
    for prefix, sub in module.named_modules(remove_duplicate=False):
        _load_own_state(sub, state_dict, prefix + "." if prefix else "", missing, unexpected,
                        errors)
    if strict:
        if unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                ", ".join(f'"{k}"' for k in unexpected)))
        if missing:
            errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                ", ".join(f'"{k}"' for k in missing)))
    if errors:
        raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
            module._get_name(), "\n\t".join(errors)))
    return _IncompatibleKeys(missing, unexpected)


def _load_own_state(module, state_dict, prefix, missing, unexpected, errors) -> None:
    own = _own_state(module)
    for name, target in own.items():
        key = prefix + name
        if key not in state_dict:
            missing.append(key)
            continue
        source = state_dict[key]
        if not isinstance(source, Tensor):
            errors.append(f'While copying the parameter named "{key}", expected '
                          "torch.Tensor or Tensor-like object from checkpoint but "
                          f"received {type(source)}")
        elif source.shape != target.shape:
            errors.append(f"size mismatch for {key}: copying a param with shape "
                          f"{source.shape} from checkpoint, the shape in current model is "
                          f"{target.shape}.")
        else:  # an in-place copy that autograd does not see, as under no_grad
            target._data[...] = source._data
            target._vc[0] += 1
    for key in state_dict:
        if key.startswith(prefix):
            first = key[len(prefix):].split(".", 1)[0]
            if first not in module._modules and first not in own:
                unexpected.append(key)
