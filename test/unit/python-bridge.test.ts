// The Node Python thread's bridge (harness/python/embedded.ts): a request waits on the shared reply
// block, and only the answer to the request it waits on is written there. A late answer to an
// earlier request (one the script no longer waits on) is dropped, never read as the next one's.

import assert from "node:assert/strict";
import { test } from "node:test";
import { answer } from "../../src/harness/python/embedded";
import { REPLY_BYTES, REPLY_HEADER_BYTES, STATE_WAITING, type Reply } from "../../src/harness/python/protocol";

function waitingOn(id: number): SharedArrayBuffer {
  const block = new SharedArrayBuffer(REPLY_HEADER_BYTES + REPLY_BYTES);
  const state = new Int32Array(block, 0, 3);
  Atomics.store(state, 2, id);
  Atomics.store(state, 0, STATE_WAITING);
  return block;
}

const read = (block: SharedArrayBuffer) => {
  const state = new Int32Array(block, 0, 3);
  return new TextDecoder().decode(new Uint8Array(block, REPLY_HEADER_BYTES, state[1]).slice());
};

test("the answer to the request the thread waits on is written and wakes it; a late answer to another is dropped", () => {
  const block = waitingOn(7);
  const late: Reply = { kind: "ok", value: { launched: true } };
  assert.equal(answer(block, late, 6), false);
  assert.equal(Atomics.load(new Int32Array(block, 0, 3), 0), STATE_WAITING);
  const bench: Reply = { kind: "ok", value: { medianMs: 0.5 } };
  assert.equal(answer(block, bench, 7), true);
  assert.deepEqual(JSON.parse(read(block)), bench);
  // Answered once: a second answer to the same request finds the thread no longer waiting.
  assert.equal(answer(block, late, 7), false);
  assert.deepEqual(JSON.parse(read(block)), bench);
});
