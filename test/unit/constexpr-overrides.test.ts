// `run --constexpr NAME=VALUE` over a run's constexprs and configs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { withConstexprOverrides } from "../../src/harness/run/constexpr-overrides";
import type { LoadedRun } from "../../src/harness/load/load";

const run = (definition: Record<string, unknown>): LoadedRun => ({ name: "r", exportName: "r", definition: definition as unknown as LoadedRun["definition"] });
const defOf = (r: LoadedRun) => r.definition as unknown as Record<string, unknown>;

test("an override replaces the run's constexpr and each config's; configs that become one are not tuned", () => {
  const tuned = run({ constexprs: { BLOCK_M: 64, BLOCK_K: 32 }, configs: [{}, { BLOCK_N: 128 }, { BLOCK_M: 128, BLOCK_N: 256 }] });
  assert.deepEqual(defOf(withConstexprOverrides(tuned, { BLOCK_M: 16 })), { constexprs: { BLOCK_M: 16, BLOCK_K: 32 }, configs: [{ BLOCK_M: 16 }, { BLOCK_N: 128, BLOCK_M: 16 }, { BLOCK_M: 16, BLOCK_N: 256 }] });
  assert.deepEqual(defOf(withConstexprOverrides(tuned, { BLOCK_M: 16, BLOCK_N: 16 })), { constexprs: { BLOCK_M: 16, BLOCK_K: 32, BLOCK_N: 16 } });
  const plain = run({ constexprs: { BLOCK: 1024 } });
  assert.deepEqual(defOf(withConstexprOverrides(plain, { BLOCK: 128 })), { constexprs: { BLOCK: 128 } });
  assert.equal(withConstexprOverrides(plain, {}), plain);
});
