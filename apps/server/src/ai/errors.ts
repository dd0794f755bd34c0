/** Raised when a feature needs an LLM and none is configured (translation). */
export class LlmNotConfiguredError extends Error {
  override readonly name = 'LlmNotConfiguredError';
  constructor(feature: string) {
    super(
      `${feature} needs an LLM, and none is configured. Set OPENAI_API_KEY (and OPENAI_BASE_URL to use ` +
        'an OpenAI-compatible server such as Ollama, vLLM, LM Studio or OpenRouter), then restart the server.',
    );
  }
}

/** The LLM failed after the retries allowed: rate limited, unavailable, timed out or refused. */
export class LlmRequestError extends Error {
  override readonly name = 'LlmRequestError';
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly kind: 'rate_limited' | 'unavailable' | 'timeout' | 'rejected' | 'empty',
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Input the engine cannot work with; `field` names it for a 400 answer. */
export class AiInputError extends Error {
  override readonly name = 'AiInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
