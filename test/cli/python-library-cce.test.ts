// apple/ml-cross-entropy's idioms (test/python/cce-idioms.py: its indexed_dot.py kernel and tl_autotune.py's autotune
// wrapper as published), on the GPU and with --cpu. Each failed before its change: `from typing_extensions import Self`
// (vocab_parallel/utils.py) was ModuleNotFoundError, Pyodide ships no typing_extensions; importlib.metadata.version("torch")
// (utils.py's is_torch_greater_or_equal_2_5, at import) was PackageNotFoundError, Kernel Lab's torch and triton had no
// dist-info; `fn.arg_names` of the triton.heuristics object _cce_autotune wraps was AttributeError; the LSE forward's
// locks, `e.new_full(…, dtype=torch.uint32)`, were NotInKernelLab (no uint32 tensors), its DOT_PRECISION heuristic's
// torch.get_float32_matmul_precision() too, and tl_logaddexp's libdevice.log1p KL1005 "write tl.log(1.0 + x)"; the
// backward's `tl.reduce(x, None, tl_and_reduce_fn)` was KL1101 "None as a value" (axis None: every axis), then, with
// tl_and_reduce_fn imported by name from tl_utils.py, KL1074 "the combine function must be …"; a helper given
// `dEC + … if KAHAN_E else None` with KAHAN_E False was KL1101 (Triton evaluates only the side a constexpr picks).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("apple/ml-cross-entropy's idioms: typing_extensions, importlib.metadata versions, a Heuristics' arg_names, the indexed neg-dot kernel, the LSE forward (uint32 locks, log1p) and the backward (tl.reduce over every axis, an imported combine function, `x if CONSTEXPR else None`); on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/cce-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.ok(report.checks.length === 5 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /versions: True True True True\nindexed neg dot, bias False: match\nindexed neg dot, bias True: match\nlse forward: match\nbackward dE: match\nbackward dC: match\n/);
  });
});
