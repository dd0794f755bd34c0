import { inflateRawSync, crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createZip } from './zip.js';

/** Reads an archive back through its central directory, the way unzip tools do. */
function readZip(zip: Buffer): { name: string; method: number; data: Buffer }[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i += 1) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(dataAt, dataAt + compressedSize);
    const data = method === 8 ? inflateRawSync(body) : Buffer.from(body);
    expect(data.length).toBe(size);
    expect(crc32(data)).toBe(crc);
    entries.push({ name, method, data });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

describe('createZip', () => {
  it('writes entries that read back byte for byte, deflating what shrinks', () => {
    const script = Buffer.from('console.log("mbox");\n'.repeat(200));
    const tiny = Buffer.from('{}');
    const zip = createZip([
      { name: 'manifest.json', data: tiny },
      { name: 'content.js', data: script },
      { name: 'icons/ünïcode.txt', data: Buffer.from('ok') },
    ]);
    const entries = readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(['manifest.json', 'content.js', 'icons/ünïcode.txt']);
    expect(entries[0]).toMatchObject({ method: 0, data: tiny });
    expect(entries[1]!.method).toBe(8);
    expect(entries[1]!.data.equals(script)).toBe(true);
    expect(zip.length).toBeLessThan(script.length / 4);
  });

  it('gives the same bytes for the same files', () => {
    const files = [{ name: 'a.js', data: Buffer.from('let a = 1;') }];
    expect(createZip(files).equals(createZip(files))).toBe(true);
  });

  it('refuses duplicate and absolute names', () => {
    const data = Buffer.from('x');
    expect(() => createZip([{ name: 'a', data }, { name: 'a', data }])).toThrow('duplicate entry a');
    expect(() => createZip([{ name: '/etc/a', data }])).toThrow('bad entry name');
  });
});
