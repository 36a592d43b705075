import { describe, expect, test } from 'vitest';
import { caseStudiesRead, replyHref, shortDate } from './format';

describe('replyHref', () => {
  test('addresses the sender with Re: and the subject, encoded', () => {
    expect(replyHref('ada@example.org', 'Work & play?')).toBe(
      'mailto:ada@example.org?subject=Re%3A%20Work%20%26%20play%3F',
    );
  });

  test('does not stack Re: on a reply', () => {
    expect(replyHref('ada@example.org', 'Re: Hello')).toBe('mailto:ada@example.org?subject=Re%3A%20Hello');
  });

  test('cannot smuggle extra headers through the address', () => {
    expect(replyHref('a@b.c?bcc=x@y.z', 'Hi')).toContain('a@b.c%3Fbcc%3Dx@y.z');
  });
});

describe('shortDate', () => {
  test("shows today's messages by their time and older ones by their date", () => {
    const now = new Date(2026, 10, 21, 15, 0).getTime();
    expect(shortDate(new Date(2026, 10, 21, 9, 30).getTime(), now)).toMatch(/9|09/);
    expect(shortDate(new Date(2026, 2, 3).getTime(), now)).toMatch(/3/);
    expect(shortDate(new Date(2024, 2, 3).getTime(), now)).toMatch(/2024/);
  });
});

describe('caseStudiesRead', () => {
  test("names the case studies a link's readers opened by their projects' titles", () => {
    expect(caseStudiesRead([{ project: 'payments', title: 'Payments' }])).toBe('Read the case study of Payments.');
    expect(
      caseStudiesRead([
        { project: 'payments', title: 'Payments' },
        { project: 'shop', title: 'Shop' },
        { project: 'gone', title: null },
      ]),
    ).toBe('Read the case studies of Payments, Shop, and gone (no longer on the page).');
  });
});
