// The part of fs-native-extensions (which ships no types) that db/data-dir-lock.ts uses.
declare module 'fs-native-extensions' {
  /** Takes an advisory lock on the open file `fd` without waiting: false when another open file holds it. */
  export function tryLock(fd: number, offset?: number, length?: number, options?: { shared?: boolean }): boolean;
}
