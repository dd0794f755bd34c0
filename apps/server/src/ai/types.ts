/** One speaker turn of a meeting, in spoken order. */
export interface TranscriptTurn {
  speaker: string;
  text: string;
  /** The Message id of a meeting line (absent for documents): what a citation of this turn opens. */
  id?: string;
  /** When the line was spoken, epoch ms (absent for documents). */
  spokenAt?: number;
}

/** Basic users get the basic model, premium users the advanced one. */
export type ModelTier = 'basic' | 'advanced';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface LlmRequest {
  messages: ChatMessage[];
  tier: ModelTier;
  /** Upper bound of the answer's tokens. */
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface LlmResult {
  text: string;
  model: string;
  usage: TokenUsage;
}

/** Any chat-completion LLM. generate waits for the whole answer; stream hands over text as it comes. */
export interface LlmProvider {
  readonly name: string;
  /** The model's own context window in tokens, when the provider knows it (the local model); else LLM_CONTEXT_TOKENS is assumed. */
  readonly contextTokens?: number;
  modelFor(tier: ModelTier): string;
  generate(request: LlmRequest): Promise<LlmResult>;
  stream(request: LlmRequest, onToken: (delta: string) => void): Promise<LlmResult>;
  countTokens(text: string): number;
}
