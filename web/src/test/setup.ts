import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// The console calls its API with relative URLs; resolve them against the page as a browser does.
const BaseRequest = globalThis.Request;
class PageRequest extends BaseRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    const url = typeof input === 'string' ? new URL(input, window.location.origin) : input;
    // jsdom's AbortSignal is not the one Node's fetch expects.
    const { signal: _signal, ...rest } = init ?? {};
    super(url, rest);
  }
}
globalThis.Request = PageRequest;

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
});
