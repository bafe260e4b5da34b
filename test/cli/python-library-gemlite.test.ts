// gemlite's idioms (test/python/gemlite-idioms.py with test/python/gemlite_kit/), on the GPU and with --cpu. Each
// failed before its change: torch.uint32 (and uint16, the fnuz fp8 dtypes, float8_e8m0fnu) named in a dtype table at
// import was NotInKernelLab, tl.float8e4b8 / float8e5b16 an AttributeError; a package's data files (configs/*.json
// beside its modules, listed with os.listdir at import) weren't in the run's file system, FileNotFoundError; a helper
// taken with `from .utils import *` and called by its bare name was KL1004 "'dequantize' isn't a tl.* function"; and
// `if(W_group_mode >= 2): scales = tl.load(…) else: scales = None` wasn't decided while lowering (a number compared),
// so `dequantize(b, scales, …)` was KL1101 "'scales', bound to None here, as a value"; a call through a module-level
// alias of the kernel's own file (`next_power_of_2_triton = next_power_of_2_bitwise_triton`) was KL1004; tl.sum of a
// mask (the mxfp4 quantizer's count of thresholds passed) was KL2003 "tl.sum takes numbers, not masks"; an autotune
// early_config_prune written as a generator (gemlite's kernel_config_pruner yields) was "object of type 'generator' has no len()".

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("gemlite's idioms: a dtype table of every torch dtype, a package's data files, a star-imported helper, None per a constexpr number, aliases of the kernel's file, tl.sum of a mask, a generator pruner; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/gemlite-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /dtype table: True fp8e5b16\npackage data: \['tiny'\] 64\nW_group_mode 1: match\nW_group_mode 2: match\nW_group_mode 4: match\na helper called through module-level aliases of the kernel's file: match\ntl\.sum of a mask, packed in pairs: match\nan early_config_prune that yields its configs: match\n/);
  });
});
