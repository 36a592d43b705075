import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { ApiError } from '../../api/client';
import { problemText } from '../../api/problems';
import { finishPasskeyReauth, reauthenticate, startPasskeyReauth } from '../../api/account';
import { getPasskey, passkeyProblem } from '../../auth/passkey';

/** Thrown when the owner closes the prompt instead of proving it is them. */
export class Cancelled extends Error {}

interface Waiting {
  resolve: () => void;
  reject: (cause: unknown) => void;
}

/**
 * The changes that need the password or a passkey proven again (adding or removing a passkey,
 * turning the second factor off, new recovery codes): `guard(action)` runs the action, and when
 * the server answers `reauthentication_required`, asks for the proof in a dialog and runs it once
 * more. Closing the dialog rejects with `Cancelled`.
 */
export function useReauth(offerPasskey: boolean) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const waitingRef = useRef<Waiting | null>(null);

  async function guard<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (cause) {
      if (!(cause instanceof ApiError && cause.code === 'reauthentication_required')) throw cause;
      await new Promise<void>((resolve, reject) => {
        waitingRef.current = { resolve, reject };
        dialogRef.current?.showModal();
      });
      return action();
    }
  }

  return { guard, prompt: <ReauthDialog dialogRef={dialogRef} waitingRef={waitingRef} offerPasskey={offerPasskey} /> };
}

function ReauthDialog({
  dialogRef,
  waitingRef,
  offerPasskey,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  waitingRef: RefObject<Waiting | null>;
  offerPasskey: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function prove(step: () => Promise<void>) {
    setPending(true);
    setError(null);
    try {
      await step();
      const done = waitingRef.current;
      waitingRef.current = null;
      dialogRef.current?.close();
      done?.resolve();
    } catch (cause) {
      setError(cause instanceof ApiError ? problemText(cause) : passkeyProblem(cause));
    } finally {
      setPending(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    void prove(async () => {
      await reauthenticate(String(new FormData(form).get('password') ?? ''));
      form.reset();
    });
  }

  function onClose() {
    setError(null);
    waitingRef.current?.reject(new Cancelled());
    waitingRef.current = null;
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="reauth-title"
      onClose={onClose}
      className="m-auto w-[calc(100%-2.5rem)] max-w-sm rounded-xl border border-gray-700 bg-gray-900 p-6 text-gray-300 shadow-2xl shadow-black/60 backdrop:bg-black/70"
    >
      <h2 id="reauth-title" className="text-lg font-bold text-white">
        Confirm it's you
      </h2>
      <p className="mt-2 text-sm text-gray-400">This change needs your password{offerPasskey ? ' or a passkey' : ''} again.</p>
      <form onSubmit={onSubmit} className="mt-4 space-y-4" aria-busy={pending}>
        <div>
          <label htmlFor="reauth-password" className="field-label">
            Password
          </label>
          <input id="reauth-password" name="password" type="password" required maxLength={512} autoComplete="current-password" className="field-input" />
        </div>
        {error && (
          <p role="alert" className="field-error">
            {error}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn btn-ghost" onClick={() => dialogRef.current?.close()}>
            Cancel
          </button>
          {offerPasskey && (
            <button
              type="button"
              className="btn btn-secondary"
              disabled={pending}
              onClick={() =>
                void prove(async () => {
                  const { challengeId, options } = await startPasskeyReauth();
                  await finishPasskeyReauth(challengeId, await getPasskey(options));
                })
              }
            >
              Use a passkey
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={pending}>
            Confirm
          </button>
        </div>
      </form>
    </dialog>
  );
}
