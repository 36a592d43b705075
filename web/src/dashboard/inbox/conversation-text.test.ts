import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../api/conversation';
import type { Delivery } from '../../api/notifications';
import { answersText, awaitsDelivery, blockedText, formatSize } from './conversation-text';

describe('formatSize', () => {
  it('says small files in bytes', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(1)).toBe('1 byte');
    expect(formatSize(1023)).toBe('1023 bytes');
  });

  it('says larger ones in KB, MB and GB, with one decimal under ten', () => {
    expect(formatSize(1024)).toBe('1 KB');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(12 * 1024 + 300)).toBe('12 KB');
    expect(formatSize(3.2 * 1024 * 1024)).toBe('3.2 MB');
    expect(formatSize(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatSize(5 * 1024 ** 3)).toBe('5 GB');
  });

  it('never says 1024 of a unit, nor 10.0', () => {
    expect(formatSize(1024 * 1024 - 10)).toBe('1 MB');
    expect(formatSize(Math.round(9.97 * 1024))).toBe('10 KB');
  });
});

describe('blockedText', () => {
  it('says how to make replying possible', () => {
    expect(blockedText('mail_off')).toBe('Replies are sent by e-mail: start the server with --smtp-url and --notify-email.');
    expect(blockedText('spam')).toBe('Move this message out of Spam to reply.');
    expect(blockedText(null)).toMatch(/cannot be sent/);
  });
});

describe('answersText', () => {
  it('says where answers go, and whether they come back here', () => {
    expect(answersText('replies@example.com', true)).toBe('Their answers go to replies@example.com and come back into this conversation.');
    expect(answersText('owner@example.com', false)).toMatch(/^Their answers go to owner@example\.com, not back here/);
    expect(answersText(null, false)).toBe('');
  });
});

describe('awaitsDelivery', () => {
  const item = (status: string | null): ConversationItem => ({
    id: 1,
    kind: status === null ? 'answer' : 'reply',
    createdAt: 0,
    text: 'Hi',
    parts: [{ kind: 'text', text: 'Hi' }],
    from: null,
    subject: null,
    fromHtml: false,
    cut: false,
    attachments: [],
    delivery: status === null ? null : ({ id: 1, status } as Delivery),
  });

  it('is true while a reply is pending, sending or retrying', () => {
    expect(awaitsDelivery([item('sent'), item('pending')])).toBe(true);
    expect(awaitsDelivery([item('sending')])).toBe(true);
    expect(awaitsDelivery([item('retrying')])).toBe(true);
  });

  it('is false once every reply is sent or has failed for good, and for answers', () => {
    expect(awaitsDelivery([])).toBe(false);
    expect(awaitsDelivery([item('sent'), item('failed'), item(null)])).toBe(false);
  });
});
