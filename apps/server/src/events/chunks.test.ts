import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkAssembler, NOTIFY_PAYLOAD_LIMIT, toChunks } from './chunks.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('NOTIFY chunks', () => {
  it('keeps a short message in one payload', () => {
    expect(toChunks('a.1', '{"x":1}')).toEqual(['a.1|1|1|{"x":1}']);
    expect(new ChunkAssembler(1000).accept('a.1|1|1|{"x":1}', 0)).toBe('{"x":1}');
  });

  it('splits under the limit, never inside a character, and puts the parts back together', () => {
    // 2-, 3- and 4-byte characters around every cut.
    const text = JSON.stringify({ text: 'ä€😀x'.repeat(4000) });
    const chunks = toChunks('inst.2', text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(bytes(chunk)).toBeLessThanOrEqual(NOTIFY_PAYLOAD_LIMIT);
      expect(chunk).not.toContain('\uFFFD');
    }
    const assembler = new ChunkAssembler(1000);
    const results = chunks.map((chunk) => assembler.accept(chunk, 0));
    expect(results.slice(0, -1).every((r) => r === null)).toBe(true);
    expect(results.at(-1)).toBe(text);
    expect(assembler.incomplete).toBe(0);
  });

  it('reassembles any text split at any limit, parts of two messages interleaved and out of order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.string({ maxLength: 400 }), fc.integer({ min: 80, max: 200 }), (a, b, limit) => {
        const first = toChunks('x.1', a, limit);
        const second = toChunks('y.1', b, limit).reverse();
        for (const chunk of [...first, ...second]) expect(bytes(chunk)).toBeLessThanOrEqual(limit);
        const assembler = new ChunkAssembler(1000);
        const done: string[] = [];
        for (let i = 0; i < Math.max(first.length, second.length); i += 1) {
          for (const chunk of [first[i], second[i]]) {
            const whole = chunk === undefined ? null : assembler.accept(chunk, 0);
            if (whole !== null) done.push(whole);
          }
        }
        expect(done.sort()).toEqual([a, b].sort());
        expect(assembler.incomplete).toBe(0);
      }),
    );
  });

  it('drops a message whose parts stop coming once it is older than the timeout', () => {
    const [first, , third] = toChunks('z.9', 'q'.repeat(300), 100);
    const assembler = new ChunkAssembler(10_000);
    expect(assembler.accept(first!, 1_000)).toBeNull();
    expect(assembler.accept(third!, 2_000)).toBeNull();
    expect(assembler.sweep(10_999)).toBe(0);
    expect(assembler.incomplete).toBe(1);
    expect(assembler.sweep(11_000)).toBe(1);
    expect(assembler.incomplete).toBe(0);
  });

  it('ignores payloads that are no chunk, a repeated part and a part beyond the total', () => {
    const assembler = new ChunkAssembler(1000);
    for (const payload of ['', 'hello', '{"name":"x"}', 'a|b|c|d', 'm.1|0|2|x', 'm.1|3|2|x']) {
      expect(assembler.accept(payload, 0), payload).toBeNull();
    }
    const [first, ...rest] = toChunks('m.2', 'r'.repeat(150), 100);
    expect(rest.length).toBeGreaterThan(1);
    expect(assembler.accept(first!, 0)).toBeNull();
    expect(assembler.accept(first!, 0)).toBeNull();
    expect(rest.map((chunk) => assembler.accept(chunk, 0)).at(-1)).toBe('r'.repeat(150));
  });

  it('refuses a message id that would break the header', () => {
    expect(() => toChunks('a|b', 'x')).toThrow(/cannot head a chunk/);
  });
});
