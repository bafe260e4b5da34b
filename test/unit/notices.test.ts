// Dawn's two start-up notices (src/runtime/notices.ts): the filter keeps every other line exactly,
// Unix or Windows line endings, and the fd-2 redirection is Linux's only.

import { test } from "node:test";
import assert from "node:assert/strict";
import { filtersNotices, withoutNotices } from "../../src/runtime/notices";

const UNIFORM = "Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.";
const STORAGE = "Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.";
const OTHER = "Warning: something else Dawn says";

const FILTERED: [string, string, string][] = [
  ["nothing", "", ""],
  ["both notices, LF", `${UNIFORM}\n${STORAGE}\n`, ""],
  ["both notices, CRLF", `${UNIFORM}\r\n${STORAGE}\r\n`, ""],
  ["another line kept, LF", `${UNIFORM}\n${OTHER}\n${STORAGE}\n`, `${OTHER}\n`],
  ["another line kept with its CRLF", `${UNIFORM}\r\n${OTHER}\r\n${STORAGE}\r\n`, `${OTHER}\r\n`],
  ["mixed endings kept as written", `${OTHER}\r\n${UNIFORM}\r\nlast\n`, `${OTHER}\r\nlast\n`],
  ["a last notice without a line break", `${OTHER}\r\n${STORAGE}`, `${OTHER}\r\n`],
  ["a last other line without a line break", `${UNIFORM}\r\n${OTHER}`, OTHER],
  ["blank lines kept", `\r\n${UNIFORM}\r\n\r\n`, "\r\n\r\n"],
  ["a notice inside a longer line is not a notice", `x ${UNIFORM}\r\n`, `x ${UNIFORM}\r\n`],
  ["other limits are not filtered", `${UNIFORM.replace("Uniform", "Sampler")}\r\n`, `${UNIFORM.replace("Uniform", "Sampler")}\r\n`],
];

for (const [name, input, expected] of FILTERED) {
  test(`withoutNotices: ${name}`, () => {
    assert.equal(withoutNotices(input), expected);
  });
}

const REDIRECTS: [string, Record<string, string>, boolean][] = [
  ["linux", {}, true],
  ["linux", { KERNEL_LAB_DAWN_NOTICES: "1" }, false],
  ["linux", { KERNEL_LAB_DAWN_NOTICES: "0" }, true],
  ["darwin", {}, false],
  ["win32", {}, false],
  ["freebsd", {}, false],
];

for (const [platform, env, expected] of REDIRECTS) {
  test(`fd 2 filtered on ${platform} ${JSON.stringify(env)}: ${expected}`, () => {
    assert.equal(filtersNotices(platform, env), expected);
  });
}
