// Kernel libraries' helpers that take strings and None (attorch's apply_act_func(x, None, None,
// None, param, act_func, False) deciding `if act_func == 'gelu':` inside): each @triton.jit
// function is compiled per set of strings and None it is given (src/python/specialize.ts), in the
// script and in the package beside it (test/python/layer_kit/), on the GPU and with --cpu. Before,
// a helper's string parameter was taken for a run-time value, never equal to a string: KL1022 where
// no branch assigned, a wrong answer where one only changed a value (layer_kit's maybe_relu).
// And attorch's `grad_mask = None` rebound by a constexpr if, then `tl.load(G, mask=grad_mask)`
// (src/python/none-names.ts): KL1101 "None as a value" before.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

const FILE = path.resolve(__dirname, "../python/library-strings.py");

after(stopPython);

test("helpers compiled per string and None argument (a literal, the kernel's constexpr, a keyword, a default, through a module between), a name bound to None as a mask, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(FILE, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.checks.length, 7);
    assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.deepEqual(report.launches.map((l) => l.constexprs.act ?? l.constexprs.reduction ?? null), ["sigmoid", "leaky", "relu", "relu", "none", "sum", null]);
    assert.match(report.stdout, /match\n.*match\n.*match\ncomparisons of a tensor that requires grad, autocast off, empty_like of a transpose\n/);
  });
});
