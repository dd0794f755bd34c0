/** The AI engine's public surface; routes and jobs import from here. */
export { readActionItems, type ActionPoint } from './action-items.js';
export { AiEngine, OFFLINE_MODEL, parseSettings } from './engine.js';
export type { AiEngineOptions, FixLineInput, GenerateSummaryInput, GeneratedSummary, TranslateInput } from './engine.js';
export { citedNumbers, keepKnownMarkers } from './citations.js';
export { AiInputError, LlmNotConfiguredError, LlmRequestError } from './errors.js';
export { OpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
export { sanitizeSummaryHtml } from './sanitize.js';
export { countTokens } from './tokens.js';
export { transcriptPage, type CitedTurn, type PagedTranscript } from './transcript-pages.js';
export type { ChatMessage, LlmProvider, LlmRequest, LlmResult, ModelTier, TokenUsage, TranscriptTurn } from './types.js';
