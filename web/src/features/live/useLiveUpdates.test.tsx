import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testQueryClient } from '../../test/utils';
import { LIVE_RETRY_FIRST_MS, useLiveUpdates } from './useLiveUpdates';

/** A stand-in for the browser's EventSource that the test opens, drops and refuses. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeEventSource.made.push(this);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.(new Event('open'));
  }

  message() {
    this.onmessage?.(new MessageEvent('message', { data: '{"sites":["s1"],"missed":false}' }));
  }

  /** The connection dropped: the browser itself reconnects. */
  drop() {
    this.readyState = FakeEventSource.CONNECTING;
    this.onerror?.(new Event('error'));
  }

  /** The server refused the stream (an error status): the browser gives up. */
  refuse() {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.(new Event('error'));
  }
}

const KEYS = [['events']] as const;

function setVisible(visible: boolean) {
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    value: visible ? 'visible' : 'hidden',
  });
  document.dispatchEvent(new Event('visibilitychange'));
}

function renderLive(site: string | undefined) {
  const client = testQueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useLiveUpdates(site, KEYS), { wrapper });
  return { ...hook, invalidate };
}

const latest = () => FakeEventSource.made[FakeEventSource.made.length - 1];

describe('useLiveUpdates', () => {
  beforeEach(() => {
    FakeEventSource.made = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });

  afterEach(() => {
    setVisible(true);
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is live once the site stream opens, and each message refreshes the queries', () => {
    const { result, invalidate } = renderLive('s1');
    expect(FakeEventSource.made).toHaveLength(1);
    expect(latest().url).toBe('/api/live?site=s1');
    expect(latest().init).toEqual({ withCredentials: true });
    expect(result.current).toBe(false);

    act(() => latest().open());
    expect(result.current).toBe(true);
    // The first opening follows the page's own load: nothing to refresh yet.
    expect(invalidate).not.toHaveBeenCalled();

    act(() => latest().message());
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['events'] });
  });

  it('falls back to polling while a dropped stream reconnects, then refreshes', () => {
    const { result, invalidate } = renderLive('s1');
    act(() => latest().open());
    act(() => latest().drop());
    expect(result.current).toBe(false);
    // The browser reconnects the same EventSource by itself.
    expect(FakeEventSource.made).toHaveLength(1);

    act(() => latest().open());
    expect(result.current).toBe(true);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['events'] });
  });

  it('polls after a refused stream and tries again later, waiting longer each time', () => {
    vi.useFakeTimers();
    const { result } = renderLive('s1');
    act(() => latest().refuse());
    expect(result.current).toBe(false);
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);

    void act(() => vi.advanceTimersByTime(LIVE_RETRY_FIRST_MS - 1));
    expect(FakeEventSource.made).toHaveLength(1);
    void act(() => vi.advanceTimersByTime(1));
    expect(FakeEventSource.made).toHaveLength(2);

    act(() => latest().refuse());
    void act(() => vi.advanceTimersByTime(LIVE_RETRY_FIRST_MS));
    expect(FakeEventSource.made).toHaveLength(2);
    void act(() => vi.advanceTimersByTime(LIVE_RETRY_FIRST_MS));
    expect(FakeEventSource.made).toHaveLength(3);

    act(() => latest().open());
    expect(result.current).toBe(true);
  });

  it('polls when the browser has no EventSource', () => {
    vi.stubGlobal('EventSource', undefined);
    const { result } = renderLive('s1');
    expect(result.current).toBe(false);
    expect(FakeEventSource.made).toHaveLength(0);
  });

  it('opens no stream without a site', () => {
    const { result } = renderLive(undefined);
    expect(result.current).toBe(false);
    expect(FakeEventSource.made).toHaveLength(0);
  });

  it('closes the stream while the tab is hidden and refreshes when it shows again', () => {
    const { result, invalidate } = renderLive('s1');
    act(() => latest().open());
    const first = latest();

    act(() => setVisible(false));
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    expect(result.current).toBe(false);

    act(() => setVisible(true));
    expect(FakeEventSource.made).toHaveLength(2);
    act(() => latest().open());
    expect(result.current).toBe(true);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['events'] });
  });

  it('closes the stream when the page is left', () => {
    const { unmount } = renderLive('s1');
    act(() => latest().open());
    unmount();
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
  });
});
