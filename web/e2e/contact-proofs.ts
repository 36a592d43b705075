/**
 * What the contact page adds to a message, obtained as a script would: a form token and a solved
 * proof-of-work challenge from the server (Node's SHA-256 in place of the page's worker). Tests
 * that store messages through the API use it so their messages land in the Inbox, not in Spam.
 */
import { createHash } from 'node:crypto';

interface Issued {
  token: string;
  challenge: { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
}

/** The server's minimum time between the token and the message, with a margin. */
const MIN_FILL_MS = 3100;

/** One token per server, kept: it only has to be old enough, once. */
const tokens = new Map<string, { token: string; at: number }>();

export async function contactProofs(serverUrl: string): Promise<{ token: string; altcha: string }> {
  const response = await fetch(`${serverUrl}/api/contact/challenge`);
  if (!response.ok) throw new Error(`challenge: ${response.status}`);
  const issued = (await response.json()) as Issued;
  let kept = tokens.get(serverUrl);
  if (!kept) {
    kept = { token: issued.token, at: Date.now() };
    tokens.set(serverUrl, kept);
  }
  const { algorithm, challenge, maxnumber, salt, signature } = issued.challenge;
  let number = -1;
  for (let n = 0; n <= maxnumber; n++) {
    if (createHash('sha256').update(salt + n).digest('hex') === challenge) {
      number = n;
      break;
    }
  }
  if (number < 0) throw new Error('the challenge has no solution');
  const wait = MIN_FILL_MS - (Date.now() - kept.at);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const altcha = Buffer.from(JSON.stringify({ algorithm, challenge, number, salt, signature })).toString('base64');
  return { token: kept.token, altcha };
}
