import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, ConversationItem } from '../../api/conversation';
import type { Delivery } from '../../api/notifications';
import { ConversationItems, ReplySection } from './conversation';

afterEach(cleanup);

const message = {
  id: 7,
  name: 'Wile E. Coyote',
  email: 'wile@acme.example',
  subject: 'Your application',
  message: 'We liked your projects.',
  createdAt: Date.UTC(2026, 11, 1, 9),
} as Conversation['message'];

function item(change: Partial<ConversationItem>): ConversationItem {
  return {
    id: 1,
    kind: 'reply',
    createdAt: Date.UTC(2026, 11, 1, 10),
    text: 'Thank you.',
    parts: [{ kind: 'text', text: 'Thank you.' }],
    from: null,
    subject: null,
    fromHtml: false,
    cut: false,
    attachments: [],
    delivery: null,
    ...change,
  };
}

function conversation(items: ConversationItem[], change: Partial<Conversation> = {}): Conversation {
  return { message, items, canReply: true, replyBlocked: null, replyAddress: 'answers@example.com', readsAnswers: true, ...change };
}

const retrying = {
  id: 31,
  status: 'retrying',
  channel: 'email',
  attempts: 2,
  lastError: 'the mail server could not be reached: refused',
  nextAttemptAt: Date.UTC(2026, 11, 1, 10, 5),
  sentAt: null,
} as Delivery;

describe('the conversation', () => {
  it('shows nothing while there are neither replies nor answers', () => {
    const { container } = render(<ConversationItems conversation={conversation([])} onRetry={vi.fn()} />);
    expect(container.innerHTML).toBe('');
  });

  it('lists replies with their delivery and answers with their folded parts, notes and attachments, in order', async () => {
    const onRetry = vi.fn(() => Promise.resolve(null));
    const answer = item({
      id: 2,
      kind: 'answer',
      text: 'Monday works.\n\n> Thank you.\n-- \nWile',
      parts: [
        { kind: 'text', text: 'Monday works.' },
        { kind: 'quote', text: '> Thank you.' },
        { kind: 'signature', text: '-- \nWile' },
      ],
      from: 'wile@acme.example',
      fromHtml: true,
      cut: true,
      attachments: [
        { id: 5, name: 'plan.pdf', contentType: 'application/pdf', size: 1536, stored: true },
        { id: 6, name: 'video.mp4', contentType: 'video/mp4', size: 30 * 1024 * 1024, stored: false },
      ],
    });
    render(<ConversationItems conversation={conversation([item({ delivery: retrying }), answer])} onRetry={onRetry} />);

    const region = screen.getByRole('region', { name: 'Conversation' });
    const [first, second] = within(region).getAllByRole('article');
    expect(first!.getAttribute('aria-labelledby')).toBeTruthy();
    expect(within(first!).getByRole('heading', { name: 'You replied' })).toBeTruthy();
    expect(within(first!).getByText('Thank you.')).toBeTruthy();
    expect(within(first!).getByText(/Retrying after 2 failed attempts/)).toBeTruthy();
    expect(within(first!).getByText('The mail server could not be reached: refused')).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(first!).getByRole('button', { name: 'Retry now' }));
    });
    expect(onRetry).toHaveBeenCalledWith(31);

    expect(within(second!).getByRole('heading', { name: 'Wile E. Coyote answered' })).toBeTruthy();
    expect(within(second!).getByText('Monday works.')).toBeTruthy();
    const quote = within(second!).getByText('Show quoted text').closest('details')!;
    expect(quote.open).toBe(false);
    expect(quote.textContent).toContain('> Thank you.');
    expect(within(second!).getByText('Show signature').closest('details')!.textContent).toContain('Wile');
    expect(within(second!).getByText('Sent as HTML, shown as text.')).toBeTruthy();
    expect(within(second!).getByText(/this answer was cut/)).toBeTruthy();

    const files = within(second!).getByRole('list', { name: 'Attachments' });
    const [kept, dropped] = within(files).getAllByRole('listitem');
    expect(kept!.textContent).toContain('1.5 KB, application/pdf');
    const link = within(kept!).getByRole('link', { name: 'Download plan.pdf' });
    expect(link.getAttribute('href')).toBe('/api/messages/7/attachments/5');
    expect(link.getAttribute('download')).toBe('plan.pdf');
    expect(dropped!.textContent).toContain('30 MB, video/mp4');
    expect(within(dropped!).queryByRole('link')).toBeNull();
    expect(within(dropped!).getByText('Too large to keep')).toBeTruthy();
  });
});

describe('the reply form', () => {
  it('says why there is none when replying is blocked', () => {
    render(<ReplySection conversation={conversation([], { canReply: false, replyBlocked: 'spam' })} send={vi.fn()} field={createRef()} />);
    expect(screen.getByText('Move this message out of Spam to reply.')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows the field’s problem beside it, then empties and announces once the reply is queued', async () => {
    const send = vi
      .fn()
      .mockResolvedValueOnce({ ok: false, field: 'Enter your reply.', error: null })
      .mockResolvedValueOnce({ ok: false, field: null, error: 'This message is in Spam: move it to the inbox before replying.' })
      .mockResolvedValueOnce({ ok: true });
    const field = createRef<HTMLTextAreaElement>();
    render(<ReplySection conversation={conversation([])} send={send} field={field} />);
    const box = screen.getByRole('textbox', { name: 'Your reply' });
    expect(box).toBe(field.current);
    expect(screen.getByText(/Their answers go to answers@example\.com and come back into this conversation\./)).toBeTruthy();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    });
    expect(send).toHaveBeenLastCalledWith('');
    const problem = screen.getByText('Enter your reply.');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')!.split(' ')).toContain(problem.id);
    expect(document.activeElement).toBe(box);

    fireEvent.change(box, { target: { value: 'Gladly.' } });
    expect(box.getAttribute('aria-invalid')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('This message is in Spam: move it to the inbox before replying.');
    expect((box as HTMLTextAreaElement).value).toBe('Gladly.');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    });
    expect(send).toHaveBeenLastCalledWith('Gladly.');
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByRole('status').textContent).toMatch(/^Reply queued in the outbox/);
    expect(screen.getByRole('alert').textContent).toBe('');
  });
});
