// shawntan/scattermoe's Triton kernels (test/python/scattermoe-idioms.py and scattermoe-long-compiles.py with
// test/python/scattermoe_kit/): on the GPU and with --cpu, flatten_sort_count's routing, scatter2scatter and group at
// 32-wide tiles (the script narrows the library's configs: lavapipe takes 10 s to minutes to compile each at its
// 128-wide ones); with --cpu, every entry point at the library's own configs: scatter2scatter scattered and grouped
// in and out with a bias, group, group_bwd_W, parallel_linear forward and backward, MLP and GLUMLP forward and
// backward, single2scatter. The package stopped at its import (nn.SiLU), then at bincount, `with torch.device(…)`,
// KL1101 in _groupXtY (a helper's constexpr True deciding a name bound to None), autograd through GELU, SiLU and *
// (`*=` too, which keeps its left side's old values for the other side's gradient). scattermoe-reduced.py holds each
// reduced.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { checksClean, onGpuAndCpu, run } from "./python-files";

after(stopPython);

const PY = path.resolve(__dirname, "../python");
const idioms = path.join(PY, "scattermoe-idioms.py");
const longCompiles = path.join(PY, "scattermoe-long-compiles.py");
const reduced = path.join(PY, "scattermoe-reduced.py");
const errors = (report: { diagnostics: { severity: string }[] }) => report.diagnostics.filter((d) => d.severity === "error");

test("shawntan/scattermoe's kernels as published: flatten_sort_count, scatter2scatter and group (gate coefficients, fan-out) at 32-wide tiles; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(idioms, (report) => {
    assert.deepEqual(errors(report), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /flatten_sort_count: match\nscatter2scatter: match\ngroup \(coeff, fan_out 2\): match\n/);
  });
});

test("shawntan/scattermoe's entry points at the library's configs: scatter2scatter (bias, grouped in and out), group, group_bwd_W, parallel_linear, MLP and GLUMLP forward and backward, single2scatter; with --cpu", async () => {
  const { report, outcome } = await run(longCompiles, { cpu: true, bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(errors(report), [], JSON.stringify(report.diagnostics));
  const lines = [
    "flatten_sort_count",
    "scatter2scatter",
    "scatter2scatter (bias)",
    "scatter2scatter (y_grouped)",
    "scatter2scatter (x_grouped)",
    "scatter2scatter (x_grouped, y_grouped)",
    "group",
    "group (coeff)",
    "group_bwd_W",
    "group_bwd_W (bias)",
    "parallel_linear",
    ...["dx", "dW", "db", "dgates"].map((g) => `parallel_linear (${g})`),
    ...["MLP", "GLUMLP"].flatMap((m) => [m, ...["dx", "dp", "dW1", "db1", "dW2", "db2"].map((g) => `${m} (${g})`)]),
    "single2scatter (1 row)",
    "single2scatter (2 rows)",
  ];
  assert.equal(report.stdout, lines.map((l) => `${l}: match\n`).join(""));
});

test("scattermoe's idioms reduced: a helper's constexpr True / False choosing a name bound to None, with torch.device(…), bincount, nn.init.normal_, autograd through nn.GELU, nn.SiLU, * and *=; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(reduced, (report) => {
    assert.deepEqual(errors(report), [], JSON.stringify(report.diagnostics));
    assert.match(
      report.stdout,
      /a None chosen by a helper's constexpr True \/ False: match\nwith torch\.device\(d\): match\nbincount: match\nnn\.init\.normal_: match\nautograd through nn\.GELU, nn\.SiLU, \* and \*=: match\n/,
    );
  });
});

test("kernel-lab check on scattermoe's scripts and its kernels' modules: clean", () => {
  checksClean(idioms, reduced, longCompiles, ...["kernels/ops.py", "kernels/single.py"].map((f) => path.join(PY, "scattermoe_kit", f)));
});
