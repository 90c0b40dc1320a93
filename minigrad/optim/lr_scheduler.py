"""Learning-rate schedules: ``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``LambdaLR``.

A scheduler sets each parameter group's ``'lr'`` from the epoch count ``last_epoch``; call
``scheduler.step()`` once per epoch, after ``optimizer.step()``. As in PyTorch, ``StepLR``,
``MultiStepLR`` and ``ExponentialLR`` multiply the group's current ``'lr'`` by ``gamma`` at each
decay (so ``0.1 * 0.9 * 0.9 * 0.9`` prints ``0.07290000000000002``); ``step(epoch)`` uses the
closed form ``initial_lr * gamma ** n``.

>>> import minigrad as torch
>>> opt = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1)
>>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
>>> for _ in range(4):
...     opt.step(); sched.step()
>>> sched.get_last_lr()
[0.025]
"""

from __future__ import annotations

from .._torch_names import TorchNamed

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "LambdaLR"]


class LRScheduler(metaclass=TorchNamed):
    """Base class: subclasses give the closed form ``_lr_at(base_lr, epoch, index)``, and the
    chained ``_next_lr(lr, epoch, index)`` from the group's current ``lr`` if they have one."""

    def __init__(self, optimizer, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            if last_epoch == -1:
                group.setdefault("initial_lr", group["lr"])
            elif "initial_lr" not in group:
                raise KeyError("param 'initial_lr' is not specified in param_groups[0] when "
                               "resuming an optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self._is_initial = True
        self.step()
        self._is_initial = False

    def _lr_at(self, base_lr: float, epoch: int, index: int) -> float:
        raise NotImplementedError

    def _next_lr(self, lr: float, epoch: int, index: int) -> float:
        raise NotImplementedError

    def step(self, epoch=None) -> None:
        """Advance one epoch and set every group's learning rate."""
        self._step_count += 1
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        chained = epoch is None and type(self)._next_lr is not LRScheduler._next_lr
        for i, (group, base) in enumerate(zip(self.optimizer.param_groups, self.base_lrs)):
            group["lr"] = self._next_lr(group["lr"], self.last_epoch, i) if chained \
                else self._lr_at(base, self.last_epoch, i)
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def get_last_lr(self) -> list:
        """The learning rates set by the last ``step()``."""
        return self._last_lr

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)


class StepLR(LRScheduler):
    """``lr = initial_lr * gamma ** (epoch // step_size)``."""

    def __init__(self, optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def _lr_at(self, base_lr, epoch, index):
        return base_lr * self.gamma ** (epoch // self.step_size)

    def _next_lr(self, lr, epoch, index):
        return lr if epoch == 0 or epoch % self.step_size else lr * self.gamma


class MultiStepLR(LRScheduler):
    """``lr = initial_lr * gamma ** (number of milestones passed)``."""

    def __init__(self, optimizer, milestones, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.milestones, self.gamma = sorted(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def _lr_at(self, base_lr, epoch, index):
        return base_lr * self.gamma ** sum(1 for m in self.milestones if m <= epoch)

    def _next_lr(self, lr, epoch, index):
        n = self.milestones.count(epoch)
        return lr * self.gamma ** n if n else lr


class ExponentialLR(LRScheduler):
    """``lr = initial_lr * gamma ** epoch``."""

    def __init__(self, optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _lr_at(self, base_lr, epoch, index):
        return base_lr * self.gamma ** epoch

    def _next_lr(self, lr, epoch, index):
        return lr if self._is_initial else lr * self.gamma


class LambdaLR(LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``."""

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1) -> None:
        n = len(optimizer.param_groups)
        self.lr_lambdas = list(lr_lambda) if isinstance(lr_lambda, (list, tuple)) \
            else [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def _lr_at(self, base_lr, epoch, index):
        return base_lr * self.lr_lambdas[index](epoch)

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
