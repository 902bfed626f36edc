import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin, Rolldown } from 'vite';
import { defineConfig } from 'vitest/config';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const COMPRESSIBLE = /\.(js|css|svg|json)$/;

/**
 * Writes `name.br` and `name.gz` beside each built asset, so the server sends them as they
 * are instead of compressing on every request (the files are named after their content).
 */
function precompress(): Plugin {
  return {
    name: 'tagtrack-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const names = Object.keys(bundle).filter(
        (name) => name.startsWith('assets/') && COMPRESSIBLE.test(name),
      );
      await Promise.all(
        names.map(async (name) => {
          const path = join(outDir, name);
          const content = await readFile(path);
          if (content.length < 1024) return;
          const quality = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY };
          await writeFile(`${path}.br`, await brotli(content, { params: quality }));
          await writeFile(`${path}.gz`, await gzipped(content, { level: 9 }));
        }),
      );
    },
  };
}

/**
 * Copies Swagger UI into `swagger-ui/`, from where the server's API docs (/api/docs) load it:
 * the docs then need no internet access and no script from another origin.
 */
function swaggerUi(): Plugin {
  const files = ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE'];
  return {
    name: 'tagtrack-swagger-ui',
    apply: 'build',
    async writeBundle(options) {
      const source = dirname(
        createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
      );
      const target = join(options.dir ?? 'dist', 'swagger-ui');
      await mkdir(target, { recursive: true });
      await Promise.all(files.map((name) => copyFile(join(source, name), join(target, name))));
    },
  };
}

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));
// Every signed-in screen loads the shell first, with everything it imports statically.
const SHELL = source('app/shell/Layout.tsx');
// Data calls the entry starts at once: their code must not wait for the shell's chunk.
const PREFETCHES = [source('features/events/prefetch.ts')];
const EVENTS = source('features/events/EventsPage.tsx');

/** The modules and everything they import, directly or not. */
function imported(ctx: Rolldown.ChunkingContext, starts: string[]): Set<string> {
  const found = new Set<string>();
  const todo = [...starts];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (found.has(id)) continue;
    found.add(id);
    todo.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return found;
}

/** A chunk of the given modules and all they import (found once, on its first question). */
function closureGroup(name: string, starts: string[]) {
  let members: Set<string> | undefined;
  return {
    name: (id: string, ctx: Rolldown.ChunkingContext) =>
      (members ??= imported(ctx, starts)).has(id) ? name : null,
  };
}

export default defineConfig({
  plugins: [react(), precompress(), swaggerUi()],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    // A browser without modulepreload (Safari before 17) still loads the modules, a little later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Everything the entry imports statically loads on every page anyway: one file, not a
        // dozen shared with the lazy screens, compresses better and needs fewer requests.
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'] },
            // Ahead of the shell, which would otherwise take some of these modules with it.
            closureGroup('prefetch', PREFETCHES),
            // On a phone's network each request costs a round trip: one shell chunk, not 50.
            closureGroup('shell', [SHELL]),
            // The page a phone opens most, in one chunk with the components it shares with other
            // screens (they load it with theirs; bench.bundle keeps them in budget).
            closureGroup('EventsPage', [EVENTS]),
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 20000,
  },
});
