import { freemem } from 'node:os';

const GB = 1024 ** 3;

/** Bytes the local model may take: LOCAL_MODEL_MAX_RAM when set, else what the machine (or its cgroup) has free. */
export function availableMemoryBytes(limit?: number): number {
  if (limit) return limit;
  const constrained = process.constrainedMemory();
  const free = freemem();
  // constrainedMemory() is 0 (or a huge number) without a cgroup limit; the process's own RSS is already spent.
  return constrained > 0 && constrained < free ? Math.max(0, constrained - process.memoryUsage.rss()) : free;
}

export function formatGb(bytes: number): string {
  return `${(bytes / GB).toFixed(bytes < 10 * GB ? 1 : 0)} GB`;
}

/** A clear refusal when the model and its context need more memory than there is; undefined when they fit. */
export function memoryShortfall(model: string, needed: { model: number; context: number }, available: number): string | undefined {
  const total = needed.model + needed.context;
  if (total <= available) return undefined;
  return (
    `The local model ${model} needs about ${formatGb(total)} of RAM (${formatGb(needed.model)} for the model, ` +
    `${formatGb(needed.context)} for its context) and ${formatGb(available)} is available. ` +
    'Choose a smaller model in Settings → AI (docs/ai.md, "Local model") or free memory.'
  );
}
