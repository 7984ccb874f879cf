"""Runs a tune answer's kernel on the caller's device arrays through CuPy.

The answer (docs/api.md "The tune answer") carries the kernel's source, NVRTC options, and a
launch list whose arguments are named buffers and scalars; "program", when present, is the
control flow of an iterative plan over those launches.
"""

from __future__ import annotations

import contextlib
import math
import re
from typing import Any

# Kernel parameter types as CuPy (NumPy) scalar types: the JSON answer says a scalar's value,
# not whether the kernel takes it as an int or a long long, so the kernel's signature decides.
_SCALAR_TYPES = {
    "int": "int32", "int32_t": "int32", "unsigned": "uint32", "unsigned int": "uint32",
    "uint32_t": "uint32", "long long": "int64", "long long int": "int64", "int64_t": "int64",
    "unsigned long long": "uint64", "uint64_t": "uint64", "size_t": "uint64",
    "float": "float32", "double": "float64",
}
_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict"}
# The answer is compiled for the daemon's GPU; CuPy adds the architecture of the GPU it runs on.
_ARCH_OPTIONS = ("--gpu-architecture", "-arch")


class CupyRequired(ImportError):
    """CuPy is not installed, and launching needs it."""


class LaunchError(ValueError):
    """The answer cannot run on the arrays given (the message says what is missing or wrong)."""


def _cupy() -> Any:
    try:
        import cupy
    except ImportError as e:
        raise CupyRequired("launching a tuned kernel needs CuPy: pip install 'ktune[launch]' "
                           "(or the cupy-cudaXXx wheel matching your CUDA)") from e
    return cupy


def parameter_types(source: str, entry: str, options: list[str]) -> list[str | None]:
    """The entry's parameters in order: None for a pointer, else the scalar's NumPy type name."""
    match = re.search(r"__global__[^;{]*?\b" + re.escape(entry) + r"\s*\(([^)]*)\)", source)
    if not match:
        raise LaunchError(f"the answer's source defines no kernel '{entry}'")
    # value_t and friends: typedefs in the source, and macros defined by -D options.
    typedefs = re.findall(r"\btypedef\s+([\w\s*]+?)\s*\b(\w+)\s*;", source)
    aliases = {name: ctype for ctype, name in typedefs}
    aliases.update(re.findall(r"^-D(\w+)=(.+)$", "\n".join(options), re.MULTILINE))
    types: list[str | None] = []
    for parameter in filter(None, (p.strip() for p in match.group(1).split(","))):
        words = [w for w in parameter.replace("*", " * ").split() if w not in _QUALIFIERS][:-1]
        ctype = " ".join(words)
        for _ in range(len(aliases)):
            ctype = " ".join(aliases.get(w, w) for w in ctype.replace("*", " * ").split())
        if "*" in ctype:
            types.append(None)
        elif ctype in _SCALAR_TYPES:
            types.append(_SCALAR_TYPES[ctype])
        else:
            raise LaunchError(f"{entry} takes '{parameter}': no scalar type this client passes")
    return types


def kernel_args(step: dict, types: list[str | None], arrays: dict, cupy: Any) -> tuple:
    """The arguments of one launch: the caller's arrays by buffer name, typed scalars."""
    entry = step["entry"]
    if len(step["args"]) != len(types):
        raise LaunchError(f"{entry} takes {len(types)} arguments; the answer gives "
                          f"{len(step['args'])}")
    args = []
    for position, (arg, ctype) in enumerate(zip(step["args"], types)):
        if ("buffer" in arg) != (ctype is None):
            raise LaunchError(f"argument {position} of {entry}: the answer's {arg} does not fit "
                              "the kernel's parameter")
        if "buffer" in arg:
            args.append(_array(arrays, arg["buffer"], entry))
        else:
            args.append(getattr(cupy, ctype)(arg["scalar"]))
    return tuple(args)


def _array(arrays: dict, name: str, needed_by: str) -> Any:
    if name not in arrays:
        given = ", ".join(sorted(arrays)) or "none"
        raise LaunchError(f"{needed_by} needs the device array '{name}'; given: {given}")
    array = arrays[name]
    if not array.flags.c_contiguous:
        raise LaunchError(f"the array '{name}' must be contiguous: the kernel gets its address")
    return array


class CompiledAnswer:
    """A tune answer compiled for the current GPU; call it with the arrays to run its plan."""

    def __init__(self, answer: dict) -> None:
        """Compiles the answer's source with NVRTC (CuPy caches the binary on disk)."""
        if answer.get("match") != "exact" or "launch" not in answer:
            # A nearest answer's launches carry its neighbour's sizes; a default has none.
            raise LaunchError(f"a '{answer.get('match')}' answer has no launch list for this "
                              "workload: tune it (KtuneClient.tune_and_wait), launch that answer")
        for step in answer["launch"]:
            # TMA descriptors are encoded by the driver over the caller's address, and cluster
            # launches need cuLaunchKernelEx: CuPy's RawKernel does neither.
            if "cluster" in step or any("tensor_map" in arg for arg in step["args"]):
                raise LaunchError(f"{step['entry']} loads by TMA or runs in thread-block clusters, "
                                  "which this client does not launch: use the C++ client")
        self.cupy = _cupy()
        source, options = answer["source_code"], answer["compile_options"]
        module = self.cupy.RawModule(
            code=source, options=tuple(o for o in options if not o.startswith(_ARCH_OPTIONS)))
        self.steps = [(step, module.get_function(step["entry"]),
                       parameter_types(source, step["entry"], options))
                      for step in answer["launch"]]
        self.program = answer.get("program") or [
            {"op": "launch", "launch": i} for i in range(len(self.steps))]

    def __call__(self, arrays: dict, stream: Any = None) -> None:
        """Runs the plan on `arrays` (CuPy arrays by buffer name) on `stream` or the current."""
        with stream if stream is not None else contextlib.nullcontext():
            self._run(self.program, arrays)

    def _run(self, ops: list, arrays: dict) -> None:
        for op in ops:
            kind = op["op"]
            if kind == "launch":
                self._launch(*self.steps[op["launch"]], arrays)
            elif kind == "fill":
                self._words(arrays, op["buffer"]).fill(op["word"])
            elif kind == "copy":
                to, source = self._words(arrays, op["to"]), self._words(arrays, op["from"])
                if to.nbytes != source.nbytes:
                    raise LaunchError(f"the plan copies '{op['from']}' over '{op['to']}', "
                                      "arrays of different sizes")
                to[...] = source
            elif kind == "loop":
                for _ in range(op["max_iterations"]):
                    self._run(op["body"], arrays)
                    if int(self._words(arrays, op["until_zero"], "int32")[0]) == 0:
                        break
            else:
                raise LaunchError(f"unknown plan operation '{kind}': this client is older "
                                  "than the daemon")

    def _launch(self, step: dict, kernel: Any, types: list, arrays: dict) -> None:
        grid = list(step["grid"])
        if "grid_from" in step:  # the grid follows a counter on the device (a frontier's length)
            counter = step["grid_from"]
            items = int(self._words(arrays, counter["buffer"], "int32")[counter["index"]])
            if items <= 0:
                return
            grid[0] = min(math.ceil(items / counter["items_per_block"]), grid[0])
        args = kernel_args(step, types, arrays, self.cupy)
        kernel(tuple(grid), tuple(step["block"]), args, shared_mem=step["shared_bytes"])

    def _words(self, arrays: dict, name: str, dtype: str = "uint32") -> Any:
        """The array as 32-bit words: plans fill, copy and count in them whatever its type."""
        return _array(arrays, name, "the plan").reshape(-1).view(getattr(self.cupy, dtype))


def launch(answer: dict, arrays: dict, stream: Any = None) -> CompiledAnswer:
    """Compiles `answer` and runs it once on `arrays`; call the result to run it again."""
    compiled = CompiledAnswer(answer)
    compiled(arrays, stream)
    return compiled
