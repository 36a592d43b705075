/**
 * Solves one proof-of-work challenge (the ALTCHA protocol) off the main thread: finds the number
 * in `0..=maxnumber` whose SHA-256, after the salt, is the challenge. Hashes through Web Crypto,
 * in batches so the digests run in parallel; reports progress as the fraction of numbers tried.
 *
 * In:  { salt, challenge, maxnumber }
 * Out: { progress } now and then, then { number, took } (number is null when none fits).
 */

interface Task {
  salt: string;
  challenge: string;
  maxnumber: number;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Task>) => void) | null;
  postMessage(message: unknown): void;
};

const BATCH = 512;

function bytesOf(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function solve({ salt, challenge, maxnumber }: Task): Promise<number | null> {
  const encoder = new TextEncoder();
  const target = bytesOf(challenge);
  for (let start = 0; start <= maxnumber; start += BATCH) {
    const end = Math.min(start + BATCH - 1, maxnumber);
    const numbers = Array.from({ length: end - start + 1 }, (_, i) => start + i);
    const digests = await Promise.all(
      numbers.map((n) => crypto.subtle.digest('SHA-256', encoder.encode(salt + n))),
    );
    const found = digests.findIndex((digest) => equal(new Uint8Array(digest), target));
    if (found >= 0) return numbers[found]!;
    scope.postMessage({ progress: (end + 1) / (maxnumber + 1) });
  }
  return null;
}

scope.onmessage = (event) => {
  const started = performance.now();
  void solve(event.data).then((number) =>
    scope.postMessage({ number, took: Math.round(performance.now() - started) }),
  );
};
