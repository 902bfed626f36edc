import { startTransition, useEffect, useState } from 'react';

/**
 * Code a screen can show without at first (the date pickers, the comboboxes' popup logic):
 * its plain stand-in is drawn first, and the code loads once the screen has painted, one
 * module at a time. On a slow phone neither its download nor its first render then comes
 * before the screen's own content.
 */
export interface AfterPaintModule<T> {
  load: () => Promise<T>;
  loaded: () => T | undefined;
}

let queue: Promise<unknown> = Promise.resolve();

// Once the next frame is on screen (a callback of the frame after it), in a task of its own.
const nextPaint = () =>
  new Promise<void>((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve))),
  );

export function afterPaint<T>(importer: () => Promise<T>): AfterPaintModule<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  const load = () => {
    if (!loading) {
      loading = queue
        .then(nextPaint)
        .then(importer)
        .then((module) => (loaded = module));
      // A failed download is tried again by the next screen that needs it.
      loading.catch(() => (loading = undefined));
      queue = loading.catch(() => undefined);
    }
    return loading;
  };
  return { load, loaded: () => loaded };
}

/**
 * The module, once it has loaded after a paint (drawn in a transition, in slices); undefined
 * until then. A failed download reaches the screen's error boundary, as a lazy screen's does.
 */
export function useAfterPaint<T>(module: AfterPaintModule<T>): T | undefined {
  const [value, setValue] = useState(module.loaded);
  const [failure, setFailure] = useState<Error | null>(null);
  useEffect(() => {
    if (value) return;
    let live = true;
    module.load().then(
      (loaded) => live && startTransition(() => setValue(() => loaded)),
      (error: unknown) =>
        live && setFailure(error instanceof Error ? error : new Error(String(error))),
    );
    return () => {
      live = false;
    };
  }, [module, value]);
  if (failure) throw failure;
  return value;
}
