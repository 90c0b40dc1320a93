"""Open fuzz differences in the pointwise area: pointwise/reduction/activation values and gradients at special values, node names (branch pointwise).

Keys and matching: known.py. Delete an entry when its fix lands (the brief run then guards it).
"""

KNOWN = {
    ('div', 'float+grad', 'requires_grad'): '.requires_grad',
    ('exp_', '0d+float+huge+size1', 'value'): '',
    ('fill_diagonal_', 'float+grad+nonleaf+scalar-nonfinite', 'grad_fn'): '.grad_fn',
    ('floor_', 'float+nan+nonfinite', 'value'): '',
    ('floor_divide', 'float+grad+scalar-nonfinite', 'value'): '',
    ('floor_divide_', 'float+grad+nan+nonfinite+nonleaf+scalar-nonfinite', 'value'): '',
    ('getitem', 'float+grad+noncontig+view', 'requires_grad'): '.requires_grad',
    ('lerp_', 'float+huge+inf+nonfinite', 'value'): '',
    ('median', 'float+nan+nonfinite', 'value'): '[N]',
    ('mul_', 'float+scalar-nonfinite+zero', 'value'): '',
    ('rsub', 'float+grad+nan+nonfinite', 'grad_fn'): '.grad_fn',
    ('sgn', 'float+grad', 'grad_fn'): '.grad_fn',
    ('sgn', 'float+nan+nonfinite', 'value'): '',
    ('std_mean', 'float+grad', 'grad_fn'): '[N].grad_fn',
    ('stride', 'empty+float', 'value'): '[N]',
    ('t_', '0d+float+grad+nan+nonfinite+nonleaf+size1', 'grad_fn'): '.grad_fn',
    ('topk', 'float+huge+inf+nan+nonfinite', 'value'): '[N]',
    ('transpose', 'float+grad+noncontig+view', 'requires_grad'): '.requires_grad',
    ('unsqueeze_', 'float+grad+nonleaf', 'grad_fn'): '.grad_fn',
    ('var_mean', 'float+grad', 'grad_fn'): '[N].grad_fn',
    ('xlogy', 'float+grad+nonleaf+scalar-bool+size1', 'grad_fn'): '.grad_fn',
}
