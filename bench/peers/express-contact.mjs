// The Express 5 + better-sqlite3 peer of `make bench`: what POST /api/contact does, written
// plainly: validate the JSON, insert it in SQLite (WAL, synchronous=FULL), answer 201 after the
// commit. It also serves web/dist with express.static for GET, as a plain Node site would.
// Usage: node express-contact.mjs DIST_DIR DATABASE_FILE  (prints "listening on http://...")
import Database from 'better-sqlite3';
import express from 'express';

const [dist, file] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS contact_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, email TEXT NOT NULL,
  subject TEXT NOT NULL, message TEXT NOT NULL, form_name TEXT NOT NULL,
  created_at INTEGER NOT NULL, user_agent TEXT)`);
const insert = db.prepare(
  'INSERT INTO contact_messages (name, email, subject, message, form_name, created_at, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)',
);

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
app.post('/api/contact', express.json({ limit: '16kb' }), (req, res) => {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : null;
  const fields = body ? invalid(body) : { body: 'a JSON object' };
  if (fields) {
    res.status(422).json({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields } });
    return;
  }
  const now = Date.now();
  // better-sqlite3 is synchronous: run() returns once the transaction is committed (fsynced).
  const { lastInsertRowid } = insert.run(
    body.name, body.email, body.subject, body.message, 'contact', now,
    (req.get('user-agent') ?? '').slice(0, 512) || null,
  );
  res.status(201).json({ id: Number(lastInsertRowid), createdAt: new Date(now).toISOString() });
});
app.use(express.static(dist, { index: 'index.html' }));

const server = app.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => { db.close(); process.exit(0); }));
