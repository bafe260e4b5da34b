// A zip writer for entries deflated ahead of time, so that a file all seven .vsix packages share
// (TypeScript, the bundles, a Mac's dawn.node) is compressed once, not once per package
// (scripts/package.mjs). The format is what yazl (vsce's writer) produces for small archives:
// UTF-8 names, Unix modes, sizes and CRC in the local headers, no zip64 (each .vsix is far below
// 4 GiB). test/editor/vsix-contents.mjs reads every package back with yauzl.

import { promisify } from "node:util";
import zlib from "node:zlib";

const deflateRaw = promisify(zlib.deflateRaw);

/** Compressed bytes of one file, with what its headers need. */
export async function deflated(bytes) {
  const data = await deflateRaw(bytes);
  // Already-compressed data can come out larger; such an entry is stored.
  return data.length < bytes.length
    ? { method: 8, data, crc: crc32(bytes), size: bytes.length }
    : { method: 0, data: bytes, crc: crc32(bytes), size: bytes.length };
}

/** The archive: entries are `{ name, mode, mtime, method, data, crc, size }`. */
export function zipArchive(entries) {
  const chunks = [];
  const central = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const { time, date } = dosDateTime(entry.mtime);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed to extract
    local.writeUInt16LE(UTF8_NAME, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28); // extra field length
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE((3 << 8) | 20, 4); // made by Unix (so the mode below counts), spec 2.0
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(UTF8_NAME, 8);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt16LE(time, 12);
    record.writeUInt16LE(date, 14);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.data.length, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(name.length, 28);
    // extra field, comment, disk number, internal attributes: all 0
    record.writeUInt32LE((entry.mode << 16) >>> 0, 38);
    record.writeUInt32LE(offset, 42);
    chunks.push(local, name, entry.data);
    central.push(record, name);
    offset += local.length + name.length + entry.data.length;
  }
  const centralSize = central.reduce((sum, chunk) => sum + chunk.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  if (entries.length > 0xffff || offset + centralSize > 0xffffffff) throw new Error("the archive needs zip64, which this writer does not write");
  return Buffer.concat([...chunks, ...central, end]);
}

const UTF8_NAME = 1 << 11;

function dosDateTime(d) {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

// zlib.crc32 is Node 20.15+; before that, the table version (about a third of a second for all packages).
const crc32 = zlib.crc32 ? (bytes) => zlib.crc32(bytes) >>> 0 : tableCrc32;

let table;
function tableCrc32(bytes) {
  table ??= Int32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
