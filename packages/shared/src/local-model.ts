import { z } from 'zod';
import { aiEngineSchema } from './generation.js';

/** A recommended model of the local model's catalogue (docs/ai.md, "Local model"). */
export const localModelCatalogueEntrySchema = z.object({
  name: z.string(),
  label: z.string(),
  file: z.string(),
  url: z.string(),
  /** File size in bytes, as published (rounded). */
  bytes: z.number(),
  /** RAM it needs with an 8k context, in bytes (estimate). */
  ramBytes: z.number(),
  languages: z.string(),
  licence: z.string(),
  /** The published SHA-256 the download is checked against; null when the catalogue has none verified. */
  sha256: z.string().nullable(),
});
export type LocalModelCatalogueEntry = z.infer<typeof localModelCatalogueEntrySchema>;

export const localModelDownloadSchema = z.object({
  file: z.string(),
  url: z.string(),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  received: z.number(),
  total: z.number().nullable(),
  /** Why it failed (disk space, checksum, HTTP) or was cancelled. */
  message: z.string().nullable(),
});
export type LocalModelDownload = z.infer<typeof localModelDownloadSchema>;

/** Settings → AI: the engine in use, the local model, the catalogue, installed models and the download. */
export const localModelStatusSchema = z.object({
  engine: aiEngineSchema,
  /** False when an OpenAI-compatible server is configured: then the local model is not used. */
  localAvailable: z.boolean(),
  model: z.object({
    state: z.enum(['none', 'loading', 'ready', 'failed']),
    file: z.string().nullable(),
    error: z.string().nullable(),
    contextTokens: z.number().nullable(),
    /** LOCAL_MODEL pins the model: Settings cannot switch it. */
    pinned: z.boolean(),
    queued: z.number(),
    running: z.number(),
  }),
  catalogue: z.array(localModelCatalogueEntrySchema),
  installed: z.array(z.object({ file: z.string(), bytes: z.number(), active: z.boolean() })),
  download: localModelDownloadSchema.nullable(),
});
export type LocalModelStatus = z.infer<typeof localModelStatusSchema>;

/** A catalogue model by `name`, or any GGUF by `url` (an administrator typed it) saved as `file`. */
export const localModelDownloadInputSchema = z
  .strictObject({
    name: z.string().min(1).max(100).optional(),
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }).optional(),
    file: z.string().regex(/^[\w+-][\w.+-]*\.gguf$/i, 'file must be a plain file name ending in .gguf').max(200).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.name === undefined && input.url === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: 'name (a catalogue model) or url is required' });
    if (input.url !== undefined && input.file === undefined) ctx.addIssue({ code: 'custom', path: ['file'], message: 'file (the name to save it as) is required with url' });
  });
export type LocalModelDownloadInput = z.infer<typeof localModelDownloadInputSchema>;

export const localModelActivateInputSchema = z.strictObject({
  file: z.string().regex(/^[\w+-][\w.+-]*\.gguf$/i, 'file must be a model file name ending in .gguf').max(200),
});
