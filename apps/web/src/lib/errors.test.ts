import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { apiError } from '../test/fake-trpc';
import {
  ERROR_TEXT,
  classifyError,
  handleApiError,
  isDailyLimit,
  refusalOf,
  refusalOrReport,
  setUnauthorizedHandler,
  signInFailureMessage,
} from './errors';
import { TOAST_DURATION_MS, toast, useToasts } from './toast';

describe('classifyError (product.md, Errors)', () => {
  it('logs the user out on 401', () => {
    expect(classifyError(apiError(401, 'UNAUTHORIZED'))).toEqual({ kind: 'logout' });
  });
  it("says 'Daily limit reached' on 429", () => {
    expect(classifyError(apiError(429, 'TOO_MANY_REQUESTS'))).toEqual({ kind: 'toast', message: 'Daily limit reached' });
  });
  it.each([500, 502, 503, 504])('shows the request error for status %i', (status) => {
    expect(classifyError(apiError(status, 'X', 'The AI service is unavailable, try again later'))).toEqual({
      kind: 'toast',
      message: 'Error occur. Try again later.',
    });
  });
  it.each([
    [412, 'PRECONDITION_FAILED', 'Translation needs an LLM, and none is configured. Set OPENAI_API_KEY …'],
    [403, 'FORBIDDEN', 'This is a premium feature: upgrade to premium to use it'],
    [404, 'NOT_FOUND', 'Summary not found'],
    [400, 'BAD_REQUEST', 'Invalid input: customPrompt: customPrompt must be a question of at least 6 characters'],
  ])('shows the reason of a %i refusal as the server gave it', (status, code, message) => {
    expect(classifyError(apiError(status, code, message))).toEqual({ kind: 'toast', message });
  });
  it("says 'or contact support' when the AI answered with nothing (the server's 502)", () => {
    expect(classifyError(apiError(502, 'BAD_GATEWAY', ERROR_TEXT.emptyResult))).toEqual({
      kind: 'toast',
      message: 'Error occur. Try again later or contact support.',
    });
  });
  it('shows the request error for a refusal without a message', () => {
    expect(classifyError(apiError(404, 'NOT_FOUND', ''))).toEqual({ kind: 'toast', message: ERROR_TEXT.request });
  });
  it('shows the request error on a network failure', () => {
    const network = TRPCClientError.from(new TypeError('Failed to fetch'));
    expect(classifyError(network)).toEqual({ kind: 'toast', message: ERROR_TEXT.request });
    expect(classifyError(new TypeError('Failed to fetch'))).toEqual({ kind: 'toast', message: ERROR_TEXT.request });
  });
  it('falls back to the default message', () => {
    expect(classifyError(new Error('boom'))).toEqual({ kind: 'toast', message: 'Some error occur. Try again later' });
  });
});

describe('handleApiError and toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    act(() => toast.clear());
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows an error toast that clears after 5000 ms', () => {
    const { result } = renderHook(() => useToasts());
    act(() => handleApiError(apiError(500, 'INTERNAL_SERVER_ERROR')));
    expect(result.current.map((t) => [t.kind, t.message])).toEqual([['error', 'Error occur. Try again later.']]);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(result.current).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toHaveLength(0);
  });

  it('shows one toast for a burst of the same failure', () => {
    const { result } = renderHook(() => useToasts());
    act(() => {
      handleApiError(apiError(500, 'X'));
      handleApiError(apiError(502, 'X'));
    });
    expect(result.current).toHaveLength(1);
  });

  it('only logs a silent call', () => {
    const { result } = renderHook(() => useToasts());
    act(() => handleApiError(apiError(404, 'NOT_FOUND'), { silent: true }));
    expect(result.current).toHaveLength(0);
    expect(console.warn).toHaveBeenCalled();
  });

  it('logs out on 401 instead of toasting', () => {
    const logout = vi.fn();
    setUnauthorizedHandler(logout);
    const { result } = renderHook(() => useToasts());
    act(() => handleApiError(apiError(401, 'UNAUTHORIZED')));
    expect(logout).toHaveBeenCalledTimes(1);
    expect(result.current).toHaveLength(0);
    setUnauthorizedHandler(() => {});
  });

  it('keeps success toasts for 5 s', () => {
    const { result } = renderHook(() => useToasts());
    act(() => {
      toast.success('Settings updated');
    });
    act(() => vi.advanceTimersByTime(4999));
    expect(result.current.map((t) => t.kind)).toEqual(['success']);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toHaveLength(0);
  });
});

describe('signInFailureMessage', () => {
  it("gives the server's reason for any refusal, a 401 and a 429 included", () => {
    const reason = 'Local sign-in is only allowed from this machine: open the app at http://localhost';
    expect(signInFailureMessage(apiError(403, 'FORBIDDEN', reason))).toBe(reason);
    expect(signInFailureMessage(apiError(401, 'UNAUTHORIZED', 'Google account e-mail is not verified'))).toBe(
      'Google account e-mail is not verified',
    );
    expect(signInFailureMessage(apiError(429, 'TOO_MANY_REQUESTS', 'Too many sign-ins from this address'))).toBe(
      'Too many sign-ins from this address',
    );
  });
  it('says what happened to the Google window, and the general text when the server is unreachable', () => {
    const closed = Object.assign(new Error('Firebase: Error (auth/popup-closed-by-user).'), { code: 'auth/popup-closed-by-user' });
    expect(signInFailureMessage(closed)).toMatch(/Google window was closed/);
    const other = Object.assign(new Error('x'), { code: 'auth/internal-error' });
    expect(signInFailureMessage(other)).toBe('Google sign-in failed (auth/internal-error). Try again.');
    expect(signInFailureMessage(TRPCClientError.from(new TypeError('Failed to fetch')))).toBe(ERROR_TEXT.request);
    expect(signInFailureMessage(apiError(500, 'INTERNAL_SERVER_ERROR', 'boom'))).toBe(ERROR_TEXT.request);
  });
});

describe('refusalOf and the screens that show a refusal in place', () => {
  beforeEach(() => vi.spyOn(console, 'warn').mockImplementation(() => {}));
  afterEach(() => {
    act(() => toast.clear());
    vi.restoreAllMocks();
  });

  it("gives the server's reason for a refusal, with the field's own message on an input error", () => {
    const urlRefused = TRPCClientError.from({
      error: {
        message: 'Invalid input: url: Webhook URL refused',
        code: -32600,
        data: { code: 'BAD_REQUEST', httpStatus: 400, field: 'url', issues: [{ path: 'url', message: 'Webhook URL refused' }] },
      },
    });
    expect(refusalOf(urlRefused)).toEqual({ message: 'Invalid input: url: Webhook URL refused', status: 400, fieldMessage: 'Webhook URL refused' });
    expect(refusalOf(apiError(503, 'SERVICE_UNAVAILABLE', 'Stripe could not be reached'))).toMatchObject({ fieldMessage: null });
  });

  it('is no refusal without an answer, on a 401 or on a 500', () => {
    expect(refusalOf(TRPCClientError.from(new TypeError('Failed to fetch')))).toBeNull();
    expect(refusalOf(apiError(401, 'UNAUTHORIZED', 'Sign in required'))).toBeNull();
    expect(refusalOf(apiError(500, 'INTERNAL_SERVER_ERROR', 'Internal server error'))).toBeNull();
  });

  it('reports what is no refusal through the one mapping: a toast, or the sign-out', () => {
    const { result } = renderHook(() => useToasts());
    const onLogout = vi.fn();
    setUnauthorizedHandler(onLogout);
    const answers: (string | null)[] = [];
    act(() => void answers.push(refusalOrReport(apiError(412, 'PRECONDITION_FAILED', 'Payments are not configured'))));
    expect(result.current).toHaveLength(0);
    act(() => void answers.push(refusalOrReport(apiError(500, 'INTERNAL_SERVER_ERROR', 'Internal server error'))));
    expect(result.current.map((t) => t.message)).toEqual([ERROR_TEXT.request]);
    act(() => void answers.push(refusalOrReport(apiError(401, 'UNAUTHORIZED'))));
    expect(answers).toEqual(['Payments are not configured', null, null]);
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('reads every 429 as the daily limit', () => {
    expect(isDailyLimit(apiError(429, 'TOO_MANY_REQUESTS', 'Too many requests'))).toBe(true);
    expect(isDailyLimit(apiError(503, 'SERVICE_UNAVAILABLE'))).toBe(false);
  });
});
