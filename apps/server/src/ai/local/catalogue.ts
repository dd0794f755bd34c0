/**
 * Recommended instruct models for the local model (docs/ai.md, "Local model"): small GGUF files
 * (Q4_K_M quantisation) that run on a CPU. Sizes and SHA-256 are those Hugging Face publishes for the
 * files (Git LFS); URLs name the repository revision where it is known, so the file cannot change under them.
 */
export interface CatalogueModel {
  /** What `npm run model:pull <name>` and Settings → AI call it. */
  name: string;
  label: string;
  /** The file it is saved as in LOCAL_MODEL_DIR. */
  file: string;
  url: string;
  /** Size of the file in bytes, as published. */
  bytes: number;
  /** RAM it needs to run with an 8k context, in bytes (approximate). */
  ramBytes: number;
  languages: string;
  licence: string;
  /** The published SHA-256 of the file: a download is checked against it. */
  sha256: string;
}

const MB = 1024 * 1024;

export const LOCAL_MODEL_CATALOGUE: readonly CatalogueModel[] = [
  {
    name: 'qwen2.5-0.5b',
    label: 'Qwen2.5 0.5B Instruct (Q4_K_M)',
    file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/9217f5db79a29953eb74d5343926648285ec7e67/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    bytes: 491_400_032,
    ramBytes: 1024 * MB,
    languages: '29 languages, including English, French, Spanish, German, Chinese, Japanese',
    licence: 'Apache-2.0',
    sha256: '74a4da8c9fdbcd15bd1f6d01d621410d31c6fc00986f5eb687824e7b93d7a9db',
  },
  {
    name: 'qwen2.5-1.5b',
    label: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/91cad51170dc346986eccefdc2dd33a9da36ead9/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    bytes: 1_117_320_736,
    ramBytes: 2048 * MB,
    languages: '29 languages, including English, French, Spanish, German, Chinese, Japanese',
    licence: 'Apache-2.0',
    sha256: '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
  },
  {
    name: 'qwen2.5-3b',
    label: 'Qwen2.5 3B Instruct (Q4_K_M)',
    file: 'qwen2.5-3b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-3B-Instruct-GGUF/resolve/main/qwen2.5-3b-instruct-q4_k_m.gguf',
    bytes: 2_104_932_768,
    ramBytes: 3584 * MB,
    languages: '29 languages, including English, French, Spanish, German, Chinese, Japanese',
    licence: 'Qwen Research License (non-commercial)',
    sha256: '626b4a6678b86442240e33df819e00132d3ba7dddfe1cdc4fbb18e0a9615c62d',
  },
  {
    name: 'llama3.2-1b',
    label: 'Llama 3.2 1B Instruct (Q4_K_M)',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/067b946cf014b7c697f3654f621d577a3e3afd1c/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    bytes: 807_694_464,
    ramBytes: 1536 * MB,
    languages: 'English, German, French, Italian, Portuguese, Hindi, Spanish, Thai',
    licence: 'Llama 3.2 Community License',
    sha256: '6f85a640a97cf2bf5b8e764087b1e83da0fdb51d7c9fab7d0fece9385611df83',
  },
  {
    name: 'llama3.2-3b',
    label: 'Llama 3.2 3B Instruct (Q4_K_M)',
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    url: 'https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/5ab33fa94d1d04e903623ae72c95d1696f09f9e8/Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    bytes: 2_019_377_696,
    ramBytes: 3584 * MB,
    languages: 'English, German, French, Italian, Portuguese, Hindi, Spanish, Thai',
    licence: 'Llama 3.2 Community License',
    sha256: '6c1a2b41161032677be168d354123594c0e6e67d2b9227c84f296ad037c728ff',
  },
];

export function catalogueModel(name: string): CatalogueModel | undefined {
  return LOCAL_MODEL_CATALOGUE.find((m) => m.name === name.toLowerCase());
}
