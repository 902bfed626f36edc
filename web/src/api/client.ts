import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './generated/schema';

/** A failed call: `message` is the server's text, shown after 'Save failed: ' and the like. */
export class ApiError extends Error {
  readonly status: number;
  readonly reason: string;
  /** The HTTP status text, e.g. 'Bad Request'. */
  readonly statusText: string;

  constructor(status: number, reason: string, message: string, statusText = '') {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.reason = reason;
    this.statusText = statusText;
  }
}

/** Pages that must never bounce to login on a 401 (they are reached signed out). */
const PUBLIC_PATHS = ['/login', '/passwordreset'];

export function loginUrlFor(pathAndSearch: string): string {
  return `/login?referer=${encodeURIComponent(pathAndSearch)}`;
}

let onUnauthorized = (url: string) => window.location.assign(url);

/** Lets tests observe the login redirect instead of leaving the page. */
export function setUnauthorizedHandler(handler: (url: string) => void): void {
  onUnauthorized = handler;
}

const unauthorizedRedirect: Middleware = {
  onResponse({ request, response }) {
    if (response.status !== 401) return undefined;
    const callPath = new URL(request.url, window.location.origin).pathname;
    // A wrong password is reported on the login form, not by a redirect.
    if (callPath.endsWith('/api/auth/login')) return undefined;
    const { pathname, search } = window.location;
    if (PUBLIC_PATHS.some((p) => pathname.startsWith(p))) return undefined;
    onUnauthorized(loginUrlFor(pathname + search));
    return undefined;
  },
};

export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'include',
  // Looked up per call, so a fetch installed later (instrumentation, tests) is used.
  fetch: (request) => globalThis.fetch(request),
});
api.use(unauthorizedRedirect);

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error.trim();
  if (error && typeof error === 'object') {
    const body = error as { message?: unknown; detail?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
    if (typeof body.detail === 'string') return body.detail;
    if (Array.isArray(body.detail)) {
      return body.detail
        .map((d: { msg?: string; loc?: unknown[] }) =>
          [d.loc?.slice(1).join('.'), d.msg].filter(Boolean).join(': '),
        )
        .join('; ');
    }
  }
  return '';
}

export function toApiError(response: Response, error: unknown): ApiError {
  const reason =
    error && typeof error === 'object' && typeof (error as { reason?: unknown }).reason === 'string'
      ? (error as { reason: string }).reason
      : '';
  const message = messageOf(error) || response.statusText || `HTTP ${response.status}`;
  return new ApiError(response.status, reason, message, response.statusText);
}

/** The message to show for any failure (ApiError, network error, anything). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** '{what}: {the server's message}': how every failed call is reported on screen. */
export function failureText(what: string, err: unknown): string {
  return `${what}: ${errorText(err)}`;
}

const STATUS_TEXTS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** '{status text}: {response body}' (the API key and user screens' error form). */
export function statusErrorText(err: unknown): string {
  if (!(err instanceof ApiError)) return errorText(err);
  const status = err.statusText || STATUS_TEXTS[err.status] || `HTTP ${err.status}`;
  return `${status}: ${err.message}`;
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Resolves to the body of a successful call, throws ApiError otherwise. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw toApiError(response, error);
  return data as T;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

/** A list call: the rows plus the total from the x-total-count header. */
export async function unwrapPage<T>(call: Promise<FetchResult<T[]>>): Promise<Page<T>> {
  const { data, error, response } = await call;
  if (!response.ok) throw toApiError(response, error);
  const rows = data ?? [];
  const header = response.headers.get('x-total-count');
  const total = header === null ? rows.length : Number(header);
  return { rows, total: Number.isFinite(total) ? total : rows.length };
}

/**
 * The URL of an API path for the browser to load by itself (an <img>, a download link),
 * checked against the schema's paths: `{name}` parts are filled from params.
 */
export function apiUrl(
  path: keyof paths,
  params: Record<string, string> = {},
  query?: URLSearchParams,
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  const search = query?.toString();
  return search ? `${filled}?${search}` : filled;
}
