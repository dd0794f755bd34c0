import { describe, expect, it, vi } from 'vitest';
import { openCheckout, type TabOpener } from './open-checkout';

function fakeTab() {
  const doc = document.implementation.createHTMLDocument('');
  return { opener: {} as unknown, document: doc, location: { href: 'about:blank' }, close: vi.fn() };
}

function opener(tab: ReturnType<typeof fakeTab> | null) {
  const calls: string[] = [];
  const value: TabOpener = {
    open: (url) => {
      calls.push(`open ${url}`);
      return tab as unknown as Window | null;
    },
    location: { assign: (url) => calls.push(`assign ${url}`) },
  };
  return { value, calls };
}

describe('openCheckout (product.md, States: the payment page in a new tab)', () => {
  it('opens the blank tab before the answer arrives, then sends it to the payment page', async () => {
    const tab = fakeTab();
    const { value, calls } = opener(tab);
    let answer: (value: { url: string }) => void = () => {};
    const pending = openCheckout(() => new Promise((resolve) => (answer = resolve)), value);
    expect(calls).toEqual(['open about:blank']);
    expect(tab.opener).toBeNull();
    expect(tab.document.body.textContent).toBe('Opening the secure payment page…');
    answer({ url: 'https://checkout.example/c/1' });
    expect(await pending).toBeNull();
    expect(tab.location.href).toBe('https://checkout.example/c/1');
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('closes the blank tab and hands back the error text', async () => {
    const tab = fakeTab();
    const { value } = opener(tab);
    expect(await openCheckout(async () => ({ error: 'Payments are not configured' }), value)).toBe('Payments are not configured');
    expect(tab.close).toHaveBeenCalledOnce();
  });

  it('closes the blank tab when the call fails', async () => {
    const tab = fakeTab();
    const { value } = opener(tab);
    await expect(openCheckout(async () => Promise.reject(new Error('offline')), value)).rejects.toThrow('offline');
    expect(tab.close).toHaveBeenCalledOnce();
  });

  it('goes to the payment page in this tab when popups are blocked', async () => {
    const { value, calls } = opener(null);
    expect(await openCheckout(async () => ({ url: 'https://checkout.example/c/2' }), value)).toBeNull();
    expect(calls).toEqual(['open about:blank', 'assign https://checkout.example/c/2']);
  });
});
