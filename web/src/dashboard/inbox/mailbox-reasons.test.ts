import { describe, expect, it } from 'vitest';
import { unmatchedReason } from './mailbox-reasons';

describe('unmatchedReason', () => {
  it('puts the server’s reasons into words, an unknown one as it is', () => {
    expect(unmatchedReason('no-reference')).toBe('It answers none of your replies.');
    expect(unmatchedReason('other-sender')).toMatch(/from another address than the conversation’s\.$/);
    expect(unmatchedReason('something-new')).toBe('something-new');
  });
});
