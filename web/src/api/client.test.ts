import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/utils';
import {
  api,
  ApiError,
  failureText,
  loginUrlFor,
  setUnauthorizedHandler,
  toApiError,
  unwrap,
  unwrapPage,
} from './client';

describe('api client', () => {
  const redirects: string[] = [];
  beforeEach(() => {
    redirects.length = 0;
    setUnauthorizedHandler((url) => redirects.push(url));
    window.history.replaceState(null, '', '/users?page=2');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/');
  });

  it('sends a 401 to login with the current path as referer', async () => {
    mockApi({
      'GET /api/users/me': { status: 401, body: { reason: 'unauthorized', message: 'Sign in' } },
    });
    await expect(unwrap(api.GET('/api/users/me'))).rejects.toBeInstanceOf(ApiError);
    expect(redirects).toEqual([loginUrlFor('/users?page=2')]);
    expect(redirects[0]).toBe('/login?referer=%2Fusers%3Fpage%3D2');
  });

  it('does not redirect on a failed login', async () => {
    mockApi({
      'POST /api/auth/login': {
        status: 401,
        body: { reason: 'invalid credentials', message: 'no' },
      },
    });
    const err = await unwrap(
      api.POST('/api/auth/login', { body: { username: 'a@b.co', password: 'x' } }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).reason).toBe('invalid credentials');
    expect(redirects).toEqual([]);
  });

  it('parses {reason, message} error bodies', async () => {
    mockApi({
      'GET /api/sites/x': {
        status: 409,
        body: { reason: 'conflict', message: 'A site with this name exists' },
      },
    });
    const err = (await unwrap(
      api.GET('/api/sites/{site_id}', { params: { path: { site_id: 'x' } } }),
    ).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(409);
    expect(err.reason).toBe('conflict');
    expect(err.message).toBe('A site with this name exists');
  });

  it('reads the total of a list from x-total-count', async () => {
    mockApi({
      'GET /api/sites': { body: [{ _id: '1', name: 'A' }], headers: { 'x-total-count': '42' } },
    });
    const page = await unwrapPage(api.GET('/api/sites', { params: { query: { limit: 25 } } }));
    expect(page.total).toBe(42);
    expect(page.rows).toHaveLength(1);
  });

  it("says what failed and the server's reason", () => {
    const refused = toApiError(new Response(null, { status: 422, statusText: 'Unprocessable' }), {
      reason: 'validation',
      message: 'tags.0: String should have at most 128 characters',
    });
    expect(failureText('Failed to save', refused)).toBe(
      'Failed to save: tags.0: String should have at most 128 characters',
    );
    // A body without a message still says something: the status text, or the status.
    const bare = toApiError(new Response(null, { status: 502, statusText: 'Bad Gateway' }), null);
    expect(failureText('Delete failed', bare)).toBe('Delete failed: Bad Gateway');
    expect(failureText('Error uploading file', new TypeError('Failed to fetch'))).toBe(
      'Error uploading file: Failed to fetch',
    );
  });
});
