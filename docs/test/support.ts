/**
 * What the browser tests of the documentation site stand on: the built site served over HTTP, the
 * API running as a real process, and Debian's Chromium driven by playwright-core (no test tool
 * downloads a browser).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

export const docsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = path.resolve(docsDir, '..');
export const buildDir = path.join(docsDir, 'build');
export const artifactsDir = path.join(docsDir, 'test-artifacts');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export interface Running { url: string; close(): Promise<void> }

/**
 * Serves the built site as a static host would: `/x` answers `x/index.html` or `x.html`, an
 * unknown path answers the site's 404 page with status 404.
 */
export async function serveSite(dir = buildDir): Promise<Running> {
  if (!existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`no built site in ${dir}: run \`npm run docs:build\` first`);
  }
  const root = path.resolve(dir);
  const fileFor = (pathname: string): string | undefined => {
    const local = path.resolve(root, `.${pathname}`);
    if (local !== root && !local.startsWith(`${root}${path.sep}`)) return undefined;
    for (const candidate of [local, path.join(local, 'index.html'), `${local}.html`]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return undefined;
  };
  const server: Server = createServer((req, res) => {
    let pathname = '/';
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const file = fileFor(pathname);
    const status = file ? 200 : 404;
    const body = file ?? path.join(root, '404.html');
    res.writeHead(status, { 'Content-Type': TYPES[path.extname(body)] ?? 'application/octet-stream' });
    createReadStream(body).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** GET over a connection of its own, closed after (no keep-alive socket outlives the tests). */
export function httpGet(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    }).on('error', reject);
  });
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Starts the API as `npx tsx server/app/main.ts` would, on a free port with an embedded database in a
 * fresh folder, allowing CORS from `corsOrigin` only, with `env`'s variables besides. Resolves once
 * /health answers.
 */
export async function startApi(corsOrigin: string, env: Record<string, string> = {}): Promise<Running & { specUrl: string; output: () => string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coverline-docs-api-'));
  let output = '';
  const child: ChildProcess = spawn(path.join(repoDir, 'node_modules/.bin/tsx'), ['server/app/main.ts'], {
    cwd: repoDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      CORS_ORIGINS: corsOrigin,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      ...env,
    },
    detached: true, // its own process group: tsx runs the server in a child process of its own
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => { output += chunk; });
  child.stderr?.on('data', (chunk) => { output += chunk; });
  const url = `http://127.0.0.1:${port}/api/v1`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => { timer = setTimeout(resolve, 10_000); })]);
      clearTimeout(timer);
      if (child.exitCode === null) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) before answering:\n${output}`);
    try {
      if ((await httpGet(`${url}/health`)).status === 200) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { await stop(); throw new Error(`the API did not answer /health within 90 s:\n${output}`); }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, specUrl: `${url}/openapi.json`, output: () => output, close: stop };
}

/** Debian's Chromium, headless, kept off the network it cannot reach anyway. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
  });
}

/** A fresh folder for screenshots (gitignored). */
export function artifacts(): string {
  mkdirSync(artifactsDir, { recursive: true });
  return artifactsDir;
}

/** The built site served, the API beside it (allowing the site's origin) and Chromium: what a browser test of the site with the API stands on. */
export interface Stage { site: Running; api: Awaited<ReturnType<typeof startApi>>; browser: Browser; close(): Promise<void> }

export async function startStage(apiEnv: Record<string, string> = {}): Promise<Stage> {
  const site = await serveSite();
  const api = await startApi(site.url, apiEnv).catch(async (error) => { await site.close(); throw error; });
  const browser = await launchBrowser().catch(async (error) => { await api.close(); await site.close(); throw error; });
  return { site, api, browser, close: async () => { await browser.close(); await api.close(); await site.close(); } };
}

/** An accessibility violation as axe-core reports it, cut down to what a failing test should print. */
export interface Violation { id: string; impact: string | null | undefined; help: string; targets: string[] }

/**
 * Runs axe-core (through @axe-core/playwright, which injects node_modules' axe-core into the page:
 * nothing is downloaded) over the page as it is now, with the WCAG 2.x A and AA rules, and answers
 * its violations; `within` limits the check to a part of the page.
 */
export async function axeViolations(page: Page, within?: string): Promise<Violation[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  if (within) builder = builder.include(within);
  const { violations } = await builder.analyze();
  return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`) }));
}

/** The violations a page must not have: serious and critical (the bar). */
export const blocking = (violations: Violation[]) => violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
