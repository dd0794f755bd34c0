import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LocalModelStatus } from '@mbox/shared/local-model';
import { apiError, createFakeTrpc } from '../../test/fake-trpc';
import { renderRoutes } from '../../test/render';
import AiTab from './ai-tab';
import { SettingsPage } from './settings-page';

const catalogue: LocalModelStatus['catalogue'] = [
  {
    name: 'qwen2.5-1.5b',
    label: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    bytes: 1117 * 1024 ** 2,
    ramBytes: 2 * 1024 ** 3,
    languages: '29 languages',
    licence: 'Apache-2.0',
    sha256: null,
  },
];

function status(extra: Partial<LocalModelStatus> = {}): LocalModelStatus {
  return {
    engine: 'offline',
    localAvailable: true,
    model: { state: 'none', file: null, error: null, contextTokens: null, pinned: false, queued: 0, running: 0 },
    catalogue,
    installed: [],
    download: null,
    ...extra,
  };
}

describe('Settings › AI', () => {
  it('shows the engine in use and downloads a catalogue model with a progress bar that can be cancelled', async () => {
    const running = status({
      download: { file: catalogue[0]!.file, url: catalogue[0]!.url, state: 'running', received: 512 * 1024 ** 2, total: 1117 * 1024 ** 2, message: null },
    });
    const fake = createFakeTrpc({
      'localModel.status': () => status(),
      'localModel.download': () => running,
      'localModel.cancelDownload': () => status({ download: { ...running.download!, state: 'cancelled', message: 'The download was cancelled; starting it again resumes it.' } }),
    });
    renderRoutes([{ path: '/', element: <AiTab /> }], { fake });
    expect((await screen.findByTestId('ai-engine')).textContent).toMatch(/^The offline engine answers/);
    const row = screen.getByRole('listitem', { name: 'Qwen2.5 1.5B Instruct (Q4_K_M)' });
    expect(row.textContent).toContain('1.1 GB');
    expect(row.textContent).toContain('Apache-2.0');
    fireEvent.click(within(row).getByRole('button', { name: 'Download Qwen2.5 1.5B Instruct (Q4_K_M)' }));
    const bar = await screen.findByRole('progressbar', { name: `Downloading ${catalogue[0]!.file}` });
    expect(bar.getAttribute('value')).toBe(String(512 * 1024 ** 2));
    expect(screen.getByTestId('ai-download-state').textContent).toBe('0.5 GB of 1.1 GB');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel download' }));
    await waitFor(() => expect(screen.getByTestId('ai-download-state').textContent).toContain('cancelled'));
    expect(fake.calls.filter((c) => c.path === 'localModel.download').map((c) => c.input)).toEqual([{ name: 'qwen2.5-1.5b' }]);
  });

  it('switches between installed models', async () => {
    const installed = [
      { file: 'a.gguf', bytes: 1024 ** 3, active: true },
      { file: 'b.gguf', bytes: 1024 ** 3, active: false },
    ];
    const fake = createFakeTrpc({
      'localModel.status': () => status({ engine: 'local', model: { ...status().model, state: 'ready', file: 'a.gguf' }, installed }),
      'localModel.activate': () =>
        status({ engine: 'local', model: { ...status().model, state: 'ready', file: 'b.gguf' }, installed: installed.map((m) => ({ ...m, active: m.file === 'b.gguf' })) }),
    });
    renderRoutes([{ path: '/', element: <AiTab /> }], { fake });
    expect((await screen.findByTestId('ai-engine')).textContent).toBe('The local model a.gguf answers, inside this server.');
    fireEvent.click(within(screen.getByRole('listitem', { name: 'b.gguf' })).getByRole('button', { name: 'Use' }));
    await waitFor(() => expect(screen.getByTestId('ai-engine').textContent).toBe('The local model b.gguf answers, inside this server.'));
    expect(fake.calls.filter((c) => c.path === 'localModel.activate').map((c) => c.input)).toEqual([{ file: 'b.gguf' }]);
  });

  it('is a tab of Settings for administrators only', async () => {
    const admin = createFakeTrpc({ 'localModel.status': () => status() });
    const { unmount } = renderRoutes([{ path: '/', element: <SettingsPage /> }], { fake: admin });
    expect(await screen.findByRole('tab', { name: 'AI' })).toBeTruthy();
    unmount();
    const other = createFakeTrpc({ 'localModel.status': () => {
        throw apiError(403, 'FORBIDDEN', "Only the deployment's administrators (ADMIN_EMAILS) manage the AI model");
      } });
    renderRoutes([{ path: '/', element: <SettingsPage /> }], { fake: other });
    await screen.findByRole('tab', { name: 'General' });
    await waitFor(() => expect(other.calls.some((c) => c.path === 'localModel.status')).toBe(true));
    expect(screen.queryByRole('tab', { name: 'AI' })).toBeNull();
  });
});
