"""The generator itself as PyTorch has it: seeds (kept as unsigned 64-bit, the twister started
from the low 32 bits), ``initial_seed``, ``seed()``, and states that move between libraries."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import both_raise

import minigrad as mg


@pytest.mark.parametrize("seed", [0, 5, 2**32 + 5, 2**63, 2**64 - 1, -1, -2**63])
def test_initial_seed_and_first_draws_match_for_any_seed(torch, same_draws, seed):
    def program(lib):
        g = lib.Generator().manual_seed(seed)
        return [np.uint64(g.initial_seed()), lib.rand(4, generator=g)]

    same_draws(program)
    assert mg.manual_seed(seed) is mg.default_generator
    assert mg.initial_seed() == torch.manual_seed(seed).initial_seed()


def test_a_new_generator_starts_from_pytorchs_default_seed(same_draws):
    same_draws(lambda lib: [np.uint64(lib.Generator().initial_seed()),
                            lib.randn(5, generator=lib.Generator())])


def test_manual_seed_reads_numbers_as_pytorch_does(same_draws):
    def program(lib):
        lib.manual_seed(2.9)  # torch.manual_seed calls int() first
        return [np.uint64(lib.initial_seed()), lib.rand(2)]

    same_draws(program)


@pytest.mark.parametrize("seed", [1.5, "3", 2**64, -2**63 - 1])
def test_bad_seeds_raise_as_in_pytorch(torch, seed):
    both_raise(torch, lambda lib: lib.Generator().manual_seed(seed))


def test_seed_picks_a_new_seed_and_restarts_from_it():
    g = mg.Generator()
    s = g.seed()
    assert g.initial_seed() == s and 0 <= s < 2**64
    a = mg.rand(3, generator=g)
    assert mg.equal(a, mg.rand(3, generator=mg.Generator().manual_seed(s)))
    assert mg.Generator().seed() != s  # 64 bits from the operating system


def test_the_default_generator_starts_from_a_seed_of_the_system():
    import subprocess
    import sys

    code = "import minigrad; print(minigrad.initial_seed())"
    seeds = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout for _ in range(2)}
    assert len(seeds) == 2


def test_states_are_pytorchs_bytes_and_restore_in_either_library(torch):
    for lib_from, lib_to in ((torch, mg), (mg, torch)):
        g = lib_from.Generator().manual_seed(77)
        lib_from.randn(3, generator=g)  # leaves a cached normal in the state
        lib_from.rand(5, generator=g)
        state = lib_to.tensor(g.get_state().numpy())
        h = lib_to.Generator().set_state(state)
        assert h.initial_seed() == 77
        ours = [lib_to.randn(1, generator=h), lib_to.rand(700, generator=h)]
        theirs = [lib_from.randn(1, generator=g), lib_from.rand(700, generator=g)]
        for a, b in zip(ours, theirs):
            assert np.array_equal(a.numpy(), b.numpy())


def test_get_state_gives_the_same_bytes_as_pytorch(torch):
    def state(lib):
        g = lib.Generator().manual_seed(12)
        lib.randn(1, generator=g)
        lib.randint(0, 5, (9,), generator=g)
        return g.get_state().numpy().tobytes()

    assert state(mg) == state(torch)


def test_rng_state_functions_round_trip(same_draws):
    def program(lib):
        lib.manual_seed(1)
        saved = lib.get_rng_state()
        a = lib.randn(20)
        lib.set_rng_state(saved)
        return [a, lib.randn(20), lib.random.initial_seed()]

    same_draws(program)


@pytest.mark.parametrize("state", [
    lambda lib: [1, 2], lambda lib: lib.zeros(10, dtype=lib.uint8),
    lambda lib: lib.zeros(5056), lambda lib: lib.zeros(5057, dtype=lib.uint8)])
def test_bad_states_raise_as_in_pytorch(torch, state):
    both_raise(torch, lambda lib: lib.Generator().set_state(state(lib)))
