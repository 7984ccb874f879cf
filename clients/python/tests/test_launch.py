"""ktune.launch without a GPU: a fake CuPy records what would run."""

from __future__ import annotations

import sys
import types
import unittest
from unittest import mock

import ktune
from ktune.launch import kernel_args, parameter_types

SOURCE = """
typedef KT_VALUE value_t;
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
spmv_row(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
         const value_t* __restrict__ values, const value_t* __restrict__ x,
         value_t* __restrict__ y) {}
extern "C" __global__ void step(long long n, value_t scale, int iteration,
                                int* __restrict__ counter) {}
"""
OPTIONS = ["-DKT_VALUE=double", "-DKT_BLOCK=128", "--gpu-architecture=sm_90", "-std=c++17"]
CSR = ("row_ptr", "col_idx", "values", "x", "y")
SCALAR_TYPES = [("int32", "i", int), ("uint32", "I", int), ("int64", "q", int),
                ("uint64", "Q", int), ("float32", "f", float), ("float64", "d", float)]


class FakeArray:
    """Enough of a CuPy array for a plan: bytes seen through a struct format."""

    def __init__(self, data: bytearray, fmt: str = "i") -> None:
        self.data, self.fmt = data, fmt
        self.flags = types.SimpleNamespace(c_contiguous=True)
        self.nbytes = len(data)

    def reshape(self, *shape: int) -> FakeArray:
        return self

    def view(self, dtype: type) -> FakeArray:
        return FakeArray(self.data, dtype.fmt)

    def words(self) -> memoryview:
        return memoryview(self.data).cast(self.fmt)

    def fill(self, value: int) -> None:
        words = self.words()
        for i in range(len(words)):
            words[i] = value

    def __getitem__(self, index: int) -> int:
        return self.words()[index]

    def __setitem__(self, index: object, other: FakeArray) -> None:
        self.data[:] = other.data


class FakeCupy(types.ModuleType):
    """cupy.RawModule, its kernels and scalar types; a kernel runs `effects[entry]` if given."""

    def __init__(self) -> None:
        super().__init__("cupy")
        self.launches: list[tuple] = []
        self.modules: list[dict] = []
        self.effects: dict = {}
        for name, fmt, base in SCALAR_TYPES:
            setattr(self, name, type(name, (base,), {"fmt": fmt}))
        fake = self

        class RawModule:
            def __init__(self, code: str, options: tuple) -> None:
                fake.modules.append({"code": code, "options": options})

            def get_function(self, entry: str):
                def kernel(grid: tuple, block: tuple, args: tuple, shared_mem: int = 0) -> None:
                    fake.launches.append((entry, grid, block, args, shared_mem))
                    fake.effects.get(entry, lambda args: None)(args)
                return kernel

        self.RawModule = RawModule


def answer(**overrides: object) -> dict:
    base = {"match": "exact", "source_code": SOURCE, "entry": ["spmv_row"],
            "compile_options": OPTIONS,
            "launch": [{"entry": "spmv_row", "grid": [37, 1, 1], "block": [128, 1, 1],
                        "shared_bytes": 0,
                        "args": [{"scalar": 4720}] + [{"buffer": name} for name in CSR]}]}
    base.update(overrides)
    return base


def arrays(*names: str) -> dict:
    return {name: FakeArray(bytearray(16)) for name in names}


class LaunchTest(unittest.TestCase):
    def setUp(self) -> None:
        self.cupy = FakeCupy()
        patcher = mock.patch.dict(sys.modules, {"cupy": self.cupy})
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_parameter_types_follow_the_signature_through_typedefs_and_macros(self) -> None:
        self.assertEqual(parameter_types(SOURCE, "spmv_row", OPTIONS), ["int32"] + [None] * 5)
        self.assertEqual(parameter_types(SOURCE, "step", OPTIONS),
                         ["int64", "float64", "int32", None])
        with self.assertRaisesRegex(ktune.LaunchError, "no kernel 'missing'"):
            parameter_types(SOURCE, "missing", OPTIONS)

    def test_args_map_buffers_by_name_and_scalars_to_their_c_type(self) -> None:
        given = arrays("y")
        step = {"entry": "step", "args": [{"scalar": 7}, {"scalar": 0.5}, {"scalar": 3},
                                          {"buffer": "y"}]}
        types_ = parameter_types(SOURCE, "step", OPTIONS)
        args = kernel_args(step, types_, given, self.cupy)
        self.assertEqual([type(a).__name__ for a in args[:3]], ["int64", "float64", "int32"])
        self.assertEqual(args[:3], (7, 0.5, 3))
        self.assertIs(args[3], given["y"])
        step["args"][3] = {"scalar": 1}
        with self.assertRaisesRegex(ktune.LaunchError, "does not fit"):
            kernel_args(step, types_, given, self.cupy)

    def test_tma_and_cluster_launches_are_declined_before_compiling(self) -> None:
        tma = answer()
        tma["launch"][0]["args"].append({"tensor_map": {"buffer": "x", "dtype": "bf16", "dims": [64, 64],
                                                        "strides": [128], "box": [64, 64],
                                                        "swizzle_bytes": 128}})
        with self.assertRaisesRegex(ktune.LaunchError, "TMA"):
            ktune.launch(tma, arrays(*CSR))
        clustered = answer()
        clustered["launch"][0]["cluster"] = [2, 1, 1]
        with self.assertRaisesRegex(ktune.LaunchError, "clusters"):
            ktune.launch(clustered, arrays(*CSR))

    def test_launch_compiles_for_this_gpu_and_runs_the_launch_list(self) -> None:
        given = arrays(*CSR)
        ktune.launch(answer(), given)
        # The answer's architecture is the daemon's GPU; CuPy compiles for the one it runs on.
        self.assertEqual(self.cupy.modules[0]["options"],
                         ("-DKT_VALUE=double", "-DKT_BLOCK=128", "-std=c++17"))
        entry, grid, block, args, shared = self.cupy.launches[0]
        self.assertEqual((entry, grid, block, shared), ("spmv_row", (37, 1, 1), (128, 1, 1), 0))
        self.assertEqual(type(args[0]).__name__, "int32")
        self.assertEqual(list(args[1:]), [given[name] for name in CSR])

    def test_a_missing_array_is_named(self) -> None:
        with self.assertRaisesRegex(ktune.LaunchError, "spmv_row needs the device array 'y'"):
            ktune.launch(answer(), arrays(*CSR[:-1]))

    def test_a_nearest_or_default_answer_is_not_launched(self) -> None:
        for match in ("nearest", "default"):
            with self.assertRaisesRegex(ktune.LaunchError, "tune it"):
                ktune.launch(answer(match=match), arrays(*CSR))

    def test_a_program_loops_until_its_counter_is_zero_and_sizes_grids_from_counters(self) -> None:
        def count_down(args: tuple) -> None:
            args[3].words()[0] -= 1
        self.cupy.effects["step"] = count_down
        launches = [{"entry": "step", "grid": [100, 1, 1], "block": [64, 1, 1], "shared_bytes": 16,
                     "grid_from": {"buffer": "frontier", "index": 1, "items_per_block": 64},
                     "args": [{"scalar": 1}, {"scalar": 2.0}, {"scalar": 5},
                              {"buffer": "counter"}]}]
        program = [{"op": "fill", "buffer": "counter", "word": 3},
                   {"op": "copy", "from": "frontier", "to": "previous"},
                   {"op": "loop", "body": [{"op": "launch", "launch": 0}],
                    "until_zero": "counter", "max_iterations": 10}]
        given = arrays("counter", "frontier", "previous")
        given["frontier"].words()[1] = 130
        ktune.launch(answer(launch=launches, program=program), given)
        self.assertEqual(given["previous"].data, given["frontier"].data)
        # Three iterations (3, 2, 1 left), each on ceil(130 / 64) blocks, with the same arguments.
        self.assertEqual([(grid, args[2]) for _, grid, _, args, _ in self.cupy.launches],
                         [((3, 1, 1), 5), ((3, 1, 1), 5), ((3, 1, 1), 5)])

    def test_without_cupy_the_error_says_it_is_needed(self) -> None:
        with mock.patch.dict(sys.modules, {"cupy": None}):
            with self.assertRaisesRegex(ImportError, "needs CuPy") as caught:
                ktune.launch(answer(), arrays(*CSR))
        self.assertIsInstance(caught.exception, ktune.CupyRequired)


if __name__ == "__main__":
    unittest.main()
