import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { problemText, sentence } from './problems';

describe('problems worded as sentences', () => {
  it('says what to do, by field', () => {
    // A sentence already (the server's, for a wrong code) stays as it is.
    expect(sentence('code', "That code didn't match. Codes change every 30 seconds.")).toBe("That code didn't match. Codes change every 30 seconds.");
    expect(sentence('company', 'is required')).toBe('Enter the company.');
    expect(sentence('role', 'must be at most 100 characters')).toBe('The role must be at most 100 characters.');
    expect(sentence('currentPassword', 'is not correct')).toBe('Your current password is not correct. Check it and try again.');
    expect(sentence('newPassword', 'repeats the same few characters; choose one that is harder to guess')).toBe(
      'The new password repeats the same few characters. Choose one that is harder to guess.',
    );
    expect(sentence('token', 'has expired or was used; ask for a new link')).toBe('This link has expired or was used. Ask for a new link.');
  });

  it("names a field by its label when the API's name is not known", () => {
    expect(sentence('profile.name', 'must not be empty', 'Name')).toBe('Name must not be empty.');
    expect(sentence('slug', 'must match ^[a-z0-9]+(-[a-z0-9]+)*$', 'Address')).toBe(
      'Address takes lower-case letters and digits, with single dashes between words, such as my-first-post.',
    );
    expect(sentence('appearance.accent', 'white text on the accent #ffcc00 has a contrast of 1.5:1; it needs at least 4.5:1', 'Accent colour')).toBe(
      'White text on the accent #ffcc00 has a contrast of 1.5:1. It needs at least 4.5:1.',
    );
  });

  it("words a 422's fields, and keeps any other answer's message", () => {
    expect(problemText(new ApiError(422, 'validation_failed', 'company: is required', { company: 'is required', role: 'is required' }))).toBe(
      'Enter the company. Enter the role.',
    );
    expect(problemText(new ApiError(409, 'conflict', 'No setup awaits a code: begin the setup first.'))).toBe('No setup awaits a code: begin the setup first.');
    expect(problemText('odd')).toBe('Something went wrong. Please try again.');
  });
});
