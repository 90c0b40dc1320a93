"""Anomaly mode: ``detect_anomaly`` names the first backward node that returns NaN, as PyTorch."""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import minigrad


def _nan_distance(lib, **anomaly):
    """Backward of the distance between two equal points: sqrt sends inf, pow makes it NaN."""
    a = lib.tensor([1., 2.], requires_grad=True)
    b = lib.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with lib.autograd.detect_anomaly(**anomaly):
                ((a - b) ** 2).sum().sqrt().backward()
            error = None
        except RuntimeError as e:
            error = str(e)
    firsts = [str(w.message).splitlines()[0] for w in caught]
    return error, firsts, a.grad


def test_detect_anomaly_raises_at_the_first_node_returning_nan():
    error, warned, grad = _nan_distance(minigrad)
    assert error == "Function 'PowBackward0' returned nan values in its 0th output."
    assert warned[0].startswith("Anomaly Detection has been enabled.")
    assert warned[1] == ("Error detected in PowBackward0. Traceback of forward call that "
                         "caused the error:")
    assert grad is None  # the leaves were never reached


def test_without_anomaly_mode_the_nan_reaches_the_leaves():
    a = minigrad.tensor([1., 2.], requires_grad=True)
    ((a - minigrad.tensor([1., 2.])) ** 2).sum().sqrt().backward()
    assert np.isnan(a.grad.numpy()).all()


def test_check_nan_false_lets_the_nan_through_and_mode_is_restored():
    error, _, grad = _nan_distance(minigrad, check_nan=False)
    assert error is None and np.isnan(grad.numpy()).all()
    assert not minigrad.autograd.is_anomaly_enabled()


def test_set_detect_anomaly_is_a_switch_and_a_context_manager():
    x = minigrad.tensor(0., requires_grad=True)
    with minigrad.autograd.set_detect_anomaly(True):
        assert minigrad.autograd.is_anomaly_enabled()
        with pytest.raises(RuntimeError, match="'SqrtBackward0' returned nan values"), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (x.sqrt() * 0).backward()
    assert not minigrad.autograd.is_anomaly_enabled()


@pytest.mark.torch
def test_anomaly_mode_says_what_pytorch_says(torch):
    assert _nan_distance(minigrad)[:2] == _nan_distance(torch)[:2]
    assert _nan_distance(minigrad, check_nan=False)[0] == \
        _nan_distance(torch, check_nan=False)[0] is None


@pytest.mark.torch
def test_anomaly_mode_is_one_switch_for_every_thread_as_in_pytorch(torch):
    def seen_from_a_thread(lib):
        api = lib if lib is torch else lib.autograd  # (PyTorch has these at the top level)
        seen = []
        with lib.autograd.set_detect_anomaly(True, check_nan=False):
            worker = threading.Thread(target=lambda: seen.append(
                (api.is_anomaly_enabled(), api.is_anomaly_check_nan_enabled())))
            worker.start()
            worker.join()
        return seen, api.is_anomaly_enabled()

    assert seen_from_a_thread(minigrad) == seen_from_a_thread(torch) == ([(True, False)], False)


def test_the_warning_shows_the_forward_line_that_made_the_failing_node():
    a = minigrad.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with minigrad.autograd.detect_anomaly():
            squared = (a - a.detach()) ** 2  # the forward line the warning must show
            with pytest.raises(RuntimeError, match="'PowBackward0' returned nan"):
                squared.sum().sqrt().backward()
    text = str(caught[-1].message)
    assert text.startswith("Error detected in PowBackward0. Traceback of forward call")
    assert "squared = (a - a.detach()) ** 2" in text and "minigrad/_ops" not in text
    assert "squared = (a - a.detach()) ** 2" in squared.grad_fn.metadata["traceback_"][-1]


def test_outside_anomaly_mode_no_trace_is_kept():
    a = minigrad.tensor([1., 2.], requires_grad=True)
    assert "traceback_" not in (a * 2).grad_fn.metadata
