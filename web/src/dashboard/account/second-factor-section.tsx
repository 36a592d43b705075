import { useEffect, useState, type FormEvent } from 'react';
import {
  confirmSecondFactor,
  newRecoveryCodes,
  secondFactorStatus,
  setUpSecondFactor,
  turnOffSecondFactor,
  type SecondFactorSetup,
  type SecondFactorStatus,
} from '../../api/account';
import { SectionAlert, SectionStatus } from './security-parts';
import { useTask } from './task';

/**
 * The second factor: one-time codes from an authenticator app, set up from a QR code our server
 * draws, confirmed with a first code; ten recovery codes shown once. Setting it up, new codes and
 * turning it off each ask for the password or a passkey again (a stolen session must not set up a
 * second factor of its own and lock the owner out).
 */
export function SecondFactorSection({ guard }: { guard: <T>(action: () => Promise<T>) => Promise<T> }) {
  const task = useTask();
  const [state, setState] = useState<SecondFactorStatus | null>(null);
  const [setup, setSetup] = useState<SecondFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  async function refresh() {
    setState(await secondFactorStatus());
  }

  useEffect(() => {
    void task.run(refresh);
    // Loaded once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function act(step: () => Promise<void>) {
    setStatus(null);
    void task.run(step);
  }

  function onConfirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    act(async () => {
      setCodes(await guard(() => confirmSecondFactor(code)));
      setSetup(null);
      await refresh();
      setStatus('Two-step verification is on.');
    });
  }

  function download() {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([`Recovery codes for ${location.host}\n\n${codes?.join('\n')}\n`], { type: 'text/plain' }));
    link.download = `${location.hostname}-recovery-codes.txt`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  return (
    <section aria-labelledby="second-factor-title">
      <h3 id="second-factor-title" className="text-base font-semibold text-white">
        Two-step verification
      </h3>
      {codes ? (
        <div className="mt-2 space-y-3 text-sm">
          <p className="text-gray-200">
            Keep these recovery codes somewhere safe, apart from your phone. Each signs you in once in place of a code. They are shown only now.
          </p>
          <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-lg bg-gray-950 p-3 font-mono text-gray-100">
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ol>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn btn-secondary" onClick={() => void navigator.clipboard.writeText(codes.join('\n')).then(() => setStatus('Copied.'))}>
              Copy
            </button>
            <button type="button" className="btn btn-secondary" onClick={download}>
              Download
            </button>
            <button type="button" className="btn btn-primary" onClick={() => setCodes(null)}>
              I have saved them
            </button>
          </div>
        </div>
      ) : setup ? (
        <form className="mt-2 space-y-3 text-sm" onSubmit={onConfirm}>
          <p className="text-gray-300">Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
          <img src={setup.qrCode} alt="QR code of the key, for an authenticator app" width={176} height={176} className="rounded-lg bg-white p-2" />
          <p className="text-gray-400">
            Cannot scan it? Enter this key:{' '}
            {/* Shown in groups of four, read out letter by letter, copied whole. */}
            <code className="text-gray-100">
              <span aria-hidden="true">{setup.secret.match(/.{1,4}/g)?.join(' ')}</span>
              <span className="sr-only">{setup.secret.split('').join(' ')}</span>
            </code>{' '}
            <button type="button" className="link" onClick={() => void navigator.clipboard.writeText(setup.secret).then(() => setStatus('Key copied.'))}>
              Copy the key
            </button>
          </p>
          <div>
            <label htmlFor="second-factor-code" className="field-label">
              Code from the app
            </label>
            <input
              id="second-factor-code"
              name="code"
              required
              inputMode="numeric"
              pattern="[0-9 ]{6,7}"
              maxLength={7}
              autoComplete="one-time-code"
              className="field-input max-w-40"
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn btn-primary" disabled={task.busy}>
              Turn on
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setSetup(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : state?.enabled ? (
        <div className="mt-2 space-y-3 text-sm">
          <p className="text-gray-300">
            On: a password sign-in also asks for a code from your authenticator app. {state.recoveryCodesLeft} recovery{' '}
            {state.recoveryCodesLeft === 1 ? 'code' : 'codes'} left.
          </p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn btn-secondary" disabled={task.busy} onClick={() =>
                act(async () => {
                  setCodes(await guard(newRecoveryCodes));
                  await refresh();
                })
              }>
              New recovery codes
            </button>
            <button
              type="button"
              className="btn btn-ghost"
              disabled={task.busy}
              onClick={() =>
                act(async () => {
                  await guard(turnOffSecondFactor);
                  await refresh();
                  setStatus('Two-step verification is off.');
                })
              }
            >
              Turn off
            </button>
          </div>
        </div>
      ) : (
        state && (
          <div className="mt-2 space-y-3 text-sm">
            <p className="text-gray-300">Off. Ask for a code from an authenticator app after the password.</p>
            <button type="button" className="btn btn-secondary" disabled={task.busy} onClick={() => act(async () => setSetup(await guard(setUpSecondFactor)))}>
              Set up
            </button>
          </div>
        )
      )}
      <SectionAlert error={task.error} />
      <SectionStatus text={status} />
    </section>
  );
}
