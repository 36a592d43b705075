import { useEffect, useId, useReducer, useRef, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Eye, EyeOff, KeyRound, LoaderCircle } from 'lucide-react';
import { ApiError } from '../api/client';
import {
  finishPasskeySignIn,
  forgotPassword,
  signIn,
  signInMethods,
  startPasskeySignIn,
  submitCode,
} from '../api/session';
import { announce } from '../auth/auth-channel';
import { getPasskey, passkeyProblem, passkeysSupported } from '../auth/passkey';
import { useAuthSync } from '../auth/use-auth-sync';
import { AuthCard, FormAlert } from './auth-card';
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
} from './login-state';

/**
 * The owner's sign-in page: the e-mail and password (then a code, when the second factor is on),
 * or a passkey, from its button or from the e-mail field's autofill.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(loginReducer, initialLogin);
  const { methods, askCode, pending, error, notice, showPassword, showReset, autofillRound } = state;
  const autofill = useRef<AbortController | null>(null);
  // A ref, not state, so a second click in the same frame cannot start a second sign-in.
  const submitting = useRef(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const resetId = useId();
  useAuthSync(false);

  useEffect(() => {
    signInMethods().then(
      (methods) => dispatch({ methods }),
      () => dispatch({ methods: { passkeys: false, emailReset: false } }),
    );
  }, []);

  const passkeys = methods?.passkeys === true && passkeysSupported();

  async function signedIn() {
    announce('signed-in');
    await navigate('/dashboard', { replace: true });
  }

  /** Runs one step of signing in, with the page's busy state and its error. */
  async function attempt(step: () => Promise<void>) {
    if (submitting.current) return;
    submitting.current = true;
    dispatch(stepStarted);
    try {
      await step();
    } catch (cause) {
      dispatch({ error: messageFor(cause) });
    } finally {
      submitting.current = false;
      dispatch(stepEnded);
    }
  }

  async function withPasskey(mediation?: CredentialMediationRequirement, signal?: AbortSignal) {
    const { challengeId, options } = await startPasskeySignIn();
    const credential = await getPasskey(options, mediation, signal);
    await finishPasskeySignIn(challengeId, credential);
    await signedIn();
  }

  // The e-mail field offers the passkeys in its autofill while the page is open.
  useEffect(() => {
    if (!passkeys || askCode) return;
    const controller = new AbortController();
    autofill.current = controller;
    void (async () => {
      if (!(await PublicKeyCredential.isConditionalMediationAvailable?.())) return;
      try {
        await withPasskey('conditional', controller.signal);
      } catch (cause) {
        // An expired ceremony is offered again, silently; a refused passkey is named. A cancelled
        // prompt or a refusal ends the offer: the button stays.
        if (controller.signal.aborted || !(cause instanceof ApiError)) return;
        dispatch(cause.status === 422 ? autofillOffered : { error: cause.message });
      }
    })();
    return () => controller.abort();
    // withPasskey is remade at each render; the round restarts it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [passkeys, askCode, autofillRound]);

  function onPasskeyButton() {
    autofill.current?.abort();
    void attempt(() => withPasskey().finally(() => dispatch(autofillOffered)));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '');
    void attempt(async () => {
      if (askCode) {
        try {
          await submitCode(field('code').trim());
        } catch (cause) {
          // The pending sign-in is over (five minutes, or used): start again with the password. A
          // wrong code's message is the server's sentence ("That code didn't match. …").
          if (cause instanceof ApiError && cause.code === 'sign_in_expired') dispatch(startedOver);
          throw cause;
        }
      } else if ('secondFactorRequired' in (await signIn(field('email'), field('password')))) {
        autofill.current?.abort();
        dispatch(codeAsked);
        return;
      }
      await signedIn();
    });
  }

  function onForgot() {
    const email = emailRef.current;
    // The link goes to the owner's inbox only when the address typed above is the owner's.
    if (!email?.reportValidity()) return;
    void attempt(async () => {
      await forgotPassword(email.value);
      dispatch({ notice: "If that is the owner's address, a reset link is on its way. It works for 30 minutes." });
    });
  }

  return (
    <AuthCard
      title="Login to your account"
      lead={
        askCode
          ? 'Enter the code from your authenticator app, or a recovery code.'
          : 'The inbox of your contact messages.'
      }
    >
      <form className="mt-8 space-y-5" onSubmit={onSubmit} aria-busy={pending}>
        {askCode ? (
          <div>
            <label htmlFor="login-code" className="field-label">
              Authentication code
            </label>
            <input
              id="login-code"
              name="code"
              required
              maxLength={64}
              autoComplete="one-time-code"
              spellCheck={false}
              autoFocus
              className="field-input"
            />
          </div>
        ) : (
          <>
            <div>
              <label htmlFor="login-email" className="field-label">
                Email address
              </label>
              <input
                ref={emailRef}
                id="login-email"
                name="email"
                type="email"
                required
                maxLength={254}
                autoComplete={passkeys ? 'username webauthn' : 'username'}
                spellCheck={false}
                className="field-input"
              />
            </div>
            <div>
              <label htmlFor="login-password" className="field-label">
                Password
              </label>
              <div className="relative">
                <input
                  id="login-password"
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  required
                  maxLength={512}
                  autoComplete="current-password"
                  className="field-input pr-14"
                />
                <button
                  type="button"
                  onClick={() => dispatch(passwordToggled)}
                  aria-label={showPassword ? 'Hide password' : 'Show password'}
                  aria-pressed={showPassword}
                  className="absolute inset-y-0 right-0 flex w-12 items-center justify-center rounded-r-lg text-gray-400 hover:text-white"
                >
                  {showPassword ? <EyeOff aria-hidden="true" className="size-5" /> : <Eye aria-hidden="true" className="size-5" />}
                </button>
              </div>
            </div>

            <div>
              <button
                type="button"
                className="link text-sm"
                aria-expanded={showReset}
                aria-controls={resetId}
                onClick={() => dispatch(resetToggled)}
              >
                Forgot password?
              </button>
              <div id={resetId} hidden={!showReset} className="mt-3 rounded-lg border border-gray-800 bg-gray-950 p-4 text-sm text-gray-300">
                {methods?.emailReset ? (
                  <>
                    <p>A link to set a new password goes to the owner's inbox.</p>
                    <button type="button" className="btn btn-secondary mt-3" disabled={pending} onClick={onForgot}>
                      E-mail me a reset link
                    </button>
                  </>
                ) : (
                  <>
                    <p>Reset it on the server that runs this site, with:</p>
                    <pre className="mt-2 overflow-x-auto rounded-md bg-gray-900 p-3 text-[0.8125rem] text-gray-100">
                      <code>portfolio owner set --email you@example.com</code>
                    </pre>
                    <p className="mt-2 text-gray-400">
                      It asks for a new password, signs out every session and lifts any sign-in lock.
                    </p>
                  </>
                )}
              </div>
            </div>
          </>
        )}

        {error && <FormAlert>{error}</FormAlert>}
        {notice && (
          <p role="status" className="text-sm text-gray-200">
            {notice}
          </p>
        )}

        <button type="submit" className="btn btn-primary w-full" disabled={pending}>
          {pending && <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />}
          {askCode ? 'Verify' : pending ? 'Logging in…' : 'Login'}
        </button>
        {askCode ? (
          <button type="button" className="btn btn-ghost w-full" onClick={() => dispatch(startedOver)}>
            Start over
          </button>
        ) : (
          passkeys && (
            <button type="button" className="btn btn-secondary w-full" disabled={pending} onClick={onPasskeyButton}>
              <KeyRound aria-hidden="true" className="size-5" />
              Sign in with a passkey
            </button>
          )
        )}
      </form>
    </AuthCard>
  );
}

/**
 * What to tell the owner of a failed step: the server's words, with the wait when they name none;
 * nothing when the owner cancelled the browser's passkey prompt.
 */
export function messageFor(cause: unknown): string | null {
  if (cause instanceof ApiError && cause.status === 429 && cause.retryAfter !== null && !/\d/.test(cause.message)) {
    return `${cause.message} Try again in ${cause.retryAfter} seconds.`;
  }
  return passkeyProblem(cause);
}
