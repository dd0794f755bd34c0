import { writeFile } from 'node:fs/promises';

/**
 * Writes a tiny GGUF (v3) model that llama.cpp loads: llama architecture, two layers of random f32
 * weights and a SentencePiece-style vocabulary of a few hundred pieces (with the 256 byte pieces, so
 * any text tokenizes). Its output is noise; it exists so tests and the benchmark can run the real
 * runtime without downloading a model.
 */

const GGUF_ALIGNMENT = 32;

/** GGUF metadata value types. */
const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;
const GGML_TYPE_F32 = 0;
/** tokenizer.ggml.token_type values of llama.cpp. */
const TOKEN = { NORMAL: 1, UNKNOWN: 2, CONTROL: 3, BYTE: 6 } as const;

type MetaValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: string[] }
  | { type: 'f32s'; value: number[] }
  | { type: 'i32s'; value: number[] };

class ByteWriter {
  private readonly parts: Buffer[] = [];
  length = 0;
  push(buffer: Buffer): void {
    this.parts.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad) this.push(Buffer.alloc(pad));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function writeMeta(w: ByteWriter, key: string, v: MetaValue): void {
  w.string(key);
  switch (v.type) {
    case 'u32':
      w.u32(T.UINT32);
      w.u32(v.value);
      break;
    case 'f32':
      w.u32(T.FLOAT32);
      w.f32(v.value);
      break;
    case 'bool':
      w.u32(T.BOOL);
      w.push(Buffer.from([v.value ? 1 : 0]));
      break;
    case 'string':
      w.u32(T.STRING);
      w.string(v.value);
      break;
    case 'strings':
      w.u32(T.ARRAY);
      w.u32(T.STRING);
      w.u64(v.value.length);
      for (const s of v.value) w.string(s);
      break;
    case 'f32s':
      w.u32(T.ARRAY);
      w.u32(T.FLOAT32);
      w.u64(v.value.length);
      for (const n of v.value) w.f32(n);
      break;
    case 'i32s':
      w.u32(T.ARRAY);
      w.u32(T.INT32);
      w.u64(v.value.length);
      for (const n of v.value) w.i32(n);
      break;
  }
}

/** Deterministic weights (mulberry32), so the same seed writes the same file. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a to of and in is it that we for on this with be as at by are was will our meeting action item ' +
  'next week team plan budget review project date decision notes summary agree update owner task launch ' +
  'customer report data design test release risk issue follow up call time'
).split(' ');

function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types: number[] = [TOKEN.UNKNOWN, TOKEN.CONTROL, TOKEN.CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN.BYTE);
  }
  const pieces = new Set<string>();
  for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:!?-[]()') pieces.add(c);
  pieces.add('▁');
  for (const word of WORDS) pieces.add(`▁${word}`);
  for (const piece of pieces) {
    tokens.push(piece);
    types.push(TOKEN.NORMAL);
  }
  // SentencePiece prefers higher scores: longer pieces win over their letters.
  const scores = tokens.map((t, i) => (types[i] === TOKEN.NORMAL ? -1000 + t.length * 10 - i / 1000 : 0));
  return { tokens, scores, types };
}

export interface TinyGgufOptions {
  /** Transformer layers (default 2). */
  layers?: number;
  /** Embedding width (default 64). */
  embedding?: number;
  /** Context length the model declares it was trained with (default 4096). */
  contextLength?: number;
  seed?: number;
}

/** The bytes of a tiny llama-architecture GGUF model. */
export function tinyGguf(options: TinyGgufOptions = {}): Buffer {
  const layers = options.layers ?? 2;
  const nEmbd = options.embedding ?? 64;
  const nHead = 4;
  const nFf = nEmbd * 2;
  const vocab = vocabulary();
  const nVocab = vocab.tokens.length;
  const rand = random(options.seed ?? 7);

  // Tensor shapes as GGUF writes them: innermost dimension first.
  const tensors: { name: string; dims: number[] }[] = [
    { name: 'token_embd.weight', dims: [nEmbd, nVocab] },
    { name: 'output_norm.weight', dims: [nEmbd] },
    { name: 'output.weight', dims: [nEmbd, nVocab] },
  ];
  for (let i = 0; i < layers; i++) {
    tensors.push(
      { name: `blk.${i}.attn_norm.weight`, dims: [nEmbd] },
      { name: `blk.${i}.attn_q.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${i}.attn_k.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${i}.attn_v.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${i}.attn_output.weight`, dims: [nEmbd, nEmbd] },
      { name: `blk.${i}.ffn_norm.weight`, dims: [nEmbd] },
      { name: `blk.${i}.ffn_gate.weight`, dims: [nEmbd, nFf] },
      { name: `blk.${i}.ffn_down.weight`, dims: [nFf, nEmbd] },
      { name: `blk.${i}.ffn_up.weight`, dims: [nEmbd, nFf] },
    );
  }

  const meta: [string, MetaValue][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'mbox-tiny-test' }],
    ['general.alignment', { type: 'u32', value: GGUF_ALIGNMENT }],
    ['llama.context_length', { type: 'u32', value: options.contextLength ?? 4096 }],
    ['llama.embedding_length', { type: 'u32', value: nEmbd }],
    ['llama.block_count', { type: 'u32', value: layers }],
    ['llama.feed_forward_length', { type: 'u32', value: nFf }],
    ['llama.attention.head_count', { type: 'u32', value: nHead }],
    ['llama.attention.head_count_kv', { type: 'u32', value: nHead }],
    ['llama.rope.dimension_count', { type: 'u32', value: nEmbd / nHead }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'u32', value: nVocab }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'f32s', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'i32s', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: 2 }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
  ];

  const w = new ByteWriter();
  w.push(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, value] of meta) writeMeta(w, key, value);

  let offset = 0;
  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * 4);
  tensors.forEach((t, i) => {
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    offset += Math.ceil(sizes[i]! / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;
  });
  w.padTo(GGUF_ALIGNMENT);

  tensors.forEach((t, i) => {
    const values = new Float32Array(sizes[i]! / 4);
    const isNorm = t.name.endsWith('norm.weight');
    const scale = 1 / Math.sqrt(t.dims[0]!);
    for (let k = 0; k < values.length; k++) values[k] = isNorm ? 1 : (rand() * 2 - 1) * scale * 2;
    if (t.name === 'output.weight') {
      // Control and byte pieces get a zero logit while the words' logits spread far above and below it:
      // the model writes words until maxTokens, never an early end of text, so tests know their length.
      vocab.types.forEach((type, token) => {
        const row = values.subarray(token * nEmbd, (token + 1) * nEmbd);
        if (type === TOKEN.NORMAL) row.set(row.map((w) => w * 8));
        else row.fill(0);
      });
    }
    w.push(Buffer.from(values.buffer));
    w.padTo(GGUF_ALIGNMENT);
  });
  return w.toBuffer();
}

/** Writes the tiny model to `path` and returns the path. */
export async function writeTinyGguf(path: string, options?: TinyGgufOptions): Promise<string> {
  await writeFile(path, tinyGguf(options));
  return path;
}
