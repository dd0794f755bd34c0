import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first use instead of at start-up, for large libraries that only some
 * calls need but that are called synchronously (an `await import()` would make every caller async).
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
