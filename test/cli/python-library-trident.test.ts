// kakaobrain/trident's idioms (test/python/trident-idioms.py, with its kernel library in miniature
// test/python/trident_kit/), on the GPU and with --cpu, and `kernel-lab check` on the script. Every trident
// kernel is a `@staticmethod @triton.jit` function of a class, launched as `Softmax.forward[grid](…)` and
// calling helpers as `language.math.ReLU.forward(x)`. Before: Kernel Lab read kernels at a module's top
// level only, so the launch was KL1104 (naming the class since db27dfb) and `check` KL1101 at each name;
// another module's combine function (`language.combine_softmax`) and tl.constexpr (`language.eps`) were
// KL1101 "the attribute", and `from .x import *` wasn't followed to find them.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { ensureBuilt, root } from "./build";
import { onGpuAndCpu, PY, scratch } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/trident-idioms.py");

test("trident's idioms: class-level kernels launched as Cls.forward[grid], class helpers across modules, star imports; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 4 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(
      report.stdout,
      /Cls\.forward\[grid\] under autotune, calling language\.math\.ReLU\.forward: match\nSoftmax\.peak, language\.combine_softmax to tl\.reduce, language\.eps: match\na class kernel without @staticmethod calling language\.RowSum\.forward \(and RowSum\.finish\), Sum\.combine to tl\.reduce: match\n/,
    );
    // Launches are listed by the qualified name.
    assert.deepEqual([...new Set(report.launches.map((l) => l.kernel))].sort(), ["ReLU.forward", "Softmax.forward", "Sum.forward", "Sum.max"]);
  });
});

test("kernel-lab check on trident's idioms: clean, each class kernel checked with its launch; a mistake in another module's class helper at its call", () => {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "check", file], { cwd: root, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /isn't launched|KL\d{4}/);
  // The library's ReLU.forward given a mistake: reported at the script's call, with the helper's own line.
  const dir = scratch();
  cpSync(path.join(PY, "trident_kit"), path.join(dir, "trident_kit"), { recursive: true });
  const relu = path.join(dir, "trident_kit/language/math/relu.py");
  writeFileSync(relu, readFileSync(relu, "utf8").replace("return tl.where(input > 0, input, 0)\n", "return tl.where(input > 0, input, 0, 1)\n"));
  const script = path.join(dir, "trident-idioms.py");
  writeFileSync(script, readFileSync(file, "utf8"));
  const bad = spawnSync(process.execPath, ["bin/kernel-lab.js", "check", script], { cwd: root, encoding: "utf8", timeout: 120_000 });
  assert.equal(bad.status, 2, bad.stdout + bad.stderr);
  const errors = bad.stdout.split("\n").filter((l) => / - error KL/.test(l));
  assert.equal(errors.length, 1, bad.stdout);
  assert.match(errors[0], /trident_kit\/language\/math\/relu\.py:9:16 - error KL1040: tl\.where takes \(condition, a, b\); got 4 arguments \(called at .*trident-idioms\.py:25:37\)/);
});
