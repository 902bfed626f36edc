import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders, createQueryClient } from './app/providers';
import { preloadScreens, routes } from './app/router';

const client = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// Three tasks, not one: on a slow phone, evaluating the entry is a long task already, and so
// would be matching the routes and creating the router after it.
setTimeout(() => {
  // The screens and data the URL needs are asked for first, before anything is drawn.
  preloadScreens(client, new URL(window.location.href), matchRoutes(routes, window.location) ?? []);
  setTimeout(() => start(root));
});

function start(container: HTMLElement) {
  const router = createBrowserRouter(routes);
  // As a transition, React draws the first screen in slices and lets the browser in between,
  // instead of holding a slow phone's main thread for the whole shell and page at once.
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <AppProviders client={client}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
}
