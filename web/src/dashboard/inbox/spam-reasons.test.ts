import { describe, expect, it } from 'vitest';
import { spamReasonText } from './spam-reasons';

describe('spamReasonText', () => {
  it('puts every code the server stores into plain words', () => {
    const codes = [
      'honeypot',
      'token-missing',
      'token-forged',
      'token-expired',
      'token-replayed',
      'too-fast',
      'challenge-missing',
      'challenge-failed',
      'challenge-replayed',
      'content',
      'ceiling',
    ];
    const texts = codes.map(spamReasonText);
    texts.forEach((text, i) => {
      expect(text).not.toBe(codes[i]);
      expect(text).toMatch(/^[A-Z].*\.$/);
    });
    expect(new Set(texts).size).toBe(codes.length);
  });

  it('shows an unknown code as it is', () => {
    expect(spamReasonText('something-new')).toBe('something-new');
  });
});
