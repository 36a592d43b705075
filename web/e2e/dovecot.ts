/**
 * A Dovecot of the test's own (Debian's dovecot-imapd, installed by `make dovecot`), run by
 * scripts/test-dovecot on a free port: unprivileged, IMAPS only, one user `site`, a throwaway
 * mailbox, and a certificate the test makes (openssl) and the server is told to trust
 * (`--imap-ca-file`). The same script serves the server's tests (server/tests/api/helpers/dovecot.rs).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from './receivers.ts';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/test-dovecot');
const PASSWORD = 'an answer p@ssword';

export class TestDovecot {
  readonly dir: string;
  port = 0;

  constructor() {
    // Short: Dovecot's sockets live under it, and a socket's path has a length limit.
    this.dir = mkdtempSync('/tmp/dvc-');
  }

  private run(command: string, args: string[] = [], input?: string): void {
    execFileSync(SCRIPT, [command, this.dir, ...args], {
      input,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      // Stops this Dovecot should the test process be killed before it can.
      env: { ...process.env, TEST_DOVECOT_OWNER: String(process.pid) },
    });
  }

  async start(): Promise<void> {
    // An end-entity certificate (not a CA's) for the loopback address and localhost.
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-subj', '/CN=localhost', '-days', '1',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-addext', 'basicConstraints=critical,CA:FALSE',
      '-keyout', join(this.dir, 'key.pem'), '-out', join(this.dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    execFileSync('cp', [join(this.dir, 'cert.pem'), this.caFile]);
    writeFileSync(join(this.dir, 'password'), PASSWORD);
    this.port = await freePort();
    this.run('start', [String(this.port)]);
  }

  /** Delivers one raw mail to the INBOX, as the mail server would (a new UID). */
  deliver(raw: string): void {
    this.run('deliver', [], raw);
  }

  /** The CA file to trust: kept beside the folder, as a server's would be apart from Dovecot's. */
  get caFile(): string {
    return `${this.dir}.ca.pem`;
  }

  /** `--imap-url` for this mailbox. */
  get url(): string {
    return `imaps://site:${encodeURIComponent(PASSWORD)}@127.0.0.1:${this.port}/INBOX`;
  }

  stop(): void {
    try {
      this.run('stop');
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
      rmSync(this.caFile, { force: true });
    }
  }
}
