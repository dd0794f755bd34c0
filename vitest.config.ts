import { defineConfig } from 'vitest/config';

// The file name picks the tier: *.test.ts unit, *.int.test.ts integration (real PostgreSQL and
// servers), tests/e2e/*.spec.ts end-to-end (Chromium). Scripts run each tier in a non-UTC TZ.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/extension/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'unit-web',
          root: './apps/web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['**/*.int.test.ts'],
          setupFiles: ['./src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          // These files mostly wait on PostgreSQL, servers and child processes: three at once, even on
          // two cores (vitest's default is one fewer than the cores).
          maxWorkers: 3,
          include: ['apps/**/src/**/*.int.test.ts', 'packages/**/src/**/*.int.test.ts', 'tests/integration/**/*.int.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.spec.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Two files at once: most of a file's time is the paced captions, page loads and server starts
          // it waits on, so the tier takes about half as long on two cores (each file has its own server,
          // database, browser and ports).
          maxWorkers: 2,
        },
      },
    ],
  },
});
