import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toast } from '../lib/toast';

// jsdom lacks ResizeObserver, which react-resizable-panels needs.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

// jsdom has <dialog> without its modal methods.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
  this.dispatchEvent(new Event('close'));
};

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
  // Toasts live in a module-level store: one test's error must not show in the next.
  toast.clear();
});
// jsdom does not lay out, so it has no scrollIntoView.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
