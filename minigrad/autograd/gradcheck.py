"""Numerical gradient checks (being completed)."""


class GradcheckError(RuntimeError):
    """Raised by gradcheck when analytical and numerical Jacobians differ."""


def gradcheck(*args, **kwargs):
    raise NotImplementedError("gradcheck is being written")


def gradgradcheck(*args, **kwargs):
    raise NotImplementedError("gradgradcheck is being written")
