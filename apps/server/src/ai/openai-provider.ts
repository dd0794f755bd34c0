import type OpenAI from 'openai';
import type * as OpenAiSdk from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { LlmRequestError } from './errors.js';
import { countMessageTokens, countTokens } from './tokens.js';
import type { LlmProvider, LlmRequest, LlmResult, ModelTier } from './types.js';
import { lazyRequire } from '../lazy-require.js';

/** The OpenAI SDK, loaded when a provider is made (an LLM is configured), not at start-up. */
const openAiSdk = lazyRequire<typeof OpenAiSdk>('openai');

export interface OpenAiProviderOptions {
  apiKey?: string;
  baseURL?: string;
  models: Record<ModelTier, string>;
  /** Per attempt: the whole answer for generate, the longest silence between chunks for stream. */
  timeoutMs: number;
  /** Retries after the first attempt on 429, 5xx, timeouts and connection failures. */
  maxRetries: number;
  /** First backoff delay; doubles each retry (with jitter), capped at maxRetryDelayMs. */
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
}

type Failure = { retryable: boolean; error: LlmRequestError; retryAfterMs?: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, LM Studio, OpenRouter).
 * Retries are ours rather than the SDK's so that backoff, Retry-After and "never retry a stream
 * that already produced text" are explicit and tested.
 */
export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai';
  private readonly client: OpenAI;
  private readonly baseDelay: number;
  private readonly maxDelay: number;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.client = new (openAiSdk().OpenAI)({
      // Local servers (Ollama, LM Studio) need no key, but the SDK insists on one.
      apiKey: options.apiKey || 'not-needed',
      baseURL: options.baseURL,
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
    this.baseDelay = options.retryBaseDelayMs ?? 500;
    this.maxDelay = options.maxRetryDelayMs ?? 20_000;
  }

  modelFor(tier: ModelTier): string {
    return this.options.models[tier];
  }

  countTokens(text: string): number {
    return countTokens(text);
  }

  async generate(request: LlmRequest): Promise<LlmResult> {
    const model = this.modelFor(request.tier);
    return this.withRetries(async () => {
      const completion = await this.client.chat.completions.create(
        {
          model,
          messages: request.messages as ChatCompletionMessageParam[],
          ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        },
        { signal: request.signal, timeout: this.options.timeoutMs },
      );
      const text = completion.choices[0]?.message?.content ?? '';
      return {
        text,
        model: completion.model || model,
        usage: {
          promptTokens: completion.usage?.prompt_tokens ?? countMessageTokens(request.messages),
          completionTokens: completion.usage?.completion_tokens ?? countTokens(text),
        },
      };
    });
  }

  async stream(request: LlmRequest, onToken: (delta: string) => void): Promise<LlmResult> {
    const model = this.modelFor(request.tier);
    let emitted = false;
    return this.withRetries(
      async () => {
        // The SDK's timeout ends at the response headers; a stalled stream is cut by this idle timer.
        const idle = new AbortController();
        const abortFromCaller = () => idle.abort(request.signal?.reason);
        request.signal?.addEventListener('abort', abortFromCaller, { once: true });
        let timer: NodeJS.Timeout | undefined;
        let timedOut = false;
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            timedOut = true;
            idle.abort();
          }, this.options.timeoutMs);
        };
        arm();
        try {
          const stream = await this.client.chat.completions.create(
            {
              model,
              messages: request.messages as ChatCompletionMessageParam[],
              stream: true,
              stream_options: { include_usage: true },
              ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
              ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            },
            { signal: idle.signal, timeout: this.options.timeoutMs },
          );
          let text = '';
          let answeredModel = model;
          let usage: LlmResult['usage'] | undefined;
          for await (const chunk of stream) {
            arm();
            if (chunk.model) answeredModel = chunk.model;
            const delta = chunk.choices[0]?.delta?.content;
            if (delta) {
              text += delta;
              emitted = true;
              onToken(delta);
            }
            if (chunk.usage) {
              usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
            }
          }
          // The SDK ends the iteration quietly when its signal aborts: a cut stream must not pass for a whole one.
          if (timedOut) throw new (openAiSdk().APIConnectionTimeoutError)({ message: 'The LLM stream stalled.' });
          if (request.signal?.aborted) throw new (openAiSdk().APIUserAbortError)();
          return {
            text,
            model: answeredModel,
            usage: usage ?? { promptTokens: countMessageTokens(request.messages), completionTokens: countTokens(text) },
          };
        } catch (error) {
          if (timedOut) throw new (openAiSdk().APIConnectionTimeoutError)({ message: 'The LLM stream stalled.' });
          throw error;
        } finally {
          clearTimeout(timer);
          request.signal?.removeEventListener('abort', abortFromCaller);
        }
      },
      // Text already handed to the caller cannot be taken back, so a broken stream is not retried.
      () => !emitted,
    );
  }

  private async withRetries<T>(attempt: () => Promise<T>, mayRetry: () => boolean = () => true): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        const failure = this.classify(error, n + 1);
        if (!failure.retryable || n >= this.options.maxRetries || !mayRetry()) throw failure.error;
        const backoff = Math.min(this.maxDelay, this.baseDelay * 2 ** n) * (0.8 + Math.random() * 0.4);
        await sleep(Math.min(this.maxDelay, Math.max(backoff, failure.retryAfterMs ?? 0)));
      }
    }
  }

  private classify(error: unknown, attempts: number): Failure {
    if (error instanceof openAiSdk().APIUserAbortError) {
      return { retryable: false, error: new LlmRequestError('The LLM request was cancelled.', undefined, 'rejected', attempts, { cause: error }) };
    }
    if (error instanceof openAiSdk().APIConnectionTimeoutError) {
      return {
        retryable: true,
        error: new LlmRequestError(`The LLM did not answer within ${this.options.timeoutMs} ms.`, undefined, 'timeout', attempts, { cause: error }),
      };
    }
    if (error instanceof openAiSdk().APIConnectionError) {
      return {
        retryable: true,
        error: new LlmRequestError(`Could not reach the LLM: ${error.message}`, undefined, 'unavailable', attempts, { cause: error }),
      };
    }
    if (error instanceof openAiSdk().APIError) {
      const status = error.status;
      const retryAfter = Number(error.headers?.get('retry-after'));
      const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
      if (status === 429) {
        return {
          retryable: true,
          retryAfterMs,
          error: new LlmRequestError('The LLM is rate limiting requests; try again later.', 429, 'rate_limited', attempts, { cause: error }),
        };
      }
      if (status !== undefined && status >= 500) {
        return {
          retryable: true,
          retryAfterMs,
          error: new LlmRequestError(`The LLM answered ${status}: ${error.message}`, status, 'unavailable', attempts, { cause: error }),
        };
      }
      return {
        retryable: false,
        error: new LlmRequestError(`The LLM refused the request (${status ?? 'no status'}): ${error.message}`, status, 'rejected', attempts, {
          cause: error,
        }),
      };
    }
    return {
      retryable: false,
      error: new LlmRequestError(error instanceof Error ? error.message : String(error), undefined, 'rejected', attempts, { cause: error }),
    };
  }
}
