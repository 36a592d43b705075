/**
 * The contact form's spam proofs, loaded only once the form is first used: a form token signed by
 * the server (when it was issued) and a proof-of-work challenge (the ALTCHA protocol) solved in a
 * worker from our own origin while the visitor types. Each pair is good for one stored message:
 * after every attempt, sent or not, the next one is fetched and solved in the background, so a
 * retry or a second message never sends used proofs. Nothing here asks the visitor anything.
 */
import { api } from '../api/client';
import { sendContactMessage, type ContactCreated, type ContactMessage } from '../api/contact';

/** What the server's `GET /api/contact/challenge` answers. */
interface Issued {
  token: string;
  challenge: { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
}

/** What a message carries for the server's spam checks. */
export interface Proofs {
  token: string;
  altcha: string;
}

/** The server files a message sent sooner than this after its token as spam; a little margin. */
const MIN_FILL_MS = 3000 + 250;
/** A challenge this close to its expiry is replaced before use. */
const EXPIRY_MARGIN_S = 60;

interface Solved {
  payload: string;
  expires: number;
  token: string;
  /** When the token arrived (`performance.now()`). */
  receivedAt: number;
}

let current: Promise<Solved> | null = null;
let ready = false;
let progress = 0;
const listeners = new Set<(fraction: number | null) => void>();

function expiresOf(salt: string): number {
  const expires = new URLSearchParams(salt.split('?')[1] ?? '').get('expires');
  return expires === null ? Infinity : Number(expires);
}

function solve(issued: Issued['challenge']): Promise<{ payload: string; expires: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pow-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<{ progress?: number; number?: number | null; took?: number }>) => {
      const data = event.data;
      if (data.progress !== undefined) {
        progress = data.progress;
        listeners.forEach((listener) => listener(progress));
        return;
      }
      worker.terminate();
      if (data.number === null || data.number === undefined) {
        reject(new Error('The challenge has no solution.'));
        return;
      }
      const { algorithm, challenge, salt, signature } = issued;
      const payload = btoa(JSON.stringify({ algorithm, challenge, number: data.number, salt, signature, took: data.took }));
      resolve({ payload, expires: expiresOf(salt) });
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'The challenge could not be solved.'));
    };
    worker.postMessage({ salt: issued.salt, challenge: issued.challenge, maxnumber: issued.maxnumber });
  });
}

/** Fetches a token and a challenge and starts solving it. */
export function prepare(): void {
  if (current) return;
  progress = 0;
  ready = false;
  const started = api<Issued>('/api/contact/challenge')
    .then(async (issued) => {
      const receivedAt = performance.now();
      const solved = await solve(issued.challenge);
      ready = true;
      return { ...solved, token: issued.token, receivedAt };
    });
  current = started;
  // A failed fetch or solve is tried again at the next use.
  started.catch(() => {
    if (current === started) current = null;
  });
}

/**
 * Waits until the proofs are ready, reporting the solving progress (0 to 1), and returns them.
 * Each challenge is good for one message: the next call starts a new one.
 */
export async function proofs(onProgress: (fraction: number | null) => void): Promise<Proofs> {
  prepare();
  // Progress is shown only while the visitor actually waits for it.
  const waiting = !ready;
  if (waiting) {
    listeners.add(onProgress);
    onProgress(progress);
  }
  let solved: Solved;
  try {
    solved = await current!;
  } finally {
    listeners.delete(onProgress);
  }
  current = null;
  if (solved.expires - EXPIRY_MARGIN_S < Date.now() / 1000) return proofs(onProgress);
  const wait = MIN_FILL_MS - (performance.now() - solved.receivedAt);
  if (wait > 0 && waiting) onProgress(1);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  // The next attempt (a retry, or another message) gets proofs of its own, solved in the
  // background from now on.
  prepare();
  return { token: solved.token, altcha: solved.payload };
}

/**
 * Sends a message once its proofs are ready: `onProgress` gets the solving progress while the
 * visitor waits for it, then `null` when the message itself is sent.
 */
export async function send(
  message: ContactMessage,
  website: string,
  onProgress: (fraction: number | null) => void,
): Promise<ContactCreated> {
  const signals = await proofs(onProgress);
  onProgress(null);
  return sendContactMessage(message, { website, ...signals });
}

// Imported when the form is first used: start at once, while the visitor types.
prepare();
