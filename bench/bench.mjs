// `make bench`: serves the release binary and measures it.
//  1. Lighthouse on `/` with its default mobile emulation, against Debian's Chromium: the four
//     category scores and the page's transfer by resource type.
//  2. The MDN HTTP Observatory scanner against the binary serving HTTPS on 127.0.0.1:443 (with a
//     certificate generated here) and redirecting plain HTTP from :80: grade, score and any
//     failed test. Needs the right to listen on ports below 1024 (root, as on our machines).
// The full Lighthouse report is written to .bench/lighthouse.json.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const here = dirname(fileURLToPath(import.meta.url));
const binary = resolve(process.argv[2] ?? join(here, '../target/release/portfolio'));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const reportDir = join(here, '../.bench');

/** Starts `portfolio serve` with a fresh database; resolves with its URL once it listens. */
async function serve(args) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portfolio-bench-'));
  const child = spawn(
    binary,
    ['serve', '--database-url', `sqlite://${join(dataDir, 'bench.db')}`, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: 'warn,portfolio=info' } },
  );
  let output = '';
  const url = await new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 20_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (https?:\/\/[\d.:[\]a-z]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, stop };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function runLighthouse() {
  const server = await serve(['--listen', '127.0.0.1:0']);
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--no-first-run',
    ],
  });
  try {
    // Lighthouse's default configuration: a mid-range phone, simulated slow 4G.
    const result = await lighthouse(`${server.url}/`, { port: chrome.port, output: 'json', logLevel: 'error' });
    const lhr = result.lhr;
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(join(reportDir, 'lighthouse.json'), result.report);
    console.log(`\nLighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor} emulation, ${lhr.finalDisplayedUrl}`);
    for (const category of Object.values(lhr.categories)) {
      console.log(`  ${category.title.padEnd(16)} ${Math.round(category.score * 100)}`);
    }
    for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
      const audit = lhr.audits[id];
      if (audit) console.log(`  ${audit.title.padEnd(26)} ${audit.displayValue}`);
    }
    // Only the audits that count towards a score (Lighthouse's diagnostics weigh nothing).
    const failed = Object.values(lhr.categories)
      .flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0))
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative');
    if (failed.length) {
      console.log('  Audits below full marks:');
      for (const audit of new Map(failed.map((a) => [a.id, a])).values()) console.log(`    - ${audit.id}: ${audit.title}`);
    }
    console.log('\nTransfer for / by resource type:');
    for (const item of lhr.audits['resource-summary'].details.items) {
      console.log(`  ${String(item.label).padEnd(12)} ${String(item.requestCount).padStart(3)} requests  ${kb(item.transferSize).padStart(9)}`);
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
}

/** A self-signed certificate for localhost and 127.0.0.1, written into `dir`. */
function certificate(dir) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ], { stdio: 'ignore' });
  return { cert, key };
}

async function runObservatory() {
  const observatory = join(here, 'node_modules/@mdn/mdn-http-observatory');
  // Its install step downloads these two lists; the scan works with empty ones (no preload bonus).
  for (const [file, empty] of [['hsts-preload.json', '{}'], ['tld-list.json', '[]']]) {
    const path = join(observatory, 'conf', file);
    if (!existsSync(path)) writeFileSync(path, empty);
  }
  const dir = mkdtempSync(join(tmpdir(), 'portfolio-bench-tls-'));
  const { cert, key } = certificate(dir);
  let server;
  try {
    server = await serve([
      '--listen', '127.0.0.1:443', '--http-redirect-listen', '127.0.0.1:80',
      '--tls-cert', cert, '--tls-key', key, '--public-url', 'https://localhost',
    ]);
  } catch (error) {
    console.log(`\nHTTP Observatory: skipped, cannot serve on ports 443 and 80 here (${String(error.message).split('\n').slice(0, 3).join(' ')})`);
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  try {
    const output = execFileSync(process.execPath, [join(observatory, 'src/scan.js'), 'localhost'], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert },
      encoding: 'utf8',
    });
    const result = JSON.parse(output);
    if (result.error) throw new Error(result.error);
    const { grade, score, testsPassed, testsQuantity } = result.scan;
    console.log(`\nHTTP Observatory (MDN): grade ${grade}, score ${score}/100, ${testsPassed}/${testsQuantity} tests passed`);
    for (const [name, test] of Object.entries(result.tests)) {
      const mark = test.pass ? 'pass' : 'FAIL';
      console.log(`  ${mark}  ${name.padEnd(32)} ${test.scoreModifier > 0 ? '+' : ''}${test.scoreModifier}  ${test.result}`);
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(binary)) throw new Error(`no binary at ${binary}: run \`cargo build --release\` first`);
await runLighthouse();
await runObservatory();
