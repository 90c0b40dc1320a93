"""Open fuzz differences in the api area: saved_tensors_hooks, einsum/unique graphs, load (branch api).

Keys and matching: known.py. Delete an entry when its fix lands (the brief run then guards it).
"""

KNOWN = {
    ('einsum', 'float+grad', 'grad_fn'): '.grad_fn',
    ('einsum', '0d+float+grad+nonleaf+size1+zero', 'requires_grad'): '.requires_grad',
    ('unique', 'mg:None+pt:TypeError', 'exception'): "None/TypeError: _unique2(): argument 'sorted' must be bool, not ",
    ('unique', 'float+grad', 'requires_grad'): '[N].requires_grad',
    ('unique', 'float+huge+inf+nan+nonfinite', 'shape'): '[N].shape',
}
