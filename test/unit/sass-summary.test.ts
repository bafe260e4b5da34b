// bench/sass-summary.mjs reads the disassembly of the driver's machine code (bench/NOTES.md §57):
// registers from the highest one named, spills, and the hot loop (the backward branch whose body
// holds the most matrix multiplies), with branch targets as labels (nvdisasm of an ELF object) or
// as addresses (the driver's NVuc objects). Lines in nvdisasm's own format.

import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: a plain ES module of the bench, without types
import { summary } from "../../bench/sass-summary.mjs";

const line = (at: number, text: string) => `        /*${at.toString(16).padStart(4, "0")}*/                   ${text} ;`;

test("sass summary: registers, spills and the hot loop with branches to addresses", () => {
  const text = [
    line(0x0, "S2R R2, SR_TID.X"),
    line(0x10, "STL [R1], R2"),
    // an outer loop without multiplies, around the hot one
    line(0x20, "IADD3 R4, R4, 0x1, RZ"),
    line(0x30, "LDSM.16.M88.4 R8, [R3]"),
    line(0x40, "HMMA.16816.F32 R20, R8, R12, R20"),
    line(0x50, "HMMA.16816.F32 R24, R8, R14, R24"),
    line(0x60, "LDG.E.64 R30, desc[UR4][R6.64]"),
    line(0x70, "BAR.SYNC 0x0"),
    line(0x80, "@P0 BRA 0x30"),
    line(0x90, "LDL R2, [R1]"),
    line(0xa0, "@P1 BRA 0x20"),
    line(0xb0, "EXIT"),
    line(0xc0, "BRA 0xc0"),
  ].join("\n");
  const s = summary("k", text);
  assert.equal(s.regs, 31);
  assert.equal(s.instructions, 13);
  assert.deepEqual([s.all.LDL, s.all.STL], [1, 1]);
  assert.equal(s.loop.length, 6);
  assert.deepEqual([s.loop.HMMA, s.loop.LDSM, s.loop.LDG, s.loop.BAR, s.loop.BRA], [2, 1, 1, 1, 1]);
});

test("sass summary: branch targets as labels, and a kernel with no loop", () => {
  const labelled = [".L_x_0:", line(0x0, "HMMA.16816.F32 R4, R8, R12, R4"), line(0x10, "@P0 BRA `(.L_x_0)"), line(0x20, "EXIT")].join("\n");
  assert.equal(summary("l", labelled).loop.HMMA, 1);
  assert.equal(summary("n", [line(0x0, "MOV R1, 0x2"), line(0x10, "EXIT")].join("\n")).loop, undefined);
});
