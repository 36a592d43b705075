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

const transitions = {
  /** A step begins: the page is busy, and the last step's message goes. */
  stepStarted: (state: LoginState): LoginState => ({ ...state, pending: true, error: null, notice: null }),
  stepEnded: (state: LoginState): LoginState => ({ ...state, pending: false }),
  /** The password was right and the second factor is on. */
  codeAsked: (state: LoginState): LoginState => ({ ...state, askCode: true }),
  /** Back to the password, by the owner or because the pending sign-in is over. */
  startedOver: (state: LoginState): LoginState => ({ ...state, askCode: false }),
  autofillOffered: (state: LoginState): LoginState => ({ ...state, autofillRound: state.autofillRound + 1 }),
  passwordToggled: (state: LoginState): LoginState => ({ ...state, showPassword: !state.showPassword }),
  resetToggled: (state: LoginState): LoginState => ({ ...state, showReset: !state.showReset }),
};

/**
 * A transition by its name, or what was learnt, by the field it sets: the server's sign-in
 * methods, a step's error, a notice.
 */
export type LoginEvent =
  | keyof typeof transitions
  | { methods: SignInMethods }
  | { error: string | null }
  | { notice: string };

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
  return typeof event === 'string' ? transitions[event](state) : { ...state, ...event };
}
