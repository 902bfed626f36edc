import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { DatePickersProvider } from '../app/DatePickersProvider';
import { AppProviders } from '../app/providers';

type MockReply = { status?: number; body?: unknown; headers?: Record<string, string> };
export type MockHandler = MockReply | ((request: Request) => MockReply | Promise<MockReply>);

/** The first recorded call that matches; the test fails when there is none. */
export function findCall(calls: Request[], match: (call: Request) => boolean): Request {
  const call = calls.find(match);
  if (!call) throw new Error('no matching call was made');
  return call;
}

/** Stubs fetch: handlers are keyed 'METHOD /path' (no query); unknown calls answer 404. */
export function mockApi(handlers: Partial<Record<string, MockHandler>>) {
  const calls: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(input);
    calls.push(request);
    const url = new URL(request.url);
    const handler = handlers[`${request.method} ${url.pathname}`];
    const reply: MockReply = handler
      ? typeof handler === 'function'
        ? await handler(request)
        : handler
      : { status: 404, body: { reason: 'not found', message: 'Not found' } };
    const status = reply.status ?? 200;
    const hasBody = reply.body !== undefined && status !== 204;
    return new Response(hasBody ? JSON.stringify(reply.body) : null, {
      status,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

export function testQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
}

/** Shows the current location so tests can assert on navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/** Renders an element at a path inside the app's providers and a memory router. */
export function renderAt(
  element: ReactElement,
  {
    path = '/',
    route = '/',
    extraRoutes = [],
    client = testQueryClient(),
  }: { path?: string; route?: string; extraRoutes?: RouteObject[]; client?: QueryClient } = {},
) {
  const router = createMemoryRouter(
    [
      {
        path,
        element: (
          <DatePickersProvider>
            {element}
            <LocationProbe />
          </DatePickersProvider>
        ),
      },
      ...extraRoutes,
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [route] },
  );
  const result = render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, client };
}

export const adminRules = (
  resources: string[],
  ops = { create: true, modify: true, delete: true },
) => resources.map((resource) => ({ resource, ...ops }));

/** The signed-in user's `GET /api/users/me` answer, a user of the given sites. */
export const currentUser = (sites: string[], superAdmin = false) => ({
  id: 'u1',
  name: 'Ada Lovelace',
  username: 'ada@example.com',
  roles: ['r1'],
  securityCtx: { sites, companies: [] },
  superAdmin,
  orgId: 'o1',
});
