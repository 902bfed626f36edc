import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders, createQueryClient } from './app/providers';
import { preloadScreens, routes } from './app/router';

const router = createBrowserRouter(routes);
const client = createQueryClient();
// The router has matched the URL already: its screens and data are asked for at once.
preloadScreens(client, new URL(window.location.href), router.state.matches);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// As a transition, React draws the first screen in slices and lets the browser in between,
// instead of holding a slow phone's main thread for the whole shell and page at once.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <AppProviders client={client}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  ),
);
