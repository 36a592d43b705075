import type { SignInMethods } from '../api/session';

/** What the login page shows, in one place; named transitions change it (`loginReducer`). */
export interface LoginState {
  /** What the server offers besides the password, once it has said. */
  methods: SignInMethods | null;
  /** The second step of a password sign-in: the page asks for a code. */
  askCode: boolean;
  /** A step of signing in (or asking for a reset link) is on its way. */
  pending: boolean;
  /** What went wrong (`null` also when the owner cancelled a passkey prompt: nothing to say). */
  error: string | null;
  notice: string | null;
  showPassword: boolean;
  showReset: boolean;
  /** Bumped to offer the passkeys' autofill again once a passkey attempt is over. */
  autofillRound: number;
}

/*
 * The named transitions: each a change to the state (what it sets, or a function of the state).
 * Plain exports rather than the keys of one object, so the minifier shortens their names: the
 * login page's JavaScript has a budget.
 */
type Change = Partial<LoginState> | ((state: LoginState) => Partial<LoginState>);

/** A step begins: the page is busy, and the last step's message goes. */
export const stepStarted: Change = { pending: true, error: null, notice: null };
export const stepEnded: Change = { pending: false };
/** The password was right and the second factor is on. */
export const codeAsked: Change = { askCode: true };
/** Back to the password, by the owner or because the pending sign-in is over. */
export const startedOver: Change = { askCode: false };
export const autofillOffered: Change = (state) => ({ autofillRound: state.autofillRound + 1 });
export const passwordToggled: Change = (state) => ({ showPassword: !state.showPassword });
export const resetToggled: Change = (state) => ({ showReset: !state.showReset });

/**
 * A named transition, or what was learnt, by the field it sets: the server's sign-in methods, a
 * step's error, a notice.
 */
export type LoginEvent = Change;

export const initialLogin: LoginState = {
  methods: null,
  askCode: false,
  pending: false,
  error: null,
  notice: null,
  showPassword: false,
  showReset: false,
  autofillRound: 0,
};

export function loginReducer(state: LoginState, event: LoginEvent): LoginState {
  return { ...state, ...(typeof event === 'function' ? event(state) : event) };
}
