import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Eye, EyeOff, LoaderCircle } from 'lucide-react';
import { ApiError } from '../api/client';
import { signIn } from '../api/session';
import { announce } from '../auth/auth-channel';
import { useAuthSync } from '../auth/use-auth-sync';

/** The owner's sign-in page. */
export function LoginPage() {
  const navigate = useNavigate();
  const [showPassword, setShowPassword] = useState(false);
  const [showReset, setShowReset] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A ref, not state, so a second click in the same frame cannot start a second sign-in.
  const submitting = useRef(false);
  const resetId = useId();
  useAuthSync(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting.current) return;
    const form = new FormData(event.currentTarget);
    submitting.current = true;
    setPending(true);
    setError(null);
    try {
      await signIn(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
      announce('signed-in');
      await navigate('/dashboard', { replace: true });
    } catch (cause) {
      setError(messageFor(cause));
    } finally {
      submitting.current = false;
      setPending(false);
    }
  }

  return (
    <div className="flex min-h-dvh flex-col bg-gray-950">
      <header className="container-page flex h-16 items-center">
        <Link to="/" className="rounded-md text-lg font-bold tracking-[0.2em] text-white hover:text-blue-300">
          PORTFOLIO
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-5 pt-8 pb-16 sm:items-center sm:pt-0">
        <div className="w-full max-w-md rounded-xl border border-gray-800 bg-gray-900/60 p-6 shadow-xl shadow-black/30 sm:p-8">
          <img src="/favicon.svg" alt="Portfolio logo" width={48} height={48} className="mx-auto size-12" />
          <h1 className="mt-5 text-center text-2xl font-bold text-white">Login to your account</h1>
          <p className="mt-2 text-center text-sm text-gray-400">The inbox of your contact messages.</p>

          <form className="mt-8 space-y-5" onSubmit={onSubmit} aria-busy={pending}>
            <div>
              <label htmlFor="login-email" className="field-label">
                Email address
              </label>
              <input
                id="login-email"
                name="email"
                type="email"
                required
                maxLength={254}
                autoComplete="username"
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
                  onClick={() => setShowPassword((shown) => !shown)}
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
                onClick={() => setShowReset((shown) => !shown)}
              >
                Forgot password?
              </button>
              <div id={resetId} hidden={!showReset} className="mt-3 rounded-lg border border-gray-800 bg-gray-950 p-4 text-sm text-gray-300">
                <p>Reset it on the server that runs this site, with:</p>
                <pre className="mt-2 overflow-x-auto rounded-md bg-gray-900 p-3 text-[0.8125rem] text-gray-100">
                  <code>portfolio owner set --email you@example.com</code>
                </pre>
                <p className="mt-2 text-gray-400">
                  It asks for a new password, signs out every session and lifts any sign-in lock.
                </p>
              </div>
            </div>

            {error && (
              <p role="alert" className="rounded-lg border border-red-400/40 bg-red-950/40 px-4 py-3 text-sm text-red-200">
                {error}
              </p>
            )}

            <button type="submit" className="btn btn-primary w-full" disabled={pending}>
              {pending && <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />}
              {pending ? 'Logging in…' : 'Login'}
            </button>
          </form>
        </div>
      </main>
    </div>
  );
}

function messageFor(cause: unknown): string {
  if (cause instanceof ApiError) {
    if (cause.status === 429 && cause.retryAfter !== null && !/\d/.test(cause.message)) {
      return `${cause.message} Try again in ${cause.retryAfter} seconds.`;
    }
    return cause.message;
  }
  return 'Something went wrong. Please try again.';
}
