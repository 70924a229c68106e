import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpsRoute } from '../http/ops-route.js';
import type { OpsContext } from '../ops-context.js';
import { apiState } from './api-state.js';

/** The page's own files, next to this module (`npm run build` copies them beside the compiled one). */
const STATIC_DIR = join(dirname(fileURLToPath(import.meta.url)), 'static');

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** Everything the page loads, read once: its own files and uPlot's browser build from node_modules (no build step). */
function loadAssets(): Map<string, { type: string; body: Buffer }> {
  const dir = STATIC_DIR;
  const uplot = dirname(createRequire(import.meta.url).resolve('uplot'));
  const files: Record<string, string> = {
    'index.html': join(dir, 'index.html'),
    'dashboard.js': join(dir, 'dashboard.js'),
    'chart-axes.js': join(dir, 'chart-axes.js'),
    'dashboard.css': join(dir, 'dashboard.css'),
    'uPlot.iife.min.js': join(uplot, 'uPlot.iife.min.js'),
    'uPlot.min.css': join(uplot, 'uPlot.min.css'),
  };
  return new Map(Object.entries(files).map(([name, path]) => [name, { type: TYPES[name.slice(name.lastIndexOf('.'))]!, body: readFileSync(path) }]));
}

/** The page may load only its own scripts and styles, and talk only to this daemon. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `GET /` (the dashboard), `GET /assets/:file`, and `GET /api/state` (what the page draws, polled once a second). */
export function dashboardRoutes(c: OpsContext): OpsRoute[] {
  const assets = loadAssets();
  const page = assets.get('index.html')!;
  return [
    {
      method: 'GET',
      path: '/',
      control: false,
      handle: () => ({ status: 200, contentType: page.type, body: page.body, headers: { 'Content-Security-Policy': CSP } }),
    },
    {
      method: 'GET',
      path: '/assets/:file',
      control: false,
      handle: (req) => {
        const a = req.params.file === 'index.html' ? undefined : assets.get(req.params.file!);
        return a ? { status: 200, contentType: a.type, body: a.body } : { status: 404, body: { error: `no asset ${req.params.file}` } };
      },
    },
    { method: 'GET', path: '/favicon.ico', control: false, handle: () => ({ status: 204, contentType: 'image/x-icon', body: '' }) },
    { method: 'GET', path: '/api/state', control: false, handle: () => apiState(c).then((body) => ({ status: 200, body })) },
  ];
}
