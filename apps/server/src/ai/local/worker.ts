import { parentPort, workerData } from 'node:worker_threads';
import { basename } from 'node:path';
import type { ChatHistoryItem, LlamaContextSequence } from 'node-llama-cpp';
import type { ChatMessage } from '../types.js';
import { memoryShortfall } from './memory.js';
import type { FromWorker, LocalWorkerData, ToWorker } from './protocol.js';

/**
 * The local model's thread: llama.cpp loads the GGUF and evaluates here, so a generation never holds
 * the server's event loop. One context with a sequence per parallel generation; the main thread's
 * queue never sends more generations than there are sequences.
 */
const port = parentPort!;
const options = workerData as LocalWorkerData;
const send = (message: FromWorker) => port.postMessage(message);

/** Smallest context worth loading: a prompt with a few hundred transcript lines and its answer. */
const MIN_CONTEXT_TOKENS = 2048;

function chatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m) =>
    m.role === 'system'
      ? { type: 'system', text: m.content }
      : m.role === 'user'
        ? { type: 'user', text: m.content }
        : { type: 'model', response: [m.content] },
  );
  history.push({ type: 'model', response: [] });
  return history;
}

let loaded: { dispose(): Promise<void> } | undefined;

async function start() {
  // Imported here, not at the top: from the sources this file is loaded through tsx's require hook.
  const { GgufInsights, getLlama, LlamaChat, LlamaLogLevel, readGgufFileInfo, resolveChatWrapper } = await import('node-llama-cpp');
  const llama = (loaded = await getLlama({ gpu: options.gpu === 'cpu' ? false : options.gpu, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: options.threads || undefined }));
  const info = await readGgufFileInfo(options.modelPath);
  const insights = await GgufInsights.from(info, llama);
  const trainContext = insights.trainContextSize ?? MIN_CONTEXT_TOKENS;
  const minContext = Math.min(trainContext, MIN_CONTEXT_TOKENS);
  const needed = {
    model: (await insights.estimateModelResourceRequirementsV2({ gpuLayers: 0 })).cpuRam,
    context: (await insights.estimateContextResourceRequirementsV2({ contextSize: minContext, modelGpuLayers: 0, sequences: options.parallel })).cpuRam,
  };
  const refusal = memoryShortfall(basename(options.modelPath), needed, options.memoryLimitBytes);
  if (refusal) {
    await llama.dispose();
    return send({ type: 'load-failed', reason: 'memory', message: refusal });
  }

  const model = await llama.loadModel({ modelPath: options.modelPath });
  const context = await model.createContext({
    sequences: options.parallel,
    contextSize: { min: minContext, max: Math.max(minContext, Math.min(trainContext, options.maxContextTokens)) },
    threads: options.threads,
  });
  // How prompts are written for this model: from its chat template (Qwen, Llama 3, …), resolved once.
  const chatWrapper = resolveChatWrapper(model);
  const free: LlamaContextSequence[] = [];
  for (let i = 0; i < options.parallel; i++) free.push(context.getSequence());
  const running = new Map<number, AbortController>();

  async function generate(job: Extract<ToWorker, { type: 'generate' }>) {
    const sequence = free.pop();
    if (!sequence) return send({ type: 'failed', id: job.id, message: 'No free context sequence: more generations than LOCAL_MODEL_PARALLEL.' });
    const abort = new AbortController();
    running.set(job.id, abort);
    const chat = new LlamaChat({ contextSequence: sequence, chatWrapper });
    const input = sequence.tokenMeter.usedInputTokens;
    const output = sequence.tokenMeter.usedOutputTokens;
    let outcome: FromWorker;
    try {
      const result = await chat.generateResponse(chatHistory(job.messages), {
        maxTokens: job.maxTokens,
        temperature: job.temperature,
        signal: abort.signal,
        stopOnAbortSignal: true,
        onTextChunk: (text) => send({ type: 'token', id: job.id, text }),
      });
      const usage = {
        promptTokens: sequence.tokenMeter.usedInputTokens - input,
        completionTokens: sequence.tokenMeter.usedOutputTokens - output,
      };
      outcome = { type: 'done', id: job.id, text: result.response, usage, aborted: result.metadata.stopReason === 'abort' };
    } catch (error) {
      outcome = { type: 'failed', id: job.id, message: error instanceof Error ? error.message : String(error) };
    }
    running.delete(job.id);
    chat.dispose();
    await sequence.clearHistory();
    free.push(sequence);
    // Only now: the main thread sends the next generation as soon as it hears this one ended.
    send(outcome);
  }

  port.on('message', (message: ToWorker) => {
    if (message.type === 'generate') void generate(message);
    else if (message.type === 'abort') running.get(message.id)?.abort();
    else if (message.type === 'dispose') {
      for (const abort of running.values()) abort.abort();
      void (async () => {
        await context.dispose();
        await model.dispose();
        await llama.dispose();
        send({ type: 'disposed' });
        port.close();
      })();
    }
  });
  send({ type: 'ready', contextTokens: context.contextSize, trainContextTokens: trainContext, gpu: llama.gpu, chatWrapper: chatWrapper.wrapperName });
}

start().catch(async (error: unknown) => {
  // Freed, so the thread can end by itself: terminating a thread that holds llama.cpp aborts the process.
  await loaded?.dispose().catch(() => undefined);
  send({ type: 'load-failed', reason: 'invalid', message: `The local model could not be loaded: ${error instanceof Error ? error.message : String(error)}` });
});
