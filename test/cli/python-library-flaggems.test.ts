// FlagGems' igammac as published (test/python/flaggems-idioms.py with test/python/flaggems_kit/, flagos-ai/FlagGems at
// ed2508bc): libdevice's lgamma (through FlagGems' tl_extra_shim), log1p and erf in one autotuned kernel, against the
// regularized upper incomplete gamma function in float64, on the GPU and with --cpu. Was KL1005 at
// `tl_extra_shim.lgamma` ("has no Kernel Lab function"); check compiled its float64 variant (KL2080).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { root } from "./build";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

const idioms = path.resolve(__dirname, "../python/flaggems-idioms.py");

test("FlagGems' igammac as published (series, continued fraction, DLMF's asymptotic expansion; lgamma, log1p, erf) matches Q(a, x) in float64, on the GPU and with --cpu; at infinities with --cpu (lavapipe folds the library's x * 0.0)", async () => {
  await onGpuAndCpu(idioms, (report, cpu) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    const [finite, infinite] = report.stdout.trim().split("\n");
    assert.equal(finite, "igammac (series, continued fraction, asymptotic; lgamma, log1p, erf; 0, NaN, out of domain): match");
    // WGSL lets a shader compiler assume floats are finite: lavapipe's x * 0.0 is 0.0 even for inf, so the library's
    // own infinity test reads false there (a real GPU's driver may keep IEEE's NaN). The interpreter is IEEE.
    if (cpu) assert.equal(infinite, "igammac at infinities: match");
    else assert.match(infinite, /^igammac at infinities: (match|differ at 2: \[\(2\.0, inf, nan, 0\.0\), \(inf, 4\.0, nan, 1\.0\)\])$/);
  });
});

test("kernel-lab check on FlagGems' igammac.py: its float32 variant only (tl.float64 if out.dtype == torch.float64 else tl.float32), and KL1102 at its own @libentry()", () => {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "check", path.resolve(__dirname, "../python/flaggems_kit/flag_gems/ops/igammac.py")], { cwd: root, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.deepEqual((r.stdout + r.stderr).match(/KL\d{4}/g), ["KL1102"]);
});
