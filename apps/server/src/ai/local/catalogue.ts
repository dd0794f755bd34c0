/**
 * Recommended instruct models for the local model (docs/ai.md, "Local model"): small GGUF files
 * (Q4_K_M quantisation) that run on a CPU. Sizes are the published files' sizes, rounded; a model
 * without a verified SHA-256 here is downloaded over HTTPS and its hash reported, not checked.
 */
export interface CatalogueModel {
  /** What `npm run model:pull <name>` and Settings → AI call it. */
  name: string;
  label: string;
  /** The file it is saved as in LOCAL_MODEL_DIR. */
  file: string;
  url: string;
  /** Size of the file in bytes (approximate: as published, rounded). */
  bytes: number;
  /** RAM it needs to run with an 8k context, in bytes (approximate). */
  ramBytes: number;
  languages: string;
  licence: string;
  /** The published SHA-256 of the file; null when not verified for this catalogue. */
  sha256: string | null;
}

const MB = 1024 * 1024;

export const LOCAL_MODEL_CATALOGUE: readonly CatalogueModel[] = [
  {
    name: 'qwen2.5-0.5b',
    label: 'Qwen2.5 0.5B Instruct (Q4_K_M)',
    file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    bytes: 491 * MB,
    ramBytes: 1024 * MB,
    languages: '29 languages, including English, French, Spanish, German, Chinese, Japanese',
    licence: 'Apache-2.0',
    sha256: null,
  },
  {
    name: 'qwen2.5-1.5b',
    label: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    bytes: 1117 * MB,
    ramBytes: 2048 * MB,
    languages: '29 languages, including English, French, Spanish, German, Chinese, Japanese',
    licence: 'Apache-2.0',
    sha256: null,
  },
  {
    name: 'qwen2.5-3b',
    label: 'Qwen2.5 3B Instruct (Q4_K_M)',
    file: 'qwen2.5-3b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-3B-Instruct-GGUF/resolve/main/qwen2.5-3b-instruct-q4_k_m.gguf',
    bytes: 2104 * MB,
    ramBytes: 3584 * MB,
    languages: '29 languages, including English, French, Spanish, German, Chinese, Japanese',
    licence: 'Qwen Research License (non-commercial)',
    sha256: null,
  },
  {
    name: 'llama3.2-1b',
    label: 'Llama 3.2 1B Instruct (Q4_K_M)',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    bytes: 808 * MB,
    ramBytes: 1536 * MB,
    languages: 'English, German, French, Italian, Portuguese, Hindi, Spanish, Thai',
    licence: 'Llama 3.2 Community License',
    sha256: null,
  },
  {
    name: 'llama3.2-3b',
    label: 'Llama 3.2 3B Instruct (Q4_K_M)',
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    bytes: 2020 * MB,
    ramBytes: 3584 * MB,
    languages: 'English, German, French, Italian, Portuguese, Hindi, Spanish, Thai',
    licence: 'Llama 3.2 Community License',
    sha256: null,
  },
];

export function catalogueModel(name: string): CatalogueModel | undefined {
  return LOCAL_MODEL_CATALOGUE.find((m) => m.name === name.toLowerCase());
}
