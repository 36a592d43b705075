import { describe, expect, it } from 'vitest';
import {
  autofillOffered,
  codeAsked,
  initialLogin,
  loginReducer,
  passwordToggled,
  resetToggled,
  startedOver,
  stepEnded,
  stepStarted,
  type LoginEvent,
  type LoginState,
} from './login-state';

function after(...events: LoginEvent[]): LoginState {
  return events.reduce(loginReducer, initialLogin);
}

describe('the login page state', () => {
  it('starts on the password, idle, with nothing to say and the methods not yet known', () => {
    expect(initialLogin).toEqual({
      methods: null,
      askCode: false,
      pending: false,
      error: null,
      notice: null,
      showPassword: false,
      showReset: false,
      autofillRound: 0,
    });
  });

  it('keeps the sign-in methods the server names', () => {
    expect(after({ methods: { passkeys: true, emailReset: false } }).methods).toEqual({ passkeys: true, emailReset: false });
  });

  it('is busy during a step, which clears the last error and notice, and idle after it', () => {
    const failed = after(stepStarted, { error: 'The email or password is incorrect.' }, stepEnded);
    expect(failed).toMatchObject({ pending: false, error: 'The email or password is incorrect.' });
    const told = after({ notice: 'A reset link is on its way.' });
    const again = loginReducer({ ...told, error: 'Too many attempts.' }, stepStarted);
    expect(again).toMatchObject({ pending: true, error: null, notice: null });
    expect(loginReducer(again, stepEnded)).toMatchObject({ pending: false, error: null, notice: null });
  });

  it('keeps an error of null (a cancelled passkey prompt says nothing)', () => {
    expect(after({ error: 'Refused.' }, { error: null }).error).toBeNull();
  });

  it('asks for the code after the password, and goes back to the password when started over', () => {
    const asked = after(stepStarted, codeAsked, stepEnded);
    expect(asked).toMatchObject({ askCode: true, pending: false });
    expect(loginReducer(asked, startedOver).askCode).toBe(false);
  });

  it('offers the passkeys\' autofill again by a new round', () => {
    expect(after(autofillOffered, autofillOffered).autofillRound).toBe(2);
  });

  it('shows and hides the password and the reset help, each on its own', () => {
    const shown = after(passwordToggled);
    expect(shown).toMatchObject({ showPassword: true, showReset: false });
    expect(loginReducer(shown, resetToggled)).toMatchObject({ showPassword: true, showReset: true });
    expect(after(passwordToggled, passwordToggled).showPassword).toBe(false);
  });

  it('changes nothing else, and leaves the state it was given as it was', () => {
    const before = after({ methods: { passkeys: false, emailReset: true } }, codeAsked);
    const copy = structuredClone(before);
    const next = loginReducer(before, resetToggled);
    expect(before).toEqual(copy);
    expect({ ...next, showReset: before.showReset }).toEqual(before);
  });
});
