import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactForm } from './contact-form';
import { sendContactMessage } from '../api/contact';

// The spam proofs (a worker and the server's challenge) are replaced here; the browser tests run
// the real ones. `send` keeps its contract: progress while waiting, then null, then the POST.
const proofs = vi.hoisted(() =>
  vi.fn(async (onProgress: (fraction: number | null) => void) => {
    void onProgress;
    return { token: 'signed-token', altcha: 'solved' };
  }),
);
vi.mock('../contact/guard', () => ({
  send: async (
    message: Parameters<typeof sendContactMessage>[0],
    website: string,
    onProgress: (fraction: number | null) => void,
  ) => {
    const signals = await proofs(onProgress);
    onProgress(null);
    return sendContactMessage(message, { website, ...signals });
  },
}));

const RESPONSE_TIME = 'I usually reply within a week.';

function renderForm() {
  render(<ContactForm responseTime={RESPONSE_TIME} />);
}

function fill() {
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Hi' } });
  fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello there' } });
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status, headers }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

async function submit() {
  await act(async () => {
    fireEvent.submit(screen.getByRole('form', { name: 'Contact form' }));
  });
}

describe('ContactForm', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends the fields with the spam signals and clears the form on success', async () => {
    const fetch = answer(201, { id: 1, createdAt: '2026-01-01T00:00:00Z' });
    renderForm();
    fill();
    await submit();
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/contact');
    const sent = JSON.parse(init.body as string);
    expect(sent).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      'form-name': 'contact',
      website: '',
      token: 'signed-token',
      altcha: 'solved',
    });
    const panel = screen.getByRole('status');
    expect(panel.querySelector('p')?.textContent).toBe('Your response has securely sent!');
    expect(panel.textContent).toContain(`Thank you, Ada. ${RESPONSE_TIME}`);
    expect(document.activeElement).toBe(panel);
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('checks the fields itself, in the page\'s language, with no browser bubble, and sends nothing', async () => {
    const fetch = answer(201, { id: 1, createdAt: '2026-01-01T00:00:00Z' });
    renderForm();
    const form = screen.getByRole('form', { name: 'Contact form' }) as HTMLFormElement;
    expect(form.noValidate).toBe(true);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not an address' } });
    await submit();
    expect(fetch).not.toHaveBeenCalled();
    const summary = screen.getByRole('alert');
    expect(document.activeElement).toBe(summary);
    expect(summary.querySelector('p')?.textContent).toBe('Please correct the following:');
    const links = [...summary.querySelectorAll('a')].map((a) => a.textContent);
    expect(links).toEqual([
      'Name is required.',
      'Email must be a valid e-mail address.',
      'Subject is required.',
      'Message is required.',
    ]);
    // Each beside its field too.
    const name = screen.getByLabelText('Name');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe('Name is required.');
    // A link in the summary takes the visitor to its field.
    fireEvent.click(screen.getByRole('link', { name: 'Subject is required.' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Subject'));
    // Fixing a field takes its line out of the summary; the others stay.
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    expect(screen.queryByRole('link', { name: 'Name is required.' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Message is required.' })).toBeTruthy();
  });

  it('names the sender in their own direction, and a later failure or new typing clears the success', async () => {
    answer(201, { id: 1, createdAt: '2026-01-01T00:00:00Z' });
    renderForm();
    fill();
    await submit();
    expect(screen.getByRole('status').querySelector('bdi')?.textContent).toBe('Ada');
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    expect(screen.queryByRole('status')).toBeNull();
    fill();
    await submit();
    expect(screen.getByRole('status')).toBeTruthy();
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    fill();
    await submit();
    expect(screen.queryByRole('status')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('alert'));
  });

  it('shows each field the server rejects next to it and keeps the text', async () => {
    answer(422, { error: { code: 'validation_failed', message: 'x', fields: { email: 'must be a valid e-mail address' } } });
    renderForm();
    fill();
    await submit();
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = email.getAttribute('aria-describedby');
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe('Email must be a valid e-mail address.');
    const summary = screen.getByRole('alert');
    expect(summary.textContent).toBe('Please correct the following:Email must be a valid e-mail address.');
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Hello there');
    expect(document.activeElement).toBe(summary);
  });

  it('says how long to wait after a 429', async () => {
    answer(429, { error: { code: 'too_many_requests', message: 'slow' } }, { 'Retry-After': '42' });
    renderForm();
    fill();
    await submit();
    expect(screen.getByRole('alert').textContent).toMatch(/wait 42 seconds/);
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('Hi');
  });

  it('tells an offline visitor the message was not sent and keeps the text', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    renderForm();
    fill();
    await submit();
    expect(screen.getByRole('alert').textContent).toMatch(/could not reach the server.*not sent/);
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Ada');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('cannot be sent twice while sending', async () => {
    let release: (r: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((r) => (release = r)));
    vi.stubGlobal('fetch', fetch);
    renderForm();
    fill();
    await submit();
    await submit();
    expect(fetch).toHaveBeenCalledTimes(1);
    const button = screen.getByRole('button', { name: 'Sending…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await act(async () => release(new Response(JSON.stringify({ id: 1, createdAt: 'x' }), { status: 201 })));
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeTruthy();
  });

  it('shows the progress while Send waits for the challenge, then sends', async () => {
    let solved: (signals: { token: string; altcha: string }) => void = () => {};
    proofs.mockImplementationOnce(
      (onProgress) =>
        new Promise((resolve) => {
          onProgress(0.42);
          solved = resolve;
        }),
    );
    const fetch = answer(201, { id: 1, createdAt: '2026-01-01T00:00:00Z' });
    renderForm();
    fill();
    await submit();
    const button = screen.getByRole('button', { name: 'Preparing… 42%' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => solved({ token: 't', altcha: 'a' }));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toContain('Your response has securely sent!');
  });

  it('hides the honeypot from assistive technology and the keyboard', () => {
    renderForm();
    const honeypot = document.querySelector('input[name="website"]') as HTMLInputElement;
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.autocomplete).toBe('off');
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
  });
});
