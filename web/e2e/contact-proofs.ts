/**
 * What the contact page adds to a message, obtained as a script would: a form token and a solved
 * proof-of-work challenge from the server (Node's SHA-256 in place of the page's worker), a new
 * pair for each message. Tests that store messages through the API use it so their messages land
 * in the Inbox, not in Spam.
 */
import { createHash } from 'node:crypto';

interface Issued {
  token: string;
  challenge: { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
}

/** The server's minimum time between the token and the message, with a margin. */
const MIN_FILL_MS = 3100;

/** How many token-and-challenge pairs are fetched at once: they age together, so only the first
 * message of a batch waits for the minimum time. */
const BATCH = 10;

/** Per server, pairs fetched but not used yet (each is good for one message), with their time. */
const pool = new Map<string, { issued: Issued; at: number }[]>();

async function issue(serverUrl: string): Promise<Issued> {
  const response = await fetch(`${serverUrl}/api/contact/challenge`);
  if (!response.ok) throw new Error(`challenge: ${response.status}`);
  return (await response.json()) as Issued;
}

export async function contactProofs(serverUrl: string): Promise<{ token: string; altcha: string }> {
  let waiting = pool.get(serverUrl);
  if (!waiting?.length) {
    const batch = await Promise.all(Array.from({ length: BATCH }, () => issue(serverUrl)));
    waiting = batch.map((issued) => ({ issued, at: Date.now() }));
    pool.set(serverUrl, waiting);
  }
  const { issued, at } = waiting.shift()!;
  const { algorithm, challenge, maxnumber, salt, signature } = issued.challenge;
  let number = -1;
  for (let n = 0; n <= maxnumber; n++) {
    if (createHash('sha256').update(salt + n).digest('hex') === challenge) {
      number = n;
      break;
    }
  }
  if (number < 0) throw new Error('the challenge has no solution');
  const wait = MIN_FILL_MS - (Date.now() - at);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const altcha = Buffer.from(JSON.stringify({ algorithm, challenge, number, salt, signature })).toString('base64');
  return { token: issued.token, altcha };
}
