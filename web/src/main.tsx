import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders, createQueryClient } from './app/providers';
import { preloadScreens, routes } from './app/router';

const client = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// Three tasks, not one: on a slow phone, evaluating the entry is a long task already, and so
// would be creating the router and drawing the first screen after it.
setTimeout(() => {
  const router = createBrowserRouter(routes);
  // The router has matched the URL: its screens and data are asked for before anything is drawn.
  preloadScreens(client, new URL(window.location.href), router.state.matches);
  setTimeout(() => render(root, router));
});

function render(container: HTMLElement, router: ReturnType<typeof createBrowserRouter>) {
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
