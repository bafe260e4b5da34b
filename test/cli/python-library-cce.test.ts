// apple/ml-cross-entropy's idioms (test/python/cce-idioms.py: its indexed_dot.py kernel and tl_autotune.py's autotune
// wrapper as published), on the GPU and with --cpu. Each failed before its change: `from typing_extensions import Self`
// (vocab_parallel/utils.py) was ModuleNotFoundError, Pyodide ships no typing_extensions; importlib.metadata.version("torch")
// (utils.py's is_torch_greater_or_equal_2_5, at import) was PackageNotFoundError, Kernel Lab's torch and triton had no
// dist-info; `fn.arg_names` of the triton.heuristics object _cce_autotune wraps was AttributeError.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("apple/ml-cross-entropy's idioms: typing_extensions, importlib.metadata versions of torch and triton, a Heuristics' arg_names under its autotune wrapper, the indexed neg-dot kernel; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/cce-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.ok(report.checks.length === 2 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /versions: True True True\nindexed neg dot, bias False: match\nindexed neg dot, bias True: match\n/);
  });
});
