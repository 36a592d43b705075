/**
 * Shared set-up for browser tests: the real release binary on a free port with its own
 * temporary database, and Debian's Chromium driven by playwright-core.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const BINARY = process.env.PORTFOLIO_BIN ?? resolve(import.meta.dirname, '../../target/release/portfolio');
/**
 * Debian's Chromium as its headless shell (package chromium-headless-shell): the same engine
 * without the browser around it, where `/usr/bin/chromium` in headless mode runs the whole browser
 * without a window. The browser stage spent 30 % less time and CPU with it (docs/benchmarks.md).
 * `CHROMIUM_PATH` picks another, such as `/usr/bin/chromium`.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 375, height: 740 } as const;

export interface RunningServer {
  url: string;
  dataDir: string;
  databaseUrl: string;
  process: ChildProcess;
  /** Everything the server printed so far. */
  output: () => string;
  /** Runs another command of the same binary against the same database. */
  cli: (args: string[], input?: string) => { status: number | null; stdout: string; stderr: string };
  /** Stops the server and removes its folder, unless `keepData` (to start another on it). */
  stop: (keepData?: boolean) => Promise<void>;
}

/**
 * Starts the server on a free port with a fresh database and resolves once it is listening.
 * `port` picks the port (for a public URL that names it); `dataDir` starts it on the database of
 * an earlier server of the test's, which then removes the folder itself.
 */
export async function startServer(
  options: { args?: string[]; env?: Record<string, string>; port?: number; dataDir?: string } = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'portfolio-e2e-'));
  const databaseUrl = `sqlite://${join(dataDir, 'portfolio.db')}`;
  const env = { ...process.env, RUST_LOG: 'info', ...options.env };
  const child = spawn(
    BINARY,
    [
      'serve',
      '--listen',
      `127.0.0.1:${options.port ?? 0}`,
      '--database-url',
      databaseUrl,
      // Every test of a suite visits from 127.0.0.1: as one network, dozens of visits would make
      // its proof of work grow (the server tests check that growth).
      '--spam-challenge-free-per-hour',
      '1000',
      ...(options.args ?? []),
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (https?:\/\/[\d.:[\]a-z]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });

  return {
    url,
    dataDir,
    databaseUrl,
    process: child,
    output: () => output,
    cli: (args, input) => {
      const result = spawnSync(BINARY, args, {
        env: { ...env, PORTFOLIO_DATABASE_URL: databaseUrl },
        input: input ?? '',
        encoding: 'utf8',
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    stop: async (keepData = false) => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A server and a browser shared by the tests of one `describe`. */
/**
 * A server that a test restarts on one port and one database, each time with its clock moved
 * ahead (the hidden `PORTFOLIO_CLOCK_OFFSET`): `start(offsetSeconds)` stops the running one,
 * keeping its data, and starts the next on the same data; `stop()` ends the last and removes it.
 */
export function restartable(options: { port: number; args: string[]; env?: Record<string, string> }) {
  let server: RunningServer | undefined;
  let dataDir: string | undefined;
  return {
    async start(offsetSeconds: number): Promise<RunningServer> {
      await server?.stop(true);
      server = await startServer({
        args: options.args,
        env: { ...options.env, PORTFOLIO_CLOCK_OFFSET: String(offsetSeconds) },
        port: options.port,
        dataDir,
      });
      dataDir = server.dataDir;
      return server;
    },
    async stop(): Promise<void> {
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Suite {
  server: RunningServer;
  browser: Browser;
}

/**
 * Starts a fresh server and a browser before the enclosing `describe`'s tests and stops both
 * after them. The fields are filled in by the time any test runs.
 */
export function serverAndBrowser(options?: Parameters<typeof startServer>[0]): Suite {
  const suite = {} as Suite;
  before(async () => {
    suite.server = await startServer(options);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}

export async function launchBrowser(options: { javaScriptEnabled?: boolean } = {}): Promise<Browser> {
  void options;
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // The shell hints glyph outlines fully by default, which rounds their advances and sets text
      // wider than the browser does (a dashboard's tabs wrapped at 360 px); slight hinting, as
      // Debian's fontconfig sets for the browser, draws the same lines.
      '--font-render-hinting=slight',
    ],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors, uncaught exceptions and failed requests seen so far. */
  errors: string[];
  /** Requests made to any origin other than the server's. */
  foreignRequests: string[];
  close: () => Promise<void>;
}

/**
 * Opens a page in a fresh context that records console errors and requests to other hosts. The
 * browser's scheme is dark unless a test asks for another (the page's light scheme has tests of
 * its own, in schemes.test.ts).
 */
export async function openPage(
  browser: Browser,
  server: RunningServer,
  options: BrowserContextOptions = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'dark', ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  const foreignRequests: string[] = [];
  const origin = new URL(server.url).origin;
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin) {
      foreignRequests.push(url);
    }
  });
  watched.set(page, errors);
  return { page, errors, foreignRequests, close: () => context.close() };
}

const watched = new WeakMap<Page, string[]>();

/** The console errors and uncaught exceptions a page opened by `openPage` has had so far (for a failing test's message). */
export function errorsOf(page: Page): readonly string[] {
  return watched.get(page) ?? [];
}
