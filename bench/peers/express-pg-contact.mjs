// The Express 5 + node-postgres peer of `make bench`'s PostgreSQL workload: what POST /api/contact
// does, written plainly, on the same throwaway cluster as our server (synchronous_commit on, as
// shipped): validate the JSON as express-contact.mjs does, one INSERT per message through a pool
// of 10 connections (each its own transaction, autocommit), answer 201 after the commit.
// Usage: node express-pg-contact.mjs DATABASE_URL  (prints "listening on http://...")
import express from 'express';
import pg from 'pg';

const [url] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });
await pool.query(`CREATE TABLE IF NOT EXISTS contact_messages (
  id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL,
  subject TEXT NOT NULL, message TEXT NOT NULL, form_name TEXT NOT NULL,
  created_at BIGINT NOT NULL, user_agent TEXT)`);
const { rows: [{ synchronous_commit: durability }] } = await pool.query('SHOW synchronous_commit');
if (durability !== 'on') throw new Error(`synchronous_commit is ${durability}, not on: the peer would not be fair`);
const INSERT =
  'INSERT INTO contact_messages (name, email, subject, message, form_name, created_at, user_agent) ' +
  'VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id';

// The same rules as express-contact.mjs (and our server's 422s).
const FIELDS = new Set(['name', 'email', 'subject', 'message', 'form-name', 'website', 'token', 'altcha', 'elapsedMs']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const text = (v) => (typeof v === 'string' ? v : '');

function invalid(body) {
  const fields = {};
  const name = text(body.name).trim();
  if (name.length < 1 || [...name].length > 100) fields.name = 'between 1 and 100 characters';
  const email = text(body.email).trim();
  if (!EMAIL.test(email) || email.length > 254) fields.email = 'a valid address';
  const subject = text(body.subject).trim();
  if (!subject || [...subject].length > 200) fields.subject = 'required, at most 200 characters';
  const message = text(body.message).trim();
  if (!message || [...message].length > 5000) fields.message = 'required, at most 5,000 characters';
  if (body['form-name'] !== 'contact') fields['form-name'] = 'must be contact';
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) fields[key] = 'unknown field';
  return Object.keys(fields).length ? fields : null;
}

const app = express();
app.disable('x-powered-by');
app.post('/api/contact', express.json({ limit: '16kb' }), async (req, res) => {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : null;
  const fields = body ? invalid(body) : { body: 'a JSON object' };
  if (fields) {
    res.status(422).json({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields } });
    return;
  }
  const now = Date.now();
  try {
    // Autocommit: the query returns once PostgreSQL has committed (and flushed) the row.
    const { rows } = await pool.query(INSERT, [
      body.name, body.email, body.subject, body.message, 'contact', now,
      (req.get('user-agent') ?? '').slice(0, 512) || null,
    ]);
    res.status(201).json({ id: Number(rows[0].id), createdAt: new Date(now).toISOString() });
  } catch {
    res.status(503).json({ error: { code: 'storage_unavailable', message: 'Try again in a moment.' } });
  }
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
