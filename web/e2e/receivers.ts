/**
 * Local stand-ins for what the server sends to: a minimal SMTP server and a webhook receiver, each
 * keeping what it was sent, on free ports of their own.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

/** A minimal SMTP server (plain, no TLS) that keeps every message it accepts. */
export class TestSmtp {
  readonly messages: string[] = [];
  private server: Server | null = null;
  private sockets = new Set<Socket>();

  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.setEncoding('utf8');
      let buffer = '';
      let data: string | null = null;
      socket.write('220 localhost ESMTP test\r\n');
      socket.on('data', (chunk: string) => {
        buffer += chunk;
        for (;;) {
          if (data !== null) {
            const end = buffer.indexOf('\r\n.\r\n');
            if (end === -1) return;
            this.messages.push(data + buffer.slice(0, end));
            buffer = buffer.slice(end + 5);
            data = null;
            socket.write('250 OK queued\r\n');
            continue;
          }
          const newline = buffer.indexOf('\r\n');
          if (newline === -1) return;
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 2);
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO' || verb === 'HELO') socket.write('250 localhost\r\n');
          else if (verb === 'DATA') {
            data = '';
            socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
          } else if (verb === 'QUIT') {
            socket.end('221 Bye\r\n');
            return;
          } else socket.write('250 OK\r\n');
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A mail as the SMTP server received it: its headers (unfolded, by lower-case name) and its text, decoded. */
export function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  // SMTP's dot-stuffing undone, then the transfer encoding.
  let body = raw.slice(split + 4).replace(/^\.\./gm, '.');
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    body = Buffer.from(
      body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  return { headers, text: body.replace(/\r\n/g, '\n') };
}

/** A local port on which nothing listens yet. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  assert.ok(address && typeof address === 'object');
  return address.port;
}

/** A webhook receiver: keeps the JSON body of every POST and answers 204. */
export class TestWebhook {
  readonly bodies: unknown[] = [];
  private server: HttpServer | null = null;
  url = '';

  async start(): Promise<void> {
    const server = createHttpServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        try {
          this.bodies.push(JSON.parse(body));
        } catch {
          this.bodies.push(body);
        }
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const address = server.address();
    assert.ok(address && typeof address === 'object');
    this.url = `http://127.0.0.1:${address.port}/hook`;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    server?.closeAllConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
